import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import { parseHistoryQuery, type HistoryEndpoint } from '../../src/rules/index.js'
import { BASE, DAY, HOUR, NOW, parsed, rejected, slowSlotCount, tf } from './helpers.js'

const ENDPOINTS: HistoryEndpoint[] = ['candles', 'footprint', 'tpo']
const TF: Record<HistoryEndpoint, string> = { candles: '1h', footprint: '1h', tpo: '1d' }
const q = (endpoint: HistoryEndpoint, extra: Record<string, string | string[]> = {}) => ({
  ...BASE,
  timeframe: TF[endpoint],
  ...extra,
})

const JUNE_1 = Date.UTC(2026, 5, 1) // = Unix seconds 1780272000

describe('parameter table: required exchange, symbol, timeframe', () => {
  it.each(ENDPOINTS)('%s: only exchange, symbol, timeframe are required', (e) => {
    expect(parsed(e, q(e)).endpoint).toBe(e)
  })
  it.each(ENDPOINTS.flatMap((e) => ['exchange', 'symbol', 'timeframe'].map((p) => [e, p] as const)))(
    '%s: missing %s -> 400 naming it',
    (e, p) => {
      const query = q(e)
      delete (query as Record<string, unknown>)[p]
      expect(rejected(e, query, p).message).toBe(`${p}: is required`)
    },
  )
  it.each(ENDPOINTS.flatMap((e) => ['exchange', 'symbol', 'timeframe'].map((p) => [e, p] as const)))(
    '%s: empty %s -> 400',
    (e, p) => {
      rejected(e, q(e, { [p]: '' }), p)
    },
  )
  it('exchange and symbol are kept as given, up to 128 characters', () => {
    const r = parsed('candles', q('candles', { exchange: 'X'.repeat(128), symbol: 'BRK.B' }))
    expect(r.exchange).toBe('X'.repeat(128))
    expect(r.symbol).toBe('BRK.B')
    rejected('candles', q('candles', { symbol: 'S'.repeat(129) }), 'symbol')
  })
})

describe('parameter table: timeframe kinds per endpoint', () => {
  it.each(['1m', '59m', '1h', '23h', '1d', '6d', '1w', '3w', '1M', '11M'])('footprint accepts %s', (id) => {
    expect(parsed('footprint', q('footprint', { timeframe: id })).timeframe.id).toBe(id)
  })
  it.each(['1y', '1t', '1000t'])('footprint rejects %s', (id) => {
    expect(rejected('footprint', q('footprint', { timeframe: id }), 'timeframe').message).toContain('minute to month')
  })
  it.each(['1d', '2d', '6d', '1w', '3w', '1M', '3M'])('tpo accepts %s', (id) => {
    expect(parsed('tpo', q('tpo', { timeframe: id })).timeframe.id).toBe(id)
  })
  it.each(['1m', '30m', '1h', '23h', '1y', '5t'])('tpo rejects %s', (id) => {
    expect(rejected('tpo', q('tpo', { timeframe: id }), 'timeframe').message).toContain('day, week and month')
  })
  it.each(['1m', '1h', '1d', '1w', '1M', '1y', '1t', '1000t'])('candles accepts %s', (id) => {
    expect(parsed('candles', q('candles', { timeframe: id })).timeframe.id).toBe(id)
  })
  it.each(['60m', '24h', '7d', '0m', '01m', '1H', '1Y', 'M', '1001t', '15', '1 m', 'x'.repeat(100_000)])(
    'a non-canonical id %s is rejected on every endpoint',
    (id) => {
      for (const e of ENDPOINTS) rejected(e, q(e, { timeframe: id }), 'timeframe')
    },
  )
})

