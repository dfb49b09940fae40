import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseHistoryQuery, type HistoryEndpoint, type HistoryRequest } from '../../src/rules/index.js'
import { bucketEnd, bucketStart, formatIso } from '../../src/time/index.js'
import { BASE, NOW, slowSlotCount, tf } from './helpers.js'

const ENDPOINTS: HistoryEndpoint[] = ['candles', 'footprint', 'tpo']
const ALL_PARAMS = [
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
const REQUIRED = ['exchange', 'symbol', 'timeframe']
const TF_IDS: Record<HistoryEndpoint, string[]> = {
  candles: ['1m', '5m', '15m', '1h', '4h', '1d', '1w', '1M', '1y', '10t'],
  footprint: ['1m', '7m', '15m', '1h', '4h', '1d', '1w', '1M'],
  tpo: ['1d', '2d', '1w', '1M'],
}

// Values that exercise every rule: valid tokens, near misses, and arbitrary text.
const token = fc.oneof(
  fc.constantFrom(
    'XNAS',
    'AAPL',
    '1m',
    '60m',
    '1h',
    '1d',
    '1w',
    '1M',
    '1y',
    '5t',
    '1780272000',
    '2026-06-01T00:00:00Z',
    '2026-06-01T00:00:00',
    '3600',
    '0',
    '-1',
    '1.5',
    '10000',
    '10001',
    'MAINSESSION',
    'PRE_MARKET,POST_MARKET',
    'REGULAR',
    '4',
    '0.25',
    '30m',
    'true',
    'false',
    'GROUP_BY_TYPE',
    'MERGE_ALL',
    '',
    ',',
    '__proto__',
  ),
  fc.string({ maxLength: 30 }),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.double().map(String),
)
const key = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...ALL_PARAMS) },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'Limit', 'from ') },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
)
const value = fc.oneof({ weight: 4, arbitrary: token }, { weight: 1, arbitrary: fc.array(token, { maxLength: 4 }) })

/** A record built with defineProperty so that `__proto__` is an own, plain key. */
const record = fc.array(fc.tuple(key, value), { maxLength: 10 }).map((entries) => {
  const o: Record<string, string | string[]> = {}
  for (const [k, v] of entries)
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true })
  return o
})

function checkOutcome(
  endpoint: HistoryEndpoint,
  query: Record<string, unknown> | URLSearchParams,
  keys: string[],
): void {
  const r = parseHistoryQuery(endpoint, query as Record<string, string>, { now: NOW })
  if (r.ok) {
    checkRequest(r.value)
    return
  }
  expect(r.error.status).toBe(400)
  expect(r.error.code).toBe('invalid_argument')
  const p = r.error.parameter as string
  expect(typeof p).toBe('string')
  expect([...keys, ...REQUIRED]).toContain(p)
  const named =
    r.error.message.startsWith(`${p}:`) ||
    r.error.message.includes(JSON.stringify(p.length > 40 ? `${p.slice(0, 40)}...` : p))
  expect(named).toBe(true)
}

function checkRequest(r: HistoryRequest): void {
  if (r.empty) expect(r.from).toBe(r.to)
  else expect(r.from).toBeLessThan(r.to)
  expect(r.from).toBeGreaterThanOrEqual(0)
  expect(r.sessionTypes.length).toBeGreaterThan(0)
  if (r.endpoint === 'candles') {
    expect(r.limit).toBeGreaterThanOrEqual(1)
    expect(r.limit).toBeLessThanOrEqual(10_000)
    expect(r.direction).toBe(r.pinned === 'from' ? 'forward' : 'backward')
  }
}

