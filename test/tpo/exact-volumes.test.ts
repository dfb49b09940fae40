import Big from 'big.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { candlesFromTrades } from '../../src/candles/index.js'
import { formatUnits } from '../../src/decimal/index.js'
import { createFootprintAggregator, footprintProfiles } from '../../src/footprint/index.js'
import { createTpoAggregator, tpoProfiles } from '../../src/tpo/index.js'
import type { Trade } from '../../src/trades/index.js'
import { referenceFootprint } from '../footprint/reference.js'
import { pick, referenceProfiles, type RefOptions } from './reference.js'

Big.NE = -100
Big.PE = 100

const T0 = Date.UTC(2026, 5, 1, 13)
const opts: RefOptions = { timeframe: '1d', tickSize: '0.01', rowSize: 5, timeZone: 'America/New_York' }

/** Volumes a double cannot carry, with many decimals, large, whole lots and zero. */
const volumeArb = fc.oneof(
  fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 18n }), fc.integer({ min: 0, max: 20 })).map(([u, s]) => formatUnits(u, s)),
  fc.bigInt({ min: 0n, max: 10n ** 22n }).map(String),
  fc.integer({ min: 0, max: 500 }).map(String),
  fc.constantFrom('973063183.99440743', '0.30000000000000004', '0'),
)

const tradesArb = fc
  .array(
    fc.record({
      gap: fc.integer({ min: 0, max: 5 * 3_600_000 }),
      p: fc.integer({ min: 499_000, max: 501_000 }),
      volume: volumeArb,
      asNumber: fc.boolean(),
      sell: fc.boolean(),
    }),
    { minLength: 1, maxLength: 50 },
  )
  .map((rows) => {
    let t = T0
    return rows.map((r): Trade => {
      t += r.gap
      const v = Number(r.volume)
      // a number only where it carries the decimal exactly (its shortest form is the same decimal)
      const volume = r.asNumber && new Big(String(v)).eq(new Big(r.volume)) ? v : r.volume
      return { time: t, price: formatUnits(BigInt(r.p), 2), volume, side: r.sell ? 'sell' : 'buy' }
    })
  })

describe('TPO takes every exact volume that candles and footprint take', () => {
  it('a volume of 18 significant digits', () => {
    const trades: Trade[] = [
      { time: T0, price: '100.25', volume: '973063183.99440743', side: 'buy' },
      { time: T0 + 60_000, price: '100.25', volume: '2', side: 'buy' },
      { time: T0 + 120_000, price: '100.5', volume: '0.30000000000000004', side: 'sell' },
    ]
    const [p] = tpoProfiles(trades, { timeframe: '1d', tickSize: '0.25' })
    expect(p?.volumeBuy).toBe('973063185.99440743')
    expect(p?.volumeSell).toBe('0.30000000000000004')
    expect(p?.rows.map((r) => r.slice(2))).toEqual([
      ['973063185.99440743', '0'],
      ['0', '0.30000000000000004'],
    ])
    expect(candlesFromTrades(trades, { timeframe: '1d' })[0]?.volume).toBe('973063186.29440743000000004')
    expect(footprintProfiles(trades, { timeframe: '1d', tickSize: '0.25' })[0]?.volume).toBe(
      '973063186.29440743000000004',
    )
  })

  it('random high-scale and large volumes: TPO equals the big.js reference, batch and streaming; candles and footprint take the same stream', () => {
    fc.assert(
      fc.property(tradesArb, fc.integer({ min: 1, max: 7 }), (trades, chunk) => {
        const want = referenceProfiles(trades, opts)
        const o = { ...opts, timeframe: '1d' as const }
        expect(tpoProfiles(trades, o).map(pick)).toEqual(want)
        // streaming: one by one, and in chunks (the reader stops at each volume a double cannot carry)
        const one = createTpoAggregator(o)
        for (const t of trades) one.add(t)
        expect(one.flush().map(pick)).toEqual(want)
        const some = createTpoAggregator(o)
        for (let i = 0; i < trades.length; i += chunk) some.addTrades(trades, i, Math.min(trades.length, i + chunk))
        expect(some.flush().map(pick)).toEqual(want)
        // the same stream feeds candles and footprint, with the same total volume
        const total = trades.reduce((s, t) => s.plus(new Big(t.volume)), new Big(0))
        const candles = candlesFromTrades(trades, { timeframe: '1d', timeZone: 'America/New_York' })
        const fp = footprintProfiles(trades, { timeframe: '1d', tickSize: '0.01', timeZone: 'America/New_York' })
        const sum = (xs: string[]) => xs.reduce((s, x) => s.plus(new Big(x)), new Big(0)).toFixed()
        expect(sum(candles.map((c) => c.volume))).toBe(total.toFixed())
        expect(sum(fp.map((p) => p.volume))).toBe(total.toFixed())
        expect(sum(want.flatMap((p) => [p.volumeBuy, p.volumeSell]))).toBe(total.toFixed())
      }),
      { numRuns: 80 },
    )
  })

  it('footprint: random high-scale and large volumes equal its big.js reference, batch and streaming', () => {
    fc.assert(
      fc.property(tradesArb, (trades) => {
        const o = { timeframe: '1h', tickSize: '0.01', rowSize: 5 } as const
        const want = referenceFootprint(trades, o)
        expect(footprintProfiles(trades, o)).toEqual(want)
        const agg = createFootprintAggregator(o)
        for (const t of trades) agg.add(t)
        expect(agg.flush()).toEqual(want)
      }),
      { numRuns: 80 },
    )
  })

  it('a high-scale volume leaves the profiles of other periods as they are without it', () => {
    fc.assert(
      fc.property(tradesArb, fc.nat(), (trades, at) => {
        const i = at % trades.length
        const hostile = trades.map((t, k) => (k === i ? { ...t, volume: '0.30000000000000004' } : t))
        const o = { ...opts, timeframe: '1d' as const }
        const day = (t: Trade) => tpoProfiles([t], o)[0]?.time
        const other = (ps: ReturnType<typeof tpoProfiles>) => ps.filter((p) => p.time !== day(trades[i] as Trade))
        expect(other(tpoProfiles(hostile, o))).toEqual(other(tpoProfiles(trades, o)))
      }),
      { numRuns: 100 },
    )
  })
})
