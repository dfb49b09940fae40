// The inner loops of trades -> candles for whole lots: {@link tradeRun} (the common trade of a candle) and
// {@link cleanCandleRun} (whole candles of clean whole-lot trades, stepping from candle to candle); the
// loop for decimal volumes is fracCandleRun (frac-kernel.ts). Small
// functions of their own so their loops keep every value in registers; state in and out through the
// loop-state array (slot names in loop-slots.ts).
import { UNITS_LIMIT } from '../decimal/index.js'
import { MAX_TIME } from '../_lib/max-time.js'
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
  T_VOLUME,
} from './loop-slots.js'

/**
 * The common trade of {@link fastTradeColumns}: inside the open candle (time in
 * [st[T_PREV_TIME], st[T_END]), whole ms), a valid side, a kept session, a whole volume at scale `VP` with the price run's
 * volume st[T_RUN_VOLUME] staying below 2^52, and the same price as the last one (st[T_RUN_PRICE]: neither a new high nor a new
 * low, and value is summed per run of one price). Takes trades[from, stop) while they are all that and
 * returns the index of the first that is not (the caller's full loop body takes it); st[T_PREV_TIME] and st[T_RUN_VOLUME] come
 * back as the last time and the run volume. A small function of its own so its loop keeps every
 * value in registers.
 */
export function tradeRun(
  T: Float64Array,
  SD: Uint8Array,
  SS: Uint8Array | undefined,
  V: Float64Array,
  P: Float64Array,
  from: number,
  stop: number,
  mask: number,
  VP: number,
  st: Float64Array,
): number {
  let prevT = st[T_PREV_TIME] as number
  const tEnd = st[T_END] as number
  let runVol = st[T_RUN_VOLUME] as number
  const lastX = st[T_RUN_PRICE] as number
  let i = from
  if (SS === undefined && (mask & 1) === 0) return i
  const hasS = SS !== undefined
  const S = hasS ? SS : SD
  if (VP === 1) {
    for (; i < stop; i++) {
      const t = T[i] as number
      if (!(t >= prevT && t < tEnd) || Math.floor(t) !== t) break
      const sd = SD[i] as number
      if (sd === 0 || sd > 2) break
      if (hasS) {
        const s = S[i] as number
        if (s > 2 || ((mask >> s) & 1) === 0) break
      }
      const v = V[i] as number
      const rv = runVol + v
      if (Math.floor(v) !== v || !(v >= 0) || !(rv < UNITS_LIMIT) || (P[i] as number) !== lastX) break
      runVol = rv
      prevT = t
    }
  } else {
    for (; i < stop; i++) {
      const t = T[i] as number
      if (!(t >= prevT && t < tEnd) || Math.floor(t) !== t) break
      const sd = SD[i] as number
      if (sd === 0 || sd > 2) break
      if (hasS) {
        const s = S[i] as number
        if (s > 2 || ((mask >> s) & 1) === 0) break
      }
      const v = V[i] as number
      const vu = Math.floor(v * VP + 0.5)
      const rv = runVol + vu
      if (vu / VP !== v || !(vu >= 0) || !(rv < UNITS_LIMIT) || (P[i] as number) !== lastX) break
      runVol = rv
      prevT = t
    }
  }
  st[T_PREV_TIME] = prevT
  st[T_RUN_VOLUME] = runVol
  return i
}

/**
 * The open candle's trades[from, stop) whose side and session codes are known valid and kept
 * ({@link codesClean}), with whole-lot volumes (scale 0): ascending whole-ms times in [st[T_PREV_TIME], st[T_END]),
 * volumes >= 0, prices exact at scale `PP` (10^price scale). A price change is taken in the loop (the run
 * of the previous price goes into the volume and value sums), so the loop runs until the candle ends, a
 * record needs the exact slow path or a sum would reach 2^52; each record is taken whole or not at all.
 * State in and out through st: [last time, end, run volume, last price, its units, high units, low
 * units, volume units, value units, index of the high, index of the low] (indexes -1: not set here),
 * then the T_* slots: the open candle's trade count in and out, and, when st[T_LEN] > 0 (the candle was
 * opened in these columns, minute / hour frames), the day's grid and the candle's start, opener and
 * session: the loop then closes the candle at the next one's first trade of the same day, writes it to
 * `rec` (REC fields, at most rec.length / REC a call, count in st[T_CLOSED]) and goes on with the next.
 */
