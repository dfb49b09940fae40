import { MAX_TIME } from '../_lib/max-time.js'
import { daysFromCivil } from './civil.js'
import { DAY_MS } from './constants.js'

// One formatter per zone, created on first use: a memo of immutable Intl objects, invisible to callers.
// (date-fns-tz's getTimezoneOffset reads its date argument as wall time in the zone, which is not the
// offset at an instant around DST changes, so the offset is read from Intl directly.)
const formatters = new Map<string, Intl.DateTimeFormat | null>()

function formatterOf(tz: string): Intl.DateTimeFormat | null {
  let f = formatters.get(tz)
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: tz,
        hourCycle: 'h23',
        // years before 1 print as "n BC": the era part says so (year = 1 - n)
        era: 'short',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      })
    } catch {
      f = null
    }
    if (formatters.size > 1000) formatters.clear()
    formatters.set(tz, f)
  }
  return f
}

// The offsets read, per zone and whole second: formatToParts costs about 6 µs, and small calls (a TPO
// profile of a few trades) read the same day bounds again and again. A memo of a pure function (the zone
// data of this runtime do not change while it runs), bounded, invisible to callers.
const offsets = new Map<string, Map<number, number>>()
const OFFSETS_PER_ZONE = 4096

function getTimezoneOffset(tz: string, t: number): number {
  // Date's range ends at ±8.64e15 ms, and day or bucket bounds near it reach past it: past the ends the
  // offset at the end stands (Intl would throw a RangeError there)
  const whole = Math.floor(Math.min(Math.max(t, -MAX_TIME), MAX_TIME) / 1000) * 1000
  let memo = offsets.get(tz)
  const known = memo?.get(whole)
  if (known !== undefined) return known
  const off = readOffset(tz, whole)
  if (memo === undefined) {
    if (offsets.size > 1000) offsets.clear()
    memo = new Map()
    offsets.set(tz, memo)
  } else if (memo.size >= OFFSETS_PER_ZONE) memo.clear()
  memo.set(whole, off)
  return off
}

/** The offset of `tz` at the whole second `whole`, from Intl (NaN for a zone Intl does not know). */
function readOffset(tz: string, whole: number): number {
  const f = formatterOf(tz)
  if (f === null) return Number.NaN
  let y = 0,
    mo = 0,
    d = 0,
    h = 0,
    mi = 0,
    s = 0
  let bc = false
  for (const p of f.formatToParts(whole)) {
    switch (p.type) {
      case 'era':
        bc = p.value === 'BC'
        break
      case 'year':
        y = Number(p.value)
        break
      case 'month':
        mo = Number(p.value)
        break
      case 'day':
        d = Number(p.value)
        break
      case 'hour':
        h = Number(p.value)
        break
      case 'minute':
        mi = Number(p.value)
        break
      case 'second':
        s = Number(p.value)
        break
      default:
        break
    }
  }
  if (bc) y = 1 - y
  return daysFromCivil(y, mo, d) * DAY_MS + ((h * 60 + mi) * 60 + s) * 1000 - whole
}

const UTC_NAMES = new Set(['UTC', 'Etc/UTC', 'GMT', 'Etc/GMT', 'Z', 'utc'])

/** True for zone names that are plain UTC (no lookups needed). */
export function isUtcZone(tz: string | undefined): boolean {
  return tz === undefined || UTC_NAMES.has(tz)
}

/**
 * True when `tz` is an IANA time zone name this runtime knows (or `UTC`).
 *
 * @param tz - an IANA time zone name
 * @returns whether it is
 * @throws never: bad input is answered, not thrown
 * @example isValidTimeZone('Europe/London') // true
 */
export function isValidTimeZone(tz: string): boolean {
  if (typeof tz !== 'string' || tz.length === 0 || tz.length > 64) return false
  if (UTC_NAMES.has(tz)) return true
  return formatterOf(tz) !== null
}

/** Offset of `tz` from UTC at instant `t`, in ms (local = t + offset). */
export function zoneOffset(tz: string, t: number): number {
  if (UTC_NAMES.has(tz)) return 0
  return getTimezoneOffset(tz, t)
}

/**
 * The instant of local wall time `local` (ms since 1970 as if local were UTC). Ambiguous times take the
 * earlier instant; times in a gap move forward by the gap (Temporal's `compatible`).
 */
export function localToUtc(local: number, tz: string): number {
  if (UTC_NAMES.has(tz)) return local
  const before = zoneOffset(tz, local - DAY_MS)
  const after = zoneOffset(tz, local + DAY_MS)
  let best = Number.NaN
  for (const o of before === after ? [before] : [before, after]) {
    const c = local - o
    if (zoneOffset(tz, c) === o && !(c >= best)) best = c
  }
  if (Number.isNaN(best)) {
    // Not found with the offsets a day away: try the offset at the naive instant (offsets that change twice in a day).
    const o = zoneOffset(tz, local - zoneOffset(tz, local))
    const c = local - o
    best = zoneOffset(tz, c) === o ? c : local - before
  }
  return best
}

/** Local calendar day number (days since 1970-01-01 local) of the local day holding instant `t`. */
export function localDayOf(t: number, tz: string): number {
  return Math.floor((t + zoneOffset(tz, t)) / DAY_MS)
}

/** First instant of local day number `day`. */
export function startOfLocalDay(day: number, tz: string): number {
  if (UTC_NAMES.has(tz)) return day * DAY_MS
  // Memo per zone: a day's first instant never changes, and bucket functions ask for the same few days
  // again and again (each lookup otherwise costs several Intl calls).
  let memo = dayStarts.get(tz)
  if (memo === undefined) {
    if (dayStarts.size > 100) dayStarts.clear()
    memo = new Map()
    dayStarts.set(tz, memo)
  }
  let s = memo.get(day)
  if (s === undefined) {
    s = localToUtc(day * DAY_MS, tz)
    if (memo.size > 20_000) memo.clear()
    memo.set(day, s)
  }
  return s
}

const dayStarts = new Map<string, Map<number, number>>()

/** The local day number d with startOfLocalDay(d) <= t < startOfLocalDay(d + 1): days tile time even around DST. */
export function tiledDayOf(t: number, tz: string): number {
  let d = localDayOf(t, tz)
  if (t < startOfLocalDay(d, tz)) d -= 1
  else if (t >= startOfLocalDay(d + 1, tz)) d += 1
  return d
}