describe('parameter table: from and to', () => {
  it.each([
    ['1780272000', JUNE_1],
    ['0001780272000', JUNE_1],
    ['0', 0],
    ['2026-06-01T00:00:00Z', JUNE_1],
    ['2026-06-01T02:00:00+02:00', JUNE_1],
    ['2026-05-31T20:00:00-04:00', JUNE_1],
    ['2026-06-01T00:00:00.999Z', JUNE_1 + 999],
    ['253402300799', 253402300799000],
  ])('from=%s reads as Unix seconds or RFC3339 -> %i', (v, t) => {
    expect(parsed('candles', q('candles', { from: v, period: '1' })).from).toBe(t)
    expect(parsed('candles', q('candles', { to: v, period: '1' })).to).toBe(t)
  })
  it.each([
    '1780272000.5',
    '-1',
    '+1780272000',
    '1.78e9',
    '2026-06-01',
    '2026-06-01T00:00:00',
    '2026-06-01 00:00:00Z',
    'yesterday',
    '1969-12-31T23:59:59Z',
    '253402300800',
    '99999999999999999999999',
    '2026-02-30T00:00:00Z',
    ' 1780272000',
  ])('from=%s and to=%s are 400', (v) => {
    for (const e of ENDPOINTS) {
      rejected(e, q(e, { from: v }), 'from')
      rejected(e, q(e, { to: v }), 'to')
    }
  })
  it.each([
    ['9999-12-31T23:59:59-01:00', 'must not be after 10000-01-01T00:00:00Z'],
    ['1970-01-01T00:30:00+01:00', 'must not be before 1970-01-01T00:00:00Z'],
    ['1969-12-31T23:59:59Z', 'must not be before 1970-01-01T00:00:00Z'],
    ['1968-02-29T00:00:00Z', 'must not be before 1970-01-01T00:00:00Z'],
    ['1969-02-29T00:00:00Z', 'is neither Unix seconds'],
    ['9999-12-31T23:59:60Z', 'is neither Unix seconds'],
    ['1x69-12-31T23:59:59Z', 'is neither Unix seconds'],
  ])('from=%s: a well-formed date-time past a limit names the range rule, a malformed one the format', (v, rule) => {
    for (const e of ENDPOINTS) {
      expect(rejected(e, q(e, { from: v }), 'from').message).toContain(rule)
      expect(rejected(e, q(e, { to: v }), 'to').message).toContain(rule)
    }
  })
  it('to must be greater than from', () => {
    for (const e of ENDPOINTS) {
      expect(rejected(e, q(e, { from: '1780272000', to: '1780272000' }), 'to').message).toBe(
        'to: must be greater than from',
      )
      rejected(e, q(e, { from: '1780272001', to: '1780272000' }), 'to')
      expect(parsed(e, q(e, { from: '1780272000', to: '1780272001' })).to).toBe(JUNE_1 + 1000)
    }
  })
  it('to defaults to now when from is omitted', () => {
    for (const e of ENDPOINTS) expect(parsed(e, q(e)).to).toBe(NOW)
  })
})

describe('parameter table: period', () => {
  it('is whole seconds counted forward from from', () => {
    for (const e of ENDPOINTS) {
      const r = parsed(e, q(e, { from: '1780272000', period: '7200' }))
      expect([r.from, r.to, r.pinned]).toEqual([JUNE_1, JUNE_1 + 2 * HOUR, 'from'])
    }
  })
  it('is counted backwards from to', () => {
    for (const e of ENDPOINTS) {
      const r = parsed(e, q(e, { to: '1780272000', period: '86400' }))
      expect([r.from, r.to, r.pinned]).toEqual([JUNE_1 - DAY, JUNE_1, 'to'])
    }
  })
  it('alone, is counted backwards from now', () => {
    for (const e of ENDPOINTS) {
      const r = parsed(e, q(e, { period: '60' }))
      expect([r.from, r.to, r.pinned]).toEqual([NOW - 60_000, NOW, 'to'])
    }
  })
  it.each(['1h', 'PT1H', '1.5', '0', '-5', '1e3', '', '253402300801', '9'.repeat(1000)])('period=%s is 400', (v) => {
    for (const e of ENDPOINTS) rejected(e, q(e, { period: v }), 'period')
  })
  it('from + to + period is 400 naming period', () => {
    for (const e of ENDPOINTS) rejected(e, q(e, { from: '1780272000', to: '1780275600', period: '60' }), 'period')
  })
  it('a period reaching before 1970 starts the range at 1970', () => {
    const r = parsed('candles', q('candles', { to: '100', period: '1000' }))
    expect([r.from, r.to]).toEqual([0, 100_000])
  })
})

