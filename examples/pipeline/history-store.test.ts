// The reference server answering history from what the pipeline stored equals the server answering from the
// raw trades, on every history endpoint: the sample catalog's trades run through the embedded pipeline (one
// worker, PGlite), then the same REST handler reads each store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FootprintProfile, footprintProfiles, regridFootprint, resampleFootprint } from '../../src/index.js'
import { defaultCatalog } from '../server/catalog.js'
import { handleRest, type RestEndpointName } from '../server/rest.js'
import { type MarketStore, sampleStore } from '../server/store.js'
import { runEmbedded } from './embedded.js'
import { loadHistoryStore } from './history-store.js'
import { catalogSecurities, replayMessages } from './replay.js'
import { openPglite, type Sql } from './sql.js'

const NOW = Date.UTC(2026, 5, 12, 18)
let sql: Sql
let raw: MarketStore
let stored: MarketStore

beforeAll(async () => {
  raw = sampleStore({ now: NOW, days: 5, tradesPerDay: 1200, catalog: defaultCatalog() })
  const securities = catalogSecurities(raw)
  sql = await openPglite()
  await runEmbedded({ sql, securities, messages: replayMessages(securities, 4), partitions: 4 })
  stored = await loadHistoryStore(sql, raw.catalog)
}, 120_000)
afterAll(async () => {
  await sql?.close()
})

const ask = (store: MarketStore, endpoint: RestEndpointName, q: string) =>
  handleRest({ endpoint }, new URLSearchParams(q), { store, now: NOW })

const WEEK = 7 * 86_400
const CASES: [RestEndpointName, string][] = [
  ['candles', `timeframe=1m&limit=5000&period=${2 * 86_400}`],
  ['candles', `timeframe=5m&limit=5000&period=${WEEK}`],
  ['candles', `timeframe=30m&limit=5000&period=${WEEK}&sessionType=MAINSESSION`],
  ['candles', `timeframe=1h&limit=5000&period=${WEEK}&sessionType=PRE_MARKET&sessionType=POST_MARKET`],
  ['candles', `timeframe=1d&limit=100&period=${WEEK}`],
  ['footprint', 'timeframe=1m&period=7200'],
  ['footprint', `timeframe=15m&rowSize=4&period=${86_400}`],
  ['footprint', `timeframe=1h&rowSize=3&period=${2 * 86_400}&sessionType=MAINSESSION`],
  ['footprint', 'timeframe=4h&rowSizeValue=1&period=86400'],
  ['row-size-scale', 'timeframe=15m'],
  ['tpo', `timeframe=1d&period=${3 * 86_400}`],
  ['tpo', `timeframe=1d&blockSize=1h&mergeSessions=GROUP_BY_TYPE&period=${3 * 86_400}`],
  ['tpo', `timeframe=1d&blockSize=5m&sessionType=MAINSESSION&period=${2 * 86_400}`],
  ['tpo', `timeframe=1w&period=${WEEK}`],
]

describe('history answered from the pipeline store', () => {
  it('holds minutes for every catalog security with data', () => {
    for (const s of raw.all()) {
      expect(stored.newest(stored.byGuid(s.security.guid)!) === undefined).toBe(s.trades.time.length === 0)
    }
  })

  it.each(CASES)('%s %s equals the answer from the trades, for every security', (endpoint, q) => {
    let answered = 0
    for (const s of raw.all()) {
      if (s.trades.time.length === 0) continue
      const query = `exchange=${s.security.exchange}&symbol=${s.security.symbol}&${q}`
      const want = ask(raw, endpoint, query)
      expect(want.ok, query).toBe(true)
      expect(JSON.stringify(ask(stored, endpoint, query)), query).toBe(JSON.stringify(want))
      answered++
    }
    expect(answered).toBeGreaterThan(3)
  })

  it('stored one-tick minutes merge and regrid, with the library, into the footprint of a coarser frame and row', async () => {
    const es = raw.security('CME', 'ES')!
    const rows = await sql.query<{ f: string }>(
      `select footprint::text as f from minute_bars where exchange = 'CME' and symbol = 'ES' and session = 'MAINSESSION'`,
    )
    const minutes = rows.map((r) => JSON.parse(r.f) as FootprintProfile)
    const got = resampleFootprint(minutes, { timeframe: '1h', timeZone: 'America/Chicago' }).map((p) =>
      regridFootprint(p, { rowSize: 4 }),
    )
    const want = footprintProfiles(es.trades, {
      timeframe: '1h',
      timeZone: 'America/Chicago',
      tickSize: es.security.tickSize,
      rowSize: 4,
      sessions: ['MAINSESSION'],
    })
    expect(want.length).toBeGreaterThan(10)
    expect(JSON.stringify(got)).toBe(JSON.stringify(want))
  })

  it('refuses tick frames, which need the trades themselves', () => {
    const r = ask(stored, 'candles', 'exchange=CME&symbol=ES&timeframe=100t&limit=5')
    expect(r.ok).toBe(false)
    expect(ask(raw, 'candles', 'exchange=CME&symbol=ES&timeframe=100t&limit=5').ok).toBe(true)
  })
})
