// Footprint peers in plain float loops, exact on the ES data (tick 0.25 and whole lots are exact doubles).
//
// `footprintFloat` is the hand-written loop a user would write: one record a step, the side as an index.
//
// `footprintFloatRuns` is the W1 ceiling: the fastest footprint loop found for the ES data, with no checks at
// all. It sums each run of one price in registers, four records a step, in a function of its own (as the
// library's kernel does), and skips everything the library proves per record: integer and ascending times,
// finite, non-negative and whole volumes, valid sides, sums within 2^53. It shows what the checks cost on
// these data, not what a user could ship. Two things V8 punishes were measured on the way: a call inside the
// record loop (the loop's values no longer stay in registers: 150-180 M trades/s) and columns that are not
// constants of the compiled code (a loop over columns held by a module-level object runs about twice as fast
// as the same loop over columns passed in, which is what a library gets).
import type { TradeColumns } from '../../src/trades/index.js'
import { numText } from '../canon.js'
import { priceRange } from './float.js'

/**
 * Footprint of time-sorted trades in fixed UTC buckets: same lines as the big.js peer. Buy and sell sums are
 * interleaved per row and indexed by `side - 1`, so the loop has no data-dependent branch on the side.
 */
export function footprintFloat(
  c: TradeColumns,
  n: number,
  bucketMs: number,
  rsv: number,
  priceDecimals: number,
): string[] {
  const { time, price, volume, side } = c
  const { r0, R } = priceRange(price, n, rsv)
  const v = new Float64Array(2 * R) // [buy, sell] per row
  const k = new Uint32Array(2 * R)
  const out: string[] = []
  let lo = R
  let hi = -1
  let bStart = 0
  let bEnd = -Infinity
  // (a closure: as a call with its arguments in the record loop, it ran about 6% slower)
  const flush = () => {
    flushRows(out, v, k, lo, hi, bStart, r0, rsv, priceDecimals)
    lo = R
    hi = -1
  }
  for (let i = 0; i < n; i++) {
    const t = time[i] as number
    if (t >= bEnd || t < bStart) {
      flush()
      bStart = Math.floor(t / bucketMs) * bucketMs
      bEnd = bStart + bucketMs
    }
    const r = Math.floor((price[i] as number) / rsv) - r0
    const j = 2 * r + (side[i] as number) - 1
    v[j]! += volume[i] as number
    k[j]!++
    if (r < lo) lo = r
    if (r > hi) hi = r
  }
  flush()
  return out
}

/**
 * Appends the footprint lines (`time|row price|buy|sell|buys|sells`) of rows lo..hi that have trades, of the
 * bucket at bStart, and clears them. Volumes `v` and trade counts `k` are interleaved [buy, sell] per row.
 */
export function flushRows(
  out: string[],
  v: Float64Array,
  k: Float64Array | Uint32Array,
  lo: number,
  hi: number,
  bStart: number,
  r0: number,
  rsv: number,
  priceDecimals: number,
): void {
  for (let r = lo; r <= hi; r++) {
    const b = 2 * r
    if ((k[b] as number) + (k[b + 1] as number) === 0) continue
    out.push(
      `${bStart}|${((r0 + r) * rsv).toFixed(priceDecimals)}|${numText(v[b] as number)}|${numText(v[b + 1] as number)}|${k[b]}|${k[b + 1]}`,
    )
    v[b] = 0
    v[b + 1] = 0
    k[b] = 0
    k[b + 1] = 0
  }
}

/**
 * Footprint of time-sorted trades in fixed UTC buckets, same lines as `footprintFloat`; unchecked.
 * @param c - the trades (time-sorted)
 * @param n - how many of them
 * @param bucketMs - the bucket length
 * @param rsv - the row size (a power of two times a tick, so that price / rsv is exact)
 * @param priceDecimals - decimals of the row prices printed
 * @returns one line per row with trades: `time|row price|buy|sell|buys|sells`
 */
export function footprintFloatRuns(
  c: TradeColumns,
  n: number,
  bucketMs: number,
  rsv: number,
  priceDecimals: number,
): string[] {
  const { time, price, volume, side } = c
  const { r0, R } = priceRange(price, n, rsv)
  const v = new Float64Array(2 * R) // [buy, sell] per row
  const k = new Float64Array(2 * R)
  const run = new Float64Array(4)
  const out: string[] = []
  let lo = R
  let hi = -1
  let bStart = 0
  let bEnd = -Infinity
  let i = 0
  while (i < n) {
    const t = time[i] as number
    const p = price[i] as number
    if (t >= bEnd) {
      flushRows(out, v, k, lo, hi, bStart, r0, rsv, priceDecimals)
      lo = R
      hi = -1
      bStart = Math.floor(t / bucketMs) * bucketMs
      bEnd = bStart + bucketMs
    }
    const r = Math.floor(p / rsv) - r0
    if (r < lo) lo = r
    if (r > hi) hi = r
    i = sumRun(time, price, volume, side, i, n, p, bEnd, run)
    const j = 2 * r
    v[j] = (v[j] as number) + (run[1] as number)
    v[j + 1] = (v[j + 1] as number) + ((run[0] as number) - (run[1] as number))
    k[j] = (k[j] as number) + (run[3] as number)
    k[j + 1] = (k[j + 1] as number) + ((run[2] as number) - (run[3] as number))
  }
  flushRows(out, v, k, lo, hi, bStart, r0, rsv, priceDecimals)
  return out
}

/**
 * Sums the run of price `p` from record i (which has it) to the first other price or bucket: total and buy
 * volume, all and buy trades into `run`. A function of its own, so that its few values keep to registers.
 */
function sumRun(
  time: Float64Array,
  price: Float64Array,
  volume: Float64Array,
  side: Uint8Array,
  from: number,
  n: number,
  p: number,
  bEnd: number,
  run: Float64Array,
): number {
  let vt = 0
  let vb = 0
  let nt = 0
  let nb = 0
  let i = from
  // four records a step while the four have the price and the fourth's time is in the bucket (sorted times)
  for (; i + 4 <= n; i += 4) {
    const i1 = (i + 1) | 0
    const i2 = (i + 2) | 0
    const i3 = (i + 3) | 0
    if (
      !(
        (price[i] as number) === p &&
        (price[i1] as number) === p &&
        (price[i2] as number) === p &&
        (price[i3] as number) === p &&
        (time[i3] as number) < bEnd
      )
    )
      break
    const w0 = volume[i] as number
    const w1 = volume[i1] as number
    const w2 = volume[i2] as number
    const w3 = volume[i3] as number
    const s0 = 2 - (side[i] as number)
    const s1 = 2 - (side[i1] as number)
    const s2 = 2 - (side[i2] as number)
    const s3 = 2 - (side[i3] as number)
    vt += w0 + w1 + (w2 + w3)
    vb += w0 * s0 + w1 * s1 + (w2 * s2 + w3 * s3)
    nt += 4
    nb += s0 + s1 + s2 + s3
  }
  for (; i < n; i++) {
    if ((price[i] as number) !== p || (time[i] as number) >= bEnd) break
    const w = volume[i] as number
    const s = 2 - (side[i] as number)
    vt += w
    vb += w * s
    nt++
    nb += s
  }
  run[0] = vt
  run[1] = vb
  run[2] = nt
  run[3] = nb
  return i
}
