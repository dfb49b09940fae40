// Peer (a): the naive exact approach — a Big per price and volume, a Map keyed by a bucket/row string,
// results formatted at the end. Obviously correct, and what the library must beat.
import Big from 'big.js'
import type { Trade, TradeColumns } from '../../src/trades/index.js'
import { tpoAnalytics } from './tpo-analytics.js'

type Num = string | number

/** Reads trade i of either input form; the naive code works on (time, price, volume, side) tuples. */
interface TradeSource {
  n: number
  time(i: number): number
  price(i: number): Num
  volume(i: number): Num
  side(i: number): number // 1 buy, 2 sell
  session(i: number): number // 0 main, 1 pre, 2 post
}

const SESSION_CODE: Record<string, number> = { MAINSESSION: 0, PRE_MARKET: 1, POST_MARKET: 2 }

export function fromColumns(c: TradeColumns, n: number): TradeSource {
  return {
    n,
    time: (i) => c.time[i] as number,
    price: (i) => c.price[i] as number,
    volume: (i) => c.volume[i] as number,
    side: (i) => c.side[i] as number,
    session: (i) => (c.session === undefined ? 0 : (c.session[i] as number)),
  }
}

export function fromObjects(t: readonly Trade[], n: number): TradeSource {
  return {
    n,
    time: (i) => (t[i] as Trade).time,
    price: (i) => (t[i] as Trade).price,
    volume: (i) => (t[i] as Trade).volume,
    side: (i) => ((t[i] as Trade).side === 'buy' ? 1 : 2),
    session: (i) => SESSION_CODE[(t[i] as Trade).session ?? 'MAINSESSION'] as number,
  }
}

function floorBig(x: Big): Big {
  return x.round(0, x.lt(0) ? Big.roundUp : Big.roundDown)
}

/** A time bucket: UTC fixed-length buckets, or a function (zone-aware). */
export type BucketFn = (t: number) => number
export const utcBucket =
  (ms: number): BucketFn =>
  (t) =>
    Math.floor(t / ms) * ms

// ---------------------------------------------------------------- footprint

export interface FootprintConfig {
  bucket: BucketFn
  rowSizeValue: string
  priceDecimals: number
}

/** Lines `time|rowPrice|volumeBuy|volumeSell|countBuy|countSell`, by time then price. */
export function footprintBig(src: TradeSource, cfg: FootprintConfig): string[] {
  const rsv = new Big(cfg.rowSizeValue)
  const cells = new Map<string, { b: number; row: Big; vb: Big; vs: Big; cb: number; cs: number }>()
  for (let i = 0; i < src.n; i++) {
    const b = cfg.bucket(src.time(i))
    const row = floorBig(new Big(src.price(i)).div(rsv))
    const key = `${b}|${row.toFixed()}`
    let c = cells.get(key)
    if (c === undefined) {
      c = { b, row, vb: new Big(0), vs: new Big(0), cb: 0, cs: 0 }
      cells.set(key, c)
    }
    const v = new Big(src.volume(i))
    if (src.side(i) === 1) {
      c.vb = c.vb.plus(v)
      c.cb++
    } else {
      c.vs = c.vs.plus(v)
      c.cs++
    }
  }
  const all = [...cells.values()].sort((x, y) => x.b - y.b || x.row.cmp(y.row))
  return all.map(
    (c) => `${c.b}|${c.row.times(rsv).toFixed(cfg.priceDecimals)}|${c.vb.toFixed()}|${c.vs.toFixed()}|${c.cb}|${c.cs}`,
  )
}

// ---------------------------------------------------------------- candles

interface CandleAcc {
  b: number
  open: Big
  high: Big
  low: Big
  close: Big
  volume: Big
  value: Big
  trades: number
}

function candleLine(c: CandleAcc): string {
  return `${c.b}|${c.open.toFixed()}|${c.high.toFixed()}|${c.low.toFixed()}|${c.close.toFixed()}|${c.volume.toFixed()}|${c.value.toFixed()}|${c.trades}`
}

/** Lines `time|open|high|low|close|volume|value|trades` (minimal decimals), input in time order. */
export function candlesBig(src: TradeSource, bucket: BucketFn): string[] {
  const map = new Map<string, CandleAcc>()
  for (let i = 0; i < src.n; i++) {
    const b = bucket(src.time(i))
    const key = String(b)
    const p = new Big(src.price(i))
    const v = new Big(src.volume(i))
    const c = map.get(key)
    if (c === undefined) {
      map.set(key, { b, open: p, high: p, low: p, close: p, volume: v, value: p.times(v), trades: 1 })
    } else {
      if (p.gt(c.high)) c.high = p
      if (p.lt(c.low)) c.low = p
      c.close = p
      c.volume = c.volume.plus(v)
      c.value = c.value.plus(p.times(v))
      c.trades++
    }
  }
  return [...map.values()].sort((x, y) => x.b - y.b).map(candleLine)
}

/** An input candle of W3 (decimal strings). */
export interface CandleIn {
  time: number
  open: string
  high: string
  low: string
  close: string
  volume: string
  value?: string
  trades?: number
}

