import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toUnitsBig, decimalsOf } from '../../src/decimal/index.js'
import { createScaledTradeReader, tradesToColumns, type Trade } from '../../src/trades/index.js'
import { tradesArb } from '../../src/testing/arbitraries.js'

// trades with occasional huge or very fine decimals, to exercise bigint fallbacks and scale growth
const wildTrades = fc
  .tuple(
    tradesArb({ offGrid: true, negativePrices: true, maxLength: 40 }),
    fc.array(
      fc.tuple(
        fc.nat(),
        fc.constantFrom('123456789012345678.9', '0.000000123', '4503599627370496', '-98765432109876543210', '7'),
        fc.constantFrom('99999999999999999999.5', '0.0001', '3'),
      ),
      { maxLength: 3 },
    ),
  )
  .map(([ts, patches]) => {
    const out = ts.map((t) => ({ ...t }))
    for (const [at, p, v] of patches)
      if (out.length > 0) {
        const t = out[at % out.length] as Trade
        t.price = p
        t.volume = v
      }
    return out
  })

describe('ScaledTradeReader', () => {
  it('gives exact units of every record at the chunk scale, objects, any chunk size', () => {
    fc.assert(
      fc.property(wildTrades, fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 3 }), (trades, chunk, ps) => {
        const r = createScaledTradeReader({ chunkSize: chunk, priceScale: ps })
        let lastPs = ps
        let lastVs = 0
        for (let at = 0; at < trades.length; ) {
          const k = r.readTrades(trades, at, trades.length, 1000 + at)
          expect(k).toBeGreaterThan(0)
          expect(r.index).toBe(1000 + at)
          expect(r.priceScale).toBeGreaterThanOrEqual(lastPs)
          expect(r.volumeScale).toBeGreaterThanOrEqual(lastVs)
          lastPs = r.priceScale
          lastVs = r.volumeScale
          for (let i = 0; i < k; i++) {
            const t = trades[at + i] as Trade
            expect(decimalsOf(t.price)).toBeLessThanOrEqual(r.priceScale)
            expect(r.priceBig(i)).toBe(toUnitsBig(t.price, r.priceScale))
            expect(r.volumeBig(i)).toBe(toUnitsBig(t.volume, r.volumeScale))
            const fast = r.price[i] as number
            if (fast === fast) expect(BigInt(fast)).toBe(r.priceBig(i))
            expect(r.time[i]).toBe(t.time)
            expect(r.side[i]).toBe(t.side === 'buy' ? 1 : 2)
            expect(r.session[i]).toBe(t.session === 'PRE_MARKET' ? 1 : t.session === 'POST_MARKET' ? 2 : 0)
          }
          at += k
        }
      }),
      { numRuns: 80 },
    )
  })

  it('gives exact units from columns', () => {
    fc.assert(
      fc.property(
        tradesArb({ offGrid: true, negativePrices: true }),
        fc.integer({ min: 1, max: 50 }),
        (trades, chunk) => {
          const cols = tradesToColumns(trades)
          const r = createScaledTradeReader({ chunkSize: chunk })
          for (let at = 0; at < trades.length; ) {
            const k = r.readColumns(cols, at, trades.length, at)
            for (let i = 0; i < k; i++) {
              const t = trades[at + i] as Trade
              expect(r.priceBig(i)).toBe(toUnitsBig(t.price, r.priceScale))
              expect(r.volumeBig(i)).toBe(toUnitsBig(t.volume, r.volumeScale))
            }
            at += k
          }
        },
      ),
      { numRuns: 60 },
    )
  })

  it('throws MarketDataError naming the stream index and field', () => {
    const ok: Trade = { time: 0, price: '1.5', volume: '2', side: 'buy' }
    const r = createScaledTradeReader()
    expect(() => r.readTrades([ok, { ...ok, volume: '-2' }], 0, 2, 40)).toThrow(
      expect.objectContaining({ index: 41, field: 'volume', code: 'invalid_volume' }),
    )
    expect(() => r.readTrades([ok, { ...ok, price: 'NaN' }], 0, 2, 0)).toThrow(
      expect.objectContaining({ index: 1, field: 'price' }),
    )
    expect(() => r.readTrades([ok, { ...ok, side: 'x' as never }, { ...ok, price: 'x' }], 0, 3, 0)).toThrow(
      expect.objectContaining({ index: 1, field: 'side' }),
    )
    expect(() => r.readTrade({ ...ok, session: 'NIGHT' as never }, 9)).toThrow(
      expect.objectContaining({ index: 9, field: 'session' }),
    )
    const c = tradesToColumns([ok, ok, ok])
    c.volume[2] = -1
    c.price[1] = Number.NaN
    expect(() => r.readColumns(c, 0, 3, 5)).toThrow(expect.objectContaining({ index: 6, field: 'price' }))
    c.price[1] = 1
    expect(() => r.readColumns(c, 0, 3, 5)).toThrow(expect.objectContaining({ index: 7, field: 'volume' }))
    c.time[0] = 0.5
    expect(() => r.readColumns(c, 0, 3, 5)).toThrow(expect.objectContaining({ index: 5, field: 'time' }))
  })
})
