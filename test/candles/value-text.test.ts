// candleColumnsFromTrades with valueText: every candle's exact value as decimal text, so value sums a
// double cannot carry (crypto prices x 8-decimal volumes, far beyond 2^52 units) come out instead of `inexact`.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  candleColumnsFromTrades,
  candlesFromTrades,
  type CandleColumns,
  type CandleOptions,
} from '../../src/candles/index.js'
import { tradesToColumns, type Trade } from '../../src/trades/index.js'
import { asColumns } from './helpers.js'
import { referenceCandlesFromTrades } from './reference.js'

const T0 = Date.UTC(2026, 4, 29, 13)
/** trades: the value columns but value itself (compared as text) */
const NO_VALUE = { trades: new Float64Array(0), session: new Uint8Array(0) } as unknown as CandleColumns

// crypto-like trades: prices with 2 or 8 decimals (near 60,000 or 0.0014, or anything), volumes with up to
// 8 decimals over many orders of magnitude, runs of one price, a third of the time the same time
const cryptoTrades: fc.Arbitrary<Trade[]> = fc
  .tuple(
    fc.constantFrom(2, 8),
    fc.array(
      fc.record({
        gap: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 90_000 })),
        price: fc.oneof(
          fc.integer({ min: 5_999_000, max: 6_001_000 }),
          fc.integer({ min: 1, max: 200_000 }),
          fc.integer({ min: 1, max: 2 ** 40 }),
        ),
        repeat: fc.boolean(),
        vol: fc.integer({ min: 0, max: 10_000_000_000_000 }),
        vs: fc.integer({ min: 0, max: 8 }),
        sell: fc.boolean(),
        session: fc.constantFrom(undefined, 'MAINSESSION' as const, 'PRE_MARKET' as const),
      }),
      { maxLength: 120 },
    ),
  )
  .map(([ps, rows]) => {
    let t = T0
    let p = 6_000_000
    return rows.map((r) => {
      t += r.gap
      if (!r.repeat) p = r.price
      const volume = Number((r.vol - (r.vol % 10 ** (8 - r.vs))) / 1e8)
      const tr: Trade = { time: t, price: p / 10 ** ps, volume, side: r.sell ? 'sell' : 'buy' }
      if (r.session !== undefined) tr.session = r.session
      return tr
    })
  })

const optsArb: fc.Arbitrary<CandleOptions> = fc.record(
  {
    timeframe: fc.constantFrom<CandleOptions['timeframe']>('1m', '5m', '1h', '1d', '3t'),
    sessions: fc.constantFrom(undefined, ['MAINSESSION' as const]),
  },
  { requiredKeys: ['timeframe'] },
)

/** What valueText must return: the reference candles as columns, their values as the reference's text. */
function want(
  trades: Trade[],
  opts: CandleOptions,
): { cols: CandleColumns & { valueText: string[] }; inexact: boolean } {
  const cs = referenceCandlesFromTrades(trades, opts)
  const { cols, inexact } = asColumns(cs, NO_VALUE)
  return { cols: { ...cols, valueText: cs.map((c) => c.value ?? 'missing') }, inexact }
}

