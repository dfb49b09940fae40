// Every checkpoint restores, and restores exactly: after any stream (records in exponent notation, extreme
// volumes, advance to any time, refusals mixed in), the checkpoint, through JSON with the keys of every
// object reordered (as Postgres `jsonb` returns them), restores into an aggregator that continues as the
// uninterrupted one does: the same outputs, the same refusals, the same final state.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { json } from './harness.js'
import { STREAM_SUBJECTS, outcome, shuffleKeys, streamArb } from './hostile-streams.js'

const MAX_TIME = Date.UTC(2100, 0, 1)

describe.each(STREAM_SUBJECTS)('$name', (subject) => {
  it('the checkpoint after any prefix of any stream restores, in any key order, and continues exactly', () => {
    fc.assert(
      fc.property(streamArb(subject), fc.nat(), fc.nat(), (stream, pos, seed) => {
        const { ops } = stream
        stream.reset()
        const k = pos % (ops.length + 1)
        const whole = subject.make({ maxTime: MAX_TIME })
        const expected = ops.map((op) => outcome(whole, op))
        const end = { flush: json(whole.flush()), state: json(whole.checkpoint()) }

        stream.reset()
        const first = subject.make({ maxTime: MAX_TIME })
        for (const op of ops.slice(0, k)) outcome(first, op)
        const saved = shuffleKeys(json(first.checkpoint()), seed)
        const second = subject.make({ maxTime: MAX_TIME, restore: saved })
        expect(json(second.snapshot())).toEqual(json(first.snapshot()))
        expect(second.watermark).toBe(first.watermark)
        expect(ops.slice(k).map((op) => outcome(second, op))).toEqual(expected.slice(k))
        expect({ flush: json(second.flush()), state: json(second.checkpoint()) }).toEqual(end)
      }),
      { numRuns: 250 },
    )
  })
})

describe('the cases that did not restore', () => {
  const T0 = Date.UTC(2026, 4, 29, 13)
  const trade = (time: number, price: unknown, volume: unknown) => ({ time, price, volume, side: 'buy' })
  const reversed = (x: unknown): unknown =>
    Array.isArray(x)
      ? x.map(reversed)
      : typeof x === 'object' && x !== null
        ? Object.fromEntries(
            Object.entries(x)
              .reverse()
              .map(([k, v]) => [k, reversed(v)]),
          )
        : x
  const trades = STREAM_SUBJECTS.filter((s) => s.input === 'trades')

  it.each(trades)('$name: exponent prices, volumes 1e308 and 1e-300 in one bucket, keys reversed', (subject) => {
    const a = subject.make()
    a.add(trade(T0, '5e3', 1e308))
    a.add(trade(T0 + 1, '5.00025e3', 1e-300))
    a.add(trade(T0 + 2, 5000, '1.5e-400'))
    const cp = json(a.checkpoint())
    for (const restore of [cp, reversed(cp)])
      expect(json(subject.make({ restore }).flush())).toEqual(json(a.snapshot()))
  })

  it.each(trades)('$name: advance to a fractional or out-of-range time is refused up front', (subject) => {
    const a = subject.make()
    a.add(trade(T0, 5000, 1))
    for (const t of [T0 + 0.5, 9e15, -9e15, 8.64e15 + 1, Number.NaN])
      expect(() => a.advance(t)).toThrow(expect.objectContaining({ code: 'invalid_time', field: 'time' }))
    a.advance(8.64e15)
    expect(json(subject.make({ restore: json(a.checkpoint()) }).checkpoint())).toEqual(json(a.checkpoint()))
  })
})
