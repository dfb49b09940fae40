import type { ExactDecimal } from '../decimal/index.js'

/** The thresholds of the double-distribution test (see {@link splittingZone}). */
export interface DistributionRule {
  /** Rows the thin zone needs at least. */
  minRows: number
  /** Share of all TPOs each side holds at least. */
  minShare: ExactDecimal
  /** TPOs the fullest row of each side holds at least: a rotation, several periods trading one price. */
  minTpos: number
}

/** `a >= f x b` for integers a, b and an exact factor f. */
export const atLeast = (a: bigint, f: ExactDecimal, b: bigint): boolean => a * 10n ** BigInt(f.scale) >= f.units * b

/**
 * The first thin zone that splits a profile into two areas of value, or undefined. A thin zone is a run of
 * at least `minRows` consecutive rows holding at most one TPO each (single prints, or rows no block traded)
 * that touches neither extreme; each side of it must hold at least `minShare` of all TPOs and a row of at
 * least `minTpos` TPOs (a TPO-count peak: the market rotated there). A trend day stepping up one
 * single-print period at a time has thin zones but no such peaks; two areas of value with a gap of
 * untraded rows between them have one.
 */
export function splittingZone(counts: readonly number[], rule: DistributionRule): { a: number; b: number } | undefined {
  const n = counts.length
  let total = 0n
  for (const c of counts) total += BigInt(c)
  // fullest row and TPO sums of every prefix and suffix
  const below = new Array<bigint>(n + 1).fill(0n)
  const peakBelow = new Array<number>(n + 1).fill(0)
  for (let i = 0; i < n; i++) {
    below[i + 1] = (below[i] as bigint) + BigInt(counts[i] as number)
    peakBelow[i + 1] = Math.max(peakBelow[i] as number, counts[i] as number)
  }
  const peakAbove = new Array<number>(n + 1).fill(0)
  for (let i = n - 1; i >= 0; i--) peakAbove[i] = Math.max(peakAbove[i + 1] as number, counts[i] as number)
  for (let i = 0; i < n; ) {
    if ((counts[i] as number) > 1) {
      i++
      continue
    }
    let j = i
    while (j + 1 < n && (counts[j + 1] as number) <= 1) j++
    // rows i..j are a maximal thin run; one that reaches an extreme is a tail, not a separation
    if (i > 0 && j < n - 1 && j - i + 1 >= rule.minRows) {
      const lo = below[i] as bigint
      const hi = total - (below[j + 1] as bigint)
      if (
        atLeast(lo, rule.minShare, total) &&
        atLeast(hi, rule.minShare, total) &&
        (peakBelow[i] as number) >= rule.minTpos &&
        (peakAbove[j + 1] as number) >= rule.minTpos
      )
        return { a: i, b: j }
    }
    i = j + 1
  }
  return undefined
}
