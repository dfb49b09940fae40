import { fc, test as fcTest } from '@fast-check/vitest'
import Big from 'big.js'
import { describe, expect, it } from 'vitest'
import { renderTpo, renderTpoSvg } from '../../src/render/index.js'
import {
  compositeTpoProfile,
  mergeTpoProfiles,
  tpoFromCandles,
  tpoProfiles,
  type TpoCandleProfile,
  type TpoProfile,
} from '../../src/tpo/index.js'
import type { Trade } from '../../src/trades/index.js'
import { candlesOf } from './reference.js'

const T0 = Date.UTC(2026, 5, 1)

/** Trades over four UTC days, main session, tick 0.25; volumes with up to 2 decimals. */
const daysTrades = fc
  .array(
    fc.record({
      dt: fc.integer({ min: 0, max: 4 * 1440 - 1 }),
      k: fc.integer({ min: 0, max: 40 }),
      v: fc.integer({ min: 0, max: 500 }),
      sell: fc.boolean(),
    }),
    { minLength: 1, maxLength: 60 },
  )
  .map((xs) =>
    xs.map(
      (x, i): Trade => ({
        time: T0 + x.dt * 60_000 + i,
        price: (4000 + x.k) / 4,
        volume: x.v / 100,
        side: x.sell ? 'sell' : 'buy',
      }),
    ),
  )

/** The fields a profile from candles shares with one from trades (no per-row volumes, no open/close times). */
function core(p: TpoProfile | TpoCandleProfile): Record<string, unknown> {
  const o: Record<string, unknown> = { ...p }
  for (const k of [
    'volumePoc',
    'volumeValueAreaHigh',
    'volumeValueAreaLow',
    'volumeBuy',
    'volumeSell',
    'openTime',
    'closeTime',
    'rowVolumes',
    'volume',
  ])
    delete o[k]
  o.rows = p.rows.map((r) => [r[0], r[1]])
  return o
}

describe('profiles from candles merge, make composites and render', () => {
  const opts = { timeframe: '1d', tickSize: '0.25', blockSize: '30m' } as const
  // the candles are 30m candles: said, so gaps between them are not taken for their length
  const candleOpts = { ...opts, sourceTimeframe: '30m' } as const

  fcTest.prop([daysTrades], { numRuns: 60 })(
    'a multi-day composite from candles equals the composite from trades, minus the per-row volumes',
    (trades) => {
      const fromCandles = tpoFromCandles(candlesOf(trades, '30m'), candleOpts)
      const fromTrades = tpoProfiles(trades, opts)
      const c = compositeTpoProfile(fromCandles)
      const t = compositeTpoProfile(fromTrades)
      expect(core(c)).toEqual(core(t))
      expect(c.rowVolumes).toBe('unknown')
      expect(c.volume).toBe(new Big(t.volumeBuy).plus(t.volumeSell).toFixed())
      expect('volumePoc' in c).toBe(false)
    },
  )

  fcTest.prop([daysTrades, fc.nat()], { numRuns: 60 })(
    'merge of a split equals the profile of the concatenation (candles of one day in two parts)',
    (trades, at) => {
      const candles = candlesOf(trades, '30m').filter((c) => c.time < T0 + 86_400_000)
      if (candles.length < 2) return
      const k = 1 + (at % (candles.length - 1))
      const [a] = tpoFromCandles(candles.slice(0, k), candleOpts)
      const [b] = tpoFromCandles(candles.slice(k), candleOpts)
      const [whole] = tpoFromCandles(candles, candleOpts)
      const merged = mergeTpoProfiles(a as TpoCandleProfile, b as TpoCandleProfile)
      const { openTime, closeTime, ...rest } = merged
      const { openTime: wo, closeTime: wc, ...want } = whole as TpoCandleProfile
      expect(rest).toEqual(want)
      void [openTime, closeTime, wo, wc]
    },
  )

  it('a total volume unknown in one profile is unknown in the composite', () => {
    const [a] = tpoFromCandles([{ time: T0, open: 1, high: 2, low: 1, close: 2, volume: '3' }], {
      timeframe: '1d',
      tickSize: '1',
    })
    const [b] = tpoFromCandles([{ time: T0 + 86_400_000, open: 1, high: 2, low: 1, close: 2 }], {
      timeframe: '1d',
      tickSize: '1',
    })
    expect(compositeTpoProfile([a!, a!]).volume).toBe('6')
    expect(compositeTpoProfile([a!, b!]).volume).toBeNull()
  })

  it('a profile from trades and one from candles are refused together, saying why', () => {
    const trades: Trade[] = [{ time: T0 + 3_600_000, price: '1000', volume: '1', side: 'buy' }]
    const [t] = tpoProfiles(trades, opts)
    const [c] = tpoFromCandles(candlesOf(trades, '30m'), candleOpts)
    const mixed = expect.objectContaining({
      code: 'incompatible',
      field: 'rowVolumes',
      message: expect.stringContaining('from candles'),
    })
    expect(() => compositeTpoProfile([t!, c!] as TpoProfile[])).toThrow(mixed)
    expect(() => mergeTpoProfiles(c!, t!)).toThrow(mixed)
  })

  it('renderers take a profile from candles: no vPOC, the total volume, and a note that row volumes are unknown', () => {
    const candles = [
      { time: T0 + 9 * 3_600_000, open: 100, high: 103, low: 99, close: 101, volume: '12.5' },
      { time: T0 + 9.5 * 3_600_000, open: 101, high: 102, low: 100, close: 100 + 1, volume: '7' },
    ]
    const days = tpoFromCandles(candles, { timeframe: '1d', tickSize: '1' })
    const text = renderTpo(compositeTpoProfile(days))
    expect(text).toContain('volume 19.5 (from candles: per-row and per-side volumes unknown)')
    expect(text).toContain('POC')
    expect(text).not.toContain('vPOC')
    expect(renderTpoSvg(days[0]!)).toContain('<svg')
  })
})
