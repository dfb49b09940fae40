// footprintProfiles over one batch of time-ordered columns closes its buckets piece by piece as the batch
// goes (1024 records a piece, when buckets hold few trades): the same profiles as the object path (which closes them all at the end),
// across piece boundaries, with filters, and with error indexes counted from the batch's start.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import { footprintProfiles } from '../../src/footprint/index.js'
import { sampleMarketTrades } from '../../src/sample/index.js'
import type { TradeColumns } from '../../src/trades/index.js'
import { columnsAsTrades, referenceFootprint } from './reference.js'

const withSessions = (c: TradeColumns, seed: number): TradeColumns => {
  const session = new Uint8Array(c.time.length)
  for (let i = 0; i < session.length; i++) session[i] = (i * 7 + seed) % 3
  return { ...c, session }
}

describe('footprintProfiles: time-ordered columns longer than a piece', () => {
  it('equal the object path for any seed, frame, filter and length across piece boundaries', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e6 }),
        fc.integer({ min: 17000, max: 40000 }),
        fc.constantFrom('1m', '5m', '1h'),
        fc.constantFrom<'busy-crypto' | 'thin-altcoin'>('busy-crypto', 'thin-altcoin'),
        fc.boolean(),
        (seed, n, timeframe, market, filtered) => {
          let c = sampleMarketTrades(market, { seed, trades: n })
          if (filtered) c = withSessions(c, seed)
          const tickSize = market === 'thin-altcoin' ? '0.000001' : '0.01'
          const opts = {
            timeframe,
            tickSize,
            ...(filtered ? { sessions: ['MAINSESSION' as const, 'POST_MARKET' as const] } : {}),
            from: c.time[100] as number,
          }
          expect(footprintProfiles(c, opts)).toEqual(footprintProfiles(columnsAsTrades(c), opts))
        },
      ),
      { numRuns: 6 },
    )
  })

  it('equal the big.js reference on a thin market over several pieces', () => {
    const c = sampleMarketTrades('thin-altcoin', { seed: 7, trades: 35000 })
    const got = footprintProfiles(c, { timeframe: '5m', tickSize: '0.000001' })
    expect(got.length).toBeGreaterThan(1000)
    expect(got).toEqual(referenceFootprint(columnsAsTrades(c), { timeframe: '5m', tickSize: '0.000001' }))
  })

  it('equal the big.js reference when buckets reused from closed ones had gone sparse, spilled or held finer volumes', () => {
    // a closed bucket's object and arrays go to the next buckets: nothing of its rows, sums or modes may follow
    const odd = [
      { price: 1.5, volume: 0.5 }, // a row far from the others: the bucket's rows go to a Map
      { price: Number.NaN, volume: 90000000.12345678 }, // units past 2^52: the sums spill into bigints
      { price: Number.NaN, volume: 1.7e-17 }, // more decimals than the fast sums take
    ]
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e6 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 4999 }), { minLength: 1, maxLength: 12 }),
        (seed, at) => {
          const c = sampleMarketTrades('thin-altcoin', { seed, trades: 5000 })
          at.forEach((k, j) => {
            const o = odd[j % odd.length] as { price: number; volume: number }
            if (o.price === o.price) c.price[k] = o.price
            c.volume[k] = o.volume
          })
          const opts = { timeframe: '5m', tickSize: '0.000001' } as const
          expect(footprintProfiles(c, opts)).toEqual(referenceFootprint(columnsAsTrades(c), opts))
        },
      ),
      { numRuns: 8 },
    )
  })

  it('name a bad record in a later piece by its index in the batch', () => {
    const c = sampleMarketTrades('thin-altcoin', { seed: 3, trades: 40000 })
    c.volume[33001] = -1
    let err: unknown
    try {
      footprintProfiles(c, { timeframe: '5m', tickSize: '0.000001' })
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(MarketDataError)
    expect((err as MarketDataError).index).toBe(33001)
    expect((err as MarketDataError).field).toBe('volume')
  })
})
