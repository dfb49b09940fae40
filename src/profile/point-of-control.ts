/**
 * Index of the point of control among rows `values` (ascending price; TPO counts or volumes):
 * the row with the largest value; ties go to the row nearest the middle of the profile (the mean of
 * the lowest and highest row prices); two rows equally near lie on opposite sides of the middle, and
 * the one on the side holding more in total (all rows above vs all rows below the middle) wins; if
 * those are equal too, the lower price. `rows` gives each row's grid number when rows are sparse (a
 * footprint holds only traded rows); without it rows are contiguous and distances compare as indexes.
 * Returns -1 for no rows.
 *
 * Convention: Steidlmayer/Dalton POC with the mypivots / Linnsoft / CQG tie rules.
 */
export function pocIndex(values: readonly bigint[] | readonly number[], rows?: ArrayLike<number>): number {
  // bigints, or doubles holding integers whose total is a safe integer (every sum below is then exact):
  // one kind throughout, so the comparisons and sums below read both (typed as bigint for the compiler)
  const v = values as readonly bigint[]
  const n = v.length
  if (n === 0) return -1
  const r = rowNumbers(rows, n)
  const mid2 = r(0) + r(n - 1)
  let max = v[0] as bigint
  for (let i = 1; i < n; i++) if ((v[i] as bigint) > max) max = v[i] as bigint
  let best = -1
  let bestDist = mid2
  let tie = -1
  for (let i = 0; i < n; i++) {
    if (v[i] !== max) continue
    const x = r(i)
    const side = x + x - mid2
    const d = side < 0 ? -side : side
    if (best < 0 || d < bestDist) {
      best = i
      bestDist = d
      tie = -1
    } else if (d === bestDist) tie = i
  }
  if (tie < 0) return best
  // best is below the middle, tie above (same distance, ascending scan)
  let above = (typeof max === 'bigint' ? 0n : 0) as bigint
  let below = above
  for (let i = 0; i < n; i++) {
    const x = r(i)
    const side = x + x - mid2
    if (side > 0) above += v[i] as bigint
    else if (side < 0) below += v[i] as bigint
  }
  return above > below ? tie : best
}

/**
 * Grid number of row i: its index when rows are contiguous (no `rows`), else `rows[i]`; as a bigint when the
 * profile's rows lie so far from 0 that twice a row minus the sum of the end rows could pass 2^53 (rows near
 * the row-index limit). Typed as bigint for the compiler, like the values: one kind throughout.
 */
function rowNumbers(rows: ArrayLike<number> | undefined, n: number): (i: number) => bigint {
  if (rows === undefined) return (i) => i as unknown as bigint
  const wide = Math.abs(rows[0] as number) + Math.abs(rows[n - 1] as number) > 2 ** 52
  return wide ? (i) => BigInt(rows[i] as number) : (i) => rows[i] as unknown as bigint
}
