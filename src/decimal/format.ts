import type { ExactDecimal } from './types.js'
import { unitsText } from './units-text.js'

function digitsOf(units: bigint | number): { neg: boolean; digits: string } {
  const big = typeof units === 'bigint' ? units : BigInt(units)
  const neg = big < 0n
  return { neg, digits: (neg ? -big : big).toString() }
}

/**
 * Formats `units / 10^scale` in minimal form: no exponent, no trailing fractional zeros, `"0"` for zero.
 *
 * @param units - integer units
 * @param scale - decimals of the units
 * @returns the `string`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * formatUnits(1500n, 3) // "1.5"
 * formatUnits(-5, 2)    // "-0.05"
 */
export function formatUnits(units: bigint | number, scale: number): string {
  // a safe integer by arithmetic on doubles (no bigint, one or two strings)
  if (typeof units === 'number' && Number.isSafeInteger(units)) return unitsText(units, scale)
  return formatFixed(units, scale, 0)
}

/**
 * Formats `units / 10^scale` with at least `decimals` decimals (more only when needed to stay exact;
 * never rounds).
 *
 * @example
 * formatFixed(500025n, 2, 2) // "5000.25"
 * formatFixed(5000n, 0, 2)   // "5000.00"
 * formatFixed(50001n, 3, 2)  // "50.001"
 */
export function formatFixed(units: bigint | number, scale: number, decimals: number): string {
  let { neg, digits } = digitsOf(units)
  let s = digits === '0' ? 0 : scale
  // drop trailing zeros beyond the wanted decimals
  let end = digits.length
  while (s > decimals && end > 1 && digits.charCodeAt(end - 1) === 48) {
    end--
    s--
  }
  if (end !== digits.length) digits = digits.slice(0, end)
  if (s > 0 && digits.length <= s) digits = '0'.repeat(s - digits.length + 1) + digits
  if (s < decimals) {
    digits += '0'.repeat(decimals - s)
    s = decimals
  }
  const body = s > 0 ? `${digits.slice(0, digits.length - s)}.${digits.slice(digits.length - s)}` : digits
  return neg ? `-${body}` : body
}

/**
 * Formats an exact decimal in minimal form.
 *
 * @param d - an exact decimal from `parseDecimal`
 * @returns the `string`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example decimalToString({ units: 125n, scale: 1 }) // "12.5"
 */
export function decimalToString(d: ExactDecimal): string {
  return formatFixed(d.units, d.scale, 0)
}
