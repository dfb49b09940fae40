/** Smallest number of the 1-2-5 series (1, 2, 5, 10, 20, 50, ...) that is >= x (1 for x <= 1). */
export function niceCeil(x: number): number {
  let p = 1
  for (;;) {
    for (const m of [1, 2, 5]) if (m * p >= x) return m * p
    p *= 10
  }
}
