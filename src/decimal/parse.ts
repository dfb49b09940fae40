import { err, ok, type Result } from '../result.js'
import { MAX_DECIMAL_LENGTH, MAX_EXPONENT, MAX_OUTPUT_DECIMAL_LENGTH, DECIMAL_MSG } from './messages.js'
import type { ExactDecimal } from './types.js'

/** Longest decimal string accepted (digits and sign); longer input is refused rather than parsed slowly. */
const MAX_LENGTH = MAX_DECIMAL_LENGTH

/** Expands a number's shortest round-trip form (`String(x)`, which may use an exponent) into plain decimal text. */
export function numberToPlainString(x: number): string {
  const s = String(x)
  const e = s.indexOf('e')
  if (e < 0) return s === '-0' ? '0' : s
  const neg = s[0] === '-'
  const mantissa = s.slice(neg ? 1 : 0, e)
  const exp = Number(s.slice(e + 1))
  const dot = mantissa.indexOf('.')
  const digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1)
  const intLen = (dot < 0 ? mantissa.length : dot) + exp
  let out: string
  if (intLen <= 0) out = `0.${'0'.repeat(-intLen)}${digits}`
  else if (intLen >= digits.length) out = digits + '0'.repeat(intLen - digits.length)
  else out = `${digits.slice(0, intLen)}.${digits.slice(intLen)}`
  return neg ? `-${out}` : out
}

/** Parses plain decimal text into minimal form, or undefined when it is not of the accepted syntax. */
function parsePlain(s: string, maxLength = MAX_LENGTH): ExactDecimal | undefined {
  const n = s.length
  if (n === 0 || n > maxLength) return undefined
  let i = 0
  let neg = false
  if (s.charCodeAt(0) === 45 /* - */) {
    neg = true
    i = 1
  }
  let intDigits = 0
  let fracDigits = 0
  let dot = -1
  for (let j = i; j < n; j++) {
    const c = s.charCodeAt(j)
    if (c >= 48 && c <= 57) {
      if (dot < 0) intDigits++
      else fracDigits++
    } else if (c === 46 /* . */ && dot < 0) dot = j
    else return undefined
  }
  if (intDigits === 0 || (dot >= 0 && fracDigits === 0)) return undefined
  let digits = dot < 0 ? s.slice(i) : s.slice(i, dot) + s.slice(dot + 1)
  let scale = fracDigits
  // minimal form: drop trailing fractional zeros
  let end = digits.length
  while (scale > 0 && digits.charCodeAt(end - 1) === 48) {
    end--
    scale--
  }
  digits = digits.slice(0, end)
  let units = BigInt(digits)
  if (neg) units = -units
  if (units === 0n) scale = 0
  return { units, scale }
}

/**
 * Parses plain decimal text followed by an exponent (`9.417e-05`, `1E+3`, `-2.5e3`) into minimal form, or
 * undefined when it is not of that syntax or its exponent passes ±{@link MAX_EXPONENT}. Exact: the
 * exponent moves the decimal point, nothing is rounded.
 */
function parseExponent(s: string, e: number): ExactDecimal | undefined {
  const m = parsePlain(s.slice(0, e))
  if (m === undefined) return undefined
  let i = e + 1
  const n = s.length
  let neg = false
  const c = s.charCodeAt(i)
  if (c === 43 /* + */ || c === 45 /* - */) {
    neg = c === 45
    i++
  }
  if (i >= n || n - i > 6) return undefined
  let x = 0
  for (; i < n; i++) {
    const d = s.charCodeAt(i) - 48
    if (d < 0 || d > 9) return undefined
    x = x * 10 + d
  }
  if (x > MAX_EXPONENT) return undefined
  if (m.units === 0n) return m
  const scale = m.scale + (neg ? x : -x)
  // the mantissa is minimal (no trailing fractional zeros), so a scale >= 0 keeps the form minimal
  return scale >= 0 ? { units: m.units, scale } : { units: m.units * 10n ** BigInt(-scale), scale: 0 }
}

/** The exponent marker's position in `s` (`e` or `E`), or -1. */
function exponentAt(s: string): number {
  for (let i = s.length - 1; i > 0; i--) {
    const c = s.charCodeAt(i)
    if (c === 101 /* e */ || c === 69 /* E */) return i
  }
  return -1
}

