// Reading the time field of a text record: epoch seconds / ms / us / ns (given, named by the header, or
// inferred from the magnitude), RFC 3339 with `T` or a space and any fraction, with an offset or in a zone the
// caller names, and month/day/year times as spreadsheets write them. Each reader returns epoch ms or the reason.
import { describeValue } from '../_lib/describe.js'
import { MAX_TIME } from '../_lib/max-time.js'
import { daysFromCivil, daysInMonth } from '../time/civil.js'
import { DAY_MS } from '../time/constants.js'
import { localToUtc, zoneOffset } from '../time/zone.js'

/** The unit of an epoch time column: seconds, milliseconds, microseconds or nanoseconds since 1970. */
export type EpochUnit = 's' | 'ms' | 'us' | 'ns'

/** How a time column is written: an epoch unit, or date-time text (`iso`: RFC 3339 and its usual variants). */
export type TimeFormat = EpochUnit | 'iso'

/** Readable names of the time formats, for notes and messages. */
export const TIME_FORMAT_NAMES: Readonly<Record<TimeFormat, string>> = {
  s: 'epoch seconds',
  ms: 'epoch milliseconds',
  us: 'epoch microseconds',
  ns: 'epoch nanoseconds',
  iso: 'ISO 8601 date-times',
}

/** The epoch units, in the order of their magnitude. */
export const EPOCH_UNITS: readonly EpochUnit[] = ['s', 'ms', 'us', 'ns']

/** Digits an epoch unit drops to reach milliseconds (negative: digits it adds). */
const MS_DIGITS: Readonly<Record<EpochUnit, number>> = { s: -3, ms: 0, us: 3, ns: 6 }

/**
 * The smallest value read as each unit when inferred: 1e11 s is the year 5138, so a larger number is ms;
 * 1e14 ms is 5138 again, so larger is us; and so on. Dates before March 1973 in ms (or us, ns) read as the
 * next smaller unit: give the unit for those.
 */
const UNIT_FROM = [0, 1e11, 1e14, 1e17] as const

const NUMBER = /^\d+(\.\d+)?$/
/** `2023-02-02 09:20:00.138000+00:00`, `2019-11-05T09:30`, `2019-11-05`, `...Z`, `...+0530`, `... UTC`. */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)? ?(Z|z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/
/** `11/5/2019 9:30`, `11/05/2019 09:30:00`, `11/5/2019`: month/day/year, as US spreadsheets and pandas write. */
const MDY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?: (\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?$/

/** The unit an epoch number of this magnitude is read in when none is given. */
export function inferEpochUnit(n: number): EpochUnit {
  let u = 0
  while (u < 3 && n >= UNIT_FROM[u + 1]!) u++
  return EPOCH_UNITS[u]!
}

/** The format of a first time value, or undefined when it is none of them. */
export function detectTimeFormat(v: unknown, unit?: EpochUnit): TimeFormat | undefined {
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || v < 0) return undefined
    return unit ?? inferEpochUnit(v)
  }
  if (typeof v !== 'string') return undefined
  const s = v.trim()
  if (s.length > 64) return undefined
  if (NUMBER.test(s)) return unit ?? inferEpochUnit(Number(s))
  if (DATE_TIME.test(s) || MDY.test(s)) return 'iso'
  return undefined
}

/** What reading a time needs beyond its text: the zone of times without an offset, the previous row's time. */
export interface TimeContext {
  /** IANA zone of times written without an offset; without it such times are refused. */
  inputZone: string | undefined
  /** The previous record's time (ms), to place a repeated local hour (the autumn DST change) after it. */
  last: number
}

