// Peer (b): the best hand-written float loop — typed arrays, dense rows, doubles for prices and sums. Not
// exact in general (0.1 + 0.2, misbinned boundary prices); exact on the ES data (tick 0.25 is a power of
// two, volumes are whole lots), so it is checked for equality like every other peer.
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz'
import type { TradeColumns } from '../../src/trades/index.js'
import { numText } from '../canon.js'
import { tpoAnalytics } from './tpo-analytics.js'

/** Local days of an IANA zone, found with date-fns-tz once per day (not per trade). */
export class ZoneDays {
  start = Number.NaN
  end = Number.NaN
  constructor(readonly timeZone: string) {}
  locate(t: number): number {
    if (t >= this.start && t < this.end) return this.start
    const d = formatInTimeZone(t, this.timeZone, 'yyyy-MM-dd')
    this.start = fromZonedTime(`${d}T00:00:00`, this.timeZone).getTime()
    const next = new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
    this.end = fromZonedTime(`${next}T00:00:00`, this.timeZone).getTime()
    return this.start
  }
}

/** The first row and the number of rows (of size `rsv`) spanned by the first `n` prices. */
export function priceRange(p: Float64Array, n: number, rsv: number): { r0: number; R: number } {
  let lo = Infinity
  let hi = -Infinity
  for (let i = 0; i < n; i++) {
    const x = p[i] as number
    if (x < lo) lo = x
    if (x > hi) hi = x
  }
  const r0 = Math.floor(lo / rsv)
  return { r0, R: Math.floor(hi / rsv) - r0 + 1 }
}

/** Candle columns (W3 input and the float candle loop's output). */
export interface CandleColumns {
  time: Float64Array
  open: Float64Array
  high: Float64Array
  low: Float64Array
  close: Float64Array
  volume: Float64Array
  value: Float64Array
  trades: Float64Array
}

/**
 * Candle columns for `n` records in: a first guess of n / 10 + 16 candles (a call grows them when the
 * guess is short), so a run does not zero 8 arrays of n doubles it never fills; `exact` sizes them to n.
 */
function allocCandles(n: number, exact = false): CandleColumns {
  if (!exact) n = Math.min(n, Math.floor(n / 10) + 16)
  return {
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
    value: new Float64Array(n),
    trades: new Float64Array(n),
  }
}

function shrink(c: CandleColumns, m: number): CandleColumns {
  return {
    time: c.time.slice(0, m),
    open: c.open.slice(0, m),
    high: c.high.slice(0, m),
    low: c.low.slice(0, m),
    close: c.close.slice(0, m),
    volume: c.volume.slice(0, m),
    value: c.value.slice(0, m),
    trades: c.trades.slice(0, m),
  }
}

/** Time-sorted trades -> candles in fixed UTC buckets, as columns. */
export function candlesFloat(c: TradeColumns, n: number, bucketMs: number): CandleColumns {
  const { time, price, volume } = c
  const out = allocCandles(Math.min(n, 1 << 20))
  let k = -1
  let o = out
  let bEnd = -Infinity
  let bStart = 0
  for (let i = 0; i < n; i++) {
    const t = time[i] as number
    const p = price[i] as number
    const v = volume[i] as number
    if (t >= bEnd || t < bStart) {
      k++
      if (k === o.time.length) o = grow(o)
      bStart = Math.floor(t / bucketMs) * bucketMs
      bEnd = bStart + bucketMs
      o.time[k] = bStart
      o.open[k] = p
      o.high[k] = p
      o.low[k] = p
      o.close[k] = p
      o.volume[k] = v
      o.value[k] = p * v
      o.trades[k] = 1
      continue
    }
    if (p > (o.high[k] as number)) o.high[k] = p
    if (p < (o.low[k] as number)) o.low[k] = p
    o.close[k] = p
    o.volume[k]! += v
    o.value[k]! += p * v
    o.trades[k]!++
  }
  return shrink(o, k + 1)
}

/**
 * Time-sorted trades -> candles in fixed UTC buckets, one candle at a time with its state in registers
 * (no output store per trade), no input checks, sums in doubles: a ceiling for what a plain loop can do.
 */
