import type { ExactDecimal } from './types.js'

/** Compares two exact decimals of any scales: -1, 0 or 1. */
export function compareExactDecimals(a: ExactDecimal, b: ExactDecimal): number {
  const s = Math.max(a.scale, b.scale)
  const x = a.units * 10n ** BigInt(s - a.scale)
  const y = b.units * 10n ** BigInt(s - b.scale)
  return x < y ? -1 : x > y ? 1 : 0
}
