import { UNITS_LIMIT } from '../decimal/index.js'
import { checkedBlocks } from './kernel-checked-blocks.js'
import { Slot } from './kernel-slots.js'

/**
 * The columnar hot loop over records [from, to) of one open bucket's dense row range: no calls it cannot
 * inline, no allocation, every array a constant. A price is binned by comparison with the row bounds
 * `bnd` (exact: see BucketState.bnd), a volume becomes integer units (`u / 10^s === v` proves them exact).
 * Returns the index of the first record it cannot take (then the caller's exact path takes that one), or
 * `to`. `st` carries the window, the row guess and the price extremes in and out ({@link Slot}).
 *
 * Consecutive trades nearly always repeat the price, so a price is binned (and min / max updated) only
 * when it changes, and the volumes and counts of a run of trades on one row are summed in locals (both sides
 * branch-free: `b = 2 - side` is 1 for a buy, 0 for a sell), then added to the row's slots when the row
 * changes or the loop ends (prices finer than the grid change often within a row). `room` keeps every slot's sum within 2^52 (integers, so every sum is exact).
 * Runs of equal prices are taken four records at a time: `clean` = 1 (every session code of [from, to)
 * is kept: the caller checked the slice word-wise) by {@link wholeBlocks} / {@link unitBlocks}, without a
 * session test; otherwise by {@link checkedBlocks}.
 */
export function columnsKernel(
  time: Float64Array,
  price: Float64Array,
  volume: Float64Array,
  side: Uint8Array,
  sess: Uint8Array,
  hasSess: number,
  keep: Uint8Array,
  from: number,
  to: number,
  lo: Float64Array,
  cnt: Float64Array,
  bnd: Float64Array,
  cap: number,
  st: Float64Array,
  allSess: number,
  clean: number,
): number {
  const org = bnd[0] as number
  const wS = st[Slot.WindowStart] as number
  const wE = st[Slot.WindowEnd] as number
  const inv = st[Slot.RowInverse] as number
  const half = st[Slot.RowHalf] as number
  const vPow = st[Slot.VolumePow] as number
  const all = allSess === 1
  const withSess = hasSess === 1
  const whole = vPow === 1
  let minD = st[Slot.MinPrice] as number
  let maxD = st[Slot.MaxPrice] as number
  let runPrice = Number.NaN
  /** Slot of the buy side of the current price's row (sell at jb + 1). */
  let jb = 0
  /** Pending run on row jb: total units, buy units, buy trades, all trades; room = 2^52 - the larger slot sum. */
  let accT = 0
  let accB = 0
  let nB = 0
  let nT = 0
  let room = -1
  /** No session column and a filter that drops MAINSESSION: every record is dropped (one at a time below). */
  const dropAll = !withSess && keep[0] !== 1
  let i = from
  outer: for (;;) {
    // (a block needs four records at the run's price: when the first or the fourth differs, as on thin
    // data where a price run is one or two trades, the blocks would take nothing and are not called)
    if (!dropAll && i + 4 <= to && (price[i] as number) === runPrice && (price[i + 3] as number) === runPrice) {
      st[Slot.RunPrice] = runPrice
      st[Slot.RunRoom] = room
      st[Slot.RunVolume] = accT
      st[Slot.RunBuyVolume] = accB
      st[Slot.RunBuyTrades] = nB
      st[Slot.RunTrades] = nT
      if (clean === 1)
        i = whole ? wholeBlocks(time, price, volume, side, i, to, st) : unitBlocks(time, price, volume, side, i, to, st)
      else i = checkedBlocks(time, price, volume, side, sess, withSess, all, keep, i, to, st)
      accT = st[Slot.RunVolume] as number
      accB = st[Slot.RunBuyVolume] as number
      nB = st[Slot.RunBuyTrades] as number
      nT = st[Slot.RunTrades] as number
    }
    if (i >= to) break
    // one record at a time up to the next block: a new price (binned here), a dropped record, or one the
    // caller's exact path must take
    const stop = i + 4 < to ? i + 4 : to
    for (; i < stop; i++) {
      const t = time[i] as number
      const s = side[i] as number
      const v = volume[i] as number
      // one predictable test per field: the side test is bitwise (s === 1 || s === 2 would branch on the side)
      if (!(t >= wS && t < wE && Math.floor(t) === t && ((s - 1) & -2) === 0)) break outer
      const vu = whole ? v : Math.floor(v * vPow + 0.5)
      // (units past 2^52 fail the room test below; Infinity stops here, before its price could move the extremes)
      if (!((whole ? Math.floor(v) === v : vu / vPow === v) && vu >= 0 && vu !== Infinity)) break outer
      if (!all || withSess) {
        // (no session column: every record is MAINSESSION, code 0, which a filter may drop)
        const code = withSess ? (sess[i] as number) : 0
        if (all) {
          if (code > 2) break outer
        } else if (keep[code] !== 1) {
          // a dropped record is validated too, as the exact reader would: finite price and volume
          const q = price[i] as number
          if (code > 2 || v - v !== 0 || q - q !== 0) break outer
          continue
        }
      }
      const p = price[i] as number
      const moved = p !== runPrice
      if (moved) {
        let k = Math.floor((p - org) * inv + half)
        // the guess adds half a tick for prices on the grid; a price finer than the grid in the top half
        // tick of its row is guessed one row up
        if (k >= 1 && k <= cap && p < (bnd[k] as number)) k--
        if (!(k >= 0 && k < cap && p >= (bnd[k] as number) && p < (bnd[k + 1] as number))) break outer
        // (on thin data most new prices are finer ones in the run's row: the run then goes on)
        if (2 * k !== jb || nT === 0) {
          if (nT !== 0) {
            addRun(lo, cnt, jb, accT, accB, nB, nT)
            accT = 0
            accB = 0
            nB = 0
            nT = 0
          }
          jb = 2 * k
          const a = lo[jb] as number
          const c = lo[jb + 1] as number
          room = UNITS_LIMIT - (a > c ? a : c)
        }
        runPrice = p
        if (p < minD) minD = p
        if (p > maxD) maxD = p
      }
      const nt = accT + vu
      if (nt > room) {
        // near 2^52: this record alone, exactly (a sum past 2^52 stops the loop; the caller spills it)
        const j = jb + s - 1
        const x = (lo[j] as number) + (s === 1 ? accB : accT - accB) + vu
        if (x > UNITS_LIMIT) break outer
        if (nT !== 0) {
          addRun(lo, cnt, jb, accT, accB, nB, nT)
          accT = 0
          accB = 0
          nB = 0
          nT = 0
        }
        lo[j] = (lo[j] as number) + vu
        cnt[j] = (cnt[j] as number) + 1
        const a = lo[jb] as number
        const c = lo[jb + 1] as number
        room = UNITS_LIMIT - (a > c ? a : c)
        continue
      }
      const b = 2 - s
      accT = nt
      accB += vu * b
      nB += b
      nT++
      if (moved) {
        // a new price opens a run: back to the blocks from the next record
        i++
        continue outer
      }
    }
  }
  if (nT !== 0) addRun(lo, cnt, jb, accT, accB, nB, nT)
  st[Slot.MinPrice] = minD
  st[Slot.MaxPrice] = maxD
  return i
}