describe('parseHistoryQuery: any query parses or yields exactly one 400 naming a parameter', () => {
  it('random records of known, odd and random keys', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ENDPOINTS), record, (endpoint, query) =>
        checkOutcome(endpoint, query, Object.keys(query)),
      ),
      { numRuns: 1000 },
    )
  })

  it('random URLSearchParams strings', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ENDPOINTS),
        fc.array(fc.tuple(key, token), { maxLength: 10 }),
        (endpoint, entries) => {
          const sp = new URLSearchParams()
          for (const [k, v] of entries) sp.append(k, v)
          checkOutcome(endpoint, sp, [...sp.keys()])
        },
      ),
      { numRuns: 500 },
    )
  })

  it('one bad value in an otherwise valid query is rejected naming exactly that parameter', () => {
    const param: Record<HistoryEndpoint, string[]> = {
      candles: ['exchange', 'symbol', 'timeframe', 'from', 'to', 'period', 'limit', 'sessionType'],
      footprint: ['exchange', 'symbol', 'timeframe', 'from', 'to', 'period', 'sessionType', 'rowSize', 'rowSizeValue'],
      tpo: ['exchange', 'symbol', 'timeframe', 'from', 'to', 'period', 'sessionType', 'blockSize', 'mergeSessions'],
    }
    const arb = fc
      .constantFrom(...ENDPOINTS)
      .chain((e) =>
        fc.tuple(
          fc.constant(e),
          fc.constantFrom(...param[e]),
          fc.oneof(token, fc.string({ unit: 'binary', maxLength: 50 })),
        ),
      )
    fc.assert(
      fc.property(arb, ([endpoint, p, v]) => {
        const base: Record<string, string> = { ...BASE, timeframe: TF_IDS[endpoint][0] as string }
        const r = parseHistoryQuery(endpoint, { ...base, [p]: v }, { now: NOW })
        if (r.ok) checkRequest(r.value)
        else expect(r.error.parameter).toBe(p)
      }),
      { numRuns: 400 },
    )
  })
})

describe('parseHistoryQuery never throws', () => {
  it('on fc.anything() as the query', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ENDPOINTS),
        fc.anything({ withObjectString: true, withNullPrototype: true, withMap: true, withSet: true }),
        (e, x) => {
          const r = parseHistoryQuery(e, x as Record<string, string>, { now: NOW })
          expect(typeof r.ok).toBe('boolean')
        },
      ),
      { numRuns: 500 },
    )
  })

  it('on records whose values are anything', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ENDPOINTS), fc.dictionary(key, fc.anything()), (e, x) => {
        const r = parseHistoryQuery(e, { ...BASE, timeframe: '1d', ...x } as Record<string, string>, { now: NOW })
        expect(typeof r.ok).toBe('boolean')
      }),
      { numRuns: 300 },
    )
  })

  it('on JSON-parsed __proto__ keys, which stay plain parameters', () => {
    for (const e of ENDPOINTS) {
      const query = JSON.parse(`{"exchange":"X","symbol":"S","timeframe":"1d","__proto__":{"limit":"5"}}`) as Record<
        string,
        string
      >
      const r = parseHistoryQuery(e, query, { now: NOW })
      expect(!r.ok && r.error.parameter).toBe('__proto__')
      expect(({} as Record<string, unknown>).limit).toBeUndefined()
    }
  })

  it('on 10,000 repeated parameters', () => {
    const repeated = (name: string, v: string) => {
      const sp = new URLSearchParams('exchange=X&symbol=S&timeframe=1d')
      for (let i = 0; i < 10_000; i++) sp.append(name, v)
      return sp
    }
    const ok = parseHistoryQuery('candles', repeated('sessionType', 'PRE_MARKET'), { now: NOW })
    expect(ok.ok && ok.value.sessionTypes).toEqual(['PRE_MARKET'])
    for (const p of ['from', 'to', 'period', 'exchange']) {
      const r = parseHistoryQuery('candles', repeated(p, '60'), { now: NOW })
      expect(!r.ok && r.error.parameter).toBe(p)
    }
    const unknown = new URLSearchParams('exchange=X&symbol=S&timeframe=1d')
    for (let i = 0; i < 10_000; i++) unknown.append(`p${i}`, 'x')
    const r = parseHistoryQuery('tpo', unknown, { now: NOW })
    expect(!r.ok && r.error.parameter).toBe('p0')
    const bad = parseHistoryQuery(
      'tpo',
      {
        ...BASE,
        timeframe: '1d',
        sessionType: Array.from({ length: 10_000 }, (_, i) => (i === 9_999 ? 'X' : 'MAINSESSION')),
      },
      { now: NOW },
    )
    expect(!bad.ok && bad.error.parameter).toBe('sessionType')
  })

  it('on 100,000-character values of every parameter (rejected, message kept short)', () => {
    const long = (c: string) => c.repeat(100_000)
    for (const e of ENDPOINTS) {
      for (const p of ALL_PARAMS) {
        for (const v of [long('9'), long('a'), long(',')]) {
          const r = parseHistoryQuery(e, { ...BASE, timeframe: TF_IDS[e][0] as string, [p]: v }, { now: NOW })
          expect(r.ok).toBe(false)
          if (!r.ok) {
            expect(r.error.parameter).toBe(p)
            expect(r.error.message.length).toBeLessThan(300)
          }
        }
      }
      const unknown = parseHistoryQuery(
        e,
        { ...BASE, timeframe: TF_IDS[e][0] as string, [long('k')]: 'v' },
        { now: NOW },
      )
      expect(!unknown.ok && unknown.error.message.length).toBeLessThan(300)
    }
    // a long but valid value is fine: 100,000 characters of repeated session names
    const sessions = Array.from({ length: 8_000 }, () => 'MAINSESSION').join(',')
    expect(sessions.length).toBeGreaterThan(90_000)
    const r = parseHistoryQuery('candles', { ...BASE, timeframe: '1m', sessionType: sessions }, { now: NOW })
    expect(r.ok && r.value.sessionTypes).toEqual(['MAINSESSION'])
  })

  it('on huge ranges: parsing allocates nothing per slot (0 .. 9999 on 1-minute frames resolves at once)', () => {
    const r = parseHistoryQuery('footprint', { ...BASE, timeframe: '1m', from: '0', to: '253402300799' }, { now: NOW })
    expect(r.ok && [r.value.from, r.value.to]).toEqual([0, 253402300799000])
  })
})

