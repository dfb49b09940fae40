import { describeValue } from '../_lib/describe.js'
// Error messages of src/decimal, in one place. Each names the input and the rule.
const show = describeValue

export const MSG = {
  notDecimal: (x: unknown) =>
    `${show(x)} is not a decimal: expected a string of digits with an optional leading "-" and one "." between digits (no exponent, no spaces, no "+", no ","), or a finite number`,
  notFinite: (x: unknown) => `${show(x)} is not a decimal: numbers must be finite`,
  tooManyDecimals: (x: unknown, scale: number) => `${show(x)} has more than ${scale} decimals`,
  badStep: (x: unknown) => `${show(x)} is not a valid step: it must be a decimal greater than 0`,
  badScale: (x: unknown) => `scale ${show(x)} is not valid: it must be a power of ten >= 1 written in digits ("1", "10", "100", ...)`,
  badValue: (x: unknown) => `value ${show(x)} is not valid: it must be digits with an optional leading "-"`,
  notPartnerDecimal: (x: unknown) => `${show(x)} is not a Decimal: expected an object {value, scale} of strings`,
} as const
