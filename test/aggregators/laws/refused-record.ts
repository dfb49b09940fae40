import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../../src/errors.js'
import type { Trade } from '../../../src/trades/index.js'
import {
  type Subject,
  badColumnField,
  badColumns,
  badObjectField,
  badTrade,
  json,
  thrown,
  toColumns,
  tradesArb,
  type Driven,
} from '../harness.js'

/** Feeds trades one by one; at `at` the refused one (fed by `refuse`) comes first. Returns every output. */
function run(agg: Driven, trades: Trade[], at: number, refuse?: (agg: Driven) => void): unknown {
  const out: unknown[] = []
  for (let i = 0; i <= trades.length; i++) {
    if (i === at && refuse !== undefined) {
      const before = json(agg.snapshot())
      const watermark = agg.watermark
      const e = thrown(() => refuse(agg))
      expect(e).toBeInstanceOf(MarketDataError)
      // changes nothing now (the open buckets, the stream's time) ...
      expect(json(agg.snapshot())).toEqual(before)
      expect(agg.watermark).toBe(watermark)
    }
    if (i === trades.length) break
    const t = trades[i] as Trade
    agg.add(t)
    if (i % 7 === 6) out.push(...agg.advance(t.time))
  }
  out.push(...agg.flush())
  return json(out)
}

export const refusedRecordLaws = (subject: Subject) =>
  describe('a refused record changes nothing', () => {
    it('a trade object with any one field bad, at any position and time, then valid trades = the run without it', () => {
      fc.assert(
        fc.property(
          tradesArb,
          fc.nat(),
          fc.constantFrom(0, 1, 60_000, 300_000, 86_400_000, 40 * 86_400_000),
          badObjectField,
          (trades, pos, dt, bad) => {
            const at = pos % (trades.length + 1)
            const prev = at > 0 ? (trades[at - 1] as Trade).time : (trades[0]?.time ?? Date.UTC(2026, 4, 29))
            const expected = run(subject.make(), trades, -1)
            // ... and after it (outputs, and the times later trades may have)
            expect(run(subject.make(), trades, at, (a) => a.add(badTrade(prev + dt, bad)))).toEqual(expected)
          },
        ),
        { numRuns: 300 },
      )
    })

    it('a trade column with any one value bad (its own batch), then valid trades = the run without it', () => {
      fc.assert(
        fc.property(
          tradesArb,
          fc.nat(),
          fc.constantFrom(0, 1, 300_000, 86_400_000),
          badColumnField,
          (trades, pos, dt, bad) => {
            const at = pos % (trades.length + 1)
            const prev = at > 0 ? (trades[at - 1] as Trade).time : Date.UTC(2026, 4, 29)
            const expected = run(subject.make(), trades, -1)
            expect(run(subject.make(), trades, at, (a) => a.addColumns(badColumns(prev + dt, bad)))).toEqual(expected)
          },
        ),
        { numRuns: 300 },
      )
    })

    it('a bad trade inside an array batch: the batch throws, and its records after the bad one never count', () => {
      fc.assert(
        fc.property(
          tradesArb,
          fc.nat(),
          fc.constantFrom(0, 300_000, 86_400_000),
          badObjectField,
          (trades, pos, dt, bad) => {
            const at = pos % (trades.length + 1)
            const prev = at > 0 ? (trades[at - 1] as Trade).time : Date.UTC(2026, 4, 29)
            const withBad = [...trades.slice(0, at), badTrade(prev + dt, bad), ...trades.slice(at)]
            const a = subject.make()
            expect(thrown(() => a.addTrades(withBad))).toBeInstanceOf(MarketDataError)
            const b = subject.make()
            b.addTrades(trades.slice(0, at))
            expect(json([...a.flush()])).toEqual(json([...b.flush()]))
          },
        ),
        { numRuns: 200 },
      )
    })

    it('a bad row inside a column batch: the batch throws, and its rows after the bad one never count', () => {
      fc.assert(
        fc.property(
          tradesArb,
          fc.nat(),
          fc.constantFrom(0, 300_000, 86_400_000),
          badColumnField,
          (trades, pos, dt, bad) => {
            const at = pos % (trades.length + 1)
            const prev = at > 0 ? (trades[at - 1] as Trade).time : Date.UTC(2026, 4, 29)
            const cols = toColumns([
              ...trades.slice(0, at),
              badTrade(prev + dt, { field: 'side', value: 'buy' }),
              ...trades.slice(at),
            ])
            ;(cols[bad.field as 'time'] as Float64Array)[at] = bad.value
            const a = subject.make()
            expect(thrown(() => a.addColumns(cols))).toBeInstanceOf(MarketDataError)
            const b = subject.make()
            b.addColumns(toColumns(trades.slice(0, at)))
            expect(json([...a.flush()])).toEqual(json([...b.flush()]))
          },
        ),
        { numRuns: 200 },
      )
    })
  })
