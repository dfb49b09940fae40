import fc from 'fast-check'
import { describeValue } from '../_lib/describe.js'

/** Deep copy that keeps typed arrays (for the no-mutation law). */
function snapshot<T>(x: T): T {
  return structuredClone(x)
}

/**
 * What an aggregator must supply to be checked by {@link aggregatorContract}. `R` is the aggregate
 * (e.g. `Candle[]`), `T` a record (e.g. `Trade`).
 */
export interface AggregatorContractSpec<T, R> {
  /** Arbitrary of time-ordered record lists. */
  records: fc.Arbitrary<T[]>
  /** The batch function. */
  batch: (records: T[]) => R
  /** Feeds the consecutive parts (in order) into a streaming aggregator and returns the final aggregate. */
  stream?: (parts: T[][]) => R
  /** Merges two partial aggregates of records split by time (the first holds the earlier records). */
  merge?: (a: R, b: R) => R
  /** A slow, obviously correct reference (e.g. on big.js). */
  reference?: (records: T[]) => R
  /** Equality of aggregates (default: deep equality via JSON of a structured clone). */
  equals?: (a: R, b: R) => boolean
  /** Extra invariants every aggregate must satisfy (return false or throw to fail). */
  // biome-ignore lint/suspicious/noConfusingVoidType: a checker that only asserts (returns nothing) is accepted as passing
  invariants?: (records: T[], result: R) => boolean | void
}

const deepEqual = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

/**
 * Cuts a list into consecutive parts at sorted indexes (a cut past the end, or before the previous one, cuts
 * an empty part there).
 *
 * @param xs - a `readonly T[]`
 * @param cuts - a `readonly number[]` of indexes
 * @returns the `T[][]`: `cuts.length + 1` parts whose concatenation is `xs`
 * @throws TypeError naming the parameter when `xs` or `cuts` is not an array or a cut is not a finite number
 *   (a test helper: a wrong call is a bug in the test, not data to answer)
 * @example splitAt([1, 2, 3, 4, 5], [2, 2, 4]) // [[1, 2], [], [3, 4], [5]]
 */
export function splitAt<T>(xs: readonly T[], cuts: readonly number[]): T[][] {
  if (!Array.isArray(xs)) throw new TypeError(`splitAt: xs must be an array, got ${describeValue(xs)}`)
  if (!Array.isArray(cuts)) throw new TypeError(`splitAt: cuts must be an array, got ${describeValue(cuts)}`)
  for (const c of cuts)
    if (typeof c !== 'number' || !Number.isFinite(c))
      throw new TypeError(`splitAt: cuts must hold finite numbers, got ${describeValue(c)}`)
  const parts: T[][] = []
  let prev = 0
  for (const c0 of cuts) {
    const c = Math.max(prev, Math.min(xs.length, c0))
    parts.push(xs.slice(prev, c))
    prev = c
  }
  parts.push(xs.slice(prev))
  return parts
}

/** A named property of {@link aggregatorContract}. */
export interface Law {
  name: string
  property: fc.IPropertyWithHooks<unknown[]>
}

function assertEq<R>(eq: (a: R, b: R) => boolean, a: R, b: R, what: string): void {
  if (!eq(a, b)) throw new Error(`${what}:\n  got      ${JSON.stringify(a)}\n  expected ${JSON.stringify(b)}`)
}

/**
 * The contract every aggregator of the library meets, as fast-check properties: batch = streaming over
 * any split, merge of any split = aggregate of the concatenation, equal to a slow reference, the input
 * never mutated, invariants. Run each with `fc.assert(law.property, { numRuns })`.
 *
 * @param spec - a `AggregatorContractSpec<T, R>`
 * @returns the `Law[]`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * for (const law of aggregatorContract({ records: tradesArb(), batch: (t) => candlesFromTrades(t, { timeframe: '1m' }), merge: mergeCandles }))
 *   it(law.name, () => fc.assert(law.property, { numRuns: 50 }))
 */