/**
 * Parses a decimal of a data record exactly: everything {@link parseDecimal} accepts, and strings in
 * exponent notation (`9.417e-05` is exactly 0.00009417; `1E+3`, `2.5e3`, `-1e-7`; either case of `e`,
 * an optional sign, at most 6 exponent digits, |exponent| <= 400). This is the reader of trade and
 * candle fields and CSV / NDJSON cells (pandas and Python print ordinary volumes this way); parameters
 * (options, query values, interface A `Decimal`) use the strict {@link parseDecimal}. Never throws.
 *
 * @param x - The value: a string, or a finite number (read by its shortest round-trip form).
 * @returns The exact decimal in minimal form, or an error message saying why it is not a decimal.
 * @example
 * parseDataDecimal('9.417e-05') // { ok: true, value: { units: 9417n, scale: 8 } }
 * parseDecimal('9.417e-05').ok  // false
 */
export function parseDataDecimal(x: unknown): Result<ExactDecimal, string> {
  if (typeof x === 'string') {
    const d = parsePlain(x)
    if (d !== undefined) return ok(d)
    const e = x.length <= MAX_LENGTH ? exponentAt(x) : -1
    const f = e < 0 ? undefined : parseExponent(x, e)
    return f === undefined ? err(DECIMAL_MSG.notDataDecimal(x)) : ok(f)
  }
  if (typeof x === 'number') return parseDecimal(x)
  return err(DECIMAL_MSG.notDataDecimal(x))
}

/**
 * Why a data value is not a decimal (the clause of the data-input reader's message, shared by every
 * entry point's own message), or undefined when it is one.
 *
 * @param x - The value of a trade or candle field.
 * @returns The reason, e.g. `it contains "," (no thousands separators; "." is the decimal point)`.
 * @example dataDecimalProblem('1,5') // 'it contains "," (no thousands separators; ...)'
 */
export function dataDecimalProblem(x: unknown): string | undefined {
  return parseDataDecimal(x).ok ? undefined : DECIMAL_MSG.reason(x, true)
}

/** ` (why)` when `x` is not a parameter decimal (strict: no exponent), from the same table; '' otherwise. */
export function decimalProblemNote(x: unknown): string {
  return parseDecimal(x).ok ? '' : ` (${DECIMAL_MSG.reason(x, false)})`
}

/**
 * Parses a decimal exactly. Strings: optional leading `-`, digits, optionally `.` and digits — no
 * exponent, sign `+`, spaces, thousands separators or empty parts. Numbers: finite, read by their shortest
 * round-trip form (`0.1` is exactly one tenth; `1e-7` is 0.0000001). Never throws. This is the strict
 * reader of parameters; data records use the data-input reader, which also takes exponent notation (docs/exact-decimals.md).
 *
 * @param x - The value: a string, or a finite number.
 * @returns The exact decimal in minimal form, or an error message saying why it is not a decimal.
 * @throws never: bad input is answered, not thrown
 * @example
 * parseDecimal('5000.250') // { ok: true, value: { units: 500025n, scale: 2 } }
 * parseDecimal('1e5').ok   // false
 */
export function parseDecimal(x: unknown): Result<ExactDecimal, string> {
  if (typeof x === 'number') {
    if (!Number.isFinite(x)) return err(DECIMAL_MSG.notFinite(x))
    const d = parsePlain(numberToPlainString(x))
    return d === undefined ? err(DECIMAL_MSG.notDecimal(x)) : ok(d)
  }
  if (typeof x !== 'string') return err(DECIMAL_MSG.notDecimal(x))
  const d = parsePlain(x)
  return d === undefined ? err(DECIMAL_MSG.notDecimal(x)) : ok(d)
}

/**
 * Reads a decimal the library wrote (a profile's volume or price given back to a merge): the syntax of
 * {@link parseDecimal}, up to {@link MAX_OUTPUT_DECIMAL_LENGTH} characters (a sum of extreme volumes, such
 * as 1e308 and 1e-300, is longer than an input may be). Never throws.
 *
 * @param x - The value: a string, or a finite number.
 * @returns The exact decimal in minimal form, or an error message saying why it is not a decimal.
 */
export function parseOutputDecimal(x: unknown): Result<ExactDecimal, string> {
  if (typeof x !== 'string' || x.length <= MAX_LENGTH) return parseDecimal(x)
  const d = parsePlain(x, MAX_OUTPUT_DECIMAL_LENGTH)
  return d === undefined ? err(DECIMAL_MSG.notDecimal(x)) : ok(d)
}
