import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Trade } from '../../../src/trades/index.js'
import { type Subject, json, toColumns, tradesArb, type Driven } from '../harness.js'

type Feed = 'one' | 'array' | 'columns'

/** Feeds trades[from, to) in the given way, advancing after every `every`-th trade; returns the outputs. */
function feed(a: Driven, trades: Trade[], from: number, to: number, how: Feed, every: number): unknown[] {
  const out: unknown[] = []
  let i = from
  while (i < to) {
    const j = Math.min(to, i + every)
    if (how === 'one') for (let k = i; k < j; k++) a.add(trades[k] as Trade)
    else if (how === 'array') a.addTrades(trades, i, j)
    else a.addColumns(toColumns(trades.slice(i, j)))
    out.push(...a.advance((trades[j - 1] as Trade).time))
    i = j
  }
  return out
}

export const checkpointLaws = (subject: Subject) =>
  describe('checkpoint -> JSON -> restore continues exactly', () => {
    it('for any stream and split point, the restored run equals the uninterrupted one', () => {
      fc.assert(
        fc.property(
          tradesArb,
          fc.nat(),
          fc.constantFrom<Feed>('one', 'array', 'columns'),
          fc.integer({ min: 1, max: 9 }),
          (trades, pos, how, every) => {
            const k = pos % (trades.length + 1)
            const whole = subject.make()
            const expected = json([...feed(whole, trades, 0, trades.length, how, every), ...whole.flush()])
            const first = subject.make()
            const before = feed(first, trades, 0, k, how, every)
            const snap = json(first.snapshot())
            const saved = JSON.parse(JSON.stringify(first.checkpoint()))
            const second = subject.make({ restore: saved })
            expect(json(second.snapshot())).toEqual(snap)
            const after = feed(second, trades, k, trades.length, how, every)
            expect(json([...before, ...after, ...second.flush()])).toEqual(expected)
          },
        ),
        { numRuns: 300 },
      )
    })
  })