/** Adds a pending run (total and buy volume units, buy and all trades) to row slots jb (buy) and jb + 1 (sell). */
function addRun(
  lo: Float64Array,
  cnt: Float64Array,
  jb: number,
  accT: number,
  accB: number,
  nB: number,
  nT: number,
): void {
  lo[jb] = (lo[jb] as number) + accB
  lo[jb + 1] = (lo[jb + 1] as number) + (accT - accB)
  cnt[jb] = (cnt[jb] as number) + nB
  cnt[jb + 1] = (cnt[jb + 1] as number) + (nT - nB)
}

/*
 * The blocks: four records at the run's price, one test per field for all four (bitwise for sides and
 * session codes, so no branch depends on the data); the run state comes in and goes out through `a`
 * ({@link Slot}). Each returns the index of the first record of the first block it cannot take whole (the
 * caller then goes one record at a time), or the last block end. They are three on purpose: a small
 * function of its own keeps the loop's values in registers, and the two clean ones are specialised
 * (whole lots test integers by one sum of fractions; decimals convert to units), which a shared loop with
 * a flag would pay on every block. Their tests and sums are the same (the side test, the run update).
 */

/**
 * Blocks for a clean slice with whole-lot volumes. A block's times must be ascending (then two bounds tests
 * cover all four; any other order goes one record at a time). Integer times and volumes are tested
 * together: x - floor(x) is exact, 0 exactly for an integer, positive for any other finite x and NaN for
 * NaN or an infinity, so a sum of them is 0 exactly when every one is an integer. (`| 0` on the indexes:
 * i + 3 < to fits an int32, and V8 then drops its overflow tests.)
 */