describe('resolved ranges', () => {
  const time = fc.integer({ min: Date.UTC(2020, 0, 1) / 1000, max: Date.UTC(2030, 0, 1) / 1000 })
  const wire = (s: number, iso: boolean) => (iso ? formatIso(s * 1000) : String(s))
  const arb = fc.record({
    endpoint: fc.constantFrom(...ENDPOINTS),
    pick: fc.nat({ max: 100 }),
    form: fc.constantFrom('none', 'from', 'to', 'from+to', 'from+period', 'to+period', 'period'),
    a: time,
    span: fc.integer({ min: 1, max: 400 * 86_400 }),
    iso: fc.boolean(),
    now: fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
  })

  it('satisfy from < to (or are empty with from === to) and lie on the pinned end', () => {
    fc.assert(
      fc.property(arb, ({ endpoint, pick, form, a, span, iso, now }) => {
        const ids = TF_IDS[endpoint].filter((id) => !id.endsWith('t') || form === 'none')
        const id = ids[pick % ids.length] as string
        const query: Record<string, string> = { ...BASE, timeframe: id }
        if (form.startsWith('from')) query.from = wire(a, iso)
        if (form === 'to' || form === 'to+period') query.to = wire(a, iso)
        if (form === 'from+to') query.to = wire(a + span, iso)
        if (form.endsWith('period')) query.period = String(span)
        const r = parseHistoryQuery(endpoint, query, { now })
        expect(r.ok).toBe(true)
        if (!r.ok) return
        const v = r.value
        checkRequest(v)
        const hasFrom = query.from !== undefined
        expect(v.pinned).toBe(hasFrom ? 'from' : 'to')
        if (hasFrom) expect(v.from).toBe(a * 1000)
        else expect(v.to).toBe(query.to !== undefined ? a * 1000 : now)
        if (form === 'from+to' || form === 'from+period') expect(v.to).toBe((a + span) * 1000)
        if (form === 'to+period') expect(v.from).toBe((a - span) * 1000)
        if (form === 'period') expect(v.from).toBe(now - span * 1000)
        if (endpoint === 'candles' && form === 'from')
          expect([v.to, v.empty]).toEqual(a * 1000 < now ? [now, false] : [a * 1000, true])
        if (endpoint === 'candles' && (form === 'none' || form === 'to')) expect(v.from).toBe(0)
        if (endpoint !== 'candles' && (form === 'none' || form === 'from' || form === 'to')) {
          // the default window: N whole slots counted from the bucket of the pinned end
          const n = endpoint === 'footprint' ? 100 : 20
          const t = tf(id)
          expect(slowSlotCount(t, v.from, v.to)).toBe(n)
          if (hasFrom) expect(bucketEnd(v.to - 1, t)).toBe(v.to)
          else expect(bucketStart(v.from, t)).toBe(v.from)
        }
      }),
      { numRuns: 600 },
    )
  })
})
