// The inner loop of trades -> candles for decimal volumes: {@link fracCandleRun}, four trades a step with
// one test for each check of the four, and one trade a step where a block cannot be taken whole (a
// candle's end, a record the full loop body must take). A copy of cleanCandleRun's shape on purpose (see
// there); state in and out through the loop-state array (slot names in loop-slots.ts).
import { UNITS_LIMIT } from '../decimal/index.js'
import { MAX_TIME } from '../_lib/max-time.js'
import { LIMB } from './format.js'
import {
  REC,
  REC_CLOSE_AT,
  REC_HIGH,
  REC_LOW,
  REC_OPEN_AT,
  REC_SESSION,
  REC_START,
  REC_TRADES,
  REC_VALUE,
  REC_VALUE_MID,
  REC_VOLUME,
  T_CLOSED,
  T_COUNT,
  T_DAY,
  T_DAY_END,
  T_END,
  T_HIGH,
  T_HIGH_AT,
  T_LEN,
  T_LOW,
  T_LOW_AT,
  T_OPEN,
  T_PREV_TIME,
  T_RUN_PRICE,
  T_RUN_UNITS,
  T_RUN_VOLUME,
  T_SESSION,
  T_START,
  T_VALUE,
  T_VALUE_MID,
  T_VOLUME,
} from './loop-slots.js'

/**
 * Price units a four-trade block takes (|units| below it, 2^24): each of its four value products in 26-bit
 * limbs is then below 2^50 and their sum below 2^52 (decision 0620).
 */
const BLOCK_PRICE_LIMIT = 2 ** 24
/** 1 / {@link LIMB}: a product by it is exact (a power of two), and cheaper than the division. */
const INV_LIMB = 1 / LIMB

/**
 * The open candle's trades[from, stop) whose side and session codes are known valid and kept
 * ({@link codesClean}), with decimal volumes at scale `VP` (10^volume scale > 1): ascending whole-ms times in
 * [st[T_PREV_TIME], st[T_END]), volumes exact at `VP` and >= 0, prices exact at `PP`. The counterpart of
 * {@link cleanCandleRun} for fractional volumes (busy crypto: a new price on about two trades in three).
 * Trades go four a step while all four are inside the candle with price units below 2^24 (decision 0620):
 * one test for each check of the four, a new high or low by comparisons in one branch taken only when the
 * block has one, and the four value products summed as plain numbers when their magnitudes sum below
 * 2^52, else in 26-bit limbs. One trade a step otherwise (and for each call's first trade): every record
 * folds the pending run into the sums (no branch on a price change), its value in 26-bit limbs when the
 * price's units are below 2^26 (decision 0601), else as one product below 2^52. Either
 * way the value's number part is carried into the high limb (st[T_VALUE_MID], weighted by LIMB) instead
 * of spilling to a bigint. The loop runs until the candle ends or a record needs the full loop body
 * (invalid, not exact, a price of 2^26 units or more whose run passes 2^52, or a volume sum or the high
 * limb that would reach 2^52); each record is taken whole or not at all. When st[T_LEN] > 0 it steps to
 * the next candles of the day as cleanCandleRun does (records with the value's high limb in
 * REC_VALUE_MID); the caller allows that after short candles only. State in and out through st as for
 * cleanCandleRun plus T_VALUE_MID.
 */
