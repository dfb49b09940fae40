// The nesting rule of resampling: a target bucket holds whole source buckets, or the input is refused.
import { MarketDataError } from '../errors.js'
import { MAX_TIME } from '../_lib/max-time.js'
import { Bucketer } from './bucket.js'
import { civilFromDays, daysFromCivil } from './civil.js'
import { DAY_MS, MINUTE_MS } from './constants.js'
import { timeframeRank, type Timeframe } from './timeframe.js'
import { formatIso } from './wire.js'
import { startOfLocalDay, tiledDayOf } from './zone.js'

/** The refusals of the nesting rule (resampling and tpoFromCandles). */
const NESTING_MSG = {
  finer: (name: string, target: string, source: string) =>
    `${name}: ${target} is finer than the source frame ${source}; resampling never splits a candle into smaller ones`,
  straddles: (sb: number, se: number, how: string, target: string, boundary: number) =>
    `time: the candle covers [${formatIso(sb)}, ${formatIso(se)}) (${how}) and the ${target} boundary ${formatIso(boundary)} lies inside it; a target bucket must hold whole source buckets (resampling never relabels a candle)`,
  unknownFrame: (t: number, target: string, boundary: number) =>
    `time: the candle at ${formatIso(t)} may run past the ${target} boundary ${formatIso(boundary)}, and its frame cannot be inferred (every gap between candle starts so far ends at a local midnight, where minute and hour frames restart); give sourceTimeframe`,
}

/** Calendar levels of an inferred source frame: its gaps are counted in months, local days or elapsed ms. */
const MONTHS = 2
const DAYS = 1
const ELAPSED = 0

/** What the guard needs: the target frame and zone, and the source frame when the caller gives one. */
export interface NestingSpec {
  target: Timeframe
  timeZone: string
  source: Timeframe | undefined
  /** Appended to a refusal (tpoFromCandles says which block size would work). */
  advice?: (sourceMinutes: number | undefined) => string
  /** The option naming the target frame in messages (default `timeframe`; tpoFromCandles: `blockSize`). */
  targetName?: string
  /** Stream index of each position scanned, when the times were reordered (tpoFromCandles sorts its input). */
  indexes?: ArrayLike<number>
}

/** The source frame inferred so far: the smallest positive gap between consecutive candle starts, per calendar level. */
interface Inferred {
  level: number
  gMs: number
  gDays: number
  gMonths: number
  lastT: number
  lastDay: number
  lastMonth: number
}

const freshInference = (): Inferred => ({
  level: MONTHS,
  gMs: Infinity,
  gDays: Infinity,
  gMonths: Infinity,
  lastT: Number.NEGATIVE_INFINITY,
  lastDay: Number.NaN,
  lastMonth: Number.NaN,
})

/**
 * The guard's running state (see {@link NestingGuard.save}): the inference (level, smallest gaps, the
 * last inferred time, day and month) and the last accepted candle's target bucket, source bucket end,
 * time and stream index. NaN and the infinities mark "none yet"; a checkpoint encodes them.
 */
export interface NestingState {
  level: number
  gMs: number
  gDays: number
  gMonths: number
  inferredT: number
  lastDay: number
  lastMonth: number
  tStart: number
  tEnd: number
  sEnd: number
  lastT: number
  lastIndex: number
}

/**
 * The first index in [from, to) whose time is not below `end` (a NaN included), or `to`. A function of its
 * own: written as a loop inside {@link NestingGuard.scan}, it got scan compiled on stack (OSR), and that code
 * deoptimized at every exit of the loop (about 700 deoptimizations in 3 s of 1m -> 1d).
 */
function firstAtOrPast(times: Float64Array, from: number, to: number, end: number): number {
  let i = from
  while (i < to && (times[i] as number) < end) i++
  return i
}

/** Is the target frame finer than the source (a 1m target of 5m candles)? By nominal length, months of 30.44 days. */
export function finerThan(target: Timeframe, source: Timeframe): boolean {
  return timeframeRank(target) < timeframeRank(source)
}

/**
 * Checks candle times against the nesting rule, cheaply: with a source frame, once per source bucket
 * (its start and end against the target bucket's); without, the inferred span of the last candle of
 * each target bucket against that bucket's end, when the bucket closes (the only candle whose span can
 * reach past it). Bad or out-of-order times are skipped: the aggregator refuses them with its own error.
 */
