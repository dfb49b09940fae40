// Candle input without sourceTimeframe: the frame is inferred from the gaps between candle starts, and a
// checkpoint carries what was inferred. Law: checkpoint -> JSON -> restore -> the rest of the stream equals
// the uninterrupted run, candles and refusals alike (a resumed stream refuses where the whole one would).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createCandleAggregator, type CandleInput } from '../../src/candles/index.js'
import { sealCheckpoint } from '../../src/_lib/checkpoint.js'

const T0 = Date.UTC(2026, 2, 28, 22)
const M = 60_000

const streamArb = fc.record({
  gaps: fc.array(fc.constantFrom(M, M, 5 * M, 5 * M, 7 * M, 15 * M, 60 * M, 0, 3 * M), { minLength: 1, maxLength: 40 }),
  start: fc.constantFrom(0, 2 * M, 5 * M, 55 * M),
  split: fc.nat(),
  timeframe: fc.constantFrom('5m', '15m', '1h', '7m'),
  timeZone: fc.constantFrom('UTC', 'Europe/Berlin', 'Asia/Kathmandu'),
  advanceAt: fc.option(fc.nat(), { nil: undefined }),
})

function candles(gaps: number[], start: number): CandleInput[] {
  let t = T0 + start
  return gaps.map((g, i) => {
    t += g
    const p = 100 + (i % 5)
    return { time: t, open: p, high: p + 1, low: p - 1, close: p, volume: 1 + (i % 3), value: 100, trades: 2 }
  })
}

type Agg = ReturnType<typeof createCandleAggregator>
/** Feeds one part and records what came out: the candles, or the refusal (code, index, field, message). */
function feed(agg: Agg, part: CandleInput[], advance: number | undefined, log: unknown[]): void {
  try {
    agg.addCandles(part)
    log.push(agg.take())
    if (advance !== undefined) log.push(agg.advance(advance))
  } catch (e) {
    const x = e as { code?: string; index?: number; field?: string; message: string; applied?: number }
    log.push({ code: x.code, index: x.index, field: x.field, message: x.message, applied: x.applied }, agg.take())
  }
}

function end(agg: Agg, log: unknown[]): void {
  try {
    log.push(agg.flush())
  } catch (e) {
    log.push({ code: (e as { code?: string }).code, message: (e as Error).message })
  }
}

describe('candle input without sourceTimeframe, resumed from a checkpoint', () => {
  it('checkpoint at any split, through JSON, then the rest = the uninterrupted run (refusals included)', () => {
    fc.assert(
      fc.property(streamArb, ({ gaps, start, split, timeframe, timeZone, advanceAt }) => {
        const cs = candles(gaps, start)
        const k = split % (cs.length + 1)
        const head = cs.slice(0, k)
        const tail = cs.slice(k)
        const adv =
          advanceAt === undefined || k === 0 ? undefined : (cs[k - 1] as CandleInput).time + (advanceAt % 3) * M
        const opts = { timeframe, timeZone }
        const whole = createCandleAggregator(opts)
        const want: unknown[] = []
        feed(whole, head, adv, want)
        feed(whole, tail, undefined, want)
        end(whole, want)
        const first = createCandleAggregator(opts)
        const got: unknown[] = []
        feed(first, head, adv, got)
        const second = createCandleAggregator({ ...opts, restore: JSON.parse(JSON.stringify(first.checkpoint())) })
        feed(second, tail, undefined, got)
        end(second, got)
        expect(got).toEqual(want)
      }),
      { numRuns: 300 },
    )
  })

  it('the guard state in a checkpoint is validated; a state without it (older) restores with a fresh guard', () => {
    const agg = createCandleAggregator({ timeframe: '15m' })
    agg.addCandles(candles([M, 5 * M, 5 * M], 0))
    const cp = JSON.parse(JSON.stringify(agg.checkpoint()))
    expect(cp.state.nesting.gMs).toBe(5 * M)
    const restoreWith = (
      edit: (n: Record<string, unknown>, state: Record<string, unknown>) => void,
    ): string | undefined => {
      const state = structuredClone(cp.state)
      edit(state.nesting, state)
      try {
        createCandleAggregator({
          timeframe: '15m',
          restore: sealCheckpoint('candles', cp.options, cp.watermark, state),
        })
      } catch (e) {
        return (e as { field?: string }).field
      }
      return undefined
    }
    expect(restoreWith((n) => (n.gMs = 0))).toBe('restore.state.nesting.gMs')
    expect(restoreWith((n) => (n.level = 3))).toBe('restore.state.nesting.level')
    expect(restoreWith((n) => (n.lastT = cp.watermark + 1))).toBe('restore.state.nesting.lastT')
    expect(restoreWith((n) => (n.lastIndex = 3))).toBe('restore.state.nesting.lastIndex')
    expect(restoreWith((n) => (n.sEnd = 'NaN'))).toBe('restore.state.nesting.sEnd')
    expect(restoreWith((_n, s) => (s.nesting = 'x'))).toBe('restore.state.nesting')
    expect(restoreWith((_n, s) => delete s.nesting)).toBeUndefined()
    const tick = createCandleAggregator({ timeframe: '3t' })
    expect(JSON.parse(JSON.stringify(tick.checkpoint())).state.nesting).toBeNull()
  })
})