export function candlesFloatRegisters(c: TradeColumns, n: number, len: number): CandleColumns {
  const { time: T, price: P, volume: V } = c
  let o = allocCandles(Math.min(n, 1 << 16))
  let k = 0
  let i = 0
  while (i < n) {
    const start = Math.floor((T[i] as number) / len) * len
    const end = start + len
    const op = P[i] as number
    let hi = op
    let lo = op
    let v = V[i] as number
    let x = op * v
    const first = i
    for (i++; i < n; i++) {
      if ((T[i] as number) >= end) break
      const p = P[i] as number
      const w = V[i] as number
      if (p > hi) hi = p
      if (p < lo) lo = p
      v += w
      x += p * w
    }
    if (k === o.time.length) o = grow(o)
    o.time[k] = start
    o.open[k] = op
    o.high[k] = hi
    o.low[k] = lo
    o.close[k] = P[i - 1] as number
    o.volume[k] = v
    o.value[k] = x
    o.trades[k] = i - first
    k++
  }
  return shrink(o, k)
}

function grow(c: CandleColumns): CandleColumns {
  const n = c.time.length * 2
  const g = allocCandles(n, true)
  for (const key of Object.keys(c) as (keyof CandleColumns)[]) g[key].set(c[key])
  return g
}

/** Time-sorted candles -> coarser candles, by a bucket function called once per bucket change. */
export function resampleFloat(
  c: CandleColumns,
  n: number,
  bucket: { locate(t: number): number; end: number; start: number },
): CandleColumns {
  const out = allocCandles(n)
  let o = out
  let k = -1
  let bEnd = -Infinity
  let bStart = 0
  for (let i = 0; i < n; i++) {
    const t = c.time[i] as number
    if (t >= bEnd || t < bStart) {
      k++
      if (k === o.time.length) o = grow(o)
      bStart = bucket.locate(t)
      bEnd = bucket.end
      o.time[k] = bStart
      o.open[k] = c.open[i] as number
      o.high[k] = c.high[i] as number
      o.low[k] = c.low[i] as number
      o.close[k] = c.close[i] as number
      o.volume[k] = c.volume[i] as number
      o.value[k] = c.value[i] as number
      o.trades[k] = c.trades[i] as number
      continue
    }
    if ((c.high[i] as number) > (o.high[k] as number)) o.high[k] = c.high[i] as number
    if ((c.low[i] as number) < (o.low[k] as number)) o.low[k] = c.low[i] as number
    o.close[k] = c.close[i] as number
    o.volume[k]! += c.volume[i] as number
    o.value[k]! += c.value[i] as number
    o.trades[k]! += c.trades[i] as number
  }
  return shrink(o, k + 1)
}

/**
 * Time-sorted candles -> coarser fixed-length UTC buckets, the fastest plain loop found on this machine:
 * one bucket at a time with its state in registers (no output store per candle), no input checks, sums
 * in doubles. Not a general resampler (UTC, fixed bucket length only): a ceiling for what a loop can do.
 */
