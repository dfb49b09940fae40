// One volume finer than the fast sums take (more than MAX_FAST_VOLUME_SCALE decimals) is summed apart at its
// own scale: the candles equal the big.js reference, the aggregator's volume scale stays where the other
// trades put it (so they stay on the fast loops), and a checkpoint at any split restores it exactly.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { candlesFromTrades, createCandleAggregator } from '../../src/candles/index.js'
import { tradesToColumns, type Trade } from '../../src/trades/index.js'
import { sealCheckpoint } from '../../src/_lib/checkpoint.js'
import { referenceCandlesFromTrades } from './reference.js'

const T0 = Date.UTC(2026, 4, 29, 13)
const FINE = ['0.30000000000000004', '1.0000000000000000001', '0.000000000001', '123456789.123456789012345'] as const

const streamArb = fc
  .record({
    recs: fc.array(
      fc.record({
        dt: fc.constantFrom(0, 7, 1_000, 59_000, 3_600_000),
        p: fc.constantFrom(5000, 5000.25, 4999.75, 0.5),
        v: fc.constantFrom(1, 2, 10, 0.5),
      }),
      { minLength: 1, maxLength: 60 },
    ),
    at: fc.nat(),
    fine: fc.constantFrom(...FINE),
    timeframe: fc.constantFrom('1m', '1h', '3t'),
  })
  .map(({ recs, at, fine, timeframe }) => {
    let t = T0
    const trades = recs.map(
      (r, i): Trade => ({ time: (t += r.dt), price: r.p, volume: r.v, side: i % 3 === 0 ? 'sell' : 'buy' }),
    )
    const k = at % trades.length
    trades[k] = { ...(trades[k] as Trade), volume: fine }
    return { trades, k, timeframe }
  })

/** The same trades with every volume as a string (column input takes numbers only; a fine volume is a string). */
const asStrings = (ts: readonly Trade[]): Trade[] =>
  ts.map((x) => ({ ...x, volume: String(x.volume), price: String(x.price) }))

describe('a volume finer than the fast sums', () => {
  it('objects, one by one and columns around it: candles equal the big.js reference', () => {
    fc.assert(
      fc.property(streamArb, ({ trades, k, timeframe }) => {
        const want = referenceCandlesFromTrades(trades, { timeframe })
        expect(candlesFromTrades(trades, { timeframe })).toEqual(want)
        expect(candlesFromTrades(asStrings(trades), { timeframe })).toEqual(want)
        const one = createCandleAggregator({ timeframe })
        for (const x of trades) one.add(x)
        expect([...one.take(), ...one.flush()]).toEqual(want)
        // the whole-lot trades before and after it as columns, the fine one alone as an object
        const cols = createCandleAggregator({ timeframe })
        if (k > 0) cols.addColumns(tradesToColumns(trades.slice(0, k)))
        cols.add(trades[k] as Trade)
        if (k + 1 < trades.length) cols.addColumns(tradesToColumns(trades.slice(k + 1)))
        expect([...cols.take(), ...cols.flush()]).toEqual(want)
      }),
      { numRuns: 200 },
    )
  })

  it('leaves the aggregator at the scale of the other trades', () => {
    fc.assert(
      fc.property(streamArb, ({ trades, timeframe }) => {
        const agg = createCandleAggregator({ timeframe })
        agg.addTrades(trades)
        const state = agg.checkpoint().state as { vs: number }
        // the other volumes have at most 1 decimal: a raised scale would make every later trade slow
        expect(state.vs).toBeLessThanOrEqual(1)
      }),
      { numRuns: 100 },
    )
  })

  it('a checkpoint at any split, through JSON, then the rest = the uninterrupted run', () => {
    fc.assert(
      fc.property(streamArb, fc.nat(), ({ trades, timeframe }, at) => {
        const split = at % (trades.length + 1)
        const whole = createCandleAggregator({ timeframe })
        whole.addTrades(trades)
        const first = createCandleAggregator({ timeframe })
        first.addTrades(trades.slice(0, split))
        const head = first.take()
        const second = createCandleAggregator({ timeframe, restore: JSON.parse(JSON.stringify(first.checkpoint())) })
        second.addTrades(trades.slice(split))
        expect([...head, ...second.take(), ...second.flush()]).toEqual([...whole.take(), ...whole.flush()])
      }),
      { numRuns: 200 },
    )
  })

  it('a fine sum in a checkpoint is validated on restore', () => {
    const agg = createCandleAggregator({ timeframe: '1m' })
    agg.add({ time: T0, price: '5000', volume: '0.30000000000000004', side: 'buy' })
    const cp = JSON.parse(JSON.stringify(agg.checkpoint()))
    expect(cp.state.open.fineVol).toEqual({ units: '30000000000000004', scale: 17 })
    const reseal = (edit: (open: Record<string, unknown>) => void) => {
      const state = structuredClone(cp.state)
      edit(state.open)
      return sealCheckpoint('candles', cp.options, cp.watermark, state)
    }
    const refused = (edit: (open: Record<string, unknown>) => void) => {
      try {
        createCandleAggregator({ timeframe: '1m', restore: reseal(edit) })
      } catch (e) {
        return (e as { field?: string }).field
      }
      return undefined
    }
    expect(refused((o) => ((o.fineVol as { scale: number }).scale = -1))).toBe('restore.state.open.fineVol.scale')
    expect(refused((o) => ((o.fineVol as { units: string }).units = '-3'))).toBe('restore.state.open.fineVol.units')
    expect(refused((o) => (o.fineVal = 7))).toBe('restore.state.open.fineVal')
    // a state written before fine sums existed (no such fields) restores with none
    const older = createCandleAggregator({
      timeframe: '1m',
      restore: reseal((o) => {
        delete o.fineVol
        delete o.fineVal
      }),
    })
    expect(older.current()?.volume).toBe('0')
  })
})