/** An epoch number in `unit` as whole epoch ms (a fraction below 1 ms is floored), or the reason. */
function epochMs(s: string, unit: EpochUnit): number | string {
  if (!NUMBER.test(s)) return `time "${s.slice(0, 40)}" is not ${TIME_FORMAT_NAMES[unit]} like the first row's`
  const dot = s.indexOf('.')
  const int = dot < 0 ? s : s.slice(0, dot)
  const frac = dot < 0 ? '' : s.slice(dot + 1)
  const shift = MS_DIGITS[unit]
  // decimal digits moved by the unit, never through a float: 1700000000123456789 ns is 1700000000123 ms
  const digits = int + frac
  const point = int.length - shift
  const whole = point <= 0 ? '0' : digits.slice(0, point).padEnd(point, '0')
  const w = whole.replace(/^0+(?=\d)/, '')
  const t = Number(w)
  return w.length > 16 || t > MAX_TIME ? `time "${s.slice(0, 40)}" is out of range (1970..9999)` : t
}

/** A time of the detected format as epoch ms, or the reason it is not one. */
export function readTime(v: unknown, format: TimeFormat, ctx: TimeContext): number | string {
  if (format === 'iso') {
    if (typeof v !== 'string') return `time ${describeValue(v)} is not a date-time like the first row's`
    return readDateTime(v.trim(), ctx)
  }
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || v < 0) return `time ${String(v)} is not a non-negative number`
    return epochMs(String(v).includes('e') ? v.toFixed(0) : String(v), format)
  }
  if (typeof v !== 'string') return `time ${describeValue(v)} is not a number`
  return epochMs(v.trim(), format)
}

function fractionMs(frac: string | undefined): number {
  return frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, '0'))
}

/** A date-time text as epoch ms: with an offset as written, without one in `ctx.inputZone`, or the reason. */
export function readDateTime(s: string, ctx: TimeContext): number | string {
  const shown = describeValue(s)
  const m = DATE_TIME.exec(s)
  const u = m === null ? MDY.exec(s) : null
  if (m === null && u === null)
    return `time ${shown} is not a date-time (YYYY-MM-DD[Thh:mm[:ss[.fff]]][Z|±hh:mm], a space for T allowed, or M/D/YYYY hh:mm)`
  const [y, mo, d, h, mi, se, frac, zone] =
    m !== null
      ? [m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]]
      : [u![3], u![1], u![2], u![4], u![5], u![6], u![7], undefined]
  const Y = Number(y)
  const M = Number(mo)
  const D = Number(d)
  const H = Number(h ?? 0)
  const I = Number(mi ?? 0)
  const S = Number(se ?? 0)
  if (M < 1 || M > 12 || D < 1 || D > daysInMonth(Y, M) || H > 23 || I > 59 || S > 59)
    return `time ${shown} has a field out of range`
  const local = daysFromCivil(Y, M, D) * DAY_MS + ((H * 60 + I) * 60 + S) * 1000 + fractionMs(frac)
  let t: number
  if (zone !== undefined) t = local - offsetMs(zone)
  else {
    if (ctx.inputZone === undefined)
      return `time ${shown} has no offset (Z or ±hh:mm): name the zone it is in with inputZone (e.g. UTC, America/New_York)`
    const r = zonedTime(local, ctx.inputZone, ctx.last)
    if (typeof r === 'string') return `time ${shown} ${r}`
    t = r
  }
  return t < 0 || t > MAX_TIME ? `time ${shown} is out of range (1970..9999)` : t
}

function offsetMs(zone: string): number {
  if (zone === 'Z' || zone === 'z' || zone === 'UTC' || zone === 'GMT') return 0
  const sign = zone[0] === '-' ? -1 : 1
  const digits = zone.slice(1).replace(':', '')
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0')) * 60_000
}

/**
 * A local wall time in `zone` as an instant. A time the clocks skipped (the spring DST gap) is refused: no
 * real trade has it. A time the clocks showed twice (the autumn change) is the earlier instant, unless that
 * is before the previous row's time and the later one is not: a file in time order keeps its order.
 */
export function zonedTime(local: number, zone: string, last: number): number | string {
  const first = localToUtc(local, zone)
  if (first + zoneOffset(zone, first) !== local)
    return `does not exist in ${zone} (the clocks skipped it, a daylight saving change)`
  const later = local - zoneOffset(zone, first + 3 * 3_600_000)
  if (later !== first && later + zoneOffset(zone, later) === local && first < last && later >= last) return later
  return first
}
