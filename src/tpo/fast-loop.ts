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
/** In and out: the block's high and low. Out: the last time run's start, the pending price run (its row slot, volume units, sell units). */
export const ARG_BLOCK_HIGH = 8
export const ARG_BLOCK_LOW = 9
export const ARG_RUN_START = 10
export const ARG_PENDING_SLOT = 11
export const ARG_PENDING_VOLUME = 12
export const ARG_PENDING_SELL = 13
export const ARG_SLOTS = 14

/** The sum of 4 volume units a run of 4 takes at most (2^34, so each of them is below it). */
const FOUR_VOL = 17179869184

// The checks on a run of 4 are written out in both loops, not called: as helper functions they cost the ES
// workload (long runs of one price) about 5% in the same run (bench W4, old and new build interleaved).

/** Records per fast-loop call at most (2^11; see the caller, `TpoAggregator.run`). */
export const FAST_CHUNK = 2048
/** Failed tries of a run of 4 after a successful one before the loop waits for three equal prices again. */
const RUN_CREDIT = 4

/**
 * The fast per-trade loop: records of the current block `j` of `acc` (same session, integral time),
 * volumes at the current scale, side codes 1/2, prices on the grid inside the allocated rows. Stops,
 * having changed nothing for it, at the first record that is not such a record (the general loop takes
 * it) and returns its index. Every check happens before any state changes.
 *
 * One record at a time, each volume goes straight into its row's buy or sell sum: the row is computed
 * for every record, not only when the price changes, because on busy markets (the price changes on two
 * trades in three) that branch mispredicts about once in three trades, and it cost more than the row.
 * Units are rounded as `Math.floor(x * P + 0.5)`, not `Math.round`, which V8 compiles to a branch on the
 * side of the integer the product falls (a coin toss for decimals that are not exact doubles); the
 * check after it accepts the same units either way (decision 0084).
 *
 * After three equal prices in a row (or one, while runs keep being found), runs of 4 records that repeat
 * the price, keep the time order and pass every check at once are taken together (one branch per check
 * and field for 4 records; whole lots and volumes with decimals in two copies of that loop, so the
 * whole-lot one stays lean), summed in registers (`tot`, and `sell` of it, below 2^43 a call) and added
 * into the row when the run ends. Every row sum stays at most 2^52, so all sums are exact; a sum that
 * would pass it stops the loop, and its exit adds the pending run exactly.
 *
 * `a` holds the numeric arguments (block start and end, session code, 10^price scale, row height in
 * units, 10^volume scale, the profile's first row and row count) as raw doubles: as plain arguments V8
 * kept them tagged, unboxed them on every trade and boxed a double per trade. The profile's row sums
 * `vol` come as an array and its other state through `a`, not read from the profile object here: a load
 * from it made the optimised loop depend on the profile class's field layout, a change of it elsewhere (a
 * profile growing its rows) discarded that code, and later calls could be left in slower on-stack-replaced
 * code (half the speed, in one bench process out of three). `acc` is read only on unsorted input.
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
  const rowBase = a[ARG_ROW_BASE] as number
  const rowCap = a[ARG_ROW_CAP] as number
  let hi = a[ARG_BLOCK_HIGH] as number
  let lo = a[ARG_BLOCK_LOW] as number
  // the last three prices, and 2 * (the last record's row - rowBase)
  let lastP = Number.NaN
  let prevP = Number.NaN
  let prevP2 = Number.NaN
  let k = 0
  // the pending run of 4s: its volume units, those of its sells (its row is k)
  let tot = 0
  let sell = 0
  // whether to try runs of 4 next; how many failed tries to allow before waiting for three equal prices
  let tryRuns = false
  let credit = 0
  // open/close per run of non-decreasing times [rs, i) (see closeRun), so not per trade
  let rs = from
  let prevT = bS
  let i = from
  run: for (;;) {
    // runs of 4 equal prices, tried only after three (or one, while runs keep being found): where prices
    // change often (busy crypto) a failed try costs more than the runs it finds save
    if (tryRuns) {
      if (VP === 1) {
        for (; i + 3 < to; i += 4) {
          // the price first: on busy data it changes on about two trades in three, and that test is one load
          if (!(price[i] === lastP && price[i + 1] === lastP && price[i + 2] === lastP && price[i + 3] === lastP)) break
          const t3 = time[i + 3] as number
          const t0 = time[i] as number
          const t1 = time[i + 1] as number
          const t2 = time[i + 2] as number
          if (!(t0 >= prevT && t1 >= t0 && t2 >= t1 && t3 >= t2 && t3 < bE)) break
          if (!(Math.floor(t0) === t0 && Math.floor(t1) === t1 && Math.floor(t2) === t2 && Math.floor(t3) === t3)) break
          const v0 = volume[i] as number
          const v1 = volume[i + 1] as number
          const v2 = volume[i + 2] as number
          const v3 = volume[i + 3] as number
          // whole units, none negative, and their sum below 2^34 (so each is; checked with the sides)
          const vs = v0 + v1 + v2 + v3
          if (!(Math.floor(v0) === v0 && Math.floor(v1) === v1 && Math.floor(v2) === v2 && Math.floor(v3) === v3)) break
          if (!(v0 >= 0 && v1 >= 0 && v2 >= 0 && v3 >= 0)) break
          const s0 = side[i] as number
          const s1 = side[i + 1] as number
          const s2 = side[i + 2] as number
          const s3 = side[i + 3] as number
          if (!(vs < FOUR_VOL && ((s0 - 1) | (s1 - 1) | (s2 - 1) | (s3 - 1)) >>> 0 <= 1)) break
          if (
            sess !== undefined &&
            (((sess[i] as number) ^ sk) |
              ((sess[i + 1] as number) ^ sk) |
              ((sess[i + 2] as number) ^ sk) |
              ((sess[i + 3] as number) ^ sk)) !==
              0
          )
            break
          tot += vs
          // side code - 1 is 0 (buy) or 1 (sell)
          sell += v0 * (s0 - 1) + v1 * (s1 - 1) + v2 * (s2 - 1) + v3 * (s3 - 1)
          prevT = t3
        }
      } else {
        // volumes with decimals: the same, volumes scaled to units (a separate loop keeps the whole-lot one lean)
        for (; i + 3 < to; i += 4) {
          // the price first: on busy data it changes on about two trades in three, and that test is one load
          if (!(price[i] === lastP && price[i + 1] === lastP && price[i + 2] === lastP && price[i + 3] === lastP)) break
          const t3 = time[i + 3] as number
          const t0 = time[i] as number
          const t1 = time[i + 1] as number
          const t2 = time[i + 2] as number
          if (!(t0 >= prevT && t1 >= t0 && t2 >= t1 && t3 >= t2 && t3 < bE)) break
          if (!(Math.floor(t0) === t0 && Math.floor(t1) === t1 && Math.floor(t2) === t2 && Math.floor(t3) === t3)) break
          const w0 = volume[i] as number
          const w1 = volume[i + 1] as number
          const w2 = volume[i + 2] as number
          const w3 = volume[i + 3] as number
          // units at the volume scale, each proved exact (see numberToUnits), none negative, sum below 2^34
          const v0 = Math.floor(w0 * VP + 0.5)
          const v1 = Math.floor(w1 * VP + 0.5)
          const v2 = Math.floor(w2 * VP + 0.5)
          const v3 = Math.floor(w3 * VP + 0.5)
          const vs = v0 + v1 + v2 + v3
          if (!(v0 / VP === w0 && v1 / VP === w1 && v2 / VP === w2 && v3 / VP === w3)) break
          if (!(v0 >= 0 && v1 >= 0 && v2 >= 0 && v3 >= 0)) break
          const s0 = side[i] as number
          const s1 = side[i + 1] as number
          const s2 = side[i + 2] as number
          const s3 = side[i + 3] as number
          if (!(vs < FOUR_VOL && ((s0 - 1) | (s1 - 1) | (s2 - 1) | (s3 - 1)) >>> 0 <= 1)) break
          if (
            sess !== undefined &&
            (((sess[i] as number) ^ sk) |
              ((sess[i + 1] as number) ^ sk) |
              ((sess[i + 2] as number) ^ sk) |
              ((sess[i + 3] as number) ^ sk)) !==
              0
          )
            break
          tot += vs
          // side code - 1 is 0 (buy) or 1 (sell)
          sell += v0 * (s0 - 1) + v1 * (s1 - 1) + v2 * (s2 - 1) + v3 * (s3 - 1)
          prevT = t3
        }
      }
      // the run found goes into its row: buy at k, sell at k + 1
      if (tot === 0) {
        if (credit > 0) credit--
      } else {
        credit = RUN_CREDIT
        const xb = (vol[k] as number) + (tot - sell)
        const xs = (vol[k + 1] as number) + sell
        if (!(xb <= lim && xs <= lim)) break run
        vol[k] = xb
        vol[k + 1] = xs
        tot = 0
        sell = 0
      }
      tryRuns = false
    }
    if (i >= to) break
    // one record at a time, each straight into its row (no branch on a price change)
    for (;;) {
      const t = time[i] as number
      if (!(t < bE) || Math.floor(t) !== t) break run
      if (t < prevT) {
        // unsorted input: close the run [rs, i) in place (no call in the loop: a call makes V8 spill and
        // reload the loop's registers around it)
        if (!(t >= bS)) break run
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
      if ((sess === undefined ? 0 : (sess[i] as number)) !== sk) break run
      const v = volume[i] as number
      let u = v
      if (VP === 1) {
        if (!(Math.floor(v) === v && v >= 0)) break run
      } else {
        u = Math.floor(v * VP + 0.5)
        if (!(u / VP === v && u >= 0)) break run
      }
      const sd = (side[i] as number) - 1
      if (sd >>> 0 > 1) break run // side code 1 or 2 (one unsigned compare)
      const p = price[i] as number
      // exact units at the grid's scale (the check proves the decimal; see numberToUnits), then floor
      const pu = Math.floor(p * PP + 0.5)
      if (!(pu / PP === p && pu < lim && pu > -lim)) break run
      const kk = (RU === 1 ? pu : Math.floor(pu / RU)) - rowBase
      if (!(kk >= 0 && kk < rowCap)) break run
      const x = (vol[2 * kk + sd] as number) + u
      if (!(x <= lim)) break run
      vol[2 * kk + sd] = x
      if (p > hi) hi = p
      if (p < lo) lo = p
      // a repeated price after two more (or while runs keep being found): the tests combined without a
      // branch on each, as they are about as unpredictable as the price
      const again =
        ((p === lastP) as unknown as number) &
        ((((lastP === prevP) as unknown as number) & ((prevP === prevP2) as unknown as number)) |
          ((credit !== 0) as unknown as number))
      prevP2 = prevP
      prevP = lastP
      lastP = p
      k = 2 * kk
      prevT = t
      i++
      if (again !== 0) {
        tryRuns = true
        break
      }
      if (i >= to) break
    }
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
