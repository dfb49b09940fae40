import { err, ok, type Result } from '../result.js'
import { MSG } from './messages.js'
import type { ExactDecimal } from './types.js'

/** Longest decimal string accepted (digits and sign); longer input is refused rather than parsed slowly. */
const MAX_LENGTH = 400

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
function parsePlain(s: string): ExactDecimal | undefined {
  const n = s.length
  if (n === 0 || n > MAX_LENGTH) return undefined
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
 * Parses a decimal exactly. Strings: optional leading `-`, digits, optionally `.` and digits — no
 * exponent, sign `+`, spaces, thousands separators or empty parts. Numbers: finite, read by their shortest
 * round-trip form (`0.1` is exactly one tenth; `1e-7` is 0.0000001). Never throws.
 *
 * @param x - the value to check: anything, never trusted
 * @returns `{ ok: true, value }`, or `{ ok: false, error }` naming the field and the rule
 * @throws never: bad input is answered, not thrown
 * @example
 * parseDecimal('5000.250') // { ok: true, value: { units: 500025n, scale: 2 } }
 * parseDecimal('1e5').ok   // false
 */
export function parseDecimal(x: unknown): Result<ExactDecimal, string> {
  if (typeof x === 'number') {
    if (!Number.isFinite(x)) return err(MSG.notFinite(x))
    const d = parsePlain(numberToPlainString(x))
    return d === undefined ? err(MSG.notDecimal(x)) : ok(d)
  }
  if (typeof x !== 'string') return err(MSG.notDecimal(x))
  const d = parsePlain(x)
  return d === undefined ? err(MSG.notDecimal(x)) : ok(d)
}