describe('parameter table: limit (candles only)', () => {
  it('defaults to 1000', () => expect(parsed('candles', q('candles'))).toMatchObject({ limit: 1000 }))
  it.each([
    ['1', 1],
    ['10000', 10_000],
    ['00010', 10],
    ['999', 999],
  ])('limit=%s -> %i', (v, n) => expect(parsed('candles', q('candles', { limit: v }))).toMatchObject({ limit: n }))
  it.each(['0', '10001', '100000000000000000000', '-1', '1e3', '10.0', ' 5', '', 'ten'])('limit=%s is 400', (v) => {
    rejected('candles', q('candles', { limit: v }), 'limit')
  })
  it('limit above 10000 says the maximum', () => {
    expect(rejected('candles', q('candles', { limit: '10001' }), 'limit').message).toContain('10000')
  })
  it.each(['footprint', 'tpo'] as const)('limit on %s is 400 (unknown parameter there)', (e) => {
    expect(rejected(e, q(e, { limit: '10' }), 'limit').message).toContain('/candles')
  })
})

describe('parameter table: sessionType', () => {
  it('defaults to all three', () => {
    for (const e of ENDPOINTS)
      expect(parsed(e, q(e)).sessionTypes).toEqual(['MAINSESSION', 'PRE_MARKET', 'POST_MARKET'])
  })
  it.each([
    ['PRE_MARKET', ['PRE_MARKET']],
    ['POST_MARKET,MAINSESSION', ['MAINSESSION', 'POST_MARKET']],
    [
      ['POST_MARKET', 'PRE_MARKET'],
      ['PRE_MARKET', 'POST_MARKET'],
    ],
    [['PRE_MARKET,PRE_MARKET', 'PRE_MARKET'], ['PRE_MARKET']],
    [
      ['MAINSESSION', 'PRE_MARKET,POST_MARKET'],
      ['MAINSESSION', 'PRE_MARKET', 'POST_MARKET'],
    ],
  ] as [string | string[], string[]][])('sessionType=%j -> %j (repeated, comma-separated, de-duplicated)', (v, out) => {
    for (const e of ENDPOINTS) expect(parsed(e, q(e, { sessionType: v })).sessionTypes).toEqual(out)
  })
  it('URLSearchParams repeats work the same', () => {
    const r = parseHistoryQuery(
      'candles',
      new URLSearchParams('exchange=X&symbol=S&timeframe=1m&sessionType=POST_MARKET&sessionType=PRE_MARKET'),
      { now: NOW },
    )
    expect(r.ok && r.value.sessionTypes).toEqual(['PRE_MARKET', 'POST_MARKET'])
  })
  it.each([
    'mainsession',
    'REGULAR',
    '',
    ',',
    'MAINSESSION,',
    ',PRE_MARKET',
    'MAINSESSION,,PRE_MARKET',
    'MAINSESSION ',
    'MAINSESSION;PRE_MARKET',
  ])('sessionType=%j is 400', (v) => {
    for (const e of ENDPOINTS) rejected(e, q(e, { sessionType: v }), 'sessionType')
  })
})

