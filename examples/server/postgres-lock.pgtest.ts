// One server per database in the Postgres mode, against a real Postgres server (Debian's postgresql-15, started
// here in a temporary folder on a free port, stopped at the end): the first server's connection holds the
// database's advisory lock, a second server is refused naming the holder, and once the first is stopped
// (or killed: Postgres drops a dead connection's locks) a new one starts. Run: npm run test:server-postgres.
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { serverProcesses } from './spawn.js'

const BIN = '/usr/lib/postgresql/15/bin'
const tmp = mkdtempSync(join(tmpdir(), 'svc-server-pg-'))
const pgData = join(tmp, 'pg')
let port = 0
const asPostgres = (cmd: string, args: string[]): string =>
  process.getuid?.() === 0
    ? execFileSync('runuser', ['-u', 'postgres', '--', join(BIN, cmd), ...args], { encoding: 'utf8' })
    : execFileSync(join(BIN, cmd), args, { encoding: 'utf8' })

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port
      s.close(() => resolve(p))
    })
    s.once('error', reject)
  })

const servers = serverProcesses('svc-server-pglock-')
beforeAll(async () => {
  chmodSync(tmp, 0o777)
  port = await freePort()
  asPostgres('initdb', ['-D', pgData, '-A', 'trust', '-U', 'postgres'])
  // -l: the server's output goes to a file, not to this process's pipe (which would then never close)
  asPostgres('pg_ctl', [
    '-D',
    pgData,
    '-l',
    join(tmp, 'pg.log'),
    '-o',
    `-p ${port} -k ${pgData} -h 127.0.0.1`,
    '-w',
    'start',
  ])
}, 120_000)
afterAll(() => {
  servers.cleanup()
  try {
    asPostgres('pg_ctl', ['-D', pgData, '-m', 'immediate', 'stop'])
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
})

test('a second server on the same database is refused naming the holder; after the first stops, one starts', async () => {
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`
  const args = ['--port', '0', '--days', '2', '--trades-per-day', '50', '--database-url', url]
  const first = await servers.start(args, undefined, 120_000)
  const second = await servers.fail(args)
  expect(second.code).toBe(1)
  expect(second.err).toContain(`database 127.0.0.1:${port} is in use by svc-marketdata server pid ${first.child.pid}`)
  first.child.kill('SIGKILL')
  await new Promise((r) => first.child.once('exit', r))
  // Postgres notices the dead connection and drops its lock
  const third = await servers.start(args, undefined, 120_000)
  expect(third.lines[0]).toMatch(/^listening on /)
  third.child.kill('SIGTERM')
}, 300_000)
