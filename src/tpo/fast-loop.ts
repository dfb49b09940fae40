// The TPO engine's fast per-trade loop (the kernel): records of one block, prices on the grid inside the
// allocated rows, volumes at the current scale. Everything else goes through the general loop.
import { UNITS_LIMIT } from '../decimal/index.js'
import type { TradeColumns } from '../trades/index.js'
import type { PeriodAcc } from './period-acc.js'

/** Slots of the fast loop's numeric arguments (see {@link fastRun}). */
export const ARG_BLOCK_START = 0
export const ARG_BLOCK_END = 1
export const ARG_SESSION = 2
export const ARG_PRICE_POW = 3
export const ARG_ROW_UNITS = 4
export const ARG_VOLUME_POW = 5
export const ARG_ROW_BASE = 6
export const ARG_ROW_CAP = 7
/**
 * In and out: the block's high and low. Out: the last time run's start, the pending run of the last price
 * (its row slot, volume units, sell units).
 */
export const ARG_BLOCK_HIGH = 8
export const ARG_BLOCK_LOW = 9
export const ARG_RUN_START = 10
export const ARG_PENDING_SLOT = 11
export const ARG_PENDING_VOLUME = 12
export const ARG_PENDING_SELL = 13
export const ARG_SLOTS = 14

/** Records per fast-loop call at most (2^11; see the caller, `TpoAggregator.run`). */
export const FAST_CHUNK = 2048

/**
 * The fast per-trade loop: records of the current block `j` of `acc` (same session, integral time),
 * volumes at the current scale, side codes 1/2, prices on the grid inside the allocated rows. Stops,
 * having changed nothing for it, at the first record that is not such a record (the general loop takes
 * it) and returns its index. Every check happens before any state changes.
 *
 * Records go four at a time: each check is one branch for the four (times in order and in the block,
 * integral, the session, the sides, volumes proved exact, prices proved exact and inside the rows). Four
 * that repeat the last price add to the pending run (`tot`, and `sell` of it, in registers; it goes into
 * its row when a record of another price comes, or the loop's exit adds it); any other four go straight
 * into their rows' buy and sell sums, the row computed for every record. Neither path branches on a
 * price change: on busy markets the price changes on two trades in three, and such a branch mispredicted
 * about once in three trades. Whatever the four-record step refuses, and the last records of a call, go
 * through the one-record step, which also closes runs of unsorted times.
 *
 * Units are rounded as `Math.floor(x * P + 0.5)`, not `Math.round`, which V8 compiles to a branch on the
 * side of the integer the product falls (a coin toss for decimals that are not exact doubles); the check
 * after it accepts the same units either way (decision 0087). Row sums and the pending run stay at most
 * 2^52 (four records add at most 2^51 to a sum at most 2^51), so every sum is exact; a sum that would pass
 * it stops the loop, and the general loop adds exactly.
 *
 * `a` holds the numeric arguments (block start and end, session code, 10^price scale, row height in
 * units, 10^volume scale, the profile's first row and row count) as raw doubles: as plain arguments V8
 * kept them tagged, unboxed them on every trade and boxed a double per trade. The profile's row sums
 * `vol` come as an array and its other state through `a`, not read from the profile object here: a load
 * from it made the optimised loop depend on the profile class's field layout, a change of it elsewhere (a
 * profile growing its rows) discarded that code, and later calls could be left in slower on-stack-replaced
 * code (half the speed, in one bench process out of three). `acc` is read only on unsorted input. The
 * checks are written out, not called: as helper functions they cost the ES set about 5%.
 */