export class NestingGuard {
  private readonly spec: NestingSpec
  private readonly target: Bucketer
  private readonly source: Bucketer | undefined
  private readonly dayB: Bucketer
  private readonly monthB: Bucketer
  private readonly inf: Inferred = freshInference()
  /** The inference before the candle being stepped (restored when that candle is refused). */
  private readonly keep: Inferred = freshInference()
  // the target bucket of the last accepted candle, and that candle
  private tStart = Number.NaN
  private tEnd = Number.NEGATIVE_INFINITY
  private sEnd = Number.NEGATIVE_INFINITY
  private lastT = Number.NEGATIVE_INFINITY
  private lastIndex = -1
  /** The refusal of the last {@link scan} that stopped early. */
  error: MarketDataError | undefined = undefined

  constructor(spec: NestingSpec) {
    this.spec = spec
    const zone = { timeZone: spec.timeZone }
    this.target = new Bucketer(spec.target, zone)
    this.source = spec.source === undefined ? undefined : new Bucketer(spec.source, zone)
    this.dayB = new Bucketer({ id: '1d', unit: 'DAY', count: 1 }, zone)
    this.monthB = new Bucketer({ id: '1M', unit: 'MONTH', count: 1 }, zone)
    if (spec.source !== undefined && finerThan(spec.target, spec.source)) {
      const advice =
        spec.advice === undefined
          ? ''
          : spec.advice(
              spec.source.unit === 'MINUTE'
                ? spec.source.count
                : spec.source.unit === 'HOUR'
                  ? 60 * spec.source.count
                  : undefined,
            )
      throw new MarketDataError(
        'incompatible',
        NESTING_MSG.finer(spec.targetName ?? 'timeframe', spec.target.id, spec.source.id) + advice,
        { field: 'sourceTimeframe' },
      )
    }
  }

  /**
   * A copy of the state: to rewind to when the aggregator refuses a record the guard already passed, and
   * for a checkpoint (a stream resumed without `sourceTimeframe` keeps the frame inferred so far).
   */
  save(): NestingState {
    const f = this.inf
    return {
      level: f.level,
      gMs: f.gMs,
      gDays: f.gDays,
      gMonths: f.gMonths,
      inferredT: f.lastT,
      lastDay: f.lastDay,
      lastMonth: f.lastMonth,
      tStart: this.tStart,
      tEnd: this.tEnd,
      sEnd: this.sEnd,
      lastT: this.lastT,
      lastIndex: this.lastIndex,
    }
  }

  /** Sets the state {@link save} returned (a checkpoint's is validated by its reader first). */
  restore(s: NestingState): void {
    const f = this.inf
    f.level = s.level
    f.gMs = s.gMs
    f.gDays = s.gDays
    f.gMonths = s.gMonths
    f.lastT = s.inferredT
    f.lastDay = s.lastDay
    f.lastMonth = s.lastMonth
    this.tStart = s.tStart
    this.tEnd = s.tEnd
    this.sEnd = s.sEnd
    this.lastT = s.lastT
    this.lastIndex = s.lastIndex
    this.error = undefined
  }

  private infer(inf: Inferred, t: number): void {
    // equal, decreasing, NaN or out-of-range times add no gap (the aggregator refuses the bad ones)
    if (!(t > inf.lastT && t <= MAX_TIME && t >= -MAX_TIME)) return
    // a gap ending at a local midnight is not counted in elapsed time: minute and hour frames restart there,
    // so the last bucket of a day may be shorter than the frame (7m: 23:55-24:00)
    const midnight = this.dayB.locate(t) === t
    if (!midnight && inf.lastT !== Number.NEGATIVE_INFINITY && t - inf.lastT < inf.gMs) inf.gMs = t - inf.lastT
    if (inf.level > ELAPSED) this.inferCalendar(inf, t, midnight)
    inf.lastT = t
  }

  /** Day and month gaps while every candle so far starts a local day (or month). Intl only for such inputs. */
  private inferCalendar(inf: Inferred, t: number, midnight: boolean): void {
    if (!midnight) {
      inf.level = ELAPSED
      return
    }
    const day = tiledDayOf(t, this.spec.timeZone)
    if (inf.lastDay === inf.lastDay && day - inf.lastDay < inf.gDays) inf.gDays = day - inf.lastDay
    inf.lastDay = day
    if (inf.level === MONTHS) {
      if (this.monthB.locate(t) !== t) inf.level = DAYS
      else {
        const [y, m] = civilFromDays(day)
        const month = y * 12 + m - 1
        if (inf.lastMonth === inf.lastMonth && month - inf.lastMonth < inf.gMonths) inf.gMonths = month - inf.lastMonth
        inf.lastMonth = month
      }
    }
  }