export function resampleFloatRegisters(c: CandleColumns, n: number, len: number): CandleColumns {
  const { time: T, open: O, high: H, low: L, close: C, volume: V, value: X, trades: K } = c
  // at most one bucket per len of time (and per candle): sized once, no growth check in the loop
  const span = n === 0 ? 0 : (T[n - 1] as number) - (T[0] as number)
  const o = allocCandles(Math.min(n, Math.floor(span / len) + 2), true)
  const { time: ot, open: oo, high: oh, low: ol, close: oc, volume: ov, value: ox, trades: ok } = o
  // short buckets (at most about 128 candles by the mean spacing): high and low by branch-free selects
  // (h * a + x * (1 - a), a = 0 or 1), as the library does: new extremes come too often for a branch to
  // predict (1m -> 15m about 1.4x); in long buckets the branch is cheaper
  const flat = n * len <= 128 * span
  let k = 0
  let i = 0
  while (i < n) {
    const start = Math.floor((T[i] as number) / len) * len
    const end = start + len
    const op = O[i] as number
    let hi = H[i] as number
    let lo = L[i] as number
    let v = V[i] as number
    let x = X[i] as number
    let nt = K[i] as number
    if (flat) {
      for (i++; i < n; i++) {
        if ((T[i] as number) >= end) break
        const h = H[i] as number
        const a = +(h > hi)
        hi = h * a + hi * (1 - a)
        const l = L[i] as number
        const b = +(l < lo)
        lo = l * b + lo * (1 - b)
        v += V[i] as number
        x += X[i] as number
        nt += K[i] as number
      }
    } else {
      for (i++; i < n; i++) {
        if ((T[i] as number) >= end) break
        const h = H[i] as number
        if (h > hi) hi = h
        const l = L[i] as number
        if (l < lo) lo = l
        v += V[i] as number
        x += X[i] as number
        nt += K[i] as number
      }
    }
    ot[k] = start
    oo[k] = op
    oh[k] = hi
    ol[k] = lo
    oc[k] = C[i - 1] as number
    ov[k] = v
    ox[k] = x
    ok[k] = nt
    k++
  }
  // views, not copies
  return {
    time: ot.subarray(0, k),
    open: oo.subarray(0, k),
    high: oh.subarray(0, k),
    low: ol.subarray(0, k),
    close: oc.subarray(0, k),
    volume: ov.subarray(0, k),
    value: ox.subarray(0, k),
    trades: ok.subarray(0, k),
  }
}

/** Reads the 8 candle columns once and sums them: no resampling at all, the memory-read ceiling of a pass over them. */
export function readCandleColumns(c: CandleColumns, n: number): number {
  const { time: T, open: O, high: H, low: L, close: C, volume: V, value: X, trades: K } = c
  let s = 0
  let u = 0
  for (let i = 0; i < n; i++) {
    s += (T[i] as number) + (O[i] as number) + (H[i] as number) + (L[i] as number)
    u += (C[i] as number) + (V[i] as number) + (X[i] as number) + (K[i] as number)
  }
  return s + u
}

/** Fixed-length UTC buckets with the `locate`/`start`/`end` shape. */
export class UtcBuckets {
  start = Number.NaN
  end = Number.NaN
  constructor(readonly ms: number) {}
  locate(t: number): number {
    this.start = Math.floor(t / this.ms) * this.ms
    this.end = this.start + this.ms
    return this.start
  }
}

/** Lines of candle columns, same as the big.js peer's. */
export function candleLines(c: CandleColumns): string[] {
  const out: string[] = new Array(c.time.length)
  for (let k = 0; k < c.time.length; k++) {
    out[k] =
      `${c.time[k]}|${numText(c.open[k] as number)}|${numText(c.high[k] as number)}|${numText(c.low[k] as number)}|${numText(c.close[k] as number)}|${numText(c.volume[k] as number)}|${numText(c.value[k] as number)}|${c.trades[k]}`
  }
  return out
}

export interface TpoFloatConfig {
  timeZone: string
  blockMs: number
  rsv: number
  priceDecimals: number
  ibMs: number
  /**
   * Decimals of the grid when traded prices have more (a thin altcoin): rows print at these, traded prices
   * (high, low, initial balance) by their shortest form with at least these, as the library prints them.
   */
  rowDecimals?: number
}

/** x's shortest form with at least d decimals. */
function minDecimals(x: number, d: number): string {
  const t = String(x)
  const dot = t.indexOf('.')
  const f = dot < 0 ? 0 : t.length - dot - 1
  return f >= d ? t : (dot < 0 ? `${t}.` : t) + '0'.repeat(d - f)
}

