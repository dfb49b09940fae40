import Big from 'big.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { candlesFromTrades } from '../../src/candles/index.js'
import { MarketDataError } from '../../src/errors.js'
import { footprintProfiles } from '../../src/footprint/index.js'
import { sampleMarketTrades, type SampleMarket } from '../../src/sample/index.js'
import { tpoProfiles } from '../../src/tpo/index.js'

const MARKETS: SampleMarket[] = ['busy-crypto', 'thin-altcoin']

/** Share of trades whose price equals the previous trade's. */
function repeatShare(price: Float64Array): number {
  let r = 0
  for (let i = 1; i < price.length; i++) if (price[i] === price[i - 1]) r++
  return r / (price.length - 1)
}

describe('sampleMarketTrades', () => {
  it('is deterministic per seed and differs across seeds', () => {
    for (const m of MARKETS) {
      const a = sampleMarketTrades(m, { seed: 5, trades: 2_000 })
      const b = sampleMarketTrades(m, { seed: 5, trades: 2_000 })
      const c = sampleMarketTrades(m, { seed: 6, trades: 2_000 })
      expect(a).toEqual(b)
      expect(a.price).not.toEqual(c.price)
    }
  })

  it('busy crypto: about 30 trades a second, a third of prices repeated, bursts in one millisecond, 0.01 grid', () => {
    const c = sampleMarketTrades('busy-crypto', { trades: 200_000 })
    const seconds = (c.time[c.time.length - 1]! - c.time[0]!) / 1000
    expect(c.time.length / seconds).toBeGreaterThan(20)
    expect(c.time.length / seconds).toBeLessThan(40)
    expect(repeatShare(c.price)).toBeGreaterThan(0.25)
    expect(repeatShare(c.price)).toBeLessThan(0.4)
    let sameMs = 0
    for (let i = 1; i < c.time.length; i++) if (c.time[i] === c.time[i - 1] && c.price[i] !== c.price[i - 1]) sameMs++
    expect(sameMs / c.time.length).toBeGreaterThan(0.05)
    for (let i = 0; i < 1_000; i++) expect(new Big(String(c.price[i])).times(100).mod(1).eq(0)).toBe(true)
    const vols = Array.from(c.volume.subarray(0, 20_000))
    expect(Math.max(...vols) / Math.min(...vols)).toBeGreaterThan(1_000)
  })

  it('thin altcoin: about 5 trades a minute, 8-decimal prices finer than a 0.000001 grid', () => {
    const c = sampleMarketTrades('thin-altcoin', { trades: 20_000 })
    const minutes = (c.time[c.time.length - 1]! - c.time[0]!) / 60_000
    expect(c.time.length / minutes).toBeGreaterThan(3.5)
    expect(c.time.length / minutes).toBeLessThan(6.5)
    expect(repeatShare(c.price)).toBeGreaterThan(0.25)
    let offGrid = 0
    for (const p of c.price) if (!new Big(String(p)).times(1e6).mod(1).eq(0)) offGrid++
    expect(offGrid / c.price.length).toBeGreaterThan(0.5)
  })

  it('times never decrease, sides are 1 or 2, prices positive, values read back as their decimals', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...MARKETS),
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.integer({ min: 1, max: 3_000 }),
        (m, seed, n) => {
          const c = sampleMarketTrades(m, { seed, trades: n })
          expect(c.time.length).toBe(n)
          let bad: string | undefined
          for (let i = 0; i < n && bad === undefined; i++) {
            if (i > 0 && c.time[i]! < c.time[i - 1]!) bad = `time ${i} decreases`
            else if (c.side[i] !== 1 && c.side[i] !== 2) bad = `side ${i}`
            else if (!(c.price[i]! > 0) || !(c.volume[i]! > 0)) bad = `price or volume ${i} not positive`
            // at most 8 decimals in the shortest form: every aggregator reads it exactly
            else if (!/^\d+(\.\d{1,8})?$/.test(String(c.volume[i]))) bad = `volume ${i} = ${c.volume[i]}`
          }
          expect(bad).toBeUndefined()
        },
      ),
      { numRuns: 40 },
    )
  })

  it('feeds candles, footprint and TPO alike', () => {
    for (const m of MARKETS) {
      const c = sampleMarketTrades(m, { trades: 5_000 })
      const tick = m === 'busy-crypto' ? '0.01' : '0.000001'
      expect(candlesFromTrades(c, { timeframe: '1h' }).length).toBeGreaterThan(0)
      expect(footprintProfiles(c, { timeframe: '1h', tickSize: tick }).length).toBeGreaterThan(0)
      expect(
        tpoProfiles(c, { timeframe: '1d', tickSize: tick, rowSize: m === 'busy-crypto' ? 100 : 10 }).length,
      ).toBeGreaterThan(0)
    }
  })

  it('refuses bad options naming the field', () => {
    const cases: [unknown, unknown, string][] = [
      ['bitcoin', {}, 'market'],
      ['busy-crypto', { trades: 0 }, 'trades'],
      ['busy-crypto', { trades: 1.5 }, 'trades'],
      ['busy-crypto', { seed: -1 }, 'seed'],
      ['thin-altcoin', { start: 1e16 }, 'start'],
      ['thin-altcoin', null, 'options'],
      ['toString', {}, 'market'],
    ]
    for (const [m, o, field] of cases) {
      let err: unknown
      try {
        sampleMarketTrades(m as SampleMarket, o as object)
      } catch (e) {
        err = e
      }
      expect(err).toBeInstanceOf(MarketDataError)
      expect((err as MarketDataError).code).toBe('invalid_option')
      expect((err as MarketDataError).field).toBe(field)
      expect((err as MarketDataError).message).toContain(field)
    }
  })
})
