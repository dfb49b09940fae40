import { fc, test as fcTest } from '@fast-check/vitest'
import Big from 'big.js'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import {
  compositeTpoProfile,
  developingTpo,
  mergeTpoProfiles,
  nakedPocs,
  tpoFromCandles,
  tpoProfiles,
  type TpoProfile,
} from '../../src/tpo/index.js'
import type { Trade } from '../../src/trades/index.js'
import { candlesOf } from './reference.js'

const T = (h: number, m = 0, day = 1) => Date.UTC(2026, 5, day, h, m)
const tr = (time: number, price: string | number, volume: string | number, side: 'buy' | 'sell' = 'buy'): Trade => ({
  time,
  price,
  volume,
  side,
})

/** Trades within one UTC week (Mon 1 .. Thu 4 June 2026), main session, tick 0.25. */
const weekTrades = fc
  .array(
    fc.record({
      dt: fc.integer({ min: 0, max: 4 * 1440 - 1 }),
      k: fc.integer({ min: 0, max: 40 }),
      v: fc.integer({ min: 0, max: 500 }),
      side: fc.constantFrom('buy' as const, 'sell' as const),
    }),
    { minLength: 1, maxLength: 60 },
  )
  .map((xs) => xs.map((x, i) => tr(T(0) + x.dt * 60_000 + i, (4000 + x.k) / 4, x.v / 100, x.side)))

describe('tpoFromCandles', () => {
  fcTest.prop([weekTrades, fc.constantFrom('30m', '1h')], { numRuns: 60 })(
    'block candles give the trade profile minus the per-row volumes',
    (trades, block) => {
      const opts = { timeframe: '1d' as const, tickSize: '0.25', blockSize: block }
      const fromTrades = tpoProfiles(trades, opts)
      const fromCandles = tpoFromCandles(candlesOf(trades, block), { ...opts, sourceTimeframe: block })
      expect(fromCandles).toHaveLength(fromTrades.length)
      fromCandles.forEach((c, i) => {
        const t = fromTrades[i]!
        const {
          rows,
          volumePoc,
          volumeValueAreaHigh,
          volumeValueAreaLow,
          volumeBuy,
          volumeSell,
          openTime,
          closeTime,
          ...rest
        } = t
        const { rows: crows, rowVolumes, volume, openTime: cot, closeTime: cct, ...crest } = c
        expect(crest).toEqual(rest)
        expect(crows).toEqual(rows.map((r) => [r[0], r[1]]))
        expect(rowVolumes).toBe('unknown')
        expect(volume).toBe(new Big(volumeBuy).plus(volumeSell).toFixed())
        expect('volumePoc' in c).toBe(false)
        void [volumePoc, volumeValueAreaHigh, volumeValueAreaLow, openTime, closeTime, cot, cct]
      })
    },
  )
  it('1m candles combine into their 30m block; a candle without volume makes the total null', () => {
    const [p] = tpoFromCandles(
      [
        { time: T(10), open: 100, high: 101, low: 99, close: 100 },
        { time: T(10, 1), open: 100, high: 103, low: 100, close: 103, volume: 5 },
        { time: T(10, 30), open: 103, high: 103, low: 102, close: 102, volume: 1, session: 'MAINSESSION' },
      ],
      { timeframe: '1d', tickSize: '1' },
    )
    expect(p!.blocks).toEqual([T(10), T(10, 30)])
    expect(p!.rows).toEqual([
      ['99', [0]],
      ['100', [0]],
      ['101', [0]],
      ['102', [0, 1]],
      ['103', [0, 1]],
    ])
    expect([p!.open, p!.close, p!.high, p!.low, p!.volume]).toEqual(['100', '102', '103', '99', null])
    expect(p!.initialBalance).toEqual({ high: '103', low: '99' })
  })
  it('a candle with low above high is rejected, naming the index', () => {
    expect(() =>
      tpoFromCandles([{ time: 0, open: 1, high: 1, low: 2, close: 1 }], { timeframe: '1d', tickSize: '1' }),
    ).toThrow(MarketDataError)
    try {
      tpoFromCandles(
        [
          { time: 0, open: 1, high: 2, low: 1, close: 1 },
          { time: 60_000, open: 'x', high: 2, low: 1, close: 1 },
        ],
        { timeframe: '1d', tickSize: '1' },
      )
    } catch (e) {
      expect([(e as MarketDataError).index, (e as MarketDataError).field]).toEqual([1, 'open'])
    }
  })
})

describe('composite profiles', () => {
  fcTest.prop([weekTrades], { numRuns: 60 })(
    'the composite of the daily profiles of a week is the weekly profile (but for time and end)',
    (trades) => {
      const days = tpoProfiles(trades, { timeframe: '1d', tickSize: '0.25' })
      const [week] = tpoProfiles(trades, { timeframe: '1w', tickSize: '0.25' })
      const c = compositeTpoProfile(days)
      expect({ ...c, time: 0, end: 0 }).toEqual({ ...week, time: 0, end: 0 })
      expect([c.time, c.end]).toEqual([days[0]!.time, days.at(-1)!.end])
    },
  )
  it('grids must match', () => {
    const [a] = tpoProfiles([tr(T(10), 1, 1)], { timeframe: '1d', tickSize: '1' })
    const [b] = tpoProfiles([tr(T(10), 1, 1)], { timeframe: '1d', tickSize: '0.5' })
    const [c] = tpoProfiles([tr(T(10), 1, 1)], { timeframe: '1d', tickSize: '1', valueAreaPercent: 60 })
    expect(() => mergeTpoProfiles(a!, b!)).toThrow(/tickSize/)
    expect(() => mergeTpoProfiles(a!, c!)).toThrow(/valueAreaPercent/)
    expect(() => compositeTpoProfile([])).toThrow(MarketDataError)
  })
  it('merging JSON round-tripped partials works (workers send JSON)', () => {
    const trades = [tr(T(10), 1, 1), tr(T(10, 10), 3, 2, 'sell'), tr(T(11), 2, '0.5')]
    const a = JSON.parse(
      JSON.stringify(tpoProfiles(trades.slice(0, 2), { timeframe: '1d', tickSize: '1' })[0]),
    ) as TpoProfile
    const b = JSON.parse(
      JSON.stringify(tpoProfiles(trades.slice(2), { timeframe: '1d', tickSize: '1' })[0]),
    ) as TpoProfile
    expect(mergeTpoProfiles(a, b)).toEqual(tpoProfiles(trades, { timeframe: '1d', tickSize: '1' })[0])
  })
})

