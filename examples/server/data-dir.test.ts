// The data directory is owned and checked, in real server processes on real directories: a second server on
// the same directory is refused naming the holder; the lock goes with a clean exit, and the lock of a server
// killed with SIGKILL is taken over with a message. Then each kind of damage done to a copy of a real
// directory stops the start with a non-zero exit and a message naming what is damaged: nothing is reset.
import { cpSync, existsSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { LOCK_FILE } from './data-dir-lock.js'
import { serverProcesses, type ServerProcess } from './spawn.js'

const servers = serverProcesses('svc-server-datadir-')
// the copies of a data directory are many files: removing them can take a while on a busy disk
afterAll(() => servers.cleanup(), 120_000)
const PARTNER = 'datadir-partner'
const KEY = 'datadir-key'
const args = (dir: string): string[] => [
  '--port',
  '0',
  '--days',
  '2',
  '--trades-per-day',
  '50',
  '--api-key',
  KEY,
  '--partner-key',
  PARTNER,
  '--data-dir',
  dir,
]
const dir = join(servers.tmp, 'data')
const lock = join(dir, LOCK_FILE)
const exited = (p: ServerProcess): Promise<unknown> =>
  p.child.exitCode !== null || p.child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => p.child.once('exit', resolve))

/** Table name -> its file, relative to the data directory (read from the database itself). */
const files: Record<string, string> = {}

beforeAll(async () => {
  // first start: a new directory is initialised; then state in every table (a charge, a link, a key)
  const p = await servers.start(args(dir), undefined, 150_000)
  await fetch(`${p.url}/api/v1/marketdata/exchanges`, { headers: { 'x-api-key': KEY } })
  const post = (op: string, body: unknown, token?: string) =>
    fetch(`${p.url}/partner/${op}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { accesstoken: token }) },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<any>)
  const token = (await post('svc.partner.external.auth.v1.AuthApi.Login', { api_key: PARTNER })).access_token.token
  for (let i = 0; i < 3; i++)
    await post(
      'svc.partner.external.security.v1.LinkApi.LinkSecurity',
      { security_guid: `guid-${i}`, partner_security_id: `p-${i}` },
      token,
    )
  // 2. a second server on the same directory is refused, naming the holder
  const second = await servers.fail(args(dir))
  expect(second.code).toBe(1)
  expect(second.err).toContain(`data directory ${dir} is in use by pid ${p.child.pid} on `)
  // 3. a clean exit removes the lock
  expect(JSON.parse(readFileSync(lock, 'utf8')).pid).toBe(p.child.pid)
  p.child.kill('SIGTERM')
  await exited(p)
  expect(existsSync(lock)).toBe(false)
  const { PGlite } = await import('@electric-sql/pglite')
  const db = new PGlite(dir)
  for (const t of ['rest_ledgers', 'partner_links', 'signing_keys'])
    files[t] = (await db.query<{ p: string }>(`select pg_relation_filepath('${t}') as p`)).rows[0]!.p
  await db.close()
}, 300_000)

test('the lock of a server killed with SIGKILL is stale: the next start takes it over and says so', async () => {
  const killed = await servers.start(args(dir), undefined, 120_000)
  killed.child.kill('SIGKILL')
  await exited(killed)
  expect(JSON.parse(readFileSync(lock, 'utf8')).pid).toBe(killed.child.pid)
  const next = await servers.start(args(dir), undefined, 120_000)
  // printed before the banner, on the other pipe: it may be read a moment after it
  const note = `data directory ${dir}: took over the stale lock of pid ${killed.child.pid} on `
  for (let i = 0; i < 50 && !next.stderr().includes(note); i++) await new Promise((r) => setTimeout(r, 100))
  expect(next.stderr()).toContain(`data directory ${dir}: took over the stale lock of pid ${killed.child.pid} on `)
  expect(JSON.parse(readFileSync(lock, 'utf8')).pid).toBe(next.child.pid)
  next.child.kill('SIGTERM')
  await exited(next)
  expect(next.child.exitCode).toBe(0)
  expect(existsSync(lock)).toBe(false)
}, 300_000)

/** A copy of the initialised directory, damaged by `damage`, then a start: it must fail with `message`. */
async function startsNot(name: string, damage: (copy: string) => void | Promise<void>, message: string | RegExp) {
  const copy = join(servers.tmp, `damaged-${name}`)
  cpSync(dir, copy, { recursive: true })
  await damage(copy)
  const r = await servers.fail(args(copy))
  expect(r.out).not.toContain('listening on')
  expect(r.code).toBe(1)
  expect(r.err).toMatch(message)
}

async function sql(copy: string, statement: string): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite')
  const db = new PGlite(copy)
  await db.query(statement)
  await db.close()
}

describe('a damaged store stops the start with a message naming what is damaged', () => {
  for (const t of ['rest_ledgers', 'partner_links', 'signing_keys']) {
    test(`truncated ${t} table file`, async () => {
      await startsNot(`truncated-${t}`, (c) => truncateSync(join(c, files[t]!), 0), `table ${t} is damaged`)
    }, 120_000)
  }
  test('a dropped table of an initialised store is not recreated', async () => {
    await startsNot(
      'dropped',
      (c) => sql(c, 'drop table partner_links'),
      /table partner_links is missing from this store \(initialised /,
    )
  }, 120_000)
  test('an empty signing secret', async () => {
    await startsNot(
      'empty-secret',
      (c) => sql(c, `update signing_keys set secret = ''`),
      /table signing_keys: key "[0-9a-f]+" has a secret of 0 bytes, not 32 \(empty\)/,
    )
  }, 120_000)
  test('signing keys gone from an initialised store', async () => {
    await startsNot('no-keys', (c) => sql(c, 'delete from signing_keys'), 'table signing_keys is empty, but this store')
  }, 120_000)
  test('a damaged control file', async () => {
    await startsNot(
      'control',
      (c) => {
        const f = join(c, 'global', 'pg_control')
        const b = readFileSync(f)
        b[40] = b[40]! ^ 0xff
        writeFileSync(f, b)
      },
      'global/pg_control fails its checksum (damaged)',
    )
  }, 120_000)
  test('a truncated control file', async () => {
    await startsNot(
      'control-short',
      (c) => truncateSync(join(c, 'global', 'pg_control'), 100),
      'global/pg_control has 100 bytes, not 8192',
    )
  }, 120_000)
  test('a directory holding other files is not taken for a new one', async () => {
    const other = join(servers.tmp, 'other')
    mkdirSync(other)
    writeFileSync(join(other, 'notes.txt'), 'mine')
    const r = await servers.fail(args(other))
    expect(r.code).toBe(1)
    expect(r.err).toContain(`data directory ${other} is not empty and holds no server state`)
  }, 120_000)
})