describe('parameter table: rowSize and rowSizeValue (footprint only)', () => {
  it('rowSize defaults to 1 tick', () => {
    const r = parsed('footprint', q('footprint'))
    expect(r.endpoint === 'footprint' && [r.rowSize, r.rowSizeValue]).toEqual([1, undefined])
  })
  it.each([
    ['1', 1],
    ['4', 4],
    ['1000', 1000],
  ])('rowSize=%s -> %i ticks', (v, n) =>
    expect(parsed('footprint', q('footprint', { rowSize: v }))).toMatchObject({ rowSize: n }),
  )
  it.each(['0', '1001', '1.5', '-1', 'abc', ''])('rowSize=%s is 400', (v) => {
    rejected('footprint', q('footprint', { rowSize: v }), 'rowSize')
  })
  it.each([
    ['0.25', '0.25'],
    ['0.50', '0.5'],
    ['5', '5'],
    ['0.00001', '0.00001'],
  ])('rowSizeValue=%s -> %s (minimal form)', (v, out) => {
    const r = parsed('footprint', q('footprint', { rowSizeValue: v }))
    expect(r).toMatchObject({ rowSizeValue: out })
    expect(r.endpoint === 'footprint' && r.rowSize).toBeUndefined()
  })
  it.each(['0', '0.000', '-0.5', 'abc', '1e-3', '', '1,5', 'NaN', 'Infinity', '1'.repeat(100)])(
    'rowSizeValue=%s is 400',
    (v) => {
      rejected('footprint', q('footprint', { rowSizeValue: v }), 'rowSizeValue')
    },
  )
  it('both rowSize and rowSizeValue is 400', () => {
    expect(
      rejected('footprint', q('footprint', { rowSize: '2', rowSizeValue: '0.5' }), 'rowSizeValue').message,
    ).toContain('rowSize')
  })
  it.each(['candles', 'tpo'] as const)('rowSize / rowSizeValue on %s are 400', (e) => {
    rejected(e, q(e, { rowSize: '2' }), 'rowSize')
    rejected(e, q(e, { rowSizeValue: '0.5' }), 'rowSizeValue')
  })
})

describe('parameter table: blockSize and mergeSessions (TPO only)', () => {
  it('blockSize defaults to 30m', () => {
    const r = parsed('tpo', q('tpo'))
    expect(r.endpoint === 'tpo' && r.blockSize).toEqual({ id: '30m', unit: 'MINUTE', count: 30 })
  })
  it.each(['1m', '5m', '15m', '59m', '1h', '4h', '23h'])('blockSize=%s is a minute/hour timeframe id', (id) => {
    const r = parsed('tpo', q('tpo', { blockSize: id }))
    expect(r.endpoint === 'tpo' && r.blockSize.id).toBe(id)
  })
  it.each(['1800', '1d', '1w', '60m', '30', '5t', 'PT30M', ''])('blockSize=%s is 400', (v) => {
    rejected('tpo', q('tpo', { blockSize: v }), 'blockSize')
  })
  it.each([
    ['true', 'MERGE_ALL'],
    ['MERGE_ALL', 'MERGE_ALL'],
    ['false', 'GROUP_BY_TYPE'],
    ['GROUP_BY_TYPE', 'GROUP_BY_TYPE'],
  ])('mergeSessions=%s -> %s', (v, out) =>
    expect(parsed('tpo', q('tpo', { mergeSessions: v }))).toMatchObject({ mergeSessions: out }),
  )
  it('mergeSessions defaults to MERGE_ALL', () =>
    expect(parsed('tpo', q('tpo'))).toMatchObject({ mergeSessions: 'MERGE_ALL' }))
  it.each(['TRUE', 'yes', '1', 'group_by_type', ''])('mergeSessions=%s is 400', (v) => {
    rejected('tpo', q('tpo', { mergeSessions: v }), 'mergeSessions')
  })
  it.each(['candles', 'footprint'] as const)('blockSize / mergeSessions on %s are 400', (e) => {
    rejected(e, q(e, { blockSize: '30m' }), 'blockSize')
    rejected(e, q(e, { mergeSessions: 'true' }), 'mergeSessions')
  })
})

describe('tick timeframes (candles): only limit and sessionType', () => {
  it('accepts limit and sessionType and reads the last limit candles before now', () => {
    const r = parsed('candles', q('candles', { timeframe: '100t', limit: '50', sessionType: 'MAINSESSION' }))
    expect(r).toMatchObject({
      from: 0,
      to: NOW,
      pinned: 'to',
      limit: 50,
      direction: 'backward',
      sessionTypes: ['MAINSESSION'],
    })
  })
  it.each(['from', 'to', 'period'])('%s with a tick timeframe is 400', (p) => {
    const v = p === 'period' ? '60' : '1780272000'
    expect(rejected('candles', q('candles', { timeframe: '5t', [p]: v }), p).message).toContain('tick')
  })
})