export function fracCandleRun(
  T: Float64Array,
  V: Float64Array,
  P: Float64Array,
  S: Uint8Array,
  from: number,
  stop: number,
  PP: number,
  VP: number,
  st: Float64Array,
  rec: Float64Array,
): number {
  let prevT = st[T_PREV_TIME] as number
  let tEnd = st[T_END] as number
  let runVol = st[T_RUN_VOLUME] as number
  let lastX = st[T_RUN_PRICE] as number
  let lastPU = st[T_RUN_UNITS] as number
  let hiU = st[T_HIGH] as number
  let loU = st[T_LOW] as number
  let volLo = st[T_VOLUME] as number
  let valLo = st[T_VALUE] as number
  let valMid = st[T_VALUE_MID] as number
  let hiI = st[T_HIGH_AT] as number
  let loI = st[T_LOW_AT] as number
  // candle stepping, as in cleanCandleRun, its state (the day's grid, the open candle's start, opener,
  // session and trades before segFrom) read and written in st only when a candle closes: fewer values live
  // across the loop, which runs over every trade of a busy market's candle
  // (tested as a boolean only: at a candle's end a loop that does not step stops without reaching any
  // operation it has not run before, whose first use would send V8 back to the interpreter)
  const step = (st[T_LEN] as number) > 0
  let k = 0
  let segFrom = from
  let i = from
  // the index of the call's first block
  const first = from + 1
  for (;;) {
    if (i >= stop) break
    // one trade (each call's first, then any a block cannot take): every test before anything is changed.
    // Each call starts here so that this step, rare beside the blocks, has run before V8 optimizes the
    // loop: an operation first run after that sends the function back to the interpreter, and busy
    // crypto then ran on on-stack-replacement code at about half the speed in some processes
    const t = T[i] as number
    let opens = false
    if (!(t >= prevT && t < tEnd) || Math.floor(t) !== t) {
      if (!step) break
      // the opener of the next candle of the day? (a candle whose trades this call has not reached,
      // i === segFrom, is closed by the caller)
      if (
        k * REC >= rec.length ||
        i === segFrom ||
        !(t >= tEnd && t >= prevT && t < (st[T_DAY_END] as number) && t <= MAX_TIME) ||
        Math.floor(t) !== t ||
        hiI < 0 ||
        loI < 0
      )
        break
      opens = true
    }
    const v = V[i] as number
    const vu = Math.floor(v * VP + 0.5)
    if (vu / VP !== v || !(vu >= 0 && vu < UNITS_LIMIT)) break
    const x = P[i] as number
    const u = Math.floor(x * PP + 0.5)
    if (u / PP !== x || !(u < UNITS_LIMIT && u > -UNITS_LIMIT)) break
    // the pending run (the last record, or the run the caller left) goes into the sums on every record,
    // not only when the price changes: on busy markets that branch mispredicted about once in three
    // trades and cost more than the products it saved (busy crypto 1m: 65-73 to 93-99 M trades/s). Its
    // value goes in as the products of its volume's 26-bit halves (|lastPU| < 2^26, runVol <= 2^52: each
    // at most 2^52, each sum at most 2^53, all exact), or for a larger price as one product below 2^52;
    // then the carry. The same operations on every record: this step is rare beside the blocks, and an
    // operation first run after V8 has optimized the loop would send it back to the interpreter
    let nval: number
    let nmid: number
    if (lastPU < LIMB && lastPU > -LIMB) {
      const h = Math.floor(runVol * INV_LIMB)
      nval = valLo + lastPU * (runVol - h * LIMB)
      nmid = valMid + lastPU * h
    } else {
      const pv = lastPU * runVol
      if (!(pv < UNITS_LIMIT && pv > -UNITS_LIMIT)) break
      nval = valLo + pv
      nmid = valMid
    }
    // carry: nval = c * LIMB + (nval - c * LIMB), the remainder in [0, LIMB), c into the high limb
    const c = Math.floor(nval * INV_LIMB)
    nval -= c * LIMB
    nmid += c
    const nvol = volLo + runVol
    if (!(nmid < UNITS_LIMIT && nmid > -UNITS_LIMIT && nvol < UNITS_LIMIT)) break
    if (opens) {
      // the open candle is written to rec; trade i opens the next
      const r = k * REC
      rec[r + REC_START] = st[T_START] as number
      rec[r + REC_OPEN_AT] = st[T_OPEN] as number
      rec[r + REC_HIGH] = hiI
      rec[r + REC_LOW] = loI
      rec[r + REC_CLOSE_AT] = i - 1
      rec[r + REC_VOLUME] = nvol
      rec[r + REC_VALUE] = nval
      rec[r + REC_VALUE_MID] = nmid
      rec[r + REC_TRADES] = (st[T_COUNT] as number) + (i - segFrom)
      rec[r + REC_SESSION] = st[T_SESSION] as number
      k++
      const len = st[T_LEN] as number
      const dayStart = st[T_DAY] as number
      const start = dayStart + Math.floor((t - dayStart) / len) * len
      tEnd = Math.min(start + len, st[T_DAY_END] as number, MAX_TIME + 1)
      st[T_START] = start
      st[T_OPEN] = i
      st[T_SESSION] = S.length > 0 ? (S[i] as number) : 0
      st[T_COUNT] = 0
      hiU = loU = u
      hiI = loI = i
      valLo = valMid = volLo = 0
      segFrom = i
    } else {
      valLo = nval
      valMid = nmid
      volLo = nvol
      if (u > hiU) {
        hiU = u
        hiI = i
      }
      if (u < loU) {
        loU = u
        loI = i
      }
    }
    runVol = vu
    lastX = x
    lastPU = u
    prevT = t
    i++
    // blocks of four inside the candle: the pending run and the first three go into the sums, the fourth
    // becomes the pending run (a call's first block in limbs, so both ways have run when V8 optimizes).
    // Every test before anything is changed; a block that fails any goes one trade at a time above
    for (; i + 4 <= stop; i += 4) {
      const t0 = T[i] as number
      const t1 = T[i + 1] as number
      const t2 = T[i + 2] as number
      const t3 = T[i + 3] as number
      if (!(t0 >= prevT && t0 <= t1 && t1 <= t2 && t2 <= t3 && t3 < tEnd)) break
      const v0 = V[i] as number
      const v1 = V[i + 1] as number
      const v2 = V[i + 2] as number
      const v3 = V[i + 3] as number
      const w0 = Math.floor(v0 * VP + 0.5)
      const w1 = Math.floor(v1 * VP + 0.5)
      const w2 = Math.floor(v2 * VP + 0.5)
      const w3 = Math.floor(v3 * VP + 0.5)
      const x0 = P[i] as number
      const x1 = P[i + 1] as number
      const x2 = P[i + 2] as number
      const x3 = P[i + 3] as number
      const u0 = Math.floor(x0 * PP + 0.5)
      const u1 = Math.floor(x1 * PP + 0.5)
      const u2 = Math.floor(x2 * PP + 0.5)
      const u3 = Math.floor(x3 * PP + 0.5)
      // whole times (the sum of t - floor(t) is 0 only when each is whole), exact volumes and prices
      if (t0 - Math.floor(t0) + (t1 - Math.floor(t1)) + (t2 - Math.floor(t2)) + (t3 - Math.floor(t3)) !== 0) break
      if (w0 / VP !== v0 || w1 / VP !== v1 || w2 / VP !== v2 || w3 / VP !== v3) break
      if (u0 / PP !== x0 || u1 / PP !== x1 || u2 / PP !== x2 || u3 / PP !== x3) break
      // volume units >= 0 and, with the candle's, below 2^52 (non-negative: every partial sum is below the
      // total, so exact, and a total at or past 2^52 rounds to at or past it); |price units| below 2^24
      const nvol = volLo + runVol + w0 + w1 + w2
      if (
        !(w0 >= 0 && w1 >= 0 && w2 >= 0 && w3 >= 0 && nvol + w3 < UNITS_LIMIT) ||
        !(
          Math.abs(u0) < BLOCK_PRICE_LIMIT &&
          Math.abs(u1) < BLOCK_PRICE_LIMIT &&
          Math.abs(u2) < BLOCK_PRICE_LIMIT &&
          Math.abs(u3) < BLOCK_PRICE_LIMIT &&
          Math.abs(lastPU) < BLOCK_PRICE_LIMIT
        )
      )
        break
      // the value of the pending run and the first three as plain products when the sum of their
      // magnitudes is below 2^52: then each product and partial sum is an integer below 2^52, exact (a
      // product or sum at or past it rounds to at or past it, and the test fails); else each product as
      // two of its volume's 26-bit halves (each below 2^50, four below 2^52)
      const p = lastPU * runVol
      const p0 = u0 * w0
      const p1 = u1 * w1
      const p2 = u2 * w2
      let nval: number
      let nmid = valMid
      if (Math.abs(p) + Math.abs(p0) + Math.abs(p1) + Math.abs(p2) < UNITS_LIMIT && i !== first)
        nval = valLo + (p + p0 + p1 + p2)
      else {
        const h = Math.floor(runVol * INV_LIMB)
        const h0 = Math.floor(w0 * INV_LIMB)
        const h1 = Math.floor(w1 * INV_LIMB)
        const h2 = Math.floor(w2 * INV_LIMB)
        nval =
          valLo + (lastPU * (runVol - h * LIMB) + u0 * (w0 - h0 * LIMB) + u1 * (w1 - h1 * LIMB) + u2 * (w2 - h2 * LIMB))
        nmid = valMid + (lastPU * h + u0 * h0 + u1 * h1 + u2 * h2)
      }
      // (|valLo| <= 2^52 and the block's part below 2^52: nval is exact) the carry, on every block
      const c = Math.floor(nval * INV_LIMB)
      nval -= c * LIMB
      nmid += c
      if (!(nmid < UNITS_LIMIT && nmid > -UNITS_LIMIT)) break
      valLo = nval
      valMid = nmid
      volLo = nvol
      runVol = w3
      lastX = x3
      lastPU = u3
      prevT = t3
      // a new extreme (rare inside a candle): one trade at a time, the first to reach it kept. Comparisons,
      // not Math.max / Math.min: V8 compiles those to branches on the order of their arguments, which on a
      // market's prices mispredict (busy crypto: half the speed)
      if (u0 > hiU || u1 > hiU || u2 > hiU || u3 > hiU || u0 < loU || u1 < loU || u2 < loU || u3 < loU) {
        if (u0 > hiU) {
          hiU = u0
          hiI = i
        }
        if (u1 > hiU) {
          hiU = u1
          hiI = i + 1
        }
        if (u2 > hiU) {
          hiU = u2
          hiI = i + 2
        }
        if (u3 > hiU) {
          hiU = u3
          hiI = i + 3
        }
        if (u0 < loU) {
          loU = u0
          loI = i
        }
        if (u1 < loU) {
          loU = u1
          loI = i + 1
        }
        if (u2 < loU) {
          loU = u2
          loI = i + 2
        }
        if (u3 < loU) {
          loU = u3
          loI = i + 3
        }
      }
    }
  }
  st[T_PREV_TIME] = prevT
  st[T_RUN_VOLUME] = runVol
  st[T_RUN_PRICE] = lastX
  st[T_RUN_UNITS] = lastPU
  st[T_HIGH] = hiU
  st[T_LOW] = loU
  st[T_VOLUME] = volLo
  st[T_VALUE] = valLo
  st[T_VALUE_MID] = valMid
  st[T_HIGH_AT] = hiI
  st[T_LOW_AT] = loI
  st[T_COUNT] = (st[T_COUNT] as number) + (i - segFrom)
  st[T_CLOSED] = k
  return i
}
