import { describeValue } from '../_lib/describe.js'
import { MarketDataError } from '../errors.js'
import { civilFromDays, daysFromCivil } from './civil.js'
import { DAY_MS, HOUR_MS, MINUTE_MS } from './constants.js'
import type { Timeframe } from './timeframe.js'
import { isUtcZone, isValidTimeZone, startOfLocalDay, tiledDayOf } from './zone.js'
import { checkOptions } from '../_lib/closed-options.js'

/** Options of the bucket functions: the frame's IANA time zone (default `UTC`). */
export interface BucketOptions {
  timeZone?: string
}

/** Keys of {@link BucketOptions}. */
const BUCKET_OPTION_KEYS = ['timeZone'] as const

/** Monday 1970-01-05, day number 4: the anchor of N-week buckets. */
const WEEK_ANCHOR_DAY = 4

function checkZone(tz: string | undefined): string {
  if (tz === undefined) return 'UTC'
  if (!isValidTimeZone(tz))
    throw new MarketDataError('invalid_option', `timeZone: ${describeValue(tz)} is not a known IANA time zone`, {
      field: 'timeZone',
    })
  return tz
}

function monthsPerBucket(tf: Timeframe): number {
  return tf.unit === 'MONTH' ? tf.count : tf.unit === 'QUARTER' ? 3 * tf.count : 12 * tf.count
}

/** Start of local day `day` (days since 1970-01-01) in the zone; a module function, not a closure made per call. */
function dayStartIn(day: number, tz: string, utc: boolean): number {
  return utc ? day * DAY_MS : startOfLocalDay(day, tz)
}

/**
 * Computes [start, end) of the bucket holding t into `out`. Alignment (in the zone):
 * minutes/hours: elapsed time from each local midnight (the last bucket of a day may be shorter);
 * days: N-day buckets counted from 1970-01-01; weeks: ISO weeks from Monday 1970-01-05;
 * months/quarters/years: calendar, N counted from January of year 0.
 */
function bucketRange(t: number, tf: Timeframe, tz: string, utc: boolean, out: Float64Array): void {
  const unit = tf.unit
  const count = tf.count
  const day = utc ? Math.floor(t / DAY_MS) : tiledDayOf(t, tz)
  if (unit === 'MINUTE' || unit === 'HOUR') {
    const len = count * (unit === 'MINUTE' ? MINUTE_MS : HOUR_MS)
    const ds = dayStartIn(day, tz, utc)
    const de = dayStartIn(day + 1, tz, utc)
    const s = ds + Math.floor((t - ds) / len) * len
    out[0] = s
    out[1] = Math.min(s + len, de)
    out[2] = ds
    out[3] = de
    return
  }
  if (unit === 'DAY' || unit === 'WEEK') {
    const n = unit === 'DAY' ? count : 7 * count
    const anchor = unit === 'DAY' ? 0 : WEEK_ANCHOR_DAY
    const b = anchor + Math.floor((day - anchor) / n) * n
    out[0] = dayStartIn(b, tz, utc)
    out[1] = dayStartIn(b + n, tz, utc)
    return
  }
  if (unit === 'TICK')
    throw new MarketDataError('invalid_option', `timeframe: tick frames (${tf.id}) have no time buckets`, {
      field: 'timeframe',
    })
  const per = monthsPerBucket(tf)
  const [y, m] = civilFromDays(day)
  const mi = y * 12 + (m - 1)
  const bi = Math.floor(mi / per) * per
  const ei = bi + per
  out[0] = dayStartIn(daysFromCivil(Math.floor(bi / 12), bi - Math.floor(bi / 12) * 12 + 1, 1), tz, utc)
  out[1] = dayStartIn(daysFromCivil(Math.floor(ei / 12), ei - Math.floor(ei / 12) * 12 + 1, 1), tz, utc)
}

function checkTime(t: number): void {
  if (typeof t !== 'number' || !Number.isFinite(t))
    throw new MarketDataError('invalid_time', `time: ${describeValue(t)} is not a finite epoch-millisecond number`, {
      field: 'time',
    })
}

/**
 * Start (UTC epoch ms) of the bucket of `tf` holding `time`, aligned in `opts.timeZone` (default UTC).
 *
 * @param time - an instant, epoch milliseconds
 * @param tf - the timeframe
 * @param opts - options, see {@link BucketOptions} (optional)
 * @returns the `number`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example bucketStart(Date.UTC(2026, 4, 29, 10, 7), { id: '15m', unit: 'MINUTE', count: 15 }) // Date.UTC(2026, 4, 29, 10, 0)
 */
export function bucketStart(time: number, tf: Timeframe, opts: BucketOptions = {}): number {
  return checkedRange(time, tf, opts, 'bucketStart')[0] as number
}

