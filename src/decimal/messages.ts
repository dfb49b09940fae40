// Error messages of src/decimal, in one place. Each names the input and the rule.
const show = (x: unknown): string => {
  if (typeof x === 'string') return JSON.stringify(x.length > 40 ? `${x.slice(0, 40)}…` : x)
  if (typeof x === 'number' || typeof x === 'bigint' || typeof x === 'boolean') return String(x)
  if (x === null) return 'null'
  return typeof x
}

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