describe('candleColumnsFromTrades valueText: exact value text = the big.js reference', () => {
  it('any crypto-like trades (sums far beyond 2^52 units), time and tick frames, session filter; only a volume a double cannot carry is refused', () => {
    fc.assert(
      fc.property(cryptoTrades, optsArb, (trades, opts) => {
        const w = want(trades, opts)
        const cols = tradesToColumns(trades)
        if (w.inexact)
          expect(() => candleColumnsFromTrades(cols, { ...opts, valueText: true })).toThrow(
            expect.objectContaining({ code: 'inexact', field: 'volume' }),
          )
        else expect(candleColumnsFromTrades(cols, { ...opts, valueText: true })).toEqual(w.cols)
      }),
      { numRuns: 300 },
    )
  })

  it('batches split anywhere = one TradeColumns = the reference', () => {
    fc.assert(
      fc.property(cryptoTrades, optsArb, fc.array(fc.nat(), { maxLength: 4 }), (trades, opts, cuts) => {
        const at = cuts.map((c) => c % (trades.length + 1)).sort((a, b) => a - b)
        const parts = [...at, trades.length].map((b, k) => tradesToColumns(trades.slice(k === 0 ? 0 : at[k - 1], b)))
        const w = want(trades, opts)
        if (w.inexact)
          expect(() => candleColumnsFromTrades(parts, { ...opts, valueText: true })).toThrow(
            expect.objectContaining({ code: 'inexact' }),
          )
        else expect(candleColumnsFromTrades(parts, { ...opts, valueText: true })).toEqual(w.cols)
      }),
      { numRuns: 150 },
    )
  })

  it('a value beyond a double: refused as inexact without valueText, exact text with it', () => {
    // three trades in one minute: their value 75614434.9441922512 has 18 significant digits
    const prices = [60000.13, 60001.27, 60002.39]
    const volumes = [1234.56789123, 0.98765432, 24.68135791]
    const trades: Trade[] = [0, 1, 2].map((k) => ({
      time: T0 + k,
      price: prices[k] as number,
      volume: volumes[k] as number,
      side: 'buy',
    }))
    const cols = tradesToColumns(trades)
    expect(() => candleColumnsFromTrades(cols, { timeframe: '1m' })).toThrow(
      expect.objectContaining({ code: 'inexact', field: 'value' }),
    )
    const got = candleColumnsFromTrades(cols, { timeframe: '1m', valueText: true })
    expect(got.valueText).toEqual(['75614434.9441922512'])
    expect(got.value).toBeUndefined()
    expect(Array.from(got.volume)).toEqual([1260.23690346])
  })

  it('valueText false is the number column; anything but a boolean is refused naming the option', () => {
    const cols = tradesToColumns([{ time: T0, price: 2.5, volume: 4, side: 'buy' }])
    expect(candleColumnsFromTrades(cols, { timeframe: '1m', valueText: false })).toEqual(
      candleColumnsFromTrades(cols, { timeframe: '1m' }),
    )
    expect(candleColumnsFromTrades(cols, { timeframe: '1m' }).value).toEqual(new Float64Array([10]))
    expect(() => candleColumnsFromTrades(cols, { timeframe: '1m', valueText: 'yes' as never })).toThrow(
      expect.objectContaining({ code: 'invalid_option', field: 'valueText' }),
    )
  })
})

describe('value sums in 26-bit limbs (price units below 2^26 x run volumes past 2^26 units): no carry lost', () => {
  // price units just below 2^26 (2 decimals: 671088.63) and run volumes up to 2^52 units (8 decimals): each
  // run's high-limb product is near 2^52, so the limb sums spill and fold within a few runs
  const limbTrades = fc
    .array(
      fc.record({
        pu: fc.oneof(
          fc.integer({ min: 2 ** 26 - 40, max: 2 ** 26 - 1 }),
          fc.integer({ min: -(2 ** 26) + 1, max: -(2 ** 26) + 40 }),
          fc.integer({ min: 1, max: 2 ** 26 - 1 }),
        ),
        vu: fc.oneof(
          fc.integer({ min: 2 ** 51, max: 2 ** 52 - 1 }),
          fc.integer({ min: 2 ** 26 - 4, max: 2 ** 26 + 4 }),
          fc.integer({ min: 0, max: 2 ** 30 }),
        ),
        repeat: fc.boolean(),
        gap: fc.constantFrom(0, 1, 20_000),
      }),
      { minLength: 1, maxLength: 60 },
    )
    .map((rows) => {
      let t = T0
      let pu = rows[0]?.pu ?? 1
      return rows.map((r): Trade => {
        t += r.gap
        if (!r.repeat) pu = r.pu
        return { time: t, price: pu / 100, volume: r.vu / 1e8, side: 'buy' }
      })
    })

  it('valueText = the big.js reference (volumes too, when a double carries them)', () => {
    fc.assert(
      fc.property(limbTrades, fc.constantFrom<CandleOptions['timeframe']>('1m', '1h', '2t'), (trades, timeframe) => {
        const w = want(trades, { timeframe })
        const cols = tradesToColumns(trades)
        if (w.inexact)
          expect(() => candleColumnsFromTrades(cols, { timeframe, valueText: true })).toThrow(
            expect.objectContaining({ code: 'inexact', field: 'volume' }),
          )
        else expect(candleColumnsFromTrades(cols, { timeframe, valueText: true })).toEqual(w.cols)
      }),
      { numRuns: 300 },
    )
  })

  it('candlesFromTrades on the same trades = the reference (the objects path shares the limb sums)', () => {
    fc.assert(
      fc.property(limbTrades, (trades) => {
        expect(candlesFromTrades(tradesToColumns(trades), { timeframe: '1m' })).toEqual(
          referenceCandlesFromTrades(trades, { timeframe: '1m' }),
        )
      }),
      { numRuns: 200 },
    )
  })
})