/**
 * End (exclusive, UTC epoch ms) of the bucket of `tf` holding `time`; the next bucket starts there.
 *
 * @param time - an instant, epoch milliseconds
 * @param tf - the timeframe
 * @param opts - options, see {@link BucketOptions} (optional)
 * @returns the `number`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example bucketEnd(Date.UTC(2026, 4, 29), { id: '1w', unit: 'WEEK', count: 1 }) // Date.UTC(2026, 5, 1) — Monday
 */
export function bucketEnd(time: number, tf: Timeframe, opts: BucketOptions = {}): number {
  return checkedRange(time, tf, opts, 'bucketEnd')[1] as number
}

/** The bucket range of `time` ([start, end, ...] as {@link bucketRange} writes it), after checking the arguments. */
function checkedRange(time: number, tf: Timeframe, opts: BucketOptions, fn: string): Float64Array {
  checkOptions(opts, BUCKET_OPTION_KEYS, fn)
  checkTime(time)
  const tz = checkZone(opts.timeZone)
  const out = new Float64Array(4)
  bucketRange(time, tf, tz, isUtcZone(tz), out)
  return out
}

/**
 * A bucket locator for hot loops: `locate(t)` returns the start of t's bucket and leaves `start`/`end` set.
 * The zone-aware bounds are computed once per bucket (and, for minute/hour frames, once per local day);
 * every other call is two comparisons. Correct for any order, fastest for sorted input.
 */
export class Bucketer {
  start = Number.NaN
  end = Number.NaN
  readonly timeframe: Timeframe
  readonly timeZone: string
  private readonly utc: boolean
  private readonly sub: boolean
  private readonly len: number
  private dayStart = Number.NaN
  private dayEnd = Number.NaN
  private readonly out = new Float64Array(4)

  constructor(tf: Timeframe, opts: BucketOptions = {}) {
    if (tf.unit === 'TICK')
      throw new MarketDataError('invalid_option', `timeframe: tick frames (${tf.id}) have no time buckets`, {
        field: 'timeframe',
      })
    this.timeframe = tf
    this.timeZone = checkZone(opts.timeZone)
    this.utc = isUtcZone(this.timeZone)
    this.sub = tf.unit === 'MINUTE' || tf.unit === 'HOUR'
    this.len = this.sub ? tf.count * (tf.unit === 'MINUTE' ? MINUTE_MS : HOUR_MS) : 0
  }

  /** Start of the bucket holding t; sets `start` and `end`. */
  locate(t: number): number {
    if (t >= this.start && t < this.end) return this.start
    return this.move(t)
  }

  /**
   * For minute and hour frames, after {@link locate}: writes the start and end of the local day holding
   * the last located time and the bucket length (ms) into `out[at..at+2]` and returns true (other frames:
   * false). Within that day a time t's bucket starts at dayStart + floor((t - dayStart) / length) * length
   * and ends at the next such start or the day's end, so a hot loop can step buckets without a call.
   *
   * @example
   * const b = createBucketer(resolveTimeframe('15m'), { timeZone: 'Europe/London' })
   * b.locate(t); const g = new Float64Array(3); if (b.dayGrid(g)) { const [dayStart, dayEnd, length] = g }
   */
  dayGrid(out: Float64Array, at = 0): boolean {
    if (!this.sub || !(this.dayStart < this.dayEnd)) return false
    out[at] = this.dayStart
    out[at + 1] = this.dayEnd
    out[at + 2] = this.len
    return true
  }

  private move(t: number): number {
    if (this.sub && t >= this.dayStart && t < this.dayEnd) {
      const ds = this.dayStart
      const s = ds + Math.floor((t - ds) / this.len) * this.len
      this.start = s
      this.end = Math.min(s + this.len, this.dayEnd)
      return s
    }
    const out = this.out
    bucketRange(t, this.timeframe, this.timeZone, this.utc, out)
    this.start = out[0] as number
    this.end = out[1] as number
    if (this.sub) {
      this.dayStart = out[2] as number
      this.dayEnd = out[3] as number
    }
    return this.start
  }
}

/**
 * Creates a {@link Bucketer} for `tf` in `opts.timeZone` (default UTC).
 *
 * @param tf - the timeframe
 * @param opts - options, see {@link BucketOptions} (optional)
 * @returns the `Bucketer`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * const b = createBucketer({ id: '1m', unit: 'MINUTE', count: 1 }, { timeZone: 'America/New_York' })
 * for (let i = 0; i < times.length; i++) starts[i] = b.locate(times[i])
 */
export function createBucketer(tf: Timeframe, opts: BucketOptions = {}): Bucketer {
  checkOptions(opts, BUCKET_OPTION_KEYS, 'createBucketer')
  return new Bucketer(tf, opts)
}
