// Fuzz: the interface B history query parser. Drawn queries (parameter names right and wrong, values valid,
// near misses, any text, huge, repeated) as records, URLSearchParams and raw query strings: parseHistoryQuery
// answers a Result, an error is 400 invalid_argument with a message, and every request it accepts goes through
// the rules a server runs next (checkRowSize with a catalog tick size, trimToDepth, checkCap) without a throw.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  checkCap,
  checkRowSize,
  parseHistoryQuery,
  TIME_MAX,
  TIME_MIN,
  trimToDepth,
  type HistoryEndpoint,
} from '../../src/service/index.js'
import { FUZZ_TIMEOUT, fuzzParams } from './fuzz-params.js'

const NAMES = [
  'exchange',
  'symbol',
  'timeframe',
  'from',
  'to',
  'period',
  'limit',
  'sessionType',
  'rowSize',
  'rowSizeValue',
  'blockSize',
  'mergeSessions',
]
const name = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...NAMES) },
  fc.constantFrom('Exchange', 'from ', '__proto__', 'constructor', 'toString', 'hasOwnProperty', ''),
  fc.string({ maxLength: 12 }),
)
const value = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('XNAS', 'AAPL', '1m', '15m', '1h', '1d', '1w', '1M', '1y', '10t', '30m') },
  fc.constantFrom('2026-06-01T00:00:00Z', '2026-06-01T00:00:00.5+02:00', '1780000000', '0', '253402300799', '-1'),
  fc.constantFrom('3600', '86400', '1000', '10001', 'MAINSESSION', 'PRE_MARKET,POST_MARKET', ',', 'true', 'false'),
  fc.constantFrom('0.25', '0.0000000000001', '9007199254740993', '4503599627370496', '1e-3', 'NaN', 'Infinity'),
  fc.integer().map(String),
  fc.double().map(String),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.nat({ max: 5000 }).map((n) => '9'.repeat(n)),
)
const values = fc.oneof({ weight: 4, arbitrary: value }, fc.array(value, { maxLength: 3 }))
const base = fc.record({ exchange: fc.constant('XNAS'), symbol: fc.constant('AAPL'), timeframe: value })
const record = fc.tuple(base, fc.array(fc.tuple(name, values), { maxLength: 8 })).map(([b, extra]) => {
  const q: Record<string, string | string[]> = { ...b }
  for (const [k, v] of extra)
    Object.defineProperty(q, k, { value: v, enumerable: true, writable: true, configurable: true })
  return q
})
const params = fc.array(fc.tuple(name, value), { maxLength: 10 }).map((pairs) => new URLSearchParams(pairs))
const raw = fc.string({ maxLength: 200 }).map((s) => new URLSearchParams(s))
// valid queries of each endpoint, one parameter perhaps set to a drawn value: mostly accepted, near the edges
const VALID: Record<HistoryEndpoint, Record<string, string>[]> = {
  candles: [
    { timeframe: '1m', limit: '500' },
    { timeframe: '1h', from: '1780000000', to: '1780086400' },
  ],
  footprint: [
    { timeframe: '15m', rowSize: '4' },
    { timeframe: '1h', rowSizeValue: '0.5', period: '86400' },
  ],
  tpo: [
    { timeframe: '1d', blockSize: '30m' },
    { timeframe: '1w', mergeSessions: 'false', from: '1780000000' },
  ],
}
const nearValid = fc
  .tuple(fc.nat(), fc.option(fc.tuple(fc.constantFrom(...NAMES), value), { freq: 2, nil: undefined }))
  .map(([i, change]) => (e: HistoryEndpoint) => {
    const q: Record<string, string> = { exchange: 'XNAS', symbol: 'AAPL', ...VALID[e][i % VALID[e].length] }
    if (change !== undefined) q[change[0]] = change[1]
    return q
  })
const query = fc.oneof(
  { weight: 3, arbitrary: nearValid },
  ...[record, params, raw].map((a) => a.map((q) => (_e: HistoryEndpoint) => q)),
)
const endpoint = fc.constantFrom<HistoryEndpoint>('candles', 'footprint', 'tpo')
const ctx = fc.record(
  {
    now: fc.oneof(fc.integer({ min: TIME_MIN, max: TIME_MAX }), fc.constantFrom(Date.UTC(2026, 5, 10), TIME_MAX)),
    timeZone: fc.constantFrom('UTC', 'America/New_York', 'Asia/Kolkata', 'America/Sao_Paulo'),
  },
  { requiredKeys: ['now'] },
)
const TICKS = ['0.01', '0.25', '0.02', '1', '0.00000001']

describe('fuzz: parseHistoryQuery', () => {
  it(
    'answers every query with a Result; accepted requests pass the next rules without a throw',
    () => {
      let accepted = 0
      const params = fuzzParams(400)
      fc.assert(
        fc.property(endpoint, query, ctx, fc.constantFrom(...TICKS), (e, q, c, tick) => {
          const r = parseHistoryQuery(e, q(e), c)
          if (!r.ok) {
            expect([r.error.status, r.error.code, typeof r.error.message]).toEqual([400, 'invalid_argument', 'string'])
            return
          }
          accepted++
          const req = r.value
          expect(req.endpoint).toBe(e)
          expect(req.from >= TIME_MIN && req.to <= TIME_MAX && req.from <= req.to).toBe(true)
          const row = checkRowSize(req, { tickSize: tick })
          expect(row === undefined || row.status === 400).toBe(true)
          const run = req.endpoint === 'candles' ? req : trimToDepth(req, { newestCandleTime: c.now })
          const cap = checkCap(run)
          expect(cap === undefined || cap.code === 'too_much_data').toBe(true)
        }),
        params,
      )
      // not vacuous: a good share of the drawn queries is accepted and goes on to the next rules
      expect(accepted).toBeGreaterThan((params.numRuns ?? 0) / 20)
    },
    FUZZ_TIMEOUT,
  )
})
