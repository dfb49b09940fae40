import { describeValue } from '../_lib/describe.js'
// Error messages of src/decimal, in one place. Each names the input and the rule. Every entry point that
// reads a decimal (trade and candle records, CSV / NDJSON rows, options, query and API parameters) says
// why a value is refused with `DECIMAL_MSG.reason`, so one value gets one explanation everywhere.

/** The syntax every decimal follows; data records (not parameters) may add an exponent. */
const PLAIN = 'digits with an optional leading "-" and at most one "." between digits'

/** Why a value that is not a decimal was refused (a clause after "is not a decimal: "). */
function why(x: unknown, exponent: boolean): string {
  if (typeof x === 'number') return 'numbers must be finite'
  if (typeof x !== 'string') return `expected a string of ${PLAIN}, or a finite number`
  if (x.length === 0) return 'it is empty'
  if (x.length > MAX_DECIMAL_LENGTH) return `it is longer than ${MAX_DECIMAL_LENGTH} characters`
  if (/\s/.test(x)) return 'it contains a space (no spaces around or inside a decimal)'
  if (x.includes(',')) return 'it contains "," (no thousands separators; "." is the decimal point)'
  if (x.includes('+') && !/[eE]\+/.test(x)) return 'a leading "+" is not accepted (write the number without a sign)'
  if (/[eE]/.test(x)) {
    if (!exponent) return `exponent notation is accepted in data records only, not in parameters: write it as ${PLAIN}`
    if (/^-?\d+(\.\d+)?[eE][+-]?\d+$/.test(x))
      return `its exponent is out of range (at most ±${MAX_EXPONENT}, at most 6 digits)`
    return `expected ${PLAIN}, optionally followed by an exponent ("e" or "E", an optional sign, digits: 9.417e-05)`
  }
  if (/^-?\./.test(x) || /\.$/.test(x) || /\.(\D|$)/.test(x))
    return 'a "." needs digits on both sides ("0.5", not ".5" or "5.")'
  return `expected ${PLAIN}${exponent ? ', optionally followed by an exponent (9.417e-05)' : ' (no exponent, no spaces, no "+", no ",")'}`
}

/** Longest decimal text accepted, in characters; longer input is refused rather than parsed slowly. */
export const MAX_DECIMAL_LENGTH = 400
/** Largest exponent magnitude of a data decimal (`1e400`); larger ones are refused rather than expanded. */
export const MAX_EXPONENT = 400
/**
 * Longest decimal text the library itself writes, in characters: a value (price x volume) of records at
 * {@link MAX_DECIMAL_LENGTH} characters moved by {@link MAX_EXPONENT} has up to twice their scale on each
 * side of the point, and sums add a few digits. The readers of its own outputs (profiles given to a merge)
 * take decimals this long; inputs keep the 400-character limit.
 */
export const MAX_OUTPUT_DECIMAL_LENGTH = 4 * (MAX_DECIMAL_LENGTH + MAX_EXPONENT) + 20

export const DECIMAL_MSG = {
  /** The reason clause alone (for entry points that print their own field name and rule first). */
  reason: (x: unknown, exponent: boolean) => why(x, exponent),
  /** A parameter (option, query value, interface A Decimal) that is not a plain decimal. */
  notDecimal: (x: unknown) => `${describeValue(x)} is not a decimal: ${why(x, false)}`,
  /** A data value (trade or candle field, CSV / NDJSON cell) that is not a decimal. */
  notDataDecimal: (x: unknown) => `${describeValue(x)} is not a decimal: ${why(x, true)}`,
  notFinite: (x: unknown) => `${describeValue(x)} is not a decimal: numbers must be finite`,
  tooManyDecimals: (x: unknown, scale: number) => `${describeValue(x)} has more than ${scale} decimals`,
  badStep: (x: unknown) => `${describeValue(x)} is not a valid step: it must be a decimal greater than 0`,
  badScale: (x: unknown) =>
    `scale ${describeValue(x)} is not valid: it must be a power of ten >= 1 written in digits ("1", "10", "100", ...)`,
  badValue: (x: unknown) => `value ${describeValue(x)} is not valid: it must be digits with an optional leading "-"`,
  notPartnerDecimal: (x: unknown) =>
    `${describeValue(x)} is not a Decimal: expected an object {value, scale} of strings`,
} as const