/** Resamples time-ordered candles; same lines as {@link candlesBig}. */
export function resampleBig(candles: readonly CandleIn[], n: number, bucket: BucketFn): string[] {
  const map = new Map<string, CandleAcc>()
  for (let i = 0; i < n; i++) {
    const k = candles[i] as CandleIn
    const b = bucket(k.time)
    const key = String(b)
    const h = new Big(k.high)
    const l = new Big(k.low)
    const c = map.get(key)
    if (c === undefined) {
      map.set(key, {
        b,
        open: new Big(k.open),
        high: h,
        low: l,
        close: new Big(k.close),
        volume: new Big(k.volume),
        value: new Big(k.value ?? '0'),
        trades: k.trades ?? 0,
      })
    } else {
      if (h.gt(c.high)) c.high = h
      if (l.lt(c.low)) c.low = l
      c.close = new Big(k.close)
      c.volume = c.volume.plus(k.volume)
      c.value = c.value.plus(k.value ?? '0')
      c.trades += k.trades ?? 0
    }
  }
  return [...map.values()].sort((x, y) => x.b - y.b).map(candleLine)
}

// ---------------------------------------------------------------- TPO

export interface TpoConfig {
  period: BucketFn
  block: BucketFn
  blockMs: number
  rowSizeValue: string
  priceDecimals: number
  /** Initial balance length (ms) from the first main-session block. */
  ibMs: number
}

interface BlockAcc {
  lo: Big
  hi: Big
  main: boolean
}

/**
 * Daily TPO, naive: per trade a period and block key, Big prices, Map rows; lines from {@link tpoLines}.
 */
export function tpoBig(src: TradeSource, cfg: TpoConfig): string[] {
  const rsv = new Big(cfg.rowSizeValue)
  const periods = new Map<
    string,
    { time: number; blocks: Map<string, BlockAcc & { t: number }>; rows: Map<string, { vb: Big; vs: Big }> }
  >()
  for (let i = 0; i < src.n; i++) {
    const t = src.time(i)
    const pk = cfg.period(t)
    const key = String(pk)
    let per = periods.get(key)
    if (per === undefined) {
      per = { time: pk, blocks: new Map(), rows: new Map() }
      periods.set(key, per)
    }
    const bt = cfg.block(t)
    const p = new Big(src.price(i))
    const bk = String(bt)
    const blk = per.blocks.get(bk)
    const main = src.session(i) === 0
    if (blk === undefined) per.blocks.set(bk, { t: bt, lo: p, hi: p, main })
    else {
      if (p.lt(blk.lo)) blk.lo = p
      if (p.gt(blk.hi)) blk.hi = p
      if (main) blk.main = true
    }
    const rk = floorBig(p.div(rsv)).toFixed()
    let row = per.rows.get(rk)
    if (row === undefined) {
      row = { vb: new Big(0), vs: new Big(0) }
      per.rows.set(rk, row)
    }
    if (src.side(i) === 1) row.vb = row.vb.plus(src.volume(i))
    else row.vs = row.vs.plus(src.volume(i))
  }
  const out: string[] = []
  for (const per of [...periods.values()].sort((a, b) => a.time - b.time)) {
    const blocks = [...per.blocks.values()].sort((a, b) => a.t - b.t)
    const lows = blocks.map((b) => Number(floorBig(b.lo.div(rsv)).toFixed()))
    const highs = blocks.map((b) => Number(floorBig(b.hi.div(rsv)).toFixed()))
    const lo = Math.min(...lows)
    const hi = Math.max(...highs)
    const counts = new Array<number>(hi - lo + 1).fill(0)
    const marks: number[][] = counts.map(() => [])
    blocks.forEach((_, k) => {
      for (let r = lows[k] as number; r <= (highs[k] as number); r++) {
        ;(counts[r - lo] as number)++
        ;(marks[r - lo] as number[]).push(k)
      }
    })
    const a = tpoAnalytics(counts)
    const rowPrice = (r: number) => new Big(r).times(rsv).toFixed(cfg.priceDecimals)
    let high = blocks[0]!.hi
    let low = blocks[0]!.lo
    for (const b of blocks) {
      if (b.hi.gt(high)) high = b.hi
      if (b.lo.lt(low)) low = b.lo
    }
    let ib = 'null'
    const firstMain = blocks.find((b) => b.main)
    if (firstMain !== undefined) {
      const s = firstMain.t
      let ih: Big | undefined
      let il: Big | undefined
      for (const b of blocks) {
        if (b.t >= s && b.t < s + cfg.ibMs) {
          if (ih === undefined || b.hi.gt(ih)) ih = b.hi
          if (il === undefined || b.lo.lt(il)) il = b.lo
        }
      }
      ib = `${(ih as Big).toFixed(cfg.priceDecimals)}/${(il as Big).toFixed(cfg.priceDecimals)}`
    }
    out.push(
      `P|${per.time}|blocks=${blocks.map((b) => b.t).join(',')}|poc=${rowPrice(lo + a.poc)}|va=${rowPrice(lo + a.val)}..${rowPrice(lo + a.vah)}` +
        `|high=${high.toFixed(cfg.priceDecimals)}|low=${low.toFixed(cfg.priceDecimals)}|ib=${ib}`,
    )
    for (let r = lo; r <= hi; r++) {
      const v = per.rows.get(String(r))
      out.push(
        `R|${rowPrice(r)}|${(marks[r - lo] as number[]).join(',')}|${v === undefined ? '0' : v.vb.toFixed()}|${v === undefined ? '0' : v.vs.toFixed()}`,
      )
    }
  }
  return out
}

// ---------------------------------------------------------------- decimal parsing

/** Parses every string with big.js (the parse is the timed part). */
export function parseBig(strings: readonly string[], n: number): Big[] {
  const out = new Array<Big>(n)
  for (let i = 0; i < n; i++) out[i] = new Big(strings[i] as string)
  return out
}
