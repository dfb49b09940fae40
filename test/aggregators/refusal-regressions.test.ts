// Streams where a refused call once left state behind that no checkpoint showed at the time, but that a
// later record then met: the stream with the refusal and the stream without it must end in the same
// checkpoint (each found by the random streams of refusal-changes-nothing.test.ts).
import { describe, expect, it } from 'vitest'
import { createFootprintAggregator } from '../../src/footprint/index.js'
import { createTpoAggregator } from '../../src/tpo/index.js'
import type { Trade } from '../../src/trades/index.js'
import { T0, badColumns, badTrade, json, toColumns } from './harness.js'

type Fed = { checkpoint(): unknown; flush(): unknown[] }

/** The end of `feed` with `refuse` called first (and refused), beside the end of `feed` alone. */
function bothEnds<A extends Fed>(make: () => A, refuse: (a: A) => void, feed: (a: A) => void): [unknown, unknown] {
  const end = (a: A) => ({ checkpoint: json(a.checkpoint()), flush: json(a.flush()) })
  const a = make()
  expect(() => refuse(a)).toThrow()
  feed(a)
  const b = make()
  feed(b)
  return [end(a), end(b)]
}

describe('a refused record leaves no bucket or block behind', () => {
  it('footprint: a column batch refused for its session code opens no bucket around its price', () => {
    const trades = (t: number, price: number, volume: number): Trade[] => [
      { time: t, price, volume, side: 'sell' },
      { time: t + 1, price, volume, side: 'sell' },
    ]
    const [withRefusal, without] = bothEnds(
      () => createFootprintAggregator({ timeframe: '5m', tickSize: '0.25' }),
      (a) => a.addColumns(badColumns(T0, { field: 'session', value: 9 })),
      (a) => {
        // a price far below the refused record's 5000, in the same bucket, then one that needs more decimals
        a.addColumns(toColumns(trades(T0 + 60_000, 1e-7, 0)))
        a.add({ time: T0 + 61_000, price: '9.417e-05', volume: '1E-300', side: 'buy' })
        a.add({ time: T0 + 62_000, price: 5000, volume: 0.5, side: 'buy' })
      },
    )
    expect(withRefusal).toEqual(without)
  })

  it('tpo: a refused trade does not change the order its period keeps blocks in', () => {
    const [withRefusal, without] = bothEnds(
      () => createTpoAggregator({ timeframe: '1d', tickSize: '0.25', blockSize: '30m' }),
      (a) => a.addTrades([badTrade(T0, { field: 'volume', value: -1 })]),
      (a) => {
        // the block before the refused record's block first, then the refused record's own block
        a.add({ time: T0 - 1, price: 5000, volume: 1, side: 'buy' })
        a.add({ time: T0 + 60_000, price: '5e3', volume: 0.5, side: 'buy' })
        a.add({ time: T0 + 120_000, price: 5001.5, volume: 2, side: 'sell' })
      },
    )
    expect(withRefusal).toEqual(without)
  })
})
