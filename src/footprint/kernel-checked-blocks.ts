// The footprint columnar kernel's four-record blocks for a slice whose session codes must be tested (see
// columnsKernel in kernel-columns.ts, which calls them).
import { Slot } from './kernel-slots.js'

/**
 * Blocks for a slice whose session codes were not all kept (or not checked): each time is tested on its own
 * (any order), each session code too, and volumes of either kind convert to units as in `unitBlocks` (kernel-columns.ts)
 * (with 10^0 = 1, floor(v + 0.5) / 1 === v exactly for an integer v).
 */
export function checkedBlocks(
  time: Float64Array,
  price: Float64Array,
  volume: Float64Array,
  side: Uint8Array,
  sess: Uint8Array,
  withSess: boolean,
  all: boolean,
  keep: Uint8Array,
  from: number,
  to: number,
  a: Float64Array,
): number {
  const vPow = a[Slot.VolumePow] as number
  const runPrice = a[Slot.RunPrice] as number
  const wS = a[Slot.WindowStart] as number
  const wE = a[Slot.WindowEnd] as number
  const room = a[Slot.RunRoom] as number
  let accT = a[Slot.RunVolume] as number
  let accB = a[Slot.RunBuyVolume] as number
  let nB = a[Slot.RunBuyTrades] as number
  let nT = a[Slot.RunTrades] as number
  let i = from
  for (; i + 4 <= to; i += 4) {
    const p0 = price[i] as number
    const p1 = price[i + 1] as number
    const p2 = price[i + 2] as number
    const p3 = price[i + 3] as number
    if (!(p0 === runPrice && p1 === runPrice && p2 === runPrice && p3 === runPrice)) break
    const t0 = time[i] as number
    const t1 = time[i + 1] as number
    const t2 = time[i + 2] as number
    const t3 = time[i + 3] as number
    if (
      !(
        t0 >= wS &&
        t0 < wE &&
        Math.floor(t0) === t0 &&
        t1 >= wS &&
        t1 < wE &&
        Math.floor(t1) === t1 &&
        t2 >= wS &&
        t2 < wE &&
        Math.floor(t2) === t2 &&
        t3 >= wS &&
        t3 < wE &&
        Math.floor(t3) === t3
      )
    )
      break
    const s0 = side[i] as number
    const s1 = side[i + 1] as number
    const s2 = side[i + 2] as number
    const s3 = side[i + 3] as number
    // every side 1 or 2 (as in the clean blocks of kernel-columns.ts)
    if ((((s0 - 1) | (s1 - 1) | (s2 - 1) | (s3 - 1)) & -2) !== 0) break
    if (withSess) {
      const c0 = sess[i] as number
      const c1 = sess[i + 1] as number
      const c2 = sess[i + 2] as number
      const c3 = sess[i + 3] as number
      // every code is 0..2 exactly when every code + 1 is below 4; with a filter, all four kept
      if (
        all
          ? ((c0 + 1) | (c1 + 1) | (c2 + 1) | (c3 + 1)) >> 2 !== 0
          : ((keep[c0] as number) & (keep[c1] as number) & (keep[c2] as number) & (keep[c3] as number)) !== 1
      )
        break
    }
    const v0 = volume[i] as number
    const v1 = volume[i + 1] as number
    const v2 = volume[i + 2] as number
    const v3 = volume[i + 3] as number
    const u0 = Math.floor(v0 * vPow + 0.5)
    const u1 = Math.floor(v1 * vPow + 0.5)
    const u2 = Math.floor(v2 * vPow + 0.5)
    const u3 = Math.floor(v3 * vPow + 0.5)
    if (
      !(
        u0 / vPow === v0 &&
        u0 >= 0 &&
        u1 / vPow === v1 &&
        u1 >= 0 &&
        u2 / vPow === v2 &&
        u2 >= 0 &&
        u3 / vPow === v3 &&
        u3 >= 0
      )
    )
      break
    // non-negative integers: when the total stays within room every partial sum is exact
    const nt = accT + (u0 + u1 + (u2 + u3))
    if (!(nt <= room)) break
    accT = nt
    accB += u0 * (2 - s0) + u1 * (2 - s1) + (u2 * (2 - s2) + u3 * (2 - s3))
    nB += 8 - s0 - s1 - s2 - s3
    nT += 4
  }
  a[Slot.RunVolume] = accT
  a[Slot.RunBuyVolume] = accB
  a[Slot.RunBuyTrades] = nB
  a[Slot.RunTrades] = nT
  return i
}