/** Daily TPO (local days of the zone) of time-sorted trades; same lines as the big.js peer. */
export function tpoFloat(c: TradeColumns, n: number, cfg: TpoFloatConfig): string[] {
  const { time, price, volume, side } = c
  const session = c.session
  const { rsv, blockMs, priceDecimals: pd } = cfg
  const rd = cfg.rowDecimals ?? pd
  const traded = (x: number) => (cfg.rowDecimals === undefined ? x.toFixed(pd) : minDecimals(x, rd))
  // rows from price units (p * 10^pd, rounded: exact for prices with pd decimals), not p / rsv: a float
  // division misplaces prices on a 0.01 grid (59994.09 / 0.01 = 5999408.999...)
  const scale = 10 ** pd
  const ru = Math.round(rsv * scale)
  const rowOf = (x: number) => Math.floor(Math.round(x * scale) / ru)
  const range = priceRange(price, n, rsv)
  const r0 = range.r0 - 1
  const R = range.R + 2
  const vb = new Float64Array(R)
  const vs = new Float64Array(R)
  const days = new ZoneDays(cfg.timeZone)
  const out: string[] = []
  // blocks of the open period
  const bStart: number[] = []
  const bLo: number[] = []
  const bHi: number[] = []
  const bMain: boolean[] = []
  let dStart = 0
  let dEnd = -Infinity
  let blkEnd = -Infinity
  let blkStart = 0
  let nb = 0
  const counts = new Float64Array(R)
  const flush = () => {
    if (nb === 0) return
    let lo = Infinity
    let hi = -Infinity
    let pLo = Infinity
    let pHi = -Infinity
    for (let k = 0; k < nb; k++) {
      const l = rowOf(bLo[k] as number) - r0
      const h = rowOf(bHi[k] as number) - r0
      if (l < lo) lo = l
      if (h > hi) hi = h
      if ((bLo[k] as number) < pLo) pLo = bLo[k] as number
      if ((bHi[k] as number) > pHi) pHi = bHi[k] as number
      for (let r = l; r <= h; r++) counts[r]!++
    }
    const a = tpoAnalytics(counts.subarray(lo, hi + 1))
    const rp = (r: number) => ((r0 + r) * rsv).toFixed(rd)
    let ib = 'null'
    let s = -1
    for (let k = 0; k < nb; k++) {
      if (bMain[k] === true) {
        s = bStart[k] as number
        break
      }
    }
    if (s >= 0) {
      let ih = -Infinity
      let il = Infinity
      for (let k = 0; k < nb; k++) {
        const t = bStart[k] as number
        if (t >= s && t < s + cfg.ibMs) {
          if ((bHi[k] as number) > ih) ih = bHi[k] as number
          if ((bLo[k] as number) < il) il = bLo[k] as number
        }
      }
      ib = `${traded(ih)}/${traded(il)}`
    }
    out.push(
      `P|${dStart}|blocks=${bStart.slice(0, nb).join(',')}|poc=${rp(lo + a.poc)}|va=${rp(lo + a.val)}..${rp(lo + a.vah)}|high=${traded(pHi)}|low=${traded(pLo)}|ib=${ib}`,
    )
    for (let r = lo; r <= hi; r++) {
      const idx: number[] = []
      for (let k = 0; k < nb; k++) {
        if (r >= rowOf(bLo[k] as number) - r0 && r <= rowOf(bHi[k] as number) - r0) idx.push(k)
      }
      out.push(`R|${rp(r)}|${idx.join(',')}|${numText(vb[r] as number)}|${numText(vs[r] as number)}`)
      vb[r] = 0
      vs[r] = 0
      counts[r] = 0
    }
    nb = 0
  }
  for (let i = 0; i < n; i++) {
    const t = time[i] as number
    const p = price[i] as number
    if (t >= blkEnd || t < blkStart) {
      if (t >= dEnd || t < dStart) {
        flush()
        dStart = days.locate(t)
        dEnd = days.end
      }
      blkStart = dStart + Math.floor((t - dStart) / blockMs) * blockMs
      blkEnd = Math.min(blkStart + blockMs, dEnd)
      bStart[nb] = blkStart
      bLo[nb] = p
      bHi[nb] = p
      bMain[nb] = false
      nb++
    }
    const k = nb - 1
    if (p < (bLo[k] as number)) bLo[k] = p
    if (p > (bHi[k] as number)) bHi[k] = p
    if (session === undefined || session[i] === 0) bMain[k] = true
    const r = rowOf(p) - r0
    if (side[i] === 1) vb[r]! += volume[i] as number
    else vs[r]! += volume[i] as number
  }
  flush()
  return out
}
