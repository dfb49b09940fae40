import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../../src/errors.js'
import { sealCheckpoint } from '../../../src/_lib/checkpoint.js'
import type { AggregatorCheckpoint, AggregatorKind } from '../../../src/aggregator.js'
import type { Trade } from '../../../src/trades/index.js'
import { type Subject, T0, json, thrown, tradesArb } from '../harness.js'

/** A checkpoint of an aggregator fed `trades` (then JSON round-tripped). */
function saved(subject: Subject, trades: Trade[]): AggregatorCheckpoint {
  const a = subject.make()
  a.addTrades(trades)
  return json(a.checkpoint()) as AggregatorCheckpoint
}

/** Every path to a leaf (a number, string, boolean or null) of a JSON value. */
function leaves(x: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof x !== 'object' || x === null) return [path]
  const out: (string | number)[][] = []
  for (const [k, v] of Object.entries(x)) out.push(...leaves(v, [...path, Array.isArray(x) ? Number(k) : k]))
  return out
}

function setAt(x: unknown, path: (string | number)[], v: unknown): void {
  let o = x as Record<string | number, unknown>
  for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, unknown>
  o[path[path.length - 1] as string] = v
}

const refusal = (e: unknown): MarketDataError => {
  expect(e).toBeInstanceOf(MarketDataError)
  expect((e as MarketDataError).code).toBe('invalid_option')
  return e as MarketDataError
}

const someTrades = [
  { time: T0, price: 5000.25, volume: 2, side: 'buy' as const },
  { time: T0 + 1000, price: '4999.75', volume: '0.5', side: 'sell' as const },
  { time: T0 + 2000, price: 5001, volume: 1, side: 'buy' as const, session: 'PRE_MARKET' as const },
]

export const checkpointRefusedLaws = (subject: Subject) =>
  describe('a checkpoint that is not this one is refused, naming the field', () => {
    it('another version', () => {
      const cp = { ...saved(subject, someTrades), version: 3 }
      const e = refusal(thrown(() => subject.make({ restore: cp })))
      expect(e.field).toBe('restore.version')
      expect(e.message).toContain('(1 or 2)')
    })

    it('another kind of aggregator', () => {
      const cp = saved(subject, someTrades)
      for (const kind of (['candles', 'footprint', 'tpo'] as const).filter((k) => k !== subject.kind)) {
        const other = sealCheckpoint(
          kind,
          cp.options as Record<string, unknown>,
          Number(cp.watermark),
          cp.state as Record<string, unknown>,
        )
        expect(refusal(thrown(() => subject.make({ restore: other }))).field).toBe('restore.kind')
      }
    })

    it('not an object at all', () => {
      for (const x of [null, 'state', 42, []])
        expect(refusal(thrown(() => subject.make({ restore: x }))).field).toBe('restore')
    })

    it('options that shape the output differently', () => {
      const cp = saved(subject, someTrades)
      const e = refusal(thrown(() => subject.make({ restore: cp, timeZone: 'America/New_York' })))
      expect(e.field).toBe('restore.options.timeZone')
    })

    it('any field altered (check not updated) is refused as altered', () => {
      fc.assert(
        fc.property(tradesArb, fc.nat(), fc.constantFrom<unknown>(-1, 0, 1, 'x', null, 1.5), (trades, pick, value) => {
          const cp = saved(subject, trades)
          const paths = leaves(cp.state).map((p) => ['state', ...p])
          const path = paths[pick % paths.length] as (string | number)[]
          const copy = json(cp)
          setAt(copy, path, value)
          fc.pre(JSON.stringify(copy) !== JSON.stringify(cp))
          expect(refusal(thrown(() => subject.make({ restore: copy }))).field).toBe('restore.check')
        }),
        { numRuns: 200 },
      )
    })

    it('any field made invalid (and the check recomputed) is refused naming that field, or restores a valid state; never a crash', () => {
      fc.assert(
        fc.property(
          tradesArb,
          fc.nat(),
          fc.constantFrom<unknown>(
            -1,
            1.5,
            'x',
            null,
            true,
            {},
            [],
            1e300,
            -1e300,
            '99999999999999999999999',
            'Infinity',
            '-7',
            Number.MAX_SAFE_INTEGER,
          ),
          (trades, pick, value) => {
            const cp = saved(subject, trades)
            const paths = leaves(cp.state)
            fc.pre(paths.length > 0)
            const path = paths[pick % paths.length] as (string | number)[]
            const state = json(cp.state) as Record<string, unknown>
            setAt(state, path, value)
            const resealed = sealCheckpoint(
              cp.kind as AggregatorKind,
              cp.options as Record<string, unknown>,
              Number(cp.watermark),
              state,
            )
            const e = thrown(() => {
              const b = subject.make({ restore: resealed })
              b.snapshot()
              b.flush()
            })
            if (e === undefined) return
            const err = refusal(e)
            // the field named is in the state (the altered one, or one whose rule it breaks together with it)
            expect(err.field).toMatch(/^restore\.state/)
          },
        ),
        { numRuns: 400 },
      )
    })
  })
