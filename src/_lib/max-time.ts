// The `maxTime` bound of the streaming aggregators, checked before a batch reaches an engine: a record
// past it is refused (`out_of_range`) and changes nothing, and the engines' hot loops stay untouched
// (no bound, no cost: the scan runs only when the option is set).
import { MarketDataError } from '../errors.js'
import { describeValue } from './describe.js'
import type { Trade, TradeArraySink } from '../trades/types.js'

/** Largest |time| a `Date` can hold: ±8.64e15 epoch ms. Every record time, bound and restored time lies within it. */
export const MAX_TIME = 8.64e15

/**
 * True for a time `advance` takes: an integer epoch ms within ±8.64e15 (what a record time may be), and,
 * with `infinities`, ±Infinity (the end of the stream; -Infinity moves nothing). A fractional time or one
 * past ±8.64e15 is refused up front, so the watermark is always a time a checkpoint can hold.
 */
export function isAdvanceTime(x: unknown, infinities: boolean): x is number {
  return (
    typeof x === 'number' &&
    ((Number.isInteger(x) && x >= -MAX_TIME && x <= MAX_TIME) || (infinities && (x === Infinity || x === -Infinity)))
  )
}

/** Reads the `maxTime` option: undefined, or an integer epoch ms within ±8.64e15 (else `invalid_option`). */
export function readMaxTime(x: unknown): number | undefined {
  if (x === undefined) return undefined
  if (typeof x !== 'number' || !Number.isInteger(x) || x < -MAX_TIME || x > MAX_TIME) {
    throw new MarketDataError(
      'invalid_option',
      `maxTime: ${describeValue(x)} is not a time bound: expected an integer number of UTC epoch milliseconds within ±8.64e15`,
      { field: 'maxTime' },
    )
  }
  return x
}

/** The refusal of a record stamped after `maxTime`. */
export function pastMaxTime(t: number, max: number, index: number): MarketDataError {
  return new MarketDataError(
    'out_of_range',
    `time: ${describeValue(t)} is after maxTime ${describeValue(max)} (${new Date(max).toISOString()}); the record is refused and changes nothing`,
    { index, field: 'time' },
  )
}

/** A record's `time` when it is a number past `max` (read once, never throwing), else undefined. */
function pastTime(record: unknown, max: number): number | undefined {
  try {
    const t = typeof record === 'object' && record !== null ? (record as { time?: unknown }).time : undefined
    return typeof t === 'number' && t > max ? t : undefined
  } catch {
    return undefined
  }
}

/** Index of the first record of records[from, to) stamped after `max`, or -1 (unreadable records are left to the engine). */
export function firstPastInRecords(records: ArrayLike<unknown>, from: number, to: number, max: number): number {
  try {
    for (let i = from; i < to; i++) if (pastTime(records[i], max) !== undefined) return i
  } catch {
    // an array whose reads throw: the engine refuses it with its own error
  }
  return -1
}

/** Index of the first entry of a time column stamped after `max`, or -1 (a column that cannot be read is left to the engine). */
export function firstPastInColumn(columns: unknown, max: number): number {
  try {
    const time = (columns as { time?: unknown }).time
    if (!(time instanceof Float64Array)) return -1
    for (let i = 0; i < time.length; i++) if ((time[i] as number) > max) return i
  } catch {
    // as above
  }
  return -1
}

/** The time of the record at `i` (already found past the bound). */
export function timeAt(records: ArrayLike<unknown>, i: number): number {
  return (records[i] as { time: number }).time
}

/** Rows [0, n) of a set of equal-length columns, as views (no copy). */
export function headOf<C extends object>(columns: C, n: number): C {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(columns))
    out[k] = ArrayBuffer.isView(v) && !(v instanceof DataView) ? (v as Float64Array).subarray(0, n) : v
  return out as C
}

/** True when a single record is stamped after `max`; its time then. */
export function recordPast(record: unknown, max: number): number | undefined {
  return pastTime(record, max)
}

/**
 * A trade sink that refuses a record stamped after `max` before it reaches `sink` (for inputs read through
 * `feedTrades`); the error's index counts the records handed to it.
 */
export function boundedSink(sink: TradeArraySink, max: number): TradeArraySink {
  let seen = 0
  return {
    add(trade) {
      const t = recordPast(trade, max)
      if (t !== undefined) throw pastMaxTime(t, max, seen)
      sink.add(trade)
      seen++
    },
    addColumns(c) {
      const past = firstPastInColumn(c, max)
      if (past >= 0) {
        sink.addColumns(headOf(c, past))
        throw pastMaxTime(c.time[past] as number, max, seen + past)
      }
      sink.addColumns(c)
      seen += c.time.length
    },
    addTrades(trades, from, to) {
      const past = firstPastInRecords(trades, from, to, max)
      const stop = past >= 0 ? past : to
      if (sink.addTrades !== undefined) sink.addTrades(trades, from, stop)
      else for (let i = from; i < stop; i++) sink.add(trades[i] as Trade)
      if (past >= 0) throw pastMaxTime(timeAt(trades, past), max, seen + past - from)
      seen += to - from
    },
  }
}
