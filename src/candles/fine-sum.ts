// Exact sums of the rare records finer than the fast sums take (MAX_FAST_VOLUME_SCALE, decision 0141):
// held apart at their own scale, so one such record costs only itself and the fast scales stay.
import { formatUnits } from '../decimal/index.js'
import { formatSum } from './format.js'

/** An exact decimal sum: `units / 10^scale` (the scale only grows). */
export interface FineSum {
  units: bigint
  scale: number
}

/** `sum` plus `units / 10^scale`, exactly (a new sum when `sum` is undefined). */
export function addFine(sum: FineSum | undefined, units: bigint, scale: number): FineSum {
  if (sum === undefined) return { units, scale }
  if (scale > sum.scale) {
    sum.units *= 10n ** BigInt(scale - sum.scale)
    sum.scale = scale
  }
  sum.units += units * 10n ** BigInt(sum.scale - scale)
  return sum
}

/** The fast sum (`hi + lo` units at `scale`) plus the fine sum, as units at the finer of the two scales. */
export function withFine(hi: bigint, lo: number, scale: number, fine: FineSum): FineSum {
  const s = Math.max(scale, fine.scale)
  return { units: (hi + BigInt(lo)) * 10n ** BigInt(s - scale) + fine.units * 10n ** BigInt(s - fine.scale), scale: s }
}

/** The decimal text of the fast sum plus the fine sum (when there is one). */
export function sumText(hi: bigint, lo: number, scale: number, fine: FineSum | undefined): string {
  if (fine === undefined) return formatSum(hi, lo, scale)
  const t = withFine(hi, lo, scale, fine)
  return formatUnits(t.units, t.scale)
}
