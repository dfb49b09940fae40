// The bound on trade times moves with the worker's clock: a trade stamped past `now + ahead` is refused
// (`out_of_range`, nothing changed) while the clock is behind it, and taken once the clock has moved on, however
// long the security has been running; the minutes stored are then the batch functions' over every trade.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { columnsToTrades, MarketDataError } from '../../src/index.js'
import { asStream } from './embedded.js'
import { expectedBars } from './expected.js'
import { createPartitionState } from './partition-state.js'
import { replayMessages, sampleSecurities } from './replay.js'
import { createSecurityState, type MinuteBar, type SecurityCheckpoint } from './security-state.js'

const [security] = sampleSecurities({ securities: 1, tradesPerDay: 600, days: 2 })
const s = security!
const trades = columnsToTrades(s.trades)
const first = trades[0]!.time
const last = trades[trades.length - 1]!.time
const text = (b: MinuteBar): string =>
  `${JSON.stringify(b.candle)}|${JSON.stringify(b.footprint)}|${b.openTime}|${b.closeTime}`

describe('maxTime follows the clock', () => {
  it('refuses trades ahead of the clock, changing nothing, and takes them once the clock has moved on', () => {
    const want = [...expectedBars([s]).values()].sort()
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3_600_000 }),
        fc.array(fc.integer({ min: 0, max: trades.length - 1 }), { minLength: 1, maxLength: 6 }),
        (aheadMs, stops) => {
          // the clock starts well before the first trade and jumps forward at trade indexes `stops`
          let clock = first - 10 * aheadMs
          const st = createSecurityState({
            exchange: s.exchange,
            symbol: s.symbol,
            tickSize: s.tickSize,
            maxTime: () => clock + aheadMs,
          })
          const got: MinuteBar[] = []
          let refused = 0
          for (let i = 0; i < trades.length; i++) {
            const t = trades[i]!
            if (stops.includes(i)) clock = Math.max(clock, t.time - aheadMs - 1)
            if (t.time > clock + aheadMs) {
              const before = JSON.stringify(st.checkpoint())
              let err: unknown
              try {
                st.add(t)
              } catch (e) {
                err = e
              }
              expect(err).toBeInstanceOf(MarketDataError)
              expect((err as MarketDataError).code).toBe('out_of_range')
              expect(JSON.stringify(st.checkpoint())).toBe(before)
              refused++
              // the clock catches up with the trade (a later wall-clock reading), and it is taken
              clock = t.time - aheadMs
            }
            st.add(t)
            got.push(...st.takeClosed())
          }
          st.advance(last + 86_400_000)
          got.push(...st.takeClosed())
          expect(refused).toBeGreaterThan(0)
          expect(got.map(text).sort()).toEqual(want)
        },
      ),
      { numRuns: 5 },
    )
  })

  it('a restored security takes the bound of the clock at restore time', () => {
    let clock = last + 1
    const opts = { exchange: s.exchange, symbol: s.symbol, tickSize: s.tickSize, maxTime: () => clock }
    const a = createSecurityState(opts)
    a.add(trades[0]!)
    const cp = JSON.parse(JSON.stringify(a.checkpoint())) as SecurityCheckpoint
    clock = first
    const b = createSecurityState(opts, cp)
    expect(() => b.add(trades[trades.length - 1]!)).toThrow(/maxTime/)
    clock = last
    expect(() => b.add(trades[trades.length - 1]!)).not.toThrow()
  })

  it('a partition dead-letters a trade ahead of the clock and takes the next one once the clock allows it', () => {
    let clock = first
    const lease = { partition: 0, epoch: 1, position: 0 }
    const state = createPartitionState({ lease, checkpoints: [], tickSizes: () => s.tickSize, maxTime: () => clock })
    const stream = asStream(replayMessages([s], 1))
    // one security: the stream's messages are its trades in order, then the clock
    const late = trades.findIndex((t) => t.time > first)
    expect(late).toBeGreaterThan(0)
    for (const m of stream.slice(0, late + 1)) state.apply(m)
    const c1 = state.pending()
    expect(c1.deadLetters).toHaveLength(1)
    expect(c1.deadLetters[0]!.reason).toMatch(/^out_of_range: .*maxTime/)
    clock = last
    for (const m of stream.slice(late + 1)) state.apply(m)
    expect(state.pending().deadLetters).toEqual([])
  })
})
