// feedTrades with sinks that take runs of trade objects themselves (addTradeRun): every record reaches the
// sink once, in order, batches included, whatever run lengths the sink takes; a sink that takes nothing
// falls back to addTrades / add.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { candlesFromTrades } from '../../src/candles/index.js'
import { footprintProfiles } from '../../src/footprint/index.js'
import { tradesArb } from '../../src/testing/arbitraries.js'
import {
  columnsToTrades,
  feedTrades,
  tradesToColumns,
  type Trade,
  type TradeArraySink,
  type TradeColumns,
} from '../../src/trades/index.js'

type Item = Trade | TradeColumns

/** Mixed input: trade objects (time = their position) and column batches of 1..3 records, from a template. */
const mixedArb = fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3 })), { maxLength: 40 }).map((kinds) => {
  const out: Item[] = []
  let t = 0
  for (const k of kinds) {
    if (k === 0) out.push({ time: t++, price: '1.5', volume: '2', side: 'buy' })
    else {
      const rows: Trade[] = []
      for (let j = 0; j < k; j++) rows.push({ time: t++, price: 2, volume: 1, side: 'sell' })
      out.push(tradesToColumns(rows))
    }
  }
  return { items: out, total: t }
})

/** A sink recording times; addTradeRun stops at the first batch, or earlier where `stops` says (at least one record). */
function runSink(stops: number[], takeNothingAt = -1) {
  const seen: number[] = []
  const runs: [number, number][] = []
  let call = 0
  const sink: TradeArraySink = {
    add: (t) => {
      seen.push(t.time)
    },
    addColumns: (c) => {
      for (const t of c.time) seen.push(t)
    },
    addTrades: (ts, from, to) => {
      for (let k = from; k < to; k++) seen.push((ts[k] as Trade).time)
    },
    addTradeRun: (ts, from, to) => {
      if (call++ === takeNothingAt) return from
      const limit = Math.min(to, from + 1 + (stops[call % Math.max(1, stops.length)] ?? to))
      let k = from
      for (; k < limit; k++) {
        const x = ts[k] as Trade
        if (typeof x.time !== 'number') break
        seen.push(x.time)
      }
      runs.push([from, k])
      return k
    },
  }
  return { sink, seen, runs }
}

describe('feedTrades with addTradeRun', () => {
  it('every record once and in order, any run lengths the sink takes, batches anywhere', () => {
    fc.assert(
      fc.property(
        mixedArb,
        fc.array(fc.nat({ max: 5 }), { maxLength: 6 }),
        fc.integer({ min: -1, max: 4 }),
        ({ items, total }, stops, nothingAt) => {
          const r = runSink(stops, nothingAt)
          feedTrades(items, r.sink)
          expect(r.seen).toEqual(Array.from({ length: total }, (_, k) => k))
          for (const [from, to] of r.runs) {
            expect(to).toBeGreaterThan(from)
            for (let k = from; k < to; k++) expect(typeof (items[k] as Trade).time).toBe('number')
          }
        },
      ),
      { numRuns: 300 },
    )
  })

  it('hands the whole array to the sink: no scan, one call for all objects', () => {
    const trades: Trade[] = Array.from({ length: 10 }, (_, k) => ({ time: k, price: '1', volume: '1', side: 'buy' }))
    const r = runSink([])
    feedTrades(trades, r.sink)
    expect(r.runs).toEqual([[0, 10]])
    const c = tradesToColumns([{ time: 10, price: 1, volume: 1, side: 'buy' }])
    const r2 = runSink([])
    feedTrades([...trades.slice(0, 4), c, ...trades.slice(4)], r2.sink)
    expect(r2.runs).toEqual([
      [0, 4],
      [5, 11],
    ])
    expect(r2.seen).toEqual([0, 1, 2, 3, 10, 4, 5, 6, 7, 8, 9])
  })
})

describe('the library sinks on one array mixing trade objects and column batches', () => {
  /** The trades with some runs of 1..3 replaced by one batch each, and the same trades as objects again. */
  const mixedCase = fc
    .tuple(tradesArb({ offGrid: true, negativePrices: true, maxLength: 50 }), fc.array(fc.nat(), { maxLength: 4 }))
    .map(([trades, cuts]) => {
      const at = [...new Set(cuts.map((c) => (trades.length === 0 ? 0 : c % trades.length)))].sort((a, b) => a - b)
      const mixed: Item[] = []
      let k = 0
      for (const c of at) {
        if (c < k) continue
        mixed.push(...trades.slice(k, c))
        mixed.push(tradesToColumns(trades.slice(c, c + 1 + (c % 3))))
        k = c + 1 + (c % 3)
      }
      mixed.push(...trades.slice(k))
      const flat = mixed.flatMap((x) =>
        (x as TradeColumns).time instanceof Float64Array ? columnsToTrades(x as TradeColumns) : [x as Trade],
      )
      return { mixed, flat }
    })

  it('footprintProfiles and candlesFromTrades equal the same trades as objects, batches anywhere', () => {
    fc.assert(
      fc.property(mixedCase, ({ mixed, flat }) => {
        const fo = { timeframe: '15m' as const, tickSize: '0.25', rowSize: 2 }
        expect(footprintProfiles(mixed as never, fo)).toEqual(footprintProfiles(flat, fo))
        expect(candlesFromTrades(mixed as never, { timeframe: '5m', tickSize: '0.025' })).toEqual(
          candlesFromTrades(flat, { timeframe: '5m', tickSize: '0.025' }),
        )
      }),
      { numRuns: 150 },
    )
  })

  it('a bad record after a batch is named by its stream index', () => {
    const t = (time: number): Trade => ({ time, price: '5000.25', volume: '1', side: 'buy' })
    const input = [t(0), t(1), tradesToColumns([t(2), t(3)]), t(4), { ...t(5), volume: '-1' }, t(6)]
    expect(() => footprintProfiles(input as never, { timeframe: '1h', tickSize: '0.25' })).toThrow(
      expect.objectContaining({ index: 5, field: 'volume' }),
    )
    expect(() => candlesFromTrades(input as never, { timeframe: '1m' })).toThrow(
      expect.objectContaining({ index: 5, field: 'volume' }),
    )
  })
})