export function cleanCandleRun(
  T: Float64Array,
  V: Float64Array,
  P: Float64Array,
  S: Uint8Array,
  from: number,
  stop: number,
  PP: number,
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
  let hiI = st[T_HIGH_AT] as number
  let loI = st[T_LOW_AT] as number
  // candle stepping (minute / hour frames, a candle this loop may close itself; see candleRun): the day's
  // grid, the open candle's start, opener and session, the candles closed so far; its trades counted as
  // cntBase + (i - segFrom), its close the trade before i
  const len = st[T_LEN] as number
  const dayStart = st[T_DAY] as number
  const dayEnd = st[T_DAY_END] as number
  let start = st[T_START] as number
  let openIdx = st[T_OPEN] as number
  let sess = st[T_SESSION] as number
  let k = 0
  let cntBase = st[T_COUNT] as number
  let segFrom = from
  const hasS = S.length > 0
  let i = from
  for (;;) {
    // blocks of 4 at one price: ascending times in [prevT, tEnd), whole times and volumes (the sum of
    // x - floor(x) is 0 only when each is whole), volumes >= 0 and the last price; a block that fails any
    // goes one trade at a time below
    for (; i + 4 <= stop; i += 4) {
      const t0 = T[i] as number
      const t1 = T[i + 1] as number
      const t2 = T[i + 2] as number
      const t3 = T[i + 3] as number
      const v0 = V[i] as number
      const v1 = V[i + 1] as number
      const v2 = V[i + 2] as number
      const v3 = V[i + 3] as number
      const rv = runVol + v0 + v1 + v2 + v3
      if (
        !(t0 >= prevT && t0 <= t1 && t1 <= t2 && t2 <= t3 && t3 < tEnd) ||
        !(v0 >= 0 && v1 >= 0 && v2 >= 0 && v3 >= 0 && rv < UNITS_LIMIT)
      )
        break
      if (
        t0 -
          Math.floor(t0) +
          (t1 - Math.floor(t1)) +
          (t2 - Math.floor(t2)) +
          (t3 - Math.floor(t3)) +
          (v0 - Math.floor(v0)) +
          (v1 - Math.floor(v1)) +
          (v2 - Math.floor(v2)) +
          (v3 - Math.floor(v3)) !==
        0
      )
        break
      if (
        (P[i] as number) !== lastX ||
        (P[i + 1] as number) !== lastX ||
        (P[i + 2] as number) !== lastX ||
        (P[i + 3] as number) !== lastX
      )
        break
      runVol = rv
      prevT = t3
    }
    if (i >= stop) break
    // one trade, which may change the price: every test before anything is changed
    const t = T[i] as number
    if (!(t >= prevT && t < tEnd) || Math.floor(t) !== t) {
      // the opener of the next candle of the day? (every test before anything changes)
      // (a candle whose trades this call has not reached, i === segFrom, is closed by the caller)
      if (
        len === 0 ||
        k * REC >= rec.length ||
        i === segFrom ||
        !(t >= tEnd && t >= prevT && t < dayEnd && t <= MAX_TIME) ||
        Math.floor(t) !== t ||
        hiI < 0 ||
        loI < 0
      )
        break
      const v = V[i] as number
      if (Math.floor(v) !== v || !(v >= 0 && v < UNITS_LIMIT)) break
      const x = P[i] as number
      const u = Math.floor(x * PP + 0.5)
      if (u / PP !== x || !(u < UNITS_LIMIT && u > -UNITS_LIMIT)) break
      const pv = lastPU * runVol
      const nval = valLo + pv
      const nvol = volLo + runVol
      if (!(pv < UNITS_LIMIT && pv > -UNITS_LIMIT && nval < UNITS_LIMIT && nval > -UNITS_LIMIT && nvol < UNITS_LIMIT))
        break
      // the open candle is written to rec; trade i opens the next
      const r = k * REC
      rec[r + REC_START] = start
      rec[r + REC_OPEN_AT] = openIdx
      rec[r + REC_HIGH] = hiI
      rec[r + REC_LOW] = loI
      rec[r + REC_CLOSE_AT] = i - 1
      rec[r + REC_VOLUME] = nvol
      rec[r + REC_VALUE] = nval
      rec[r + REC_VALUE_MID] = 0
      rec[r + REC_TRADES] = cntBase + (i - segFrom)
      rec[r + REC_SESSION] = sess
      k++
      start = dayStart + Math.floor((t - dayStart) / len) * len
      tEnd = Math.min(start + len, dayEnd, MAX_TIME + 1)
      openIdx = i
      sess = hasS ? (S[i] as number) : 0
      hiU = loU = lastPU = u
      hiI = loI = i
      lastX = x
      runVol = v
      volLo = valLo = 0
      cntBase = 0
      segFrom = i
      prevT = t
      i++
      continue
    }
    const v = V[i] as number
    if (Math.floor(v) !== v || !(v >= 0)) break
    const x = P[i] as number
    if (x !== lastX) {
      const u = Math.floor(x * PP + 0.5)
      if (u / PP !== x || !(u < UNITS_LIMIT && u > -UNITS_LIMIT) || !(v < UNITS_LIMIT)) break
      const pv = lastPU * runVol
      const nval = valLo + pv
      const nvol = volLo + runVol
      if (!(pv < UNITS_LIMIT && pv > -UNITS_LIMIT && nval < UNITS_LIMIT && nval > -UNITS_LIMIT && nvol < UNITS_LIMIT))
        break
      valLo = nval
      volLo = nvol
      runVol = v
      lastX = x
      lastPU = u
      if (u > hiU) {
        hiU = u
        hiI = i
      }
      if (u < loU) {
        loU = u
        loI = i
      }
    } else {
      const rv = runVol + v
      if (!(rv < UNITS_LIMIT)) break
      runVol = rv
    }
    prevT = t
    i++
  }
  st[T_PREV_TIME] = prevT
  st[T_RUN_VOLUME] = runVol
  st[T_RUN_PRICE] = lastX
  st[T_RUN_UNITS] = lastPU
  st[T_HIGH] = hiU
  st[T_LOW] = loU
  st[T_VOLUME] = volLo
  st[T_VALUE] = valLo
  st[T_HIGH_AT] = hiI
  st[T_LOW_AT] = loI
  st[T_COUNT] = cntBase + (i - segFrom)
  st[T_START] = start
  st[T_OPEN] = openIdx
  st[T_SESSION] = sess
  st[T_CLOSED] = k
  return i
}
