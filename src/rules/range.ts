import { bucketEnd, bucketStart, parseRfc3339, type Timeframe } from '../time/index.js'
import type { HistoryEndpoint, PinnedEnd } from './types.js'

/** Earliest time a range may hold: 1970-01-01T00:00Z (Unix seconds are never negative; no market data before). */
export const TIME_MIN = 0
/** Latest time a range may hold: 10000-01-01T00:00Z (RFC3339 years end at 9999). */
export const TIME_MAX = 253_402_300_800_000
/** Largest `period` in seconds: the whole span TIME_MIN..TIME_MAX. */
export const PERIOD_MAX_SECONDS = TIME_MAX / 1000

/** Default window of profile endpoints when a range end is missing: footprint buckets, TPO periods (slots). */
export const DEFAULT_WINDOW: Readonly<Record<Exclude<HistoryEndpoint, 'candles'>, number>> = { footprint: 100, tpo: 20 }

export interface RangeInput {
  from?: number
  to?: number
  /** Seconds. */
  period?: number
}

export interface ResolvedRange {
  from: number
  to: number
  pinned: PinnedEnd
  empty: boolean
}

/**
 * An RFC 3339 date-time read for a range bound: the epoch ms (in TIME_MIN .. TIME_MAX), or why not — `'format'` when it is not a
 * date-time with Z or an offset, `'before'` / `'after'` when it is one but lies before 1970 or after 9999
 * (so the error can name the range rule rather than the format).
 */
export function readRangeDateTime(v: string): number | 'format' | 'before' | 'after' {
  const r = parseRfc3339(v)
  if (r.ok) return r.value
  // parseRfc3339 refuses instants outside 1970..9999: try the same text in a year of the same leapness
  const year = /^\d{4}$/.test(v.slice(0, 4)) ? Number(v.slice(0, 4)) : -1
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  if (year < 0 || !parseRfc3339(`${leap ? 2000 : 2001}${v.slice(4)}`).ok) return 'format'
  return year >= 9999 ? 'after' : 'before'
}

const clamp = (t: number): number => (t < TIME_MIN ? TIME_MIN : t > TIME_MAX ? TIME_MAX : t)

/**
 * Resolves the range of a history request. The caller has already rejected
 * `from` + `to` + `period` and `to <= from`. `window` is the default window in buckets for profile endpoints,
 * `undefined` for candles (open start, `[from, now)` with `from` alone).
 */
export function resolveRange(
  input: RangeInput,
  now: number,
  window: { count: number; timeframe: Timeframe; timeZone: string } | undefined,
): ResolvedRange {
  const { from, to, period } = input
  const periodMs = period === undefined ? undefined : period * 1000
  let lo: number
  let hi: number
  let pinned: PinnedEnd
  if (from !== undefined) {
    pinned = 'from'
    lo = from
    if (to !== undefined) hi = to
    else if (periodMs !== undefined) hi = clamp(from + periodMs)
    else hi = window === undefined ? clamp(now) : windowForward(from, window)
  } else {
    pinned = 'to'
    hi = to ?? clamp(now)
    if (periodMs !== undefined) lo = clamp(hi - periodMs)
    else lo = window === undefined ? TIME_MIN : windowBack(hi, window)
  }
  if (lo >= hi) {
    // Nothing to read: keep the pinned end, make the range zero-length there.
    if (pinned === 'from') hi = lo
    else lo = hi
    return { from: lo, to: hi, pinned, empty: true }
  }
  return { from: lo, to: hi, pinned, empty: false }
}

// N whole buckets ending with the bucket that holds `to - 1 ms`; returns the first bucket's start.
function windowBack(to: number, w: { count: number; timeframe: Timeframe; timeZone: string }): number {
  if (to <= TIME_MIN) return TIME_MIN
  const opts = { timeZone: w.timeZone }
  let start = bucketStart(to - 1, w.timeframe, opts)
  for (let i = 1; i < w.count && start > TIME_MIN; i++) start = bucketStart(start - 1, w.timeframe, opts)
  return Number.isFinite(start) ? clamp(start) : TIME_MIN
}

// N whole buckets starting with the bucket that holds `from`; returns the last bucket's end.
function windowForward(from: number, w: { count: number; timeframe: Timeframe; timeZone: string }): number {
  if (from >= TIME_MAX) return TIME_MAX
  const opts = { timeZone: w.timeZone }
  let end = bucketEnd(from, w.timeframe, opts)
  for (let i = 1; i < w.count && end < TIME_MAX; i++) end = bucketEnd(end, w.timeframe, opts)
  return Number.isFinite(end) ? clamp(end) : TIME_MAX
}