  /** End of the span a candle at t covers by the inferred frame (Infinity-free: t itself when no gap is known). */
  private spanEnd(t: number): number {
    const inf = this.inf
    const tz = this.spec.timeZone
    if (inf.level === MONTHS && inf.gMonths < Infinity) {
      const [y, m] = civilFromDays(tiledDayOf(t, tz))
      const e = y * 12 + m - 1 + inf.gMonths
      return startOfLocalDay(daysFromCivil(Math.floor(e / 12), e - Math.floor(e / 12) * 12 + 1, 1), tz)
    }
    if (inf.level >= DAYS && inf.gDays < Infinity) return startOfLocalDay(tiledDayOf(t, tz) + inf.gDays, tz)
    if (!(inf.gMs < Infinity)) return t
    if (inf.gMs >= DAY_MS) return t + inf.gMs
    // a frame shorter than a day restarts at local midnight: no bucket of it runs past the day's end
    this.dayB.locate(t)
    return Math.min(t + inf.gMs, this.dayB.end)
  }

  /**
   * Checks times[from, to) (stream indexes base + i - from) and returns where it stopped: `to`, or the
   * first candle refused (its error in {@link error}); state is kept for the candles before it only.
   */
  scan(times: Float64Array, from: number, to: number, base: number): number {
    const src = this.source
    const streaming = src === undefined
    const inf = this.inf
    let tEnd = this.tEnd
    let sEnd = this.sEnd
    let lastT = this.lastT
    let lastIndex = this.lastIndex
    // the smallest gap so far, in a local; and the local day of the last inferred time: inside it (not at
    // its start) a gap is plain elapsed time, taken inline without a call
    let gMs = inf.gMs
    let elapsed = inf.level === ELAPSED
    let dayS = this.dayB.start
    let dayE = this.dayB.end
    let i = from
    for (; i < to; i++) {
      if (sEnd === Number.POSITIVE_INFINITY && !streaming) {
        // a target bucket of whole source buckets: none of its candles needs a check, only the first one
        // past its end (or a NaN) takes the test below. Times out of order inside it only make lastT less
        // than the largest so far; the aggregator refuses the first of them before any later candle counts
        const skipFrom = i
        i = firstAtOrPast(times, i, to, tEnd)
        if (i > skipFrom) {
          const t = times[i - 1] as number
          if (t >= lastT) {
            lastT = t
            lastIndex = base + i - 1 - from
          }
        }
        if (i >= to) break
      }
      const t = times[i] as number
      if (!(t >= lastT && t <= MAX_TIME && t >= -MAX_TIME)) continue
      if (t < sEnd && t < tEnd) {
        if (streaming) {
          if (elapsed && t > dayS && t < dayE) {
            if (t - lastT < gMs && t > lastT) gMs = t - lastT
          } else {
            inf.gMs = gMs
            inf.lastT = lastT
            this.infer(inf, t)
            gMs = inf.gMs
            elapsed = inf.level === ELAPSED
            dayS = this.dayB.start
            dayE = this.dayB.end
          }
        }
        lastT = t
        lastIndex = base + i - from
        continue
      }
      // a new source or target bucket: the slow check, once per bucket
      // the inference before this candle, restored if it is refused (in elapsed time only gMs and lastT move)
      const calendar = streaming && !elapsed
      if (streaming) {
        inf.gMs = gMs
        inf.lastT = lastT
        if (calendar) Object.assign(this.keep, inf)
        this.infer(inf, t)
      }
      this.lastT = lastT
      this.lastIndex = lastIndex
      this.tEnd = tEnd
      if (!this.step(t, base + i - from, src)) {
        if (calendar) Object.assign(inf, this.keep)
        else if (streaming) {
          inf.gMs = gMs
          inf.lastT = lastT
        }
        break
      }
      tEnd = this.tEnd
      sEnd = src === undefined ? Number.POSITIVE_INFINITY : this.sEnd
      gMs = inf.gMs
      elapsed = inf.level === ELAPSED
      dayS = this.dayB.start
      dayE = this.dayB.end
      lastT = t
      lastIndex = base + i - from
    }
    if (streaming) {
      inf.gMs = gMs
      inf.lastT = lastT
    }
    this.lastT = lastT
    this.lastIndex = lastIndex
    this.tEnd = tEnd
    this.sEnd = sEnd
    return i
  }