function wholeBlocks(
  time: Float64Array,
  price: Float64Array,
  volume: Float64Array,
  side: Uint8Array,
  from: number,
  to: number,
  a: Float64Array,
): number {
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
    const i1 = (i + 1) | 0
    const i2 = (i + 2) | 0
    const i3 = (i + 3) | 0
    if (
      !(
        (price[i] as number) === runPrice &&
        (price[i1] as number) === runPrice &&
        (price[i2] as number) === runPrice &&
        (price[i3] as number) === runPrice
      )
    )
      break
    const t0 = time[i] as number
    const t1 = time[i1] as number
    const t2 = time[i2] as number
    const t3 = time[i3] as number
    if (!(t0 >= wS && t0 <= t1 && t1 <= t2 && t2 <= t3 && t3 < wE)) break
    const s0 = side[i] as number
    const s1 = side[i1] as number
    const s2 = side[i2] as number
    const s3 = side[i3] as number
    // every side 1 (buy) or 2 (sell): no (side - 1) has a bit other than bit 0 (written out, not a helper: an
    // inlined module function is checked against its binding on every block, about 2% of W1)
    if ((((s0 - 1) | (s1 - 1) | (s2 - 1) | (s3 - 1)) & -2) !== 0) break
    const v0 = volume[i] as number
    const v1 = volume[i1] as number
    const v2 = volume[i2] as number
    const v3 = volume[i3] as number
    if (
      !(
        v0 >= 0 &&
        v1 >= 0 &&
        v2 >= 0 &&
        v3 >= 0 &&
        t0 -
          Math.floor(t0) +
          (t1 - Math.floor(t1)) +
          (t2 - Math.floor(t2) + (t3 - Math.floor(t3))) +
          (v0 - Math.floor(v0) + (v1 - Math.floor(v1)) + (v2 - Math.floor(v2) + (v3 - Math.floor(v3)))) ===
          0
      )
    )
      break
    // non-negative integers: when the total stays within room every partial sum is exact
    const nt = accT + (v0 + v1 + (v2 + v3))
    if (!(nt <= room)) break
    accT = nt
    accB += v0 * (2 - s0) + v1 * (2 - s1) + (v2 * (2 - s2) + v3 * (2 - s3))
    nB += 8 - s0 - s1 - s2 - s3
    nT += 4
  }
  a[Slot.RunVolume] = accT
  a[Slot.RunBuyVolume] = accB
  a[Slot.RunBuyTrades] = nB
  a[Slot.RunTrades] = nT
  return i
}

/** {@link wholeBlocks} for volumes with decimals: units u = round(v * 10^s), exact when u / 10^s === v. */
function unitBlocks(
  time: Float64Array,
  price: Float64Array,
  volume: Float64Array,
  side: Uint8Array,
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
    const i1 = (i + 1) | 0
    const i2 = (i + 2) | 0
    const i3 = (i + 3) | 0
    if (
      !(
        (price[i] as number) === runPrice &&
        (price[i1] as number) === runPrice &&
        (price[i2] as number) === runPrice &&
        (price[i3] as number) === runPrice
      )
    )
      break
    const t0 = time[i] as number
    const t1 = time[i1] as number
    const t2 = time[i2] as number
    const t3 = time[i3] as number
    if (
      !(
        t0 >= wS &&
        t0 <= t1 &&
        t1 <= t2 &&
        t2 <= t3 &&
        t3 < wE &&
        t0 - Math.floor(t0) + (t1 - Math.floor(t1)) + (t2 - Math.floor(t2) + (t3 - Math.floor(t3))) === 0
      )
    )
      break
    const s0 = side[i] as number
    const s1 = side[i1] as number
    const s2 = side[i2] as number
    const s3 = side[i3] as number
    // every side 1 (buy) or 2 (sell): no (side - 1) has a bit other than bit 0 (written out, not a helper: an
    // inlined module function is checked against its binding on every block, about 2% of W1)
    if ((((s0 - 1) | (s1 - 1) | (s2 - 1) | (s3 - 1)) & -2) !== 0) break
    const v0 = volume[i] as number
    const v1 = volume[i1] as number
    const v2 = volume[i2] as number
    const v3 = volume[i3] as number
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
