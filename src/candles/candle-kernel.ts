// The inner loop of candles -> candles (resampling columns): {@link candleRun} takes the common candle of
// a bucket and, in minute / hour frames, steps from bucket to bucket itself. State in and out through the
// loop-state array (slot names in loop-slots.ts).
import { UNITS_LIMIT } from '../decimal/index.js'
import { MAX_TIME } from '../_lib/max-time.js'
import type { CandleColumns } from './types.js'
import { longCandleRun } from './candle-kernel-long.js'
import {
  C_CLOSE_AT,
  C_CLOSED,
  C_COUNT,
  C_DAY,
  C_DAY_END,
  C_END,
  C_HIGH,
  C_HIGH_AT,
  C_LEN,
  C_LOW,
  C_LOW_AT,
  C_OPEN,
  C_PREV_TIME,
  C_SESSION,
  C_START,
  C_VALUE,
  C_VOLUME,
  NO_SESSIONS,
  REC,
  REC_CAP,
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
} from './loop-slots.js'

/** Half of 2^52: two value units below it in magnitude keep a pair's sum exact. */
const HALF_UNITS = UNITS_LIMIT / 2

/**
 * The common candle of {@link fastCandleColumns}: inside the open candle (time in
 * [st[C_PREV_TIME], st[C_END]), whole ms), a kept session, whole trades, ordered finite OHLC, volume and value exact
 * at scales `VP` / `XP` with the candle's sums st[C_VOLUME] / st[C_VALUE] staying below 2^52 in magnitude. Takes
 * candles[from, stop) while they are all that and returns the index of the first that is not (`cleanSessions`:
 * the session codes are known valid and kept). State in
 * and out through st: [last time, end, high, low, volume units, value units, trades, index of the new
 * high or -1, index of the new low or -1].
 */