  /** The candle at `index` starts a new source or target bucket: check it (and the bucket it closes). */
  private step(t: number, index: number, src: Bucketer | undefined): boolean {
    let tStart = this.tStart
    let tEnd = this.tEnd
    if (t >= tEnd) {
      // the closing bucket's last candle, judged by the gaps known now (this candle's gap included)
      if (src === undefined && this.lastIndex >= 0 && !this.closes()) return false
      tStart = this.target.locate(t)
      tEnd = this.target.end
    }
    if (src !== undefined) {
      // a target bucket whose both ends are source boundaries holds whole source buckets only: its
      // candles need no check of their own (sEnd = Infinity until the next target bucket)
      if (tEnd !== this.tEnd && src.locate(tStart) === tStart && src.locate(tEnd) === tEnd)
        this.sEnd = Number.POSITIVE_INFINITY
      else {
        const sb = src.locate(t)
        const se = src.end
        const how = `sourceTimeframe ${src.timeframe.id}`
        if (sb < tStart) return this.refuse(index, sb, se, tStart, how)
        if (se > tEnd) return this.refuse(index, sb, se, tEnd, how)
        this.sEnd = se
      }
    }
    this.tStart = tStart
    this.tEnd = tEnd
    return true
  }

  /**
   * Does the open target bucket's last candle end inside it? With no frame known yet (every gap so far ended
   * at a local midnight) its span is unknown: taken as is when it is the only candle (`only`), refused
   * otherwise, since it may run past the target boundary.
   */
  /** End of the local day holding `t`. */
  private localDayEnd(t: number): number {
    this.dayB.locate(t)
    return this.dayB.end
  }

  private closes(only = false): boolean {
    const e = this.spanEnd(this.lastT)
    // a frame shorter than a day ends by the local day's end: a target bucket reaching it holds the candle anyway
    if (e === this.lastT && !only && !this.frameKnown() && this.tEnd < this.localDayEnd(this.lastT)) {
      const advice = this.spec.advice === undefined ? '' : this.spec.advice(undefined)
      const at = this.spec.indexes === undefined ? this.lastIndex : (this.spec.indexes[this.lastIndex] as number)
      this.error = new MarketDataError(
        'incompatible',
        NESTING_MSG.unknownFrame(this.lastT, `${this.spec.target.id} ${this.spec.targetName ?? 'target'}`, this.tEnd) +
          advice,
        { index: at, field: 'time' },
      )
      return false
    }
    if (e <= this.tEnd) return true
    return this.refuse(
      this.lastIndex,
      this.lastT,
      e,
      this.tEnd,
      `${this.inferredId()} inferred from the smallest gap between candle starts; give sourceTimeframe when the candles have gaps`,
    )
  }

  /** Checks the open target bucket at the end of the input (batch calls and `finish`). Throws the refusal. */
  finish(): void {
    if (this.source !== undefined || this.lastIndex < 0 || this.tEnd === Number.NEGATIVE_INFINITY) return
    if (!this.closes(this.lastIndex === 0)) throw this.error as MarketDataError
  }

  /** The stream reached `time` (the aggregator's `advance`): a target bucket it closes is judged now. Throws the refusal. */
  advance(time: number): void {
    if (this.source !== undefined || this.lastIndex < 0 || time < this.tEnd) return
    if (!this.closes(this.lastIndex === 0)) throw this.error as MarketDataError
  }

  /** Has any gap between candle starts given a frame (at any calendar level)? */
  private frameKnown(): boolean {
    const inf = this.inf
    return inf.gMs < Infinity || inf.gDays < Infinity || inf.gMonths < Infinity
  }

  /** The inferred source frame, as words. */
  private inferredId(): string {
    const inf = this.inf
    if (inf.level === MONTHS && inf.gMonths < Infinity) return `${inf.gMonths}M`
    if (inf.level >= DAYS && inf.gDays < Infinity) return `${inf.gDays}d`
    const m = inf.gMs / MINUTE_MS
    return Number.isInteger(m) ? (m % 60 === 0 ? `${m / 60}h` : `${m}m`) : `${inf.gMs}ms`
  }

  /** The source span in minutes, when it has a fixed length under a day (for tpoFromCandles' advice). */
  private sourceMinutes(): number | undefined {
    const s = this.spec.source
    if (s !== undefined) return s.unit === 'MINUTE' ? s.count : s.unit === 'HOUR' ? 60 * s.count : undefined
    const inf = this.inf
    if (inf.level > ELAPSED || !(inf.gMs < DAY_MS)) return undefined
    const m = inf.gMs / MINUTE_MS
    return Number.isInteger(m) ? m : undefined
  }

  private refuse(index: number, sb: number, se: number, boundary: number, how: string): false {
    const advice = this.spec.advice === undefined ? '' : this.spec.advice(this.sourceMinutes())
    const at = this.spec.indexes === undefined ? index : (this.spec.indexes[index] as number)
    this.error = new MarketDataError(
      'incompatible',
      NESTING_MSG.straddles(sb, se, how, `${this.spec.target.id} ${this.spec.targetName ?? 'target'}`, boundary) +
        advice,
      { index: at, field: 'time' },
    )
    return false
  }
}
