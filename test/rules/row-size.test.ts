// The footprint row height a query may ask for: what the parser and checkRowSize refuse is what the price grid of
// the aggregation refuses, so that a request the rules accept never fails later as input (never a 500).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { footprintProfiles, tpoProfiles, type Trade } from '../../src/index.js'
import { checkRowSize, parseHistoryQuery, type HistoryRequest } from '../../src/rules/index.js'
import { BASE, NOW, parsed, rejected } from './helpers.js'

const fp = (extra: Record<string, string>) => ({ ...BASE, timeframe: '1h', ...extra })

/** Runs the aggregation a request describes, as a server does, with the security's tick size. */
function run(r: HistoryRequest, tickSize: string, trades: Trade[]): unknown {
  const common = { timeframe: r.timeframe, tickSize, timeZone: r.timeZone, sessions: r.sessionTypes }
  if (r.endpoint === 'footprint') {
    const row = r.rowSizeValue !== undefined ? { rowSizeValue: r.rowSizeValue } : { rowSize: r.rowSize ?? 1 }
    return footprintProfiles(trades, { ...common, ...row, from: r.from, to: r.to })
  }
  if (r.endpoint === 'tpo') {
    return tpoProfiles(trades, { ...common, blockSize: r.blockSize, mergeSessions: r.mergeSessions })
  }
  return undefined
}

describe('rowSizeValue no grid can hold is refused by the parser', () => {
  it.each(['9007199254740993', '4503599627370496', '4503599627370496.5', '1'.repeat(60)])('%s', (v) => {
    expect(rejected('footprint', fp({ rowSizeValue: v }), 'rowSizeValue').message).toMatch(
      /^rowSizeValue: .*below 2\^52/,
    )
  })
  it('the largest value of a whole-number grid parses, and runs with tick size 1', () => {
    const r = parsed('footprint', fp({ rowSizeValue: '4503599627370495' }))
    expect(checkRowSize(r, { tickSize: '1' })).toBeUndefined()
    const trade: Trade = { time: r.from, price: '5000', volume: '1', side: 'buy' }
    expect(run(r, '1', [trade])).toHaveLength(1)
  })
})

describe('checkRowSize: the rules that need the tick size', () => {
  it('a row finer than the tick is refused naming rowSizeValue and the tick size', () => {
    const r = parsed('footprint', fp({ rowSizeValue: '0.0000000000001' }))
    const e = checkRowSize(r, { tickSize: '0.25' })
    expect(e).toMatchObject({ status: 400, code: 'invalid_argument', parameter: 'rowSizeValue' })
    expect(e?.message).toMatch(/^rowSizeValue: must be at least the tick size 0\.25/)
    // the aggregation refuses it too, once a price the tick grid holds arrives
    const trade: Trade = { time: r.from, price: '5000.25', volume: '1', side: 'buy' }
    expect(() => run(r, '0.25', [trade])).toThrow(/too far from 0/)
  })
  it('a row whose units at the tick decimals reach 2^52 is refused; the same row on a whole tick is fine', () => {
    const r = parsed('footprint', fp({ rowSizeValue: '4503599627370495' }))
    expect(checkRowSize(r, { tickSize: '0.25' })?.message).toMatch(/^rowSizeValue: .*2 decimals must stay below 2\^52/)
    expect(() => run(r, '0.25', [])).toThrow(/below 2\^52/)
  })
  it('rowSize in ticks: refused when ticks x tick units reach 2^52', () => {
    const r = parsed('footprint', fp({ rowSize: '1000' }))
    expect(checkRowSize(r, { tickSize: '4503599627371' })).toMatchObject({ parameter: 'rowSize' })
    expect(checkRowSize(r, { tickSize: '4503599627' })).toBeUndefined()
  })
  it('a row off the tick multiple but not finer than a tick passes (footprint rows may be any height)', () => {
    const r = parsed('footprint', fp({ rowSizeValue: '0.3' }))
    expect(checkRowSize(r, { tickSize: '0.25' })).toBeUndefined()
  })
  it('candles and TPO requests pass; a bad tick size is a programming error', () => {
    const now = { now: NOW }
    const c = parseHistoryQuery('candles', fp({}), now)
    const t = parseHistoryQuery('tpo', { ...BASE, timeframe: '1d' }, now)
    expect(c.ok && checkRowSize(c.value, { tickSize: '0.25' })).toBeUndefined()
    expect(t.ok && checkRowSize(t.value, { tickSize: '0.25' })).toBeUndefined()
    const r = parsed('footprint', fp({}))
    for (const bad of ['0', '-1', 'x', '4503599627370496', null, undefined]) {
      expect(() => checkRowSize(r, { tickSize: bad as string })).toThrow(
        expect.objectContaining({ code: 'invalid_option', field: 'tickSize' }),
      )
    }
    expect(() => checkRowSize(r, { tickSize: '1', other: 1 } as never)).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    )
  })
})

