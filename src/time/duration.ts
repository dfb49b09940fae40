import { describeValue } from '../_lib/describe.js'
import { err, ok, type Result } from '../result.js'
import { civilFromDays, daysFromCivil, daysInMonth } from './civil.js'
import { DAY_MS, HOUR_MS, MINUTE_MS } from './constants.js'
import { localToUtc, zoneOffset } from './zone.js'
import { checkOptions } from '../_lib/closed-options.js'

/** An ISO 8601 duration's parts; only `seconds` may be fractional (ms precision). */
export interface IsoDuration {
  years: number
  months: number
  weeks: number
  days: number
  hours: number
  minutes: number
  seconds: number
}

/**
 * Parses a positive ISO 8601 duration: `P[nY][nM][nW][nD][T[nH][nM][n[.f]S]]` (`PT4H`, `P1D`, `P1W`,
 * `P1Y2M3DT4H5M6.5S`). Only seconds may carry a fraction (up to 3 digits); a zero duration is refused.
 *
 * @param s - the text to read
 * @returns `{ ok: true, value }`, or `{ ok: false, error }` naming the field and the rule
 * @throws never: bad input is answered, not thrown
 * @example parseIsoDuration('PT4H') // { ok: true, value: { years: 0, months: 0, weeks: 0, days: 0, hours: 4, minutes: 0, seconds: 0 } }
 */
export function parseIsoDuration(s: string): Result<IsoDuration, string> {
  const bad = (why: string) =>
    err(`${describeValue(s)} is not a positive ISO 8601 duration such as PT4H, P1D or P1Y2M3DT4H5M6.5S: ${why}`)
  if (typeof s !== 'string' || s.length < 3 || s.length > 64 || s[0] !== 'P')
    return bad('must start with P and name at least one part')
  const d: IsoDuration = { years: 0, months: 0, weeks: 0, days: 0, hours: 0, minutes: 0, seconds: 0 }
  const dateOrder = 'YMWD'
  const timeOrder = 'HMS'
  let inTime = false
  let last = -1
  let parts = 0
  let i = 1
  while (i < s.length) {
    if (s[i] === 'T') {
      if (inTime) return bad('T twice')
      inTime = true
      last = -1
      i++
      if (i >= s.length) return bad('nothing after T')
      continue
    }
    const start = i
    let v = 0
    while (i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) {
      v = v * 10 + (s.charCodeAt(i) - 48)
      i++
    }
    if (i === start || i - start > 9) return bad('each part needs 1 to 9 digits')
    let frac = 0
    if (s[i] === '.' || s[i] === ',') {
      i++
      const fs = i
      while (i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++
      if (i === fs || i - fs > 3) return bad('a fraction needs 1 to 3 digits')
      frac = Number(`0.${s.slice(fs, i)}`)
      if (s[i] !== 'S' || !inTime) return bad('only seconds may have a fraction')
    }
    const unit = s[i]
    const order = inTime ? timeOrder : dateOrder
    const k = unit === undefined ? -1 : order.indexOf(unit)
    if (k < 0) return bad(`unknown designator ${describeValue(unit ?? '')}`)
    if (k <= last) return bad('parts out of order or repeated')
    last = k
    i++
    parts++
    if (!inTime) {
      if (unit === 'Y') d.years = v
      else if (unit === 'M') d.months = v
      else if (unit === 'W') d.weeks = v
      else d.days = v
    } else if (unit === 'H') d.hours = v
    else if (unit === 'M') d.minutes = v
    else d.seconds = v + Math.round(frac * 1000) / 1000
  }
  if (parts === 0) return bad('no parts')
  if (d.years + d.months + d.weeks + d.days + d.hours + d.minutes + d.seconds === 0)
    return bad('must be greater than zero')
  return ok(d)
}

/**
 * Adds (or with `sign: -1` subtracts) a duration in a zone, calendar-aware: years and months move the
 * local date (the day clamped to the month's length), weeks and days move local calendar days keeping the
 * wall time, hours, minutes and seconds are elapsed time.
 *
 * @param time - an instant, epoch milliseconds
 * @param d - an exact decimal from `parseDecimal`
 * @param opts - options (see the type) (optional)
 * @returns the `number`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example addIsoDuration(Date.UTC(2026, 0, 31), { years: 0, months: 1, weeks: 0, days: 0, hours: 0, minutes: 0, seconds: 0 }) // Date.UTC(2026, 1, 28)
 */
export function addIsoDuration(time: number, d: IsoDuration, opts: { timeZone?: string; sign?: 1 | -1 } = {}): number {
  checkOptions(opts, ['timeZone', 'sign'], 'addIsoDuration')
  const tz = opts.timeZone ?? 'UTC'
  const sign = opts.sign ?? 1
  const elapsed = (d.hours * HOUR_MS + d.minutes * MINUTE_MS + Math.round(d.seconds * 1000)) * sign
  const calendar = d.years !== 0 || d.months !== 0 || d.weeks !== 0 || d.days !== 0
  let t = time
  const apply = () => {
    const local = t + zoneOffset(tz, t)
    const day = Math.floor(local / DAY_MS)
    const wall = local - day * DAY_MS
    const [y, m, dd] = civilFromDays(day)
    const mi = y * 12 + (m - 1) + sign * (d.years * 12 + d.months)
    const ny = Math.floor(mi / 12)
    const nm = mi - ny * 12 + 1
    const nd = Math.min(dd, daysInMonth(ny, nm))
    const nday = daysFromCivil(ny, nm, nd) + sign * (d.weeks * 7 + d.days)
    t = localToUtc(nday * DAY_MS + wall, tz)
  }
  // Adding: calendar parts first, then elapsed time; subtracting: the reverse, so that sign -1 undoes sign 1 where it can.
  if (sign === 1) {
    if (calendar) apply()
    t += elapsed
  } else {
    t += elapsed
    if (calendar) apply()
  }
  return t
}

/**
 * Parses a clock duration `<n>m` or `<n>h` (n >= 1, any size, e.g. `'90m'`) into ms.
 *
 * @example parseClockDuration('90m') // { ok: true, value: 5400000 }
 */
export function parseClockDuration(s: string): Result<number, string> {
  const bad = () => err(`${describeValue(s)} is not a duration of the form <n>m or <n>h with n >= 1 (no leading zero)`)
  // a leading zero is refused, as in timeframe ids: the string is echoed as the profile's period
  if (typeof s !== 'string' || s.length < 2 || s.length > 8 || s.charCodeAt(0) === 48) return bad()
  let v = 0
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i) - 48
    if (c < 0 || c > 9) return bad()
    v = v * 10 + c
  }
  const u = s[s.length - 1]
  if (v < 1 || (u !== 'm' && u !== 'h')) return bad()
  return ok(v * (u === 'm' ? MINUTE_MS : HOUR_MS))
}
