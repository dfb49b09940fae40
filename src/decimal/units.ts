import { MarketDataError } from '../errors.js'
import { DECIMAL_MSG } from './messages.js'
import { parseDecimal } from './parse.js'
import type { DecimalInput } from './types.js'

/** 10^0 .. 10^22: every entry is an exact double. */
export const POW10: readonly number[] = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`))

/**
 * Running sums of integer units stay within ±UNITS_LIMIT (2^52) and single addends below it, so every
 * sum of two is an exact double (< 2^53); past the limit a sum spills into a bigint.
 */
export const UNITS_LIMIT = 2 ** 52
/** {@link UNITS_LIMIT} as a bigint, for the checks of the exact (bigint) paths. */
export const UNITS_LIMIT_BIG = BigInt(UNITS_LIMIT)
/** Largest scale whose power of ten is an exact double (the last entry of {@link POW10}); above it every value takes the bigint path. */
export const MAX_FAST_SCALE = POW10.length - 1

/** 10^0 .. 10^8 for the digit chunks of {@link stringToUnits}. */
const POW10_F = new Float64Array([1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8])

/**
 * Minimal number of decimals of a decimal input, trailing zeros ignored: `"0.10"` -> 1, `0.07` -> 2,
 * `1e-7` -> 7, `"5"` -> 0. Throws `MarketDataError` (`invalid_decimal`) on invalid input.
 *
 * @example decimalsOf('0.25') // 2
 */
export function decimalsOf(x: DecimalInput): number {
  const r = parseDecimal(x)
  if (!r.ok) throw new MarketDataError('invalid_decimal', r.error)
  return r.value.scale
}

/**
 * Exact integer units `x * 10^scale` of a number read by its shortest round-trip form, when `x` has at
 * most `scale` decimals and |units| < 2^52; otherwise `NaN` (use {@link toUnitsBig}); for a few values
 * between 2^51 and 2^52 units, where `x * 10^scale` rounds off by one, also `NaN` (never a wrong result).
 * Allocation-free, for hot loops. `scale` must be 0..22.
 *
 * @example
 * numberToUnits(0.07, 2) // 7
 * numberToUnits(0.075, 2) // NaN
 */
export function numberToUnits(x: number, scale: number): number {
  const p = POW10[scale] as number
  const u = Math.floor(x * p + 0.5)
  // u / p is the correctly rounded double nearest u / 10^scale; it equals x exactly when u is x's
  // decimal at this scale. Below 2^52 units the doubles near x are closer than 10^-scale apart, so at
  // most one decimal with `scale` digits maps to x: the check proves u exact.
  if (u / p !== x || !(u < UNITS_LIMIT && u > -UNITS_LIMIT)) return Number.NaN
  return u === 0 ? 0 : u
}

/** 10^0 .. 10^22 as a typed array (no hole or bounds-kind checks in the hot path). */
const POW10_22 = new Float64Array(23).map((_, i) => Number(`1e${i}`))

/**
 * Exact integer units of a decimal string at `scale` (same syntax as {@link parseDecimal}), or `NaN`
 * when invalid, with more than `scale` significant decimals, or |units| >= 2^52. Allocation-free.
 * `scale` is an integer 0..22 for the fast path (any other goes the general way).
 *
 * @example
 * stringToUnits('5000.25', 2) // 500025
 * stringToUnits('0.10', 1)    // 1
 */
export function stringToUnits(s: string, scale: number): number {
  // Small on purpose (V8 inlines it into the caller's loop, so no call and no boxed result): one digit
  // loop per part; the rare shapes (more decimals than `scale`, trailing zeros past it, scale > 22) go to
  // the general reader. Digits accumulate in a double (`-0` makes it one from the start, so a long
  // integer part never deoptimises an int32 guess): exact while below 2^52; at or past it the rounded
  // (monotone) value stays at or past 2^52 and the result is refused, whatever the number of digits.
  const n = s.length
  let first = 0
  let a = -0
  let i = 0
  let c = 0
  for (; i < n; i++) {
    c = s.charCodeAt(i) - 48
    if (c >>> 0 > 9) {
      // a leading '-' is read here, not by a separate look at the first character
      if (c !== -3 || i !== 0) break
      first = 1
      continue
    }
    a = a * 10 + c
  }
  let f = 0
  if (i < n) {
    // only a '.' with digits before and after may follow the integer part
    if (c !== -2 || i === first || i === n - 1) return Number.NaN
    f = n - 1 - i
    for (i++; i < n; i++) {
      c = s.charCodeAt(i) - 48
      if (c >>> 0 > 9) return Number.NaN
      a = a * 10 + c
    }
  } else if (n === first) return Number.NaN // "", "-"
  // (f >= 0, so a negative scale goes there too)
  if (f > scale || scale > 22) return stringToUnitsGeneral(s, scale)
  const u = a * (POW10_22[scale - f] as number)
  if (!(u < UNITS_LIMIT)) return Number.NaN
  return first === 0 || u === 0 ? u : -u
}

/** {@link stringToUnits} for every shape and scale (decimals past `scale` that are zeros, scales past 22). Exported for tests only. */
export function stringToUnitsGeneral(s: string, scale: number): number {
  const n = s.length
  let i = 0
  let neg = false
  if (n !== 0 && s.charCodeAt(0) === 45) {
    neg = true
    i = 1
  }
  const first = i
  if (n - first <= 9) {
    // short strings (prices like "60000.25"): at most 9 digits, so one small-integer loop, then drop
    // decimals past `scale` if they are zeros (an exact integer division check)
    let a = 0
    let dot = -1
    for (; i < n; i++) {
      const c = s.charCodeAt(i) - 48
      if (c >= 0 && c <= 9) a = a * 10 + c
      else if (c === -2 && dot < 0) dot = i
      else return Number.NaN
    }
    if (n === first || dot === first || dot === n - 1) return Number.NaN // "", "-", ".5", "5."
    let f = dot < 0 ? 0 : n - 1 - dot
    let v = a
    if (f > scale) {
      const q = POW10_F[f - scale] as number
      const w = Math.floor(v / q)
      if (w * q !== v) return Number.NaN
      v = w
      f = scale
    }
    // zero at any scale is 0 (POW10 stops at 10^22: past it only a zero stays below 2^52)
    if (v === 0) return 0
    v *= POW10[scale - f] as number
    if (!(v < UNITS_LIMIT)) return Number.NaN
    return neg ? -v : v
  }
  // digits accumulate in a small-integer chunk `a` (at most 8 digits, so integer arithmetic), folded into
  // the double `u` every 8 digits: a short dependency chain instead of a float multiply-add per digit.
  // Below 2^52 every step is exact; at or past it the (monotone) result stays at or past it: refused.
  let u = 0
  let a = 0
  let d = 0
  let c = 0
  for (; i < n; i++) {
    c = s.charCodeAt(i) - 48
    if (c < 0 || c > 9) break
    a = a * 10 + c
    if (++d === 8) {
      u = u * 1e8 + a
      a = 0
      d = 0
    }
  }
  if (i === first) return Number.NaN
  let frac = 0
  if (i < n) {
    if (c !== -2) return Number.NaN // only a '.' may end the integer part
    const dot = ++i
    if (dot === n) return Number.NaN // "5."
    const keep = scale < n - dot ? dot + scale : n
    for (; i < keep; i++) {
      c = s.charCodeAt(i) - 48
      if (c < 0 || c > 9) return Number.NaN
      a = a * 10 + c
      if (++d === 8) {
        u = u * 1e8 + a
        a = 0
        d = 0
      }
    }
    frac = keep - dot
    // decimals past `scale` must all be zeros
    for (; i < n; i++) if (s.charCodeAt(i) !== 48) return Number.NaN
  }
  u = u * (POW10_F[d] as number) + a
  if (u >= UNITS_LIMIT) return Number.NaN
  if (u === 0) return 0
  if (frac < scale) u *= POW10[scale - frac] as number
  if (!(u < UNITS_LIMIT)) return Number.NaN
  return neg && u !== 0 ? -u : u
}

/**
 * Exact bigint units `x * 10^scale`. Throws `MarketDataError` (`invalid_decimal`) when `x` is not a
 * decimal or has more than `scale` decimals.
 *
 * @example toUnitsBig('123456789012345678.9', 1) // 1234567890123456789n
 */
export function toUnitsBig(x: DecimalInput, scale: number): bigint {
  const r = parseDecimal(x)
  if (!r.ok) throw new MarketDataError('invalid_decimal', r.error)
  const d = r.value
  if (d.scale > scale) throw new MarketDataError('invalid_decimal', DECIMAL_MSG.tooManyDecimals(x, scale))
  return d.units * 10n ** BigInt(scale - d.scale)
}

/**
 * Floor division toward negative infinity for integers held in doubles (`-7 / 2` -> `-4`); never `-0`.
 *
 * @example floorDiv(-7, 2) // -4
 */
export function floorDiv(a: number, b: number): number {
  const q = Math.floor(a / b)
  // a / b is correctly rounded; for |a| < 2^53 and integer b the floor can only be off when the exact
  // quotient is within rounding of an integer from above: repair with exact integer products.
  let r = q
  if (r * b > a && b > 0) r -= 1
  else if ((r + 1) * b <= a && b > 0) r += 1
  return r === 0 ? 0 : r
}

/** Floor division toward negative infinity for bigints. @example floorDivBig(-7n, 2n) // -4n */
export function floorDivBig(a: bigint, b: bigint): bigint {
  const q = a / b
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q
}