// Tick sizes of real securities and odd ones; hostile row heights beside valid ones.
const tickSize = fc.oneof(
  fc.constantFrom('0.01', '0.25', '0.02', '1', '5', '0.0001', '0.00000001', '0.5', '100'),
  fc
    .tuple(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 12 }))
    .map(([u, s]) => (s === 0 ? String(u) : (u / 10 ** s).toFixed(s).replace(/\.?0+$/, ''))),
)
const decimalText = fc
  .tuple(fc.stringMatching(/^[0-9]{1,20}$/), fc.option(fc.stringMatching(/^[0-9]{1,20}$/), { nil: undefined }))
  .map(([i, f]) => (f === undefined ? i : `${i}.${f}`))
const rowSizeValue = fc.oneof(
  fc.constantFrom(
    '0.0000000000001',
    '9007199254740993',
    '4503599627370496',
    '4503599627370495',
    '0.00000000000000000001',
    '1e-3',
    '0',
    '-1',
    '0.25',
    '0.3',
    '1',
    '1000000',
  ),
  decimalText,
)
const rowSize = fc.oneof(fc.integer({ min: -1, max: 1100 }).map(String), fc.constantFrom('', '1.5', 'x', '1000'))
const footprintQuery = fc.record(
  {
    timeframe: fc.constantFrom('1m', '15m', '1h', '4h', '1d', '1w', '1M', '1t', '60m'),
    rowSize,
    rowSizeValue,
    period: fc.constantFrom('3600', '86400', '604800'),
    sessionType: fc.constantFrom('MAINSESSION', 'PRE_MARKET,POST_MARKET'),
  },
  { requiredKeys: ['timeframe'] },
)
const tpoQuery = fc.record(
  {
    timeframe: fc.constantFrom('1d', '2d', '1w', '1M', '1h'),
    blockSize: fc.constantFrom('30m', '1h', '7m', '1d'),
    mergeSessions: fc.constantFrom('true', 'false', 'GROUP_BY_TYPE'),
    period: fc.constantFrom('86400', '604800'),
  },
  { requiredKeys: ['timeframe'] },
)

/**
 * A few trades of one security at prices its tick grid holds (|price / tickSize| within 2^53 - 1), on or off the
 * grid, around a level anywhere in that range and within 2,000 ticks of it (TPO refuses a profile of more than
 * 1,000,000 rows whatever the query says: a property of the data, not of the request).
 */
const LEVEL_MAX = 2 ** 53 - 1 - 2000
const tradesFor = (tick: string, from: number, to: number, level: number) =>
  fc
    .array(
      fc.record({
        time: fc.integer({ min: Math.max(0, from), max: Math.max(from, to - 1) }),
        ticks: fc.integer({ min: -2000, max: 2000 }).map((k) => level + k),
        off: fc.constantFrom('', '1', '49'),
        volume: fc.constantFrom('1', '0', '0.001', '250'),
        side: fc.constantFrom('buy' as const, 'sell' as const),
        session: fc.constantFrom('MAINSESSION' as const, 'PRE_MARKET' as const, 'POST_MARKET' as const),
      }),
      { minLength: 1, maxLength: 5 },
    )
    .map((rows) =>
      rows.map((x): Trade => {
        const n = BigInt(x.ticks)
        const [ti, tf = ''] = tick.split('.')
        const units = n * BigInt(ti + tf)
        const neg = units < 0n
        const digits = (neg ? -units : units).toString().padStart(tf.length + 1, '0')
        const whole = tf.length === 0 ? digits : `${digits.slice(0, -tf.length)}.${digits.slice(-tf.length)}`
        // an off-grid tail stays within the row of its tick (floored into it), so |price / tick| keeps its bound
        const tail = x.off === '' || neg ? '' : `${tf.length === 0 ? '.' : ''}${'0'.repeat(4)}${x.off}`
        return {
          time: x.time,
          price: `${neg ? '-' : ''}${whole}${tail}`,
          volume: x.volume,
          side: x.side,
          session: x.session,
        }
      }),
    )

describe('a query the rules accept never fails later as input', () => {
  it.each([
    ['footprint', footprintQuery],
    ['tpo', tpoQuery],
  ] as const)('%s: parse + checkRowSize accepted -> the aggregation runs', (endpoint, query) => {
    let accepted = 0
    const level = fc.oneof(fc.integer({ min: -1000, max: 100_000 }), fc.constantFrom(LEVEL_MAX, -(2 ** 52)))
    fc.assert(
      fc.property(query, tickSize, level, fc.integer({ min: 0, max: 2 ** 31 }), (q, tick, lvl, seed) => {
        const p = parseHistoryQuery(endpoint, { ...BASE, ...q }, { now: NOW })
        if (!p.ok) return
        if (checkRowSize(p.value, { tickSize: tick }) !== undefined) return
        accepted++
        const trades = fc.sample(tradesFor(tick, p.value.from, p.value.to, lvl), { numRuns: 1, seed })[0] as Trade[]
        expect(() => run(p.value, tick, trades)).not.toThrow()
      }),
      { numRuns: 300 },
    )
    // the property is not vacuous: many drawn queries were accepted and run (about one in ten of the 300
    // drawn is, 28 in the fewest seen; 15 keeps the check without failing on an unlucky seed)
    expect(accepted).toBeGreaterThan(15)
  })
})
