import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../../src/errors.js'
import type { Trade } from '../../../src/trades/index.js'
import { type Subject, json, thrown, toColumns, tradesArb } from '../harness.js'

const MAX = Date.UTC(2026, 6, 1)
const Y2200 = Date.UTC(2200, 0, 1)
const stray = (time: number): Trade => ({ time, price: 5000, volume: 1, side: 'buy' })

export const maxTimeLaws = (subject: Subject) =>
  describe('maxTime', () => {
    it('a record stamped after maxTime is refused (out_of_range, naming time) and changes nothing: later records are not late', () => {
      fc.assert(
        fc.property(
          tradesArb,
          fc.nat(),
          fc.constantFrom(MAX + 1, Y2200),
          fc.constantFrom('one', 'array', 'columns'),
          (trades, pos, t, how) => {
            const at = pos % (trades.length + 1)
            const a = subject.make({ maxTime: MAX })
            const b = subject.make({ maxTime: MAX })
            const withStray = [...trades.slice(0, at), stray(t), ...trades.slice(at)]
            let e: unknown
            if (how === 'one') {
              for (const tr of withStray) {
                const x = thrown(() => a.add(tr))
                if (x !== undefined) e = x
              }
            } else {
              e = thrown(() => (how === 'array' ? a.addTrades(withStray) : a.addColumns(toColumns(withStray))))
              expect((e as MarketDataError).applied).toBe(at)
              if (how === 'array') a.addTrades(withStray, at + 1)
              else a.addColumns(toColumns(withStray.slice(at + 1)))
            }
            expect(e).toBeInstanceOf(MarketDataError)
            expect((e as MarketDataError).code).toBe('out_of_range')
            expect((e as MarketDataError).field).toBe('time')
            expect((e as MarketDataError).message).toContain('maxTime')
            b.addTrades(trades)
            expect(json(a.flush())).toEqual(json(b.flush()))
          },
        ),
        { numRuns: 150 },
      )
    })

    it('a record at maxTime itself is taken', () => {
      const a = subject.make({ maxTime: MAX })
      a.add(stray(MAX))
      expect(a.flush().length).toBe(1)
    })

    it.each([Number.NaN, 1.5, '2026-07-01', 9e15, null])('maxTime %s is refused as an option', (bad) => {
      const e = thrown(() => subject.make({ maxTime: bad }))
      expect(e).toBeInstanceOf(MarketDataError)
      expect((e as MarketDataError).code).toBe('invalid_option')
      expect((e as MarketDataError).field).toBe('maxTime')
    })
  })
