// Checkpoint versions: this library writes version 2, whose check is computed over the keys sorted (a
// state stored in Postgres `jsonb` comes back with its keys reordered), and still reads version 1, whose
// check is over the keys in the order written.
import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { MarketDataError } from '../../src/errors.js'
import { SUBJECTS, T0, json } from './harness.js'
import { shuffleKeys } from './hostile-streams.js'

/** Checkpoints written by version 1 of the format (before the check was computed over sorted keys). */
const VERSION_1 = JSON.parse(readFileSync(new URL('../fixtures/checkpoints/version-1.json', import.meta.url), 'utf8'))
/** The trades the version 1 checkpoints were taken after. */
const TRADES = [
  { time: T0, price: '5000.25', volume: '2', side: 'buy' as const },
  { time: T0 + 1000, price: 4999.75, volume: 0.5, side: 'sell' as const },
  { time: T0 + 2000, price: '5001', volume: '1', side: 'buy' as const, session: 'PRE_MARKET' as const },
]
const LATER = [{ time: T0 + 3000, price: '5000.5', volume: '3', side: 'sell' as const }]

describe.each(SUBJECTS)('$name', (subject) => {
  it('writes version 2', () => {
    expect(subject.make().checkpoint().version).toBe(2)
  })

  it('restores a version 1 checkpoint written in its own key order, and continues as the stream does', () => {
    const v1 = VERSION_1[subject.kind]
    expect(v1.version).toBe(1)
    const restored = subject.make({ restore: v1 })
    const live = subject.make()
    live.addTrades(TRADES)
    expect(json(restored.snapshot())).toEqual(json(live.snapshot()))
    restored.addTrades(LATER)
    live.addTrades(LATER)
    expect(json(restored.flush())).toEqual(json(live.flush()))
    // what it writes next is version 2, equal to the live one's
    expect(json(restored.checkpoint())).toEqual(json(live.checkpoint()))
  })

  it('a version 1 checkpoint whose keys were reordered is refused by its check (its order was part of it)', () => {
    const e = (() => {
      try {
        subject.make({ restore: shuffleKeys(VERSION_1[subject.kind], 7) })
      } catch (err) {
        return err
      }
    })()
    expect(e).toBeInstanceOf(MarketDataError)
    expect((e as MarketDataError).field).toBe('restore.check')
  })

  it('a version 2 checkpoint restores with the keys of every object in any order', () => {
    const a = subject.make()
    a.addTrades(TRADES)
    const cp = json(a.checkpoint())
    for (let seed = 1; seed <= 20; seed++)
      expect(json(subject.make({ restore: shuffleKeys(cp, seed) }).snapshot())).toEqual(json(a.snapshot()))
  })

  it('a checkpoint nested deeper than any state is refused, never recursed into', () => {
    const a = subject.make()
    const cp = json(a.checkpoint()) as Record<string, unknown>
    let deep: unknown = 1
    for (let i = 0; i < 100_000; i++) deep = [deep]
    const e = (() => {
      try {
        subject.make({ restore: { ...cp, state: { ...(cp.state as object), extra: deep } } })
      } catch (err) {
        return err
      }
    })()
    expect(e).toBeInstanceOf(MarketDataError)
    expect((e as MarketDataError).field).toBe('restore')
  })
})