export function candleRun(
  c: CandleColumns,
  from: number,
  stop: number,
  mask: number,
  VP: number,
  XP: number,
  st: Float64Array,
  cleanSessions: boolean,
  rec: Float64Array,
): number {
  const T = c.time
  const O = c.open
  const H = c.high
  const Lw = c.low
  const C = c.close
  const V = c.volume
  const X = c.value
  const NT = c.trades
  const SS = c.session
  const hasX = X !== undefined
  const hasN = NT !== undefined
  const hasS = SS !== undefined && !cleanSessions
  if (SS === undefined && (mask & 1) === 0) return from
  if ((st[C_LEN] as number) === 0) return longCandleRun(c, from, stop, mask, VP, XP, st, cleanSessions)
  const X1 = hasX ? X : V
  const N1 = hasN ? NT : V
  const S1 = hasS ? SS : NO_SESSIONS
  const MAXV = Number.MAX_VALUE
  let prevT = st[C_PREV_TIME] as number
  let tEnd = st[C_END] as number
  let hiX = st[C_HIGH] as number
  let loX = st[C_LOW] as number
  let volLo = st[C_VOLUME] as number
  let valLo = st[C_VALUE] as number
  let count = st[C_COUNT] as number
  let hiI = -1
  let loI = -1
  // bucket stepping (minute / hour frames, a bucket this loop may close itself): the day's grid, the
  // open bucket's start, opener and session, the closed buckets written so far, the open bucket's close
  const len = st[C_LEN] as number
  const dayStart = st[C_DAY] as number
  const dayEnd = st[C_DAY_END] as number
  let start = st[C_START] as number
  let openIdx = st[C_OPEN] as number
  let sess = st[C_SESSION] as number
  let k = st[C_CLOSED] as number
  const closeIdx = st[C_CLOSE_AT] as number
  let segStart = from
  const SC = c.session
  // short buckets (stepping, at most about 128 candles a bucket by the slice's mean spacing): high and low
  // by branch-free selects. Their new extremes come too often for a branch to predict (1m -> 15m: about 1.4x);
  // in long buckets a record is rare and the branch is cheaper. h * a + x * (1 - a) with a = 0 or 1 is exact
  // for finite h and x (either product is 0 or the value), up to the sign of a zero (which no output keeps);
  // the extremes' indexes are found after the loop (see below), so the loop carries none.
  const flat = len > 0 && (stop - from) * len <= 128 * ((T[stop - 1] as number) - (T[from] as number))
  // in flat mode: the high / low before the open bucket's first candle in this call, and that candle's index
  let hiBase = hiX
  let loBase = loX
  let extFrom = from
  if (flat) {
    // no high / low yet (±Infinity, which the products cannot carry): ±MAX_VALUE, below / above any price taken
    if (hiX < -MAXV) hiX = -MAXV
    if (loX > MAXV) loX = MAXV
  }
  let i = from
  for (;;) {
    if (VP === 1 && !hasS && hasX && hasN) {
      // pairs: the same tests, with the whole-number tests of times, volumes and trades as one sum of
      // x - floor(x) (0 only when each is whole); value units below 2^51 each keep the pair's sum exact
      for (; i + 2 <= stop; i += 2) {
        const t0 = T[i] as number
        const t1 = T[i + 1] as number
        if (!(t0 >= prevT && t0 <= t1 && t1 < tEnd)) break
        const o0 = O[i] as number
        const h0 = H[i] as number
        const l0 = Lw[i] as number
        const c0 = C[i] as number
        const o1 = O[i + 1] as number
        const h1 = H[i + 1] as number
        const l1 = Lw[i + 1] as number
        const c1 = C[i + 1] as number
        if (
          !(
            l0 <= o0 &&
            l0 <= c0 &&
            o0 <= h0 &&
            c0 <= h0 &&
            h0 <= MAXV &&
            l0 >= -MAXV &&
            l1 <= o1 &&
            l1 <= c1 &&
            o1 <= h1 &&
            c1 <= h1 &&
            h1 <= MAXV &&
            l1 >= -MAXV
          )
        )
          break
        const v0 = V[i] as number
        const v1 = V[i + 1] as number
        const n0 = N1[i] as number
        const n1 = N1[i + 1] as number
        const nv = volLo + v0 + v1
        const nc = count + n0 + n1
        if (!(v0 >= 0 && v1 >= 0 && nv < UNITS_LIMIT && n0 >= 0 && n1 >= 0 && nc <= 9007199254740991)) break
        if (
          t0 -
            Math.floor(t0) +
            (t1 - Math.floor(t1)) +
            (v0 - Math.floor(v0)) +
            (v1 - Math.floor(v1)) +
            (n0 - Math.floor(n0)) +
            (n1 - Math.floor(n1)) !==
          0
        )
          break
        const x0 = X1[i] as number
        const x1 = X1[i + 1] as number
        const u0 = Math.floor(x0 * XP + 0.5)
        const u1 = Math.floor(x1 * XP + 0.5)
        const nx = valLo + u0 + u1
        if (
          u0 / XP !== x0 ||
          u1 / XP !== x1 ||
          !(
            u0 < HALF_UNITS &&
            u0 > -HALF_UNITS &&
            u1 < HALF_UNITS &&
            u1 > -HALF_UNITS &&
            nx < UNITS_LIMIT &&
            nx > -UNITS_LIMIT
          )
        )
          break
        prevT = t1
        volLo = nv
        valLo = nx
        count = nc
        if (flat) {
          const a0 = +(h0 > hiX)
          hiX = h0 * a0 + hiX * (1 - a0)
          const a1 = +(h1 > hiX)
          hiX = h1 * a1 + hiX * (1 - a1)
          const b0 = +(l0 < loX)
          loX = l0 * b0 + loX * (1 - b0)
          const b1 = +(l1 < loX)
          loX = l1 * b1 + loX * (1 - b1)
          continue
        }
        if (h0 > hiX) {
          hiX = h0
          hiI = i
        }
        if (h1 > hiX) {
          hiX = h1
          hiI = i + 1
        }
        if (l0 < loX) {
          loX = l0
          loI = i
        }
        if (l1 < loX) {
          loX = l1
          loI = i + 1
        }
      }
    }
    for (; i < stop; i++) {
      const t = T[i] as number
      if (!(t >= prevT && t < tEnd) || Math.floor(t) !== t) break
      if (hasS) {
        const s = S1[i] as number
        if (s > 2 || ((mask >> s) & 1) === 0) break
      }
      const o = O[i] as number
      const h = H[i] as number
      const l = Lw[i] as number
      const cl = C[i] as number
      if (!(l <= o && l <= cl && o <= h && cl <= h && h <= MAXV && l >= -MAXV)) break
      const v = V[i] as number
      const vu = VP === 1 ? v : Math.floor(v * VP + 0.5)
      const nv = volLo + vu
      if ((VP === 1 ? Math.floor(v) !== v : vu / VP !== v) || !(vu >= 0) || !(nv < UNITS_LIMIT)) break
      let nx = valLo
      if (hasX) {
        const x = X1[i] as number
        const xu = Math.round(x * XP)
        nx += xu
        if (xu / XP !== x || !(nx < UNITS_LIMIT && nx > -UNITS_LIMIT)) break
      }
      let nc = count
      if (hasN) {
        const nt = N1[i] as number
        nc += nt
        if (!(nt >= 0 && nc <= 9007199254740991) || Math.floor(nt) !== nt) break
      }
      prevT = t
      volLo = nv
      valLo = nx
      count = nc
      if (flat) {
        const a = +(h > hiX)
        hiX = h * a + hiX * (1 - a)
        const b = +(l < loX)
        loX = l * b + loX * (1 - b)
        continue
      }
      if (h > hiX) {
        hiX = h
        hiI = i
      }
      if (l < loX) {
        loX = l
        loI = i
      }
    }
    if (i >= stop || len === 0 || k >= REC_CAP) break
    // candle i: the opener of the next bucket of the day? (every test before anything changes)
    const t = T[i] as number
    if (!(t >= tEnd && t >= prevT && t < dayEnd && t <= MAX_TIME) || Math.floor(t) !== t) break
    let s = 0
    if (SC !== undefined) {
      s = SC[i] as number
      if (s > 2 || ((mask >> s) & 1) === 0) break
    }
    const o = O[i] as number
    const h = H[i] as number
    const l = Lw[i] as number
    const cl = C[i] as number
    if (!(l <= o && l <= cl && o <= h && cl <= h && h <= MAXV && l >= -MAXV)) break
    const v = V[i] as number
    const vu = VP === 1 ? v : Math.round(v * VP)
    if ((VP === 1 ? Math.floor(v) !== v : vu / VP !== v) || !(vu >= 0 && vu < UNITS_LIMIT)) break
    let xu = 0
    if (hasX) {
      const x = X1[i] as number
      xu = Math.floor(x * XP + 0.5)
      if (xu / XP !== x || !(xu < UNITS_LIMIT && xu > -UNITS_LIMIT)) break
    }
    let nt = 0
    if (hasN) {
      nt = N1[i] as number
      if (!(nt >= 0 && nt <= 9007199254740991) || Math.floor(nt) !== nt) break
    }
    // the open bucket is written to rec; candle i opens the next
    const r = k * REC
    rec[r + REC_START] = start
    rec[r + REC_OPEN_AT] = openIdx
    rec[r + REC_HIGH] = hiX
    rec[r + REC_LOW] = loX
    rec[r + REC_CLOSE_AT] = i > segStart ? i - 1 : closeIdx
    rec[r + REC_VOLUME] = volLo
    rec[r + REC_VALUE] = valLo
    rec[r + REC_VALUE_MID] = 0
    rec[r + REC_TRADES] = count
    rec[r + REC_SESSION] = sess
    k++
    start = dayStart + Math.floor((t - dayStart) / len) * len
    tEnd = Math.min(start + len, dayEnd, MAX_TIME + 1)
    openIdx = i
    sess = s
    hiX = h
    loX = l
    hiI = loI = i
    hiBase = Number.NEGATIVE_INFINITY
    loBase = Number.POSITIVE_INFINITY
    extFrom = i
    volLo = vu
    valLo = xu
    count = nt
    prevT = t
    i++
    segStart = i - 1
  }
  if (flat) {
    // the open bucket's extremes as the branches would have left them: the first candle since extFrom
    // holding a high above hiBase (a low below loBase) and equal to the high (low) now, else none
    hiI = loI = -1
    if (hiX > hiBase) {
      for (let q = extFrom; q < i; q++) {
        if ((H[q] as number) === hiX) {
          hiI = q
          break
        }
      }
    }
    if (loX < loBase) {
      for (let q = extFrom; q < i; q++) {
        if ((Lw[q] as number) === loX) {
          loI = q
          break
        }
      }
    }
  }
  st[C_PREV_TIME] = prevT
  st[C_END] = tEnd
  st[C_HIGH] = hiX
  st[C_LOW] = loX
  st[C_VOLUME] = volLo
  st[C_VALUE] = valLo
  st[C_COUNT] = count
  st[C_HIGH_AT] = hiI
  st[C_LOW_AT] = loI
  st[C_START] = start
  st[C_OPEN] = openIdx
  st[C_SESSION] = sess
  st[C_CLOSED] = k
  st[C_CLOSE_AT] = i > segStart ? i - 1 : closeIdx
  return i
}
