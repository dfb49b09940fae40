import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../../src/errors.js'
import type { Trade } from '../../../src/trades/index.js'
import {
  type Subject,
  badColumnField,
  badObjectField,
  badTrade,
  json,
  thrown,
  toColumns,
  tradesArb,
  type Driven,
} from '../harness.js'

const finish = (a: Driven) => json(a.flush())

export const appliedLaws = (subject: Subject) =>
  describe('a batch that throws says how many records it applied', () => {
    it('array batch [from, to): applied = records before the refused one; resuming after it = the run without it', () => {
      fc.assert(
        fc.property(
          tradesArb,
          fc.nat(),
          fc.nat({ max: 3 }),
          fc.constantFrom(0, 300_000, 86_400_000),
          badObjectField,
          (trades, pos, lead, dt, bad) => {
            const at = pos % (trades.length + 1)
            const prev = at > 0 ? (trades[at - 1] as Trade).time : Date.UTC(2026, 4, 29)
            // `lead` records before `from` that the call must not read
            const junk = Array.from({ length: lead }, () => badTrade(0, { field: 'price', value: 'junk' }))
            const arr = [...junk, ...trades.slice(0, at), badTrade(prev + dt, bad), ...trades.slice(at)]
            const a = subject.make()
            const e = thrown(() => a.addTrades(arr, lead, arr.length))
            expect(e).toBeInstanceOf(MarketDataError)
            expect((e as MarketDataError).applied).toBe(at)
            a.addTrades(arr, lead + at + 1, arr.length)
            const b = subject.make()
            b.addTrades(trades)
            expect(finish(a)).toEqual(finish(b))
          },
        ),
        { numRuns: 200 },
      )
    })

    it('column batch: applied = rows before the refused one; resuming after it = the run without it', () => {
      fc.assert(
        fc.property(
          tradesArb,
          fc.nat(),
          fc.constantFrom(0, 300_000, 86_400_000),
          badColumnField,
          (trades, pos, dt, bad) => {
            const at = pos % (trades.length + 1)
            const prev = at > 0 ? (trades[at - 1] as Trade).time : Date.UTC(2026, 4, 29)
            const all = [
              ...trades.slice(0, at),
              { time: prev + dt, price: 5000, volume: 1, side: 'buy' as const },
              ...trades.slice(at),
            ]
            const cols = toColumns(all)
            ;(cols[bad.field as 'time'] as Float64Array)[at] = bad.value
            const a = subject.make()
            const e = thrown(() => a.addColumns(cols))
            expect(e).toBeInstanceOf(MarketDataError)
            expect((e as MarketDataError).applied).toBe(at)
            a.addColumns(toColumns(all.slice(at + 1)))
            const b = subject.make()
            b.addColumns(toColumns(trades))
            expect(finish(a)).toEqual(finish(b))
          },
        ),
        { numRuns: 200 },
      )
    })

    it('a malformed batch (columns of unequal length) applies nothing and says so', () => {
      const a = subject.make()
      const cols = toColumns([{ time: Date.UTC(2026, 4, 29), price: 1, volume: 1, side: 'buy' }])
      const e = thrown(() => a.addColumns({ ...cols, price: new Float64Array(2) }))
      expect(e).toBeInstanceOf(MarketDataError)
      expect((e as MarketDataError).applied).toBe(0)
    })
  })
