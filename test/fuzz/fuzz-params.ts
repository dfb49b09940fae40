// How long the fuzz suite runs: a few runs per property in `npm test` (bounded, seconds in all), many more
// with `npm run fuzz` (FUZZ_RUNS runs per property; FUZZ_SEED replays a failure fast-check reported).
import type fc from 'fast-check'
import { MarketDataError } from '../../src/index.js'

/** fast-check parameters of one fuzz property: `base` runs, or FUZZ_RUNS; FUZZ_SEED when given. */
export function fuzzParams(base: number): fc.Parameters<unknown> {
  const runs = Number(process.env.FUZZ_RUNS)
  const seed = Number(process.env.FUZZ_SEED)
  return {
    numRuns: Number.isInteger(runs) && runs > 0 ? runs : base,
    ...(Number.isInteger(seed) ? { seed } : {}),
    // a long run reports its first counterexample at once rather than shrinking it for minutes
    ...(Number.isInteger(runs) && runs > 0 ? { endOnFailure: true } : {}),
  }
}

/** Per-test timeout: the default in `npm test`, none worth hitting in a long run. */
export const FUZZ_TIMEOUT = process.env.FUZZ_RUNS === undefined ? 60_000 : 3_600_000

/**
 * Runs `f` and sorts its outcome by the library's contract for bad input: a value, or a `MarketDataError`.
 * Any other exception (a TypeError, a RangeError from a stack overflow, an Error of a hook) is returned as a
 * line that names it, so a property can fail with it.
 */
export function onlyMarketDataError(f: () => unknown): { value?: unknown; error?: MarketDataError; other?: string } {
  try {
    return { value: f() }
  } catch (e) {
    if (e instanceof MarketDataError) return { error: e }
    return { other: e instanceof Error ? `${e.name}: ${e.message.slice(0, 200)}` : `a thrown ${typeof e}` }
  }
}

/** Every path into a JSON-like value (objects and arrays), the root ([]) first. */
export function jsonPaths(
  x: unknown,
  at: (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  out.push(at)
  if (Array.isArray(x)) for (let i = 0; i < x.length; i++) jsonPaths(x[i], [...at, i], out)
  else if (typeof x === 'object' && x !== null) for (const [k, v] of Object.entries(x)) jsonPaths(v, [...at, k], out)
  return out
}

/** One edit of a JSON-like value: the value at `path` replaced, or deleted (`undefined` with `remove`). */
export function edited(x: unknown, path: (string | number)[], f: (old: unknown) => unknown, remove = false): unknown {
  if (path.length === 0) return f(x)
  const [head, ...rest] = path as [string | number, ...(string | number)[]]
  if (Array.isArray(x)) {
    const copy = [...x]
    if (rest.length === 0 && remove) copy.splice(head as number, 1)
    else copy[head as number] = edited(copy[head as number], rest, f, remove)
    return copy
  }
  const copy = { ...(x as Record<string, unknown>) }
  if (rest.length === 0 && remove) delete copy[head]
  else copy[head] = edited(copy[head], rest, f, remove)
  return copy
}