export function fastRun(
  c: TradeColumns,
  from: number,
  to: number,
  vol: Float64Array,
  acc: PeriodAcc,
  j: number,
  a: Float64Array,
): number {
  const time = c.time
  const price = c.price
  const volume = c.volume
  const side = c.side
  const sess = c.session
  const bS = a[ARG_BLOCK_START] as number
  const bE = a[ARG_BLOCK_END] as number
  const sk = (a[ARG_SESSION] as number) | 0
  const PP = a[ARG_PRICE_POW] as number
  const RU = a[ARG_ROW_UNITS] as number
  const VP = a[ARG_VOLUME_POW] as number
  // read once per call: an import binding read in the loop costs a context load and hole check per access
  const lim = UNITS_LIMIT
  // a row sum at most half of it plus units of four records at most half of it stays exact
  const half = lim / 2
  const rowBase = a[ARG_ROW_BASE] as number
  const rowCap = a[ARG_ROW_CAP] as number
  let hi = a[ARG_BLOCK_HIGH] as number
  let lo = a[ARG_BLOCK_LOW] as number
  // the last record's price and 2 * (its row - rowBase)
  let lastP = Number.NaN
  let k = 0
  // the pending run of price lastP (runs of 4 records): its volume units, those of its sells
  let tot = 0
  let sell = 0
  // open/close per run of non-decreasing times [rs, i) (see closeRun), so not per trade
  let rs = from
  let prevT = bS
  let i = from
  for (;;) {
    // four records at a time, every check and field tested for the four together
    for (; i + 3 < to; i += 4) {
      const t0 = time[i] as number
      const t1 = time[i + 1] as number
      const t2 = time[i + 2] as number
      const t3 = time[i + 3] as number
      if (!(t0 >= prevT && t1 >= t0 && t2 >= t1 && t3 >= t2 && t3 < bE)) break
      if (!(Math.floor(t0) === t0 && Math.floor(t1) === t1 && Math.floor(t2) === t2 && Math.floor(t3) === t3)) break
      if (
        sess !== undefined &&
        (((sess[i] as number) ^ sk) |
          ((sess[i + 1] as number) ^ sk) |
          ((sess[i + 2] as number) ^ sk) |
          ((sess[i + 3] as number) ^ sk)) !==
          0
      )
        break
      // side code - 1: 0 (buy) or 1 (sell), one unsigned compare for the four
      const s0 = (side[i] as number) - 1
      const s1 = (side[i + 1] as number) - 1
      const s2 = (side[i + 2] as number) - 1
      const s3 = (side[i + 3] as number) - 1
      if ((s0 | s1 | s2 | s3) >>> 0 > 1) break
      const w0 = volume[i] as number
      const w1 = volume[i + 1] as number
      const w2 = volume[i + 2] as number
      const w3 = volume[i + 3] as number
      let u0 = w0
      let u1 = w1
      let u2 = w2
      let u3 = w3
      if (VP === 1) {
        if (!(Math.floor(w0) === w0 && Math.floor(w1) === w1 && Math.floor(w2) === w2 && Math.floor(w3) === w3)) break
      } else {
        // units at the volume scale, each proved exact (see numberToUnits)
        u0 = Math.floor(w0 * VP + 0.5)
        u1 = Math.floor(w1 * VP + 0.5)
        u2 = Math.floor(w2 * VP + 0.5)
        u3 = Math.floor(w3 * VP + 0.5)
        if (!(u0 / VP === w0 && u1 / VP === w1 && u2 / VP === w2 && u3 / VP === w3)) break
      }
      // none negative, and their sum at most 2^51 (so each is): a row sum at most 2^51 stays at most 2^52
      const us = u0 + u1 + u2 + u3
      if (!(u0 >= 0 && u1 >= 0 && u2 >= 0 && u3 >= 0 && us <= half)) break
      const p0 = price[i] as number
      const p1 = price[i + 1] as number
      const p2 = price[i + 2] as number
      const p3 = price[i + 3] as number
      // four repeats of the last price (one branch, not one per price: on busy data each is a coin toss)
      if (
        (((p0 === lastP) as unknown as number) &
          ((p1 === lastP) as unknown as number) &
          ((p2 === lastP) as unknown as number) &
          ((p3 === lastP) as unknown as number)) !==
        0
      ) {
        if (!(tot + us <= half)) break
        tot += us
        sell += u0 * s0 + u1 * s1 + u2 * s2 + u3 * s3
        prevT = t3
        continue
      }
      // exact units at the grid's scale (the check proves the decimal; see numberToUnits), then rows
      const q0 = Math.floor(p0 * PP + 0.5)
      const q1 = Math.floor(p1 * PP + 0.5)
      const q2 = Math.floor(p2 * PP + 0.5)
      const q3 = Math.floor(p3 * PP + 0.5)
      if (!(q0 / PP === p0 && q1 / PP === p1 && q2 / PP === p2 && q3 / PP === p3)) break
      if (!(q0 < lim && q0 > -lim && q1 < lim && q1 > -lim && q2 < lim && q2 > -lim && q3 < lim && q3 > -lim)) break
      const r0 = (RU === 1 ? q0 : Math.floor(q0 / RU)) - rowBase
      const r1 = (RU === 1 ? q1 : Math.floor(q1 / RU)) - rowBase
      const r2 = (RU === 1 ? q2 : Math.floor(q2 / RU)) - rowBase
      const r3 = (RU === 1 ? q3 : Math.floor(q3 / RU)) - rowBase
      if (!(r0 >= 0 && r0 < rowCap && r1 >= 0 && r1 < rowCap && r2 >= 0 && r2 < rowCap && r3 >= 0 && r3 < rowCap)) break
      if (tot !== 0) {
        // the pending run goes into its row first: buy at k, sell at k + 1 (written out here and in the
        // one-record step: leaving it to that step, once a run of one price, cost the ES set about 30%)
        const xb = (vol[k] as number) + (tot - sell)
        const xs = (vol[k + 1] as number) + sell
        if (!(xb <= lim && xs <= lim)) break
        vol[k] = xb
        vol[k + 1] = xs
        tot = 0
        sell = 0
      }
      const a0 = 2 * r0 + s0
      const a1 = 2 * r1 + s1
      const a2 = 2 * r2 + s2
      const a3 = 2 * r3 + s3
      if (
        !(
          (vol[a0] as number) <= half &&
          (vol[a1] as number) <= half &&
          (vol[a2] as number) <= half &&
          (vol[a3] as number) <= half
        )
      )
        break
      // in record order: two of the four may share a sum
      vol[a0] = (vol[a0] as number) + u0
      vol[a1] = (vol[a1] as number) + u1
      vol[a2] = (vol[a2] as number) + u2
      vol[a3] = (vol[a3] as number) + u3
      // every comparison runs on every block (a branch first taken after V8 optimised the loop, with no
      // type feedback, would deoptimise it); a new extreme is rare, so each branch is predicted
      if (p0 > hi) hi = p0
      if (p1 > hi) hi = p1
      if (p2 > hi) hi = p2
      if (p3 > hi) hi = p3
      if (p0 < lo) lo = p0
      if (p1 < lo) lo = p1
      if (p2 < lo) lo = p2
      if (p3 < lo) lo = p3
      lastP = p3
      k = 2 * r3
      prevT = t3
    }
    if (i >= to) break
    // one record: the four did not all pass, or fewer than four are left
    const t = time[i] as number
    if (!(t < bE) || Math.floor(t) !== t) break
    if (t < prevT) {
      // unsorted input: close the run [rs, i) in place (no call in the loop: a call makes V8 spill and
      // reload the loop's registers around it)
      if (!(t >= bS)) break
      if (i > rs) {
        const tf = time[rs] as number
        if (tf < (acc.bOpenT[j] as number)) {
          acc.bOpenT[j] = tf
          acc.bOpenP[j] = price[rs] as number
        }
        const tl = time[i - 1] as number
        if (tl >= (acc.bCloseT[j] as number)) {
          acc.bCloseT[j] = tl
          acc.bCloseP[j] = price[i - 1] as number
        }
      }
      rs = i
    }
    if ((sess === undefined ? 0 : (sess[i] as number)) !== sk) break
    const v = volume[i] as number
    let u = v
    if (VP === 1) {
      if (!(Math.floor(v) === v && v >= 0)) break
    } else {
      u = Math.floor(v * VP + 0.5)
      if (!(u / VP === v && u >= 0)) break
    }
    const sd = (side[i] as number) - 1
    if (sd >>> 0 > 1) break // side code 1 or 2 (one unsigned compare)
    const p = price[i] as number
    const pu = Math.floor(p * PP + 0.5)
    if (!(pu / PP === p && pu < lim && pu > -lim)) break
    const kk = (RU === 1 ? pu : Math.floor(pu / RU)) - rowBase
    if (!(kk >= 0 && kk < rowCap)) break
    if (tot !== 0) {
      // the pending run goes into its row first: buy at k, sell at k + 1
      const xb = (vol[k] as number) + (tot - sell)
      const xs = (vol[k + 1] as number) + sell
      if (!(xb <= lim && xs <= lim)) break
      vol[k] = xb
      vol[k + 1] = xs
      tot = 0
      sell = 0
    }
    const x = (vol[2 * kk + sd] as number) + u
    if (!(x <= lim)) break
    vol[2 * kk + sd] = x
    if (p > hi) hi = p
    if (p < lo) lo = p
    lastP = p
    k = 2 * kk
    prevT = t
    i++
  }
  // the exit work is the caller's ({@link fastExit}): code after the loop that has not run before V8
  // optimises the loop (on stack) has no type feedback, and inline it would deoptimise that code
  a[ARG_BLOCK_HIGH] = hi
  a[ARG_BLOCK_LOW] = lo
  a[ARG_RUN_START] = rs
  a[ARG_PENDING_SLOT] = k
  a[ARG_PENDING_VOLUME] = tot
  a[ARG_PENDING_SELL] = sell
  return i
}

