// The inner loop of candles -> candles for a bucket candleRun does not step out of (day and longer
// targets: 1m -> 1d holds 1,440 candles a bucket): only the tests and sums of the open candle, two candles
// a step for both common shapes of columns (whole volumes with values, and decimal volumes or no values;
// the second took thin-altcoin 1m -> 1d from about 51 to 60 M candles/s, medians of 400 interleaved runs).
import { UNITS_LIMIT } from '../decimal/index.js'
import type { CandleColumns } from './types.js'
import {
  C_CLOSE_AT,
  C_COUNT,
  C_END,
  C_HIGH,
  C_HIGH_AT,
  C_LOW,
  C_LOW_AT,
  C_PREV_TIME,
  C_VALUE,
  C_VOLUME,
  NO_SESSIONS,
} from './loop-slots.js'

/** Half of 2^52: two value units below it in magnitude keep a pair's sum exact. */
const HALF_UNITS = UNITS_LIMIT / 2

/**
 * {@link candleRun} for a call that steps no bucket (st[C_LEN] = 0): the same candles taken, the same state
 * out (the stepping slots are left as they came in).
 */
export function longCandleRun(
  c: CandleColumns,
  from: number,
  stop: number,
  mask: number,
  VP: number,
  XP: number,
  st: Float64Array,
  cleanSessions: boolean,
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
  const X1 = hasX ? X : V
  const N1 = hasN ? NT : V
  const S1 = hasS ? SS : NO_SESSIONS
  const MAXV = Number.MAX_VALUE
  let prevT = st[C_PREV_TIME] as number
  const tEnd = st[C_END] as number
  let hiX = st[C_HIGH] as number
  let loX = st[C_LOW] as number
  let volLo = st[C_VOLUME] as number
  let valLo = st[C_VALUE] as number
  let count = st[C_COUNT] as number
  let hiI = -1
  let loI = -1
  let i = from
  if (VP === 1 && !hasS && hasX && hasN) {
    // pairs, as candleRun takes them
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
  if (!hasS && hasN && (VP !== 1 || !hasX)) {
    // pairs of the other common shape (decimal volumes, or no value column): the volume's units tested by
    // division back, the value's only when the column is there
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
      const w0 = Math.floor(v0 * VP + 0.5)
      const w1 = Math.floor(v1 * VP + 0.5)
      const n0 = N1[i] as number
      const n1 = N1[i + 1] as number
      const nv = volLo + w0 + w1
      const nc = count + n0 + n1
      if (!(w0 >= 0 && w1 >= 0 && nv < UNITS_LIMIT && n0 >= 0 && n1 >= 0 && nc <= 9007199254740991)) break
      if (t0 - Math.floor(t0) + (t1 - Math.floor(t1)) + (n0 - Math.floor(n0)) + (n1 - Math.floor(n1)) !== 0) break
      if (w0 / VP !== v0 || w1 / VP !== v1) break
      let nx = valLo
      if (hasX) {
        const x0 = X1[i] as number
        const x1 = X1[i + 1] as number
        const u0 = Math.floor(x0 * XP + 0.5)
        const u1 = Math.floor(x1 * XP + 0.5)
        nx += u0 + u1
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
      }
      prevT = t1
      volLo = nv
      valLo = nx
      count = nc
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
      const xu = Math.floor(x * XP + 0.5)
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
    if (h > hiX) {
      hiX = h
      hiI = i
    }
    if (l < loX) {
      loX = l
      loI = i
    }
  }
  st[C_PREV_TIME] = prevT
  st[C_HIGH] = hiX
  st[C_LOW] = loX
  st[C_VOLUME] = volLo
  st[C_VALUE] = valLo
  st[C_COUNT] = count
  st[C_HIGH_AT] = hiI
  st[C_LOW_AT] = loI
  if (i > from) st[C_CLOSE_AT] = i - 1
  return i
}
