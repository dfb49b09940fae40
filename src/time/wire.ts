import { describeValue } from '../_lib/describe.js'
import { err, ok, type Result } from '../result.js'
import { daysFromCivil, daysInMonth } from './civil.js'
import { DAY_MS, LAST_ISO_MS } from './constants.js'

/** Reads `len` digits at `i`, or -1. */
function digits(s: string, i: number, len: number): number {
  if (i + len > s.length) return -1
  let v = 0
  for (let k = i; k < i + len; k++) {
    const c = s.charCodeAt(k) - 48
    if (c < 0 || c > 9) return -1
    v = v * 10 + c
  }
  return v
}

/**
 * Parses an RFC 3339 date-time with `Z` or a numeric offset (`2026-05-29T13:30:00Z`,
 * `2026-05-29T09:30:00.250-04:00`) into UTC epoch ms; fractional seconds beyond ms are floored; a
 * leap second (`:60`) is refused. Linear time, no regex.
 *
 * @param s - the text to read
 * @returns `{ ok: true, value }`, or `{ ok: false, error }` naming the field and the rule
 * @throws never: bad input is answered, not thrown
 * @example parseRfc3339('2026-05-29T00:00:00Z') // { ok: true, value: 1780012800000 }
 */
export function parseRfc3339(s: string): Result<number, string> {
  const bad = (why: string) =>
    err(`${describeValue(s)} is not an RFC 3339 date-time (YYYY-MM-DDThh:mm:ss[.fff](Z|±hh:mm)): ${why}`)
  if (typeof s !== 'string') return bad('not a string')
  if (s.length < 20 || s.length > 64) return bad('wrong length')
  const y = digits(s, 0, 4)
  const mo = digits(s, 5, 2)
  const d = digits(s, 8, 2)
  const h = digits(s, 11, 2)
  const mi = digits(s, 14, 2)
  const se = digits(s, 17, 2)
  const t = s[10]
  if (s[4] !== '-' || s[7] !== '-' || (t !== 'T' && t !== 't') || s[13] !== ':' || s[16] !== ':')
    return bad('wrong separators')
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || se < 0 || se > 59)
    return bad('a field is out of range')
  if (d > daysInMonth(y, mo)) return bad('no such day in that month')
  let i = 19
  let ms = 0
  if (s[i] === '.') {
    i++
    const start = i
    while (i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) {
      if (i - start < 3) ms = ms * 10 + (s.charCodeAt(i) - 48)
      i++
    }
    const n = i - start
    if (n === 0) return bad('empty fraction')
    if (n < 3) ms *= n === 1 ? 100 : 10
  }
  let offset = 0
  const z = s[i]
  if (z === 'Z' || z === 'z') {
    if (i + 1 !== s.length) return bad('trailing characters')
  } else if (z === '+' || z === '-') {
    const oh = digits(s, i + 1, 2)
    const om = digits(s, i + 4, 2)
    if (s[i + 3] !== ':' || oh < 0 || om < 0 || oh > 23 || om > 59 || i + 6 !== s.length) return bad('bad offset')
    offset = (z === '-' ? -1 : 1) * (oh * 60 + om) * 60_000
  } else return bad('missing Z or offset')
  const v = daysFromCivil(y, mo, d) * DAY_MS + ((h * 60 + mi) * 60 + se) * 1000 + ms - offset
  if (v < 0 || v > LAST_ISO_MS) return bad('out of range (1970..9999)')
  return ok(v)
}

/**
 * Parses Unix seconds: digits only (no sign, fraction or exponent), 0 .. 253402300799 -> epoch ms.
 *
 * @param s - the text to read
 * @returns `{ ok: true, value }`, or `{ ok: false, error }` naming the field and the rule
 * @throws never: bad input is answered, not thrown
 * @example parseUnixSeconds('1780012800') // { ok: true, value: 1780012800000 }
 */
export function parseUnixSeconds(s: string): Result<number, string> {
  if (typeof s !== 'string' || s.length === 0 || s.length > 12)
    return err(`${describeValue(s)} is not Unix seconds (an integer 0..253402300799)`)
  const v = digits(s, 0, s.length)
  if (v < 0 || v * 1000 > LAST_ISO_MS)
    return err(`${describeValue(s)} is not Unix seconds (an integer 0..253402300799)`)
  return ok(v * 1000)
}

/**
 * Formats epoch ms as ISO 8601 UTC (`Date#toISOString`).
 *
 * @param ms - a `number`
 * @returns the `string`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example formatIso(0) // '1970-01-01T00:00:00.000Z'
 */
export function formatIso(ms: number): string {
  return new Date(ms).toISOString()
}

/**
 * Epoch ms to whole Unix seconds (floored).
 *
 * @param ms - a `number`
 * @returns the `number`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example toUnixSeconds(1500) // 1
 */
export function toUnixSeconds(ms: number): number {
  return Math.floor(ms / 1000)
}
