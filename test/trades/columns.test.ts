import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseDecimal } from '../../src/decimal/index.js'
import {
  columnsToTrades,
  feedTrades,
  feedTradesAsync,
  sliceTradeColumns,
  tradesToColumns,
  type Trade,
  type TradeColumns,
} from '../../src/trades/index.js'
import { tradesArb } from '../../src/testing/arbitraries.js'

const same = (a: string | number, b: string | number) => {
  const x = parseDecimal(a)
  const y = parseDecimal(b)
  return x.ok && y.ok && x.value.units === y.value.units && x.value.scale === y.value.scale
}

describe('tradesToColumns / columnsToTrades', () => {
  it('round-trip keeps every value exactly', () => {
    fc.assert(
      fc.property(tradesArb({ offGrid: true, negativePrices: true }), (trades) => {
        const before = structuredClone(trades)
        const back = columnsToTrades(tradesToColumns(trades))
        expect(trades).toEqual(before)
        expect(back.length).toBe(trades.length)
        for (let i = 0; i < trades.length; i++) {
          const a = trades[i] as Trade
          const b = back[i] as Trade
          expect(b.time).toBe(a.time)
          expect(same(a.price, b.price)).toBe(true)
          expect(same(a.volume, b.volume)).toBe(true)
          expect(b.side).toBe(a.side)
          if (b.session !== undefined) expect(b.session).toBe(a.session ?? 'MAINSESSION')
        }
      }),
      { numRuns: 60 },
    )
  })

  it('refuses a decimal string a double cannot hold, naming index and field', () => {
    const t: Trade[] = [
      { time: 0, price: '1', volume: 1, side: 'buy' },
      { time: 0, price: '1', volume: '0.12345678901234567891', side: 'buy' },
    ]
    expect(() => tradesToColumns(t)).toThrow(expect.objectContaining({ index: 1, field: 'volume' }))
  })

  it('omits the session column when no trade has a session', () => {
    expect(tradesToColumns([{ time: 0, price: 1, volume: 1, side: 'buy' }]).session).toBeUndefined()
    expect(tradesToColumns([{ time: 0, price: 1, volume: 1, side: 'buy', session: 'POST_MARKET' }]).session?.[0]).toBe(
      2,
    )
  })

  it('columnsToTrades throws on bad records', () => {
    const c = tradesToColumns([{ time: 0, price: 1, volume: 1, side: 'buy' }])
    c.side[0] = 9
    expect(() => columnsToTrades(c)).toThrow(expect.objectContaining({ index: 0, field: 'side' }))
  })
})

describe('feedTrades', () => {
  const mixed = (): (Trade | TradeColumns)[] => {
    const c = tradesToColumns([
      { time: 2, price: 2, volume: 1, side: 'buy' },
      { time: 3, price: 3, volume: 1, side: 'buy' },
    ])
    return [{ time: 1, price: 1, volume: 1, side: 'buy' }, c, { time: 4, price: 4, volume: 1, side: 'sell' }]
  }
  const sink = () => {
    const seen: number[] = []
    return {
      seen,
      add: (t: Trade) => {
        seen.push(t.time)
      },
      addColumns: (c: TradeColumns) => {
        for (const t of c.time) seen.push(t)
      },
    }
  }

  it('pushes objects, columns and mixes in order (sync and async)', async () => {
    const s1 = sink()
    feedTrades(mixed(), s1)
    expect(s1.seen).toEqual([1, 2, 3, 4])
    const s2 = sink()
    feedTrades(new Set(mixed()), s2)
    expect(s2.seen).toEqual([1, 2, 3, 4])
    const s3 = sink()
    async function* gen() {
      yield* mixed()
    }
    await feedTradesAsync(gen(), s3)
    expect(s3.seen).toEqual([1, 2, 3, 4])
    const s4 = sink()
    const cols = tradesToColumns([
      { time: 7, price: 1, volume: 1, side: 'buy' },
      { time: 8, price: 1, volume: 1, side: 'buy' },
    ])
    await feedTradesAsync(cols, s4)
    expect(s4.seen).toEqual([7, 8])
    expect(sliceTradeColumns(cols, 1, 2).time[0]).toBe(8)
  })

  it('uses addTrades for runs of objects in arrays', () => {
    const runs: [number, number][] = []
    const s = {
      ...sink(),
      addTrades: (_: ArrayLike<Trade>, from: number, to: number) => {
        runs.push([from, to])
      },
    }
    feedTrades(mixed(), s)
    expect(runs).toEqual([
      [0, 1],
      [2, 3],
    ])
  })

  it('rejects what is not trades', () => {
    expect(() => feedTrades(5 as never, sink())).toThrow(/trades/)
  })
})
