import { parseDecimal, type ExactDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { describeValue } from '../_lib/describe.js'

const percentMessage = (x: unknown): string => `valueAreaPercent: ${describeValue(x)} is not a number with 0 < p <= 100`

/**
 * Resolves a `valueAreaPercent` (0 < p <= 100, default 70) to an exact decimal; the rule TPO and footprint
 * value areas share. Throws `invalid_option` naming the option.
 */
export function resolveValueAreaPercent(x: unknown): { percent: number; exact: ExactDecimal } {
  const p = x ?? 70
  if (typeof p !== 'number' || !(p > 0 && p <= 100))
    throw new MarketDataError('invalid_option', percentMessage(x), { field: 'valueAreaPercent' })
  const d = parseDecimal(p)
  if (!d.ok) throw new MarketDataError('invalid_option', percentMessage(x), { field: 'valueAreaPercent' })
  return { percent: p, exact: d.value }
}

/** A value area as row indexes `[low, high]`, both inclusive. */
export interface ValueAreaRange {
  low: number
  high: number
}

/**
 * The value area (Dalton, "Mind over Markets"; Linnsoft / CQG "method A"): start at the POC row;
 * while the area holds less than `percent` of the total, compare the sum of the next two rows above
 * with the next two below (fewer where the profile ends) and add the larger pair; equal sums add the
 * pair above; when one side has run out, take the other. The share is checked before the first
 * addition and after each whole pair. A zero total gives the POC row alone.
 */
export function valueAreaRange(values: readonly bigint[], poc: number, percent: ExactDecimal): ValueAreaRange {
  const n = values.length
  let total = 0n
  for (let i = 0; i < n; i++) total += values[i] as bigint
  // area / total >= units / (100 * 10^scale)  <=>  area * 100 * 10^scale >= units * total
  const lhsScale = 100n * 10n ** BigInt(percent.scale)
  const need = percent.units * total
  let low = poc
  let high = poc
  let area = values[poc] as bigint
  while (area * lhsScale < need) {
    const upN = Math.min(2, n - 1 - high)
    const downN = Math.min(2, low)
    if (upN === 0 && downN === 0) break
    let up = 0n
    for (let k = 1; k <= upN; k++) up += values[high + k] as bigint
    let down = 0n
    for (let k = 1; k <= downN; k++) down += values[low - k] as bigint
    if (upN > 0 && (downN === 0 || up >= down)) {
      high += upN
      area += up
    } else {
      low -= downN
      area += down
    }
  }
  return { low, high }
}
