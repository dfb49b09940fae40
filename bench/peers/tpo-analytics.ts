// POC and value area from TPO counts per row, written from the TPO rules of docs/tpo.md (independent of src/tpo).
// counts[k] is the TPO count of row k, k = 0 the lowest row; every row between the lowest and highest is present.

/**
 * POC: most TPOs; ties -> nearest the middle (mean of the highest and lowest row prices); equally near ->
 * the side (all rows above vs all rows below the middle) holding more TPOs; still tied -> the lower price.
 * Value area (Dalton method A): from the POC add the larger of the next two rows above / below (equal sums
 * take the pair above; one side exhausted -> the other), checking >= 70% before the first addition and after each pair.
 */
export function tpoAnalytics(counts: ArrayLike<number>, percent = 70): { poc: number; val: number; vah: number } {
  const m = counts.length
  let max = -1
  for (let k = 0; k < m; k++) if ((counts[k] as number) > max) max = counts[k] as number
  // distances in doubled index space: middle = (0 + m - 1) / 2
  const mid2 = m - 1
  let above = 0
  let below = 0
  for (let k = 0; k < m; k++) {
    if (2 * k > mid2) above += counts[k] as number
    else if (2 * k < mid2) below += counts[k] as number
  }
  let poc = -1
  for (let k = 0; k < m; k++) {
    if (counts[k] !== max) continue
    if (poc < 0) {
      poc = k
      continue
    }
    const dNew = Math.abs(2 * k - mid2)
    const dOld = Math.abs(2 * poc - mid2)
    if (dNew < dOld) poc = k
    else if (dNew === dOld) {
      // k is above the middle and poc below (k > poc): prefer the side holding more TPOs; tie -> lower (poc)
      if (above > below) poc = k
    }
  }
  let total = 0
  for (let k = 0; k < m; k++) total += counts[k] as number
  let area = counts[poc] as number
  let lo = poc
  let hi = poc
  while (area * 100 < percent * total) {
    const upN = Math.min(2, m - 1 - hi)
    const dnN = Math.min(2, lo)
    if (upN === 0 && dnN === 0) break
    let up = 0
    for (let j = 1; j <= upN; j++) up += counts[hi + j] as number
    let dn = 0
    for (let j = 1; j <= dnN; j++) dn += counts[lo - j] as number
    if (dnN === 0 || (upN > 0 && up >= dn)) {
      hi += upN
      area += up
    } else {
      lo -= dnN
      area += dn
    }
  }
  return { poc, val: lo, vah: hi }
}
