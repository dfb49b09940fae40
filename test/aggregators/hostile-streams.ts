// Random streams for the checkpoint and refusal laws: valid records in every spelling the data readers
// take (exponent notation, extreme volumes), `advance` to any time (fractional, past ±8.64e15, NaN,
// infinities), and refusals of every kind mixed in, run against each streaming aggregator and input kind.
import fc from 'fast-check'
import type { AggregatorKind } from '../../src/aggregator.js'
import { createCandleAggregator } from '../../src/candles/index.js'
import { createFootprintAggregator } from '../../src/footprint/index.js'
import { createTpoAggregator } from '../../src/tpo/index.js'
import { MarketDataError } from '../../src/errors.js'
import type { Trade } from '../../src/trades/index.js'
import { T0, badColumnField, badColumns, badObjectField, badTrade, json, toColumns } from './harness.js'

/** Every method any of the aggregators has, as the laws call them (outputs compared as JSON). */
export interface Agg {
  add(x: unknown): void
  addTrades(x: unknown, from?: number, to?: number): void
  addColumns(x: unknown): void
  addCandle?(x: unknown): void
  addCandles?(x: unknown): void
  addCandleColumns?(x: unknown): void
  advance(t: number): unknown[]
  snapshot(): unknown[]
  flush(): unknown[]
  checkpoint(): unknown
  readonly watermark: number
}

/** An aggregator fed one kind of input. */
export interface StreamSubject {
  name: string
  kind: AggregatorKind
  input: 'trades' | 'candles'
  make(extra?: Record<string, unknown>): Agg
}

const asAgg = (x: unknown): Agg => x as Agg

export const STREAM_SUBJECTS: StreamSubject[] = [
  {
    name: 'candles from trades',
    kind: 'candles',
    input: 'trades',
    make: (extra = {}) => asAgg(createCandleAggregator({ timeframe: '5m', ...extra })),
  },
  {
    name: 'candles from candles',
    kind: 'candles',
    input: 'candles',
    make: (extra = {}) => asAgg(createCandleAggregator({ timeframe: '15m', sourceTimeframe: '1m', ...extra })),
  },
  {
    name: 'footprint',
    kind: 'footprint',
    input: 'trades',
    make: (extra = {}) => asAgg(createFootprintAggregator({ timeframe: '5m', tickSize: '0.25', ...extra })),
  },
  {
    name: 'tpo',
    kind: 'tpo',
    input: 'trades',
    make: (extra = {}) => asAgg(createTpoAggregator({ timeframe: '1d', tickSize: '0.25', blockSize: '30m', ...extra })),
  },
]

/** One step of a stream: a label (for failures) and what it does. */
export interface Op {
  label: string
  run(a: Agg): unknown
}

/** Prices in every spelling; `far` adds prices near 0, which TPO (rows cover the whole range) pays 20,000 rows for. */
const priceArb = (far: boolean) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom<unknown>(5000, '5000.25', 4999.75, '5001.5') },
    { weight: 2, arbitrary: fc.constantFrom<unknown>('5e3', '5.00025e3', '4.99975E+3', '5.0005e+3') },
    ...(far ? [{ weight: 1, arbitrary: fc.constantFrom<unknown>(9.417e-5, '9.417e-05', 1e-7) }] : []),
  )
const volumeArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom<unknown>(1, '2', 0, 0.5) },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(1e308, 1e-300, '1e308', '1E-300', '9.417e-05', 1e21, 2 ** 53) },
)
/** Offsets of `advance` from the stream's time: ordinary, fractional, and absolute times out of every range. */
const advanceArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(0, 60_000, 300_000, 900_000, 86_400_000).map((d) => ({ d, abs: false })) },
  { weight: 2, arbitrary: fc.constantFrom(0.5, 1e3 + 0.25, -0.5).map((d) => ({ d, abs: false })) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(9e15, -9e15, 8.64e15, -8.64e15, 8.64e15 + 1, Infinity, -Infinity, Number.NaN, 1.5)
      .map((d) => ({ d, abs: true })),
  },
)
const stepArb = fc.constantFrom(0, 1_000, 20_000, 60_000, 300_000, 1_800_000, 86_400_000)

/** A candle input at `t` (the 1m source frame): prices around 5000, exponent spellings and extremes mixed in. */
function candleAt(t: number, p: unknown, v: unknown, n: number | undefined): Record<string, unknown> {
  const base = Number(p) >= 1 ? Number(p) : 5000
  return {
    time: t,
    open: p,
    high: base + 0.5,
    low: Math.min(base, Number(p)),
    close: base,
    volume: v,
    ...(n === undefined ? {} : { trades: n }),
  }
}