describe('range semantics (spec rules 1-4)', () => {
  it('1. no range: the last 1000 candles before now', () => {
    expect(parsed('candles', q('candles'))).toMatchObject({
      from: 0,
      to: NOW,
      pinned: 'to',
      limit: 1000,
      direction: 'backward',
      empty: false,
    })
  })
  it('1. no range: 100 footprint buckets ending with the bucket of now', () => {
    expect(parsed('footprint', q('footprint', { timeframe: '1h' }))).toMatchObject({
      from: Date.UTC(2026, 5, 6, 9),
      to: NOW,
      pinned: 'to',
    })
  })
  it.each([
    ['1d', Date.UTC(2026, 4, 22)],
    ['1w', Date.UTC(2026, 0, 26)],
    ['1M', Date.UTC(2024, 10, 1)],
  ])('1. no range: 20 TPO %s periods ending with the period of now', (id, from) => {
    expect(parsed('tpo', q('tpo', { timeframe: id }))).toMatchObject({ from, to: NOW, pinned: 'to' })
  })
  it('2. from alone reads forward: candles [from, now)', () => {
    expect(parsed('candles', q('candles', { from: '1780272000' }))).toMatchObject({
      from: JUNE_1,
      to: NOW,
      pinned: 'from',
      direction: 'forward',
    })
  })
  it('2. from alone: profiles take the default window forward from the bucket of from', () => {
    const f = Date.UTC(2026, 5, 1, 10, 30)
    expect(parsed('footprint', q('footprint', { from: String(f / 1000) }))).toMatchObject({
      from: f,
      to: Date.UTC(2026, 5, 5, 14),
      pinned: 'from',
    })
    const g = Date.UTC(2026, 5, 1, 15)
    expect(parsed('tpo', q('tpo', { from: String(g / 1000) }))).toMatchObject({
      from: g,
      to: Date.UTC(2026, 5, 21),
      pinned: 'from',
    })
  })
  it('2. from after now: candles answer an empty range (not an error)', () => {
    const f = Math.floor(NOW / 1000) + 10
    expect(parsed('candles', q('candles', { from: String(f) }))).toMatchObject({
      from: f * 1000,
      to: f * 1000,
      empty: true,
      pinned: 'from',
    })
    expect(parsed('candles', q('candles', { from: String(Math.floor(NOW / 1000)) })).empty).toBe(false)
  })
  it('2. to alone reads backwards', () => {
    expect(parsed('candles', q('candles', { to: '1780272000' }))).toMatchObject({
      from: 0,
      to: JUNE_1,
      pinned: 'to',
      direction: 'backward',
    })
    expect(parsed('footprint', q('footprint', { timeframe: '15m', to: '2026-06-03T00:00:00Z' }))).toMatchObject({
      from: Date.UTC(2026, 5, 1, 23),
      to: Date.UTC(2026, 5, 3),
    })
    expect(parsed('tpo', q('tpo', { to: '2026-06-05T00:00:00Z' }))).toMatchObject({
      from: Date.UTC(2026, 4, 16),
      to: Date.UTC(2026, 5, 5),
    })
  })
  it('2. from with to pins both ends; limit counts from from', () => {
    for (const e of ENDPOINTS) {
      expect(parsed(e, q(e, { from: '1780272000', to: '2026-06-02T00:00:00Z' }))).toMatchObject({
        from: JUNE_1,
        to: JUNE_1 + DAY,
        pinned: 'from',
      })
    }
    expect(parsed('candles', q('candles', { from: '1780272000', to: '1780358400', limit: '5' }))).toMatchObject({
      limit: 5,
      direction: 'forward',
    })
  })
  it('3. unknown query parameters are 400 naming them; names are case-sensitive', () => {
    for (const e of ENDPOINTS) {
      expect(rejected(e, q(e, { foo: '1' }), 'foo').message).toContain('"foo"')
      rejected(e, q(e, { From: '1780272000' }), 'From')
      rejected(e, q(e, { 'from ': '1780272000' }), 'from ')
      rejected(e, q(e, { constructor: 'x' }), 'constructor')
    }
  })
  it('a repeated single-value parameter is 400', () => {
    for (const p of ['exchange', 'symbol', 'timeframe', 'from', 'to', 'period']) {
      const e = rejected('candles', new URLSearchParams(`exchange=X&symbol=S&timeframe=1m&${p}=60&${p}=60`), p)
      expect(e.message).toBe(`${p}: given more than once`)
    }
    rejected('candles', q('candles', { limit: ['5', '5'] }), 'limit')
  })
  it('a window counts slots, not non-empty profiles: exactly 100 / 20 buckets overlap it', () => {
    for (const [e, id, n] of [
      ['footprint', '7m', 100],
      ['footprint', '1M', 100],
      ['tpo', '2d', 20],
      ['tpo', '3w', 20],
    ] as const) {
      const back = parsed(e, q(e, { timeframe: id }))
      expect(slowSlotCount(tf(id), back.from, back.to)).toBe(n)
      const fwd = parsed(e, q(e, { timeframe: id, from: '1780272000' }))
      expect(slowSlotCount(tf(id), fwd.from, fwd.to)).toBe(n)
    }
  })
  it('aligns windows in ctx.timeZone when given', () => {
    const r = parseHistoryQuery('tpo', { ...BASE, timeframe: '1d' }, { now: NOW, timeZone: 'America/New_York' })
    expect(r.ok && [r.value.from, r.value.timeZone]).toEqual([Date.UTC(2026, 4, 22, 4), 'America/New_York'])
  })
})