export function aggregatorContract<T, R>(spec: AggregatorContractSpec<T, R>): Law[] {
  const eq = spec.equals ?? deepEqual
  const laws: Law[] = []
  const withCuts = spec.records.chain((xs) =>
    fc.tuple(
      fc.constant(xs),
      fc.array(fc.integer({ min: 0, max: xs.length }), { maxLength: 4 }).map((c) => [...c].sort((a, b) => a - b)),
    ),
  )
  laws.push({
    name: 'never mutates its input',
    property: fc.property(spec.records, (xs) => {
      const before = snapshot(xs)
      spec.batch(xs)
      assertEq(deepEqual, xs as unknown, before as unknown, 'input changed')
    }) as fc.IPropertyWithHooks<unknown[]>,
  })
  if (spec.stream !== undefined) {
    const stream = spec.stream
    laws.push({
      name: 'streaming over any split = batch',
      property: fc.property(withCuts, ([xs, cuts]) => {
        assertEq(eq, stream(splitAt(xs, cuts)), spec.batch(xs), 'stream != batch')
      }) as fc.IPropertyWithHooks<unknown[]>,
    })
  }
  if (spec.merge !== undefined) {
    const merge = spec.merge
    laws.push({
      name: 'merge of aggregates of any split = aggregate of the whole',
      property: fc.property(withCuts, ([xs, cuts]) => {
        const parts = splitAt(xs, cuts)
        let acc = spec.batch(parts[0] as T[])
        for (let i = 1; i < parts.length; i++) acc = merge(acc, spec.batch(parts[i] as T[]))
        assertEq(eq, acc, spec.batch(xs), 'merge != batch')
      }) as fc.IPropertyWithHooks<unknown[]>,
    })
  }
  if (spec.reference !== undefined) {
    const ref = spec.reference
    laws.push({
      name: 'equals the slow reference',
      property: fc.property(spec.records, (xs) => {
        assertEq(eq, spec.batch(xs), ref(xs), 'batch != reference')
      }) as fc.IPropertyWithHooks<unknown[]>,
    })
  }
  if (spec.invariants !== undefined) {
    const inv = spec.invariants
    laws.push({
      name: 'invariants hold',
      property: fc.property(spec.records, (xs) => {
        const r = spec.batch(xs)
        if (inv(xs, r) === false) throw new Error(`invariant failed for ${JSON.stringify(r)}`)
      }) as fc.IPropertyWithHooks<unknown[]>,
    })
  }
  return laws
}

/**
 * Nesting law of a resampler: `resample(resample(x, a), b) = resample(x, b)` whenever every a-bucket
 * lies inside one b-bucket (the caller picks such frames).
 *
 * @param spec - a `{ input: fc.Arbitrary<X>; resample: (x: X, tf: TF) => X; chain: readonly TF[]; equals?: (a: X, b: X) => boolean }`
 * @returns the `fc.IPropertyWithHooks<[X]>`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example fc.assert(nestingLaw({ input: candlesArb, resample: (x, tf) => resampleCandles(x, { timeframe: tf }), chain: ['5m', '15m', '1h'] }))
 */
export function nestingLaw<X, TF>(spec: {
  input: fc.Arbitrary<X>
  resample: (x: X, tf: TF) => X
  chain: readonly TF[]
  equals?: (a: X, b: X) => boolean
}): fc.IPropertyWithHooks<[X]> {
  const eq = spec.equals ?? deepEqual
  return fc.property(spec.input, (x) => {
    for (let i = 0; i < spec.chain.length; i++) {
      for (let j = i + 1; j < spec.chain.length; j++) {
        const a = spec.chain[i] as TF
        const b = spec.chain[j] as TF
        assertEq(eq, spec.resample(spec.resample(x, a), b), spec.resample(x, b), `nesting ${String(a)} -> ${String(b)}`)
      }
    }
  })
}

/**
 * Tiling law of a bucketed aggregate: every output's `time` is the start of the bucket holding it, the
 * outputs are strictly ascending, and every input record's time lies in the bucket of exactly one output.
 *
 * @param spec - a `{ records: fc.Arbitrary<T[]> aggregate: (xs: T[]) => O[] timeOf: (x: T) => number bucketStart: (t: number) => number }`
 * @returns the `fc.IPropertyWithHooks<[T[]]>`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example fc.assert(tilingLaw({ records: tradesArb(), aggregate: (t) => candlesFromTrades(t, opts), timeOf: (t) => t.time, bucketStart: (t) => bucketStart(t, tf) }))
 */
export function tilingLaw<T, O extends { time: number }>(spec: {
  records: fc.Arbitrary<T[]>
  aggregate: (xs: T[]) => O[]
  timeOf: (x: T) => number
  bucketStart: (t: number) => number
}): fc.IPropertyWithHooks<[T[]]> {
  return fc.property(spec.records, (xs) => {
    const out = spec.aggregate(xs)
    const starts = new Set<number>()
    for (let i = 0; i < out.length; i++) {
      const t = (out[i] as O).time
      if (spec.bucketStart(t) !== t) throw new Error(`output ${i}: time ${t} is not a bucket start`)
      if (i > 0 && !(t > (out[i - 1] as O).time)) throw new Error(`output ${i}: not ascending`)
      starts.add(t)
    }
    for (const x of xs)
      if (!starts.has(spec.bucketStart(spec.timeOf(x))))
        throw new Error(`record at ${spec.timeOf(x)} has no output bucket`)
  })
}
