// Both state stores (memory, and SQL on an in-memory PGlite) load exactly what was last written: a model
// check over random sequences of ledger, link and key writes.
import { PGlite } from '@electric-sql/pglite'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import type { LinkedSecurity, RestLedgerState, StreamLedgerState } from '../../src/service/index.js'
import { memoryState, type SigningKey, type StateStore } from './state.js'
import { sqlState, type SqlClient } from './state-sql.js'

let pg: PGlite
beforeAll(async () => {
  pg = new PGlite()
  await pg.waitReady
}, 60_000)
afterAll(async () => {
  await pg.close()
})

type Write =
  | { t: 'rest'; account: string; state: RestLedgerState }
  | { t: 'stream'; account: string; state: StreamLedgerState }
  | { t: 'link'; partner: string; guid: string; link: LinkedSecurity | undefined }
  | { t: 'key'; key: SigningKey }

const account = fc.constantFrom('a', 'b', 'ünï')
const rest = fc.record({
  windowStart: fc.integer({ min: 0, max: 2 ** 35 }).map((n) => n * 60_000),
  used: fc.integer({ min: 0, max: 100_000 }),
  locked: fc.boolean(),
})
const stream: fc.Arbitrary<StreamLedgerState> = fc.record({
  windowStart: fc.integer({ min: 0, max: 2 ** 30 }).map((n) => n * 300_000),
  used: fc.integer({ min: 0, max: 1000 }),
  clock: fc.integer({ min: 0, max: 2 ** 40 }),
  nextId: fc.integer({ min: 1, max: 99 }),
  streams: fc.array(
    fc.record({
      id: fc.string(),
      kind: fc.constantFrom('candles' as const, 'footprint' as const),
      status: fc.constant('pending' as const),
      openedAt: fc.nat(),
    }),
    { maxLength: 3 },
  ),
})
const write: fc.Arbitrary<Write> = fc.oneof(
  fc.record({ t: fc.constant('rest' as const), account, state: rest }),
  fc.record({ t: fc.constant('stream' as const), account, state: stream }),
  fc
    .tuple(fc.constantFrom('p1', 'p2'), fc.constantFrom('g1', 'g2', "g'3"), fc.option(fc.string(), { nil: undefined }))
    .map(([partner, guid, id]) => ({
      t: 'link' as const,
      partner,
      guid,
      link: id === undefined ? undefined : { security_guid: guid, partner_security_id: id },
    })),
)

async function apply(s: StateStore, writes: Write[]): Promise<void> {
  for (const w of writes) {
    if (w.t === 'rest') await s.saveRest(w.account, w.state)
    else if (w.t === 'stream') await s.saveStream(w.account, w.state)
    else if (w.t === 'link') await s.saveLink(w.partner, w.guid, w.link)
    else await s.addKey(w.key)
  }
}

/** The model: the last write of each key wins; links removed by `undefined`; empty partners are not listed. */
function model(writes: Write[]) {
  const rest = new Map<string, RestLedgerState>()
  const stream = new Map<string, StreamLedgerState>()
  const links = new Map<string, Map<string, LinkedSecurity>>()
  for (const w of writes) {
    if (w.t === 'rest') rest.set(w.account, w.state)
    if (w.t === 'stream') stream.set(w.account, w.state)
    if (w.t === 'link') {
      const m = links.get(w.partner) ?? new Map()
      if (w.link === undefined) m.delete(w.guid)
      else m.set(w.guid, w.link)
      links.set(w.partner, m)
    }
  }
  const nonEmpty = new Map([...links].filter(([, m]) => m.size > 0).map(([p, m]) => [p, Object.fromEntries(m)]))
  return { rest: Object.fromEntries(rest), stream: Object.fromEntries(stream), links: Object.fromEntries(nonEmpty) }
}

async function loaded(s: StateStore) {
  const snap = await s.load()
  const links = new Map([...snap.links].filter(([, m]) => m.size > 0).map(([p, m]) => [p, Object.fromEntries(m)]))
  return {
    rest: Object.fromEntries(snap.rest),
    stream: Object.fromEntries(snap.stream),
    links: Object.fromEntries(links),
  }
}

test('memory and SQL states load exactly the last write of every ledger and link', async () => {
  let n = 0
  await fc.assert(
    fc.asyncProperty(fc.array(write, { maxLength: 12 }), async (writes) => {
      // a fresh schema per run: the SQL tables live in their own Postgres schema
      const schema = `run${++n}`
      await pg.exec(`create schema ${schema}; set search_path to ${schema}`)
      const sql = await sqlState({ query: (t, p) => pg.query(t, p), close: async () => {} } as SqlClient, 'test')
      const mem = memoryState()
      await apply(sql, writes)
      await apply(mem, writes)
      const want = model(writes)
      expect(await loaded(sql)).toEqual(want)
      expect(await loaded(mem)).toEqual(want)
    }),
    { numRuns: 25 },
  )
}, 60_000)

test('signing keys come back oldest first with their exact bytes', async () => {
  await pg.exec('create schema keys; set search_path to keys')
  const sql = await sqlState({ query: (t, p) => pg.query(t, p), close: async () => {} } as SqlClient, 'test')
  const k = (kid: string, createdAt: number, byte: number): SigningKey => ({
    kid,
    createdAt,
    secret: new Uint8Array(32).fill(byte),
  })
  await sql.addKey(k('b', 2000, 255))
  await sql.addKey(k('a', 1000, 0))
  const keys = (await sql.load()).keys
  expect(keys.map((x) => [x.kid, x.createdAt, [...x.secret]])).toEqual([
    ['a', 1000, Array(32).fill(0)],
    ['b', 2000, Array(32).fill(255)],
  ])
  await expect(sql.addKey(k('a', 3000, 1))).rejects.toThrow()
}, 60_000)

test('a state write that fails is answered 503 unavailable (REST) and status 14 (partner), not a 500', async () => {
  const { startHarness, NOW, OPS } = await import('./harness.js')
  const failing: StateStore = {
    ...memoryState(),
    saveRest: async () => Promise.reject(new Error('disk full')),
    saveLink: async () => Promise.reject(new Error('disk full')),
  }
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
  const h = await startHarness([{ key: 'k' }], ['p'], NOW, (s) => s, { state: failing })
  try {
    const r = await h.get('/exchanges', 'k')
    expect(r.status).toBe(503)
    expect(r.body.error.code).toBe('unavailable')
    const token = (await h.post(OPS.login, { api_key: 'p' })).body.access_token.token
    const l = await h.post(OPS.link, { security_guid: 'g', partner_security_id: 'x' }, token)
    expect(l.status).toBe(200)
    expect(l.body.status.code).toBe(14)
    expect(logged.mock.calls.map((c) => String(c[0]))).toEqual(['state write failed:', 'state write failed:'])
  } finally {
    logged.mockRestore()
    await h.close()
  }
})