describe('input shapes and programming errors', () => {
  it('accepts URLSearchParams and records alike', () => {
    const a = parseHistoryQuery(
      'footprint',
      new URLSearchParams('exchange=X&symbol=S&timeframe=5m&from=1780272000&rowSize=4'),
      { now: NOW },
    )
    const b = parseHistoryQuery(
      'footprint',
      { exchange: 'X', symbol: 'S', timeframe: '5m', from: '1780272000', rowSize: ['4'] },
      { now: NOW },
    )
    expect(a).toEqual(b)
  })
  it('accepts a URLSearchParams look-alike (polyfill or another realm)', () => {
    const inner = new URLSearchParams('exchange=X&symbol=S&timeframe=1d&sessionType=PRE_MARKET')
    const lookAlike = { getAll: (n: string) => inner.getAll(n), [Symbol.iterator]: () => inner[Symbol.iterator]() }
    const r = parseHistoryQuery('tpo', lookAlike as unknown as URLSearchParams, { now: NOW })
    expect(r.ok && r.value.sessionTypes).toEqual(['PRE_MARKET'])
  })
  it('an empty array value counts as absent', () => {
    expect(parsed('candles', q('candles', { from: [] }))).toMatchObject({ pinned: 'to' })
  })
  it('a non-string value is 400 naming the parameter', () => {
    rejected('candles', { ...BASE, timeframe: '1m', limit: 5 } as unknown as Record<string, string>, 'limit')
    rejected('candles', { ...BASE, timeframe: '1m', limit: [null] } as unknown as Record<string, string>, 'limit')
  })
  it('a query that is not an object is 400', () => {
    for (const bad of [null, undefined, 42, 'exchange=X', []]) {
      const r = parseHistoryQuery('candles', bad as unknown as Record<string, string>, { now: NOW })
      expect(r.ok).toBe(false)
    }
  })
  it('throws MarketDataError only for a bad ctx (programming error)', () => {
    expect(() => parseHistoryQuery('candles', q('candles'), { now: Number.NaN })).toThrow(MarketDataError)
    expect(() => parseHistoryQuery('candles', q('candles'), { now: NOW, timeZone: 'Mars/Olympus' })).toThrow(
      MarketDataError,
    )
  })
  it('an unknown endpoint name is 400', () => {
    const r = parseHistoryQuery('trades' as HistoryEndpoint, q('candles'), { now: NOW })
    expect(r.ok).toBe(false)
  })
})