describe('developing POC and value area', () => {
  fcTest.prop([weekTrades], { numRuns: 40 })(
    'after block k it equals the profile of blocks 0..k; the last equals the profile',
    (trades) => {
      const opts = { timeframe: '1d' as const, tickSize: '0.25' }
      for (const p of tpoProfiles(trades, opts)) {
        const dev = developingTpo(p)
        expect(dev.map((d) => d.block)).toEqual(p.blocks)
        const last = dev.at(-1)!
        expect([last.poc, last.valueAreaHigh, last.valueAreaLow, last.tpoCount]).toEqual([
          p.poc,
          p.valueAreaHigh,
          p.valueAreaLow,
          p.tpoCount,
        ])
        dev.forEach((d, k) => {
          const until = k + 1 < p.blocks.length ? p.blocks[k + 1]! : p.end
          const [q] = tpoProfiles(
            trades.filter((t) => t.time >= p.time && t.time < until),
            opts,
          )
          expect([d.poc, d.valueAreaHigh, d.valueAreaLow, d.tpoCount]).toEqual([
            q!.poc,
            q!.valueAreaHigh,
            q!.valueAreaLow,
            q!.tpoCount,
          ])
        })
      }
    },
  )
})

describe('naked POCs', () => {
  // day 1: POC 101 (see profiles.test.ts); day 2 trades 105..110 (does not reach 101);
  // day 3: block 10:00 spans 106..108 (covers 107), block 10:30 spans 100.5..104 (rows 100..104, covers 101)
  const day1 = [
    tr(T(9, 30), 100, 1),
    tr(T(9, 40), 102, 1),
    tr(T(10, 5), 101, 1),
    tr(T(10, 20), 103, 1),
    tr(T(10, 45), 101, 1),
  ]
  const day2 = [tr(T(10, 0, 2), 105, 1), tr(T(10, 10, 2), 110, 1), tr(T(11, 0, 2), 107, 1)]
  const day3 = [tr(T(10, 0, 3), 108, 1), tr(T(10, 5, 3), 106, 1), tr(T(10, 40, 3), 104, 1), tr(T(10, 50, 3), 100.5, 1)]
  it('a POC not traded through stays naked; the first later block covering its row revisits it', () => {
    const ps = tpoProfiles([...day1, ...day2, ...day3], { timeframe: '1d', tickSize: '1' })
    expect(ps.map((p) => p.poc)).toEqual(['101', '107', '104'])
    expect(nakedPocs(ps)).toEqual([
      { time: T(0, 0, 1), poc: '101', naked: false, revisitedAt: T(10, 30, 3) },
      { time: T(0, 0, 2), poc: '107', naked: false, revisitedAt: T(10, 0, 3) },
      { time: T(0, 0, 3), poc: '104', naked: true, revisitedAt: null },
    ])
  })
  it("only blocks after the profile's last block count; candle profiles work too", () => {
    const ps = tpoProfiles([...day1, ...day2], { timeframe: '1d', tickSize: '1' })
    expect(nakedPocs(ps).map((n) => n.naked)).toEqual([true, true])
    const cs = tpoFromCandles(
      [
        { time: T(10), open: 5, high: 6, low: 4, close: 5 },
        { time: T(10, 0, 2), open: 5, high: 9, low: 5, close: 9 },
      ],
      { timeframe: '1d', tickSize: '1', sourceTimeframe: '30m' },
    )
    expect(nakedPocs(cs)).toEqual([
      { time: T(0), poc: '5', naked: false, revisitedAt: T(10, 0, 2) },
      { time: T(0, 0, 2), poc: cs[1]!.poc, naked: true, revisitedAt: null },
    ])
  })
})

describe('async input', () => {
  it('tpoProfilesAsync reads an async iterable of trades and column batches', async () => {
    const { tpoProfilesAsync } = await import('../../src/tpo/index.js')
    const trades = [tr(T(10), 1, 1), tr(T(10, 40), 2, '0.5', 'sell'), tr(T(11), 3, 2)]
    async function* source() {
      yield trades[0]!
      yield {
        time: new Float64Array([T(10, 40)]),
        price: new Float64Array([2]),
        volume: new Float64Array([0.5]),
        side: new Uint8Array([2]),
      }
      yield trades[2]!
    }
    expect(await tpoProfilesAsync(source(), { timeframe: '1d', tickSize: '1' })).toEqual(
      tpoProfiles(trades, { timeframe: '1d', tickSize: '1' }),
    )
  })
})
