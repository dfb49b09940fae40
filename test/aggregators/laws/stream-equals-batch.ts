import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../../src/errors.js'
import type { Trade } from '../../../src/trades/index.js'
import { type Subject, json, thrown, toColumns, tradesArb } from '../harness.js'

type Feed = 'one' | 'array' | 'columns'
const feedArb = fc.constantFrom<Feed>('one', 'array', 'columns')

export const streamEqualsBatchLaws = (subject: Subject) =>
  describe('batch = streaming = any split; input untouched; flush ends buckets', () => {
    it('any split into parts, each fed any way, advancing to any earlier-safe time between parts = the batch function', () => {
      fc.assert(
        fc.property(
          tradesArb,
          fc.array(fc.tuple(fc.nat(), feedArb, fc.boolean()), { maxLength: 6 }),
          (trades, cuts) => {
            const a = subject.make()
            const out: unknown[] = []
            const points = [...new Set(cuts.map(([c]) => c % (trades.length + 1)))].sort((x, y) => x - y)
            let from = 0
            points.push(trades.length)
            points.forEach((to, k) => {
              const [, how, adv] = cuts[k % Math.max(1, cuts.length)] ?? [0, 'array' as Feed, false]
              if (how === 'one') for (let i = from; i < to; i++) a.add(trades[i] as Trade)
              else if (how === 'array') a.addTrades(trades, from, to)
              else a.addColumns(toColumns(trades.slice(from, to)))
              // trades come in time order: nothing later is earlier than the last one fed
              if (adv && to > 0) out.push(...a.advance((trades[to - 1] as Trade).time))
              from = to
            })
            out.push(...a.flush())
            expect(json(out)).toEqual(json(subject.batch(trades)))
          },
        ),
        { numRuns: 200 },
      )
    })

    it('never changes its input (trade objects, arrays, columns)', () => {
      fc.assert(
        fc.property(tradesArb, feedArb, (trades, how) => {
          const objs = json(trades)
          const cols = toColumns(trades)
          const colsCopy = json(
            Object.fromEntries(Object.entries(cols).map(([k, v]) => [k, Array.from(v as ArrayLike<number>)])),
          )
          const a = subject.make()
          if (how === 'columns') a.addColumns(cols)
          else if (how === 'array') a.addTrades(trades)
          else for (const t of trades) a.add(t)
          a.checkpoint()
          a.flush()
          expect(json(trades)).toEqual(objs)
          expect(
            json(Object.fromEntries(Object.entries(cols).map(([k, v]) => [k, Array.from(v as ArrayLike<number>)]))),
          ).toEqual(colsCopy)
        }),
        { numRuns: 100 },
      )
    })

    it('flush moves the watermark past what it closed: a later trade for a flushed bucket is late, one output per bucket', () => {
      fc.assert(
        fc.property(
          tradesArb.filter((t) => t.length > 0),
          (trades) => {
            const a = subject.make()
            a.addTrades(trades)
            const w0 = a.watermark
            const flushed = a.flush()
            expect(a.watermark).toBeGreaterThanOrEqual(w0)
            expect(a.watermark).toBeGreaterThan((trades[trades.length - 1] as Trade).time)
            const e = thrown(() => a.add(trades[trades.length - 1] as Trade))
            expect(e).toBeInstanceOf(MarketDataError)
            expect((e as MarketDataError).code).toBe('late_record')
            expect(a.flush()).toEqual([])
            expect(flushed.length).toBeGreaterThan(0)
          },
        ),
        { numRuns: 100 },
      )
    })

    it('implements every method of the contract', () => {
      const a = subject.make()
      for (const m of ['add', 'addColumns', 'addTrades', 'advance', 'snapshot', 'checkpoint', 'flush'] as const)
        expect(typeof a[m]).toBe('function')
      expect(a.watermark).toBe(-Infinity)
    })
  })