/** A refusal: something each aggregator must refuse (or, for an empty batch, take as nothing). */
function refusalArb(input: 'trades' | 'candles', t: () => number): fc.Arbitrary<Op> {
  const late = fc.constantFrom(1, 300_000, 86_400_000 * 2)
  const common: fc.Arbitrary<Op>[] = [
    badObjectField.map((bad) => ({ label: `add bad ${bad.field}`, run: (a: Agg) => a.add(badTrade(t(), bad)) })),
    badColumnField.map((bad) => ({
      label: `addColumns bad ${bad.field}`,
      run: (a: Agg) => a.addColumns(badColumns(t(), bad)),
    })),
    badObjectField.map((bad) => ({
      label: `addTrades [bad ${bad.field}]`,
      run: (a: Agg) => a.addTrades([badTrade(t(), bad)]),
    })),
    fc.constant({ label: 'addColumns empty', run: (a: Agg) => a.addColumns(toColumns([])) }),
    fc.constantFrom<unknown>(null, {}, { time: new Float64Array(1) }, 'x').map((c) => ({
      label: 'addColumns bad shape',
      run: (a: Agg) => a.addColumns(c),
    })),
    late.map((d) => ({
      label: `late trade -${d}`,
      run: (a: Agg) => a.add({ time: Math.max(t(), a.watermark) - d, price: 5000, volume: 1, side: 'buy' }),
    })),
    fc.constant({
      label: 'past maxTime',
      run: (a: Agg) => a.add({ time: Date.UTC(2200, 0, 1), price: 5000, volume: 1, side: 'buy' }),
    }),
  ]
  if (input === 'trades') return fc.oneof(...common)
  const candle: fc.Arbitrary<Op>[] = [
    fc
      .constantFrom<[string, unknown]>(
        ['time', Number.NaN],
        ['time', 1.5],
        ['open', 'abc'],
        ['high', 1],
        ['low', 9999],
        ['volume', -1],
        ['trades', -1],
        ['trades', 0.5],
        ['session', 'LUNCH'],
      )
      .map(([k, v]) => ({
        label: `addCandle bad ${k}`,
        run: (a: Agg) => a.addCandle?.({ ...candleAt(t(), 5000, 1, 3), [k]: v }),
      })),
    late.map((d) => ({
      label: `late candle -${d}`,
      run: (a: Agg) => a.addCandle?.(candleAt(Math.max(t(), a.watermark) - d, 5000, 1, 1)),
    })),
    fc.constant({ label: 'addCandles [empty]', run: (a: Agg) => a.addCandles?.([]) }),
  ]
  return fc.oneof(...common, ...candle)
}

/**
 * A random stream for `input`: valid records, advances to any time, refusals of every kind. The ops share a
 * clock (the latest valid record's time), so refusals land at times that mean something for the stream.
 */
/** A stream's steps; `reset()` sets its clock back to the start, to run the same steps again. */
export interface Stream {
  ops: Op[]
  reset(): void
}

export function streamArb(subject: StreamSubject): fc.Arbitrary<Stream> {
  const input = subject.input
  return fc
    .array(
      fc.record({
        what: fc.constantFrom('record', 'record', 'record', 'batch', 'advance', 'refusal'),
        step: stepArb,
        price: priceArb(subject.kind !== 'tpo'),
        volume: volumeArb,
        sell: fc.boolean(),
        n: fc.option(fc.constantFrom(0, 1, 7, 2 ** 40), { nil: undefined }),
        adv: advanceArb,
        seed: fc.nat(),
      }),
      { maxLength: 30 },
    )
    .chain((steps) => {
      let clock = T0
      const now = () => clock
      const reset = () => {
        clock = T0
      }
      return fc.tuple(...steps.map((s) => (s.what === 'refusal' ? refusalArb(input, now) : fc.constant(s)))).map(
        (picked): Stream => ({
          reset,
          ops: picked.map((p, i): Op => {
            const s = steps[i] as (typeof steps)[number]
            if (s.what === 'refusal') return p as Op
            if (s.what === 'advance') {
              const at = (base: number) => (s.adv.abs ? s.adv.d : base + s.adv.d)
              return { label: `advance ${s.adv.abs ? s.adv.d : `+${s.adv.d}`}`, run: (a) => a.advance(at(clock)) }
            }
            // records: the clock moves only when the record is valid (which the step cannot know before): the
            // time is taken from the clock when it runs, and the clock moves after it was taken
            const step = input === 'candles' ? Math.ceil(s.step / 60_000) * 60_000 : s.step
            const record = (t: number): unknown =>
              input === 'trades'
                ? { time: t, price: s.price, volume: s.volume, side: s.sell ? 'sell' : 'buy' }
                : candleAt(t, s.price, s.volume, s.n)
            const take = (a: Agg, xs: unknown[]): void => {
              if (input === 'candles') {
                if (s.what === 'batch') a.addCandles?.(xs)
                else for (const x of xs) a.addCandle?.(x)
              } else if (s.what === 'batch' && s.seed % 2 === 0) a.addColumns(toColumns(xs as Trade[]))
              else if (s.what === 'batch') a.addTrades(xs)
              else for (const x of xs) a.add(x)
            }
            return {
              label: `${s.what} +${step} ${String(s.price)} x ${String(s.volume)}`,
              run: (a) => {
                const t = Math.max(clock, a.watermark === -Infinity ? clock : Math.ceil(a.watermark)) + step
                const xs =
                  s.what === 'batch' ? [record(t), record(t + (input === 'candles' ? 60_000 : 1))] : [record(t)]
                take(a, xs)
                clock = t
              },
            }
          }),
        }),
      )
    })
}

/** What a step did: its outputs as JSON, or the refusal's code and field. */
export function outcome(a: Agg, op: Op): unknown {
  try {
    return { out: json(op.run(a) ?? null) }
  } catch (e) {
    if (!(e instanceof MarketDataError)) throw e
    return { code: e.code, field: e.field, applied: e.applied }
  }
}

/** A JSON value with the keys of every object in another order (as Postgres `jsonb` gives them back). */
export function shuffleKeys(x: unknown, seed: number): unknown {
  let s = seed >>> 0 || 1
  const next = () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0
    return s
  }
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk)
    if (typeof v !== 'object' || v === null) return v
    const entries = Object.entries(v)
    for (let i = entries.length - 1; i > 0; i--) {
      const j = next() % (i + 1)
      ;[entries[i], entries[j]] = [entries[j] as [string, unknown], entries[i] as [string, unknown]]
    }
    return Object.fromEntries(entries.map(([k, w]) => [k, walk(w)]))
  }
  return walk(x)
}
