/** Dalton's shape features of a profile's extremes, from TPO counts per row (ascending price). */
export interface ProfileShape {
  /** Indexes of single prints inside the profile (one TPO, not part of a tail at either extreme). */
  singlePrints: number[]
  poorHigh: boolean
  poorLow: boolean
  excessHigh: number
  excessLow: number
}

/**
 * Tails, excess, poor extremes and single prints (Dalton, "Mind over Markets"):
 * a tail is the run of rows with exactly one TPO at an extreme; excess is a tail of two or more such
 * rows (its length in rows, else 0); a poor high (low) has two or more TPOs at the extreme row (no
 * tail); single prints are rows with one TPO that are not part of either tail. A profile with no row of
 * two or more TPOs (a single block) has no auction to compare with: no excess, no poor extreme, no
 * single prints.
 */
export function profileShape(counts: ArrayLike<number>): ProfileShape {
  const n = counts.length
  let multi = false
  for (let i = 0; i < n; i++) if ((counts[i] as number) >= 2) multi = true
  if (!multi) return { singlePrints: [], poorHigh: false, poorLow: false, excessHigh: 0, excessLow: 0 }
  let top = 0
  while (top < n && counts[n - 1 - top] === 1) top++
  let bottom = 0
  while (bottom < n && counts[bottom] === 1) bottom++
  const singlePrints: number[] = []
  for (let i = bottom; i < n - top; i++) if (counts[i] === 1) singlePrints.push(i)
  return {
    singlePrints,
    poorHigh: (counts[n - 1] as number) >= 2,
    poorLow: (counts[0] as number) >= 2,
    excessHigh: top >= 2 ? top : 0,
    excessLow: bottom >= 2 ? bottom : 0,
  }
}
