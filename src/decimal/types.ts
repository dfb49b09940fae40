/** A decimal input: a string such as `"5000.25"`, or a number read by its shortest round-trip form (`0.1` is exactly 0.1). */
export type DecimalInput = string | number

/** An exact decimal: value = units / 10^scale, in minimal form (no trailing fractional zeros; zero has scale 0). */
export interface ExactDecimal {
  units: bigint
  scale: number
}