/**
 * Moves block `j`'s open/close by the run of non-decreasing times [rs, i): its first record is its
 * earliest (first among equal times), its last the latest (last among equal times), so only those two
 * can be the open or the close. Exactly what per-trade updates in time order would give.
 */
function closeRun(c: TradeColumns, acc: PeriodAcc, j: number, rs: number, i: number): void {
  if (i <= rs) return
  const tf = c.time[rs] as number
  if (tf < (acc.bOpenT[j] as number)) {
    acc.bOpenT[j] = tf
    acc.bOpenP[j] = c.price[rs] as number
  }
  const tl = c.time[i - 1] as number
  if (tl >= (acc.bCloseT[j] as number)) {
    acc.bCloseT[j] = tl
    acc.bCloseP[j] = c.price[i - 1] as number
  }
}

/**
 * After {@link fastRun} stopped at `i` (from `from`): closes its last time run, adds its pending price run
 * into row sums `k` (buy) and `k + 1` (sell) exactly (spilling past 2^52), and writes the block's extremes
 * and main-session flag back (all read from `a`).
 */
export function fastExit(c: TradeColumns, acc: PeriodAcc, j: number, from: number, i: number, a: Float64Array): void {
  closeRun(c, acc, j, a[ARG_RUN_START] as number, i)
  const tot = a[ARG_PENDING_VOLUME] as number
  const sell = a[ARG_PENDING_SELL] as number
  const k = a[ARG_PENDING_SLOT] as number
  if (tot !== 0) {
    acc.vol.add(k, tot - sell)
    acc.vol.add(k + 1, sell)
  }
  acc.bHi[j] = a[ARG_BLOCK_HIGH] as number
  acc.bLo[j] = a[ARG_BLOCK_LOW] as number
  if ((a[ARG_SESSION] as number) === 0 && i > from) acc.bMain[j] = 1
}
