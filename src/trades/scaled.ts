import { POW10, stringToUnits, UNITS_LIMIT } from '../decimal/index.js'
import { MAX_FAST_SCALE, UNITS_LIMIT_BIG } from '../decimal/units.js'
import { parseDataDecimal } from '../decimal/parse.js'
import { MarketDataError } from '../errors.js'
import type { Trade, TradeColumns } from './types.js'
import { MAX_TIME } from '../_lib/max-time.js'
import { columnRecordProblem, tradeProblem } from './validate.js'

/** Options of {@link createScaledTradeReader}. */
export interface ScaledTradeReaderOptions {
  /** Records per chunk (the size of the reused buffers). Default 4096. */
  chunkSize?: number
  /** Smallest price scale (decimals) to use, e.g. the price grid's decimals. Default 0. */
  priceScale?: number
  /** Smallest volume scale to use. Default 0. */
  volumeScale?: number
}

/**
 * Reads trades chunk by chunk into reused typed arrays of exact integers, validating every record:
 * `price[i]` = price x 10^`priceScale`, `volume[i]` = volume x 10^`volumeScale`, both integers held
 * exactly in doubles. The scales start at the options' values and only grow: when a record has more
 * decimals than the current scale, the scale grows to fit it (before the chunk is handed out, so every
 * entry of one chunk shares one scale) — compare `priceScale`/`volumeScale` with the previous chunk's
 * and rescale your own running sums when they grew. An entry whose units reach ±2^52 is `NaN` in the
 * fast array; its exact value is `priceBig(i)` / `volumeBig(i)`.
 * Bad records throw `MarketDataError` naming the stream index (`index + i`) and the field.
 *
 * Hot-loop pattern:
 * ```ts
 * for (let at = 0; at < n; ) {
 *   const k = reader.readColumns(cols, at, n, base + at)
 *   if (reader.volumeScale !== myScale) rescaleMySums()
 *   for (let i = 0; i < k; i++) { const v = reader.volume[i]; if (v === v) fast(v); else slow(reader.volumeBig(i)) }
 *   at += k
 * }
 * ```
 */
export class ScaledTradeReader {
  /** Buffer size: most records one read returns. */
  readonly capacity: number
  /** Records in the current chunk. */
  length = 0
  /** Stream index of entry 0 of the current chunk. */
  index = 0
  /** Decimals of `price` units; grows, never shrinks. */
  priceScale: number
  /** Decimals of `volume` units; grows, never shrinks. */
  volumeScale: number
  readonly time: Float64Array
  readonly price: Float64Array
  readonly volume: Float64Array
  /** 1 = buy, 2 = sell. */
  readonly side: Uint8Array
  /** 0 = MAINSESSION, 1 = PRE_MARKET, 2 = POST_MARKET. */
  readonly session: Uint8Array
  private bigPrice: Map<number, bigint> | undefined
  private bigVolume: Map<number, bigint> | undefined
  private readonly one: Trade[] = []
  /** The scales before the current read: a refused record leaves them as they were. */
  private ps0 = 0
  private vs0 = 0

  constructor(opts: ScaledTradeReaderOptions = {}) {
    const cap = opts.chunkSize ?? 4096
    if (!Number.isInteger(cap) || cap < 1)
      throw new MarketDataError('invalid_option', `chunkSize: ${String(cap)} must be an integer >= 1`, {
        field: 'chunkSize',
      })
    const ps = opts.priceScale ?? 0
    const vs = opts.volumeScale ?? 0
    if (!Number.isInteger(ps) || ps < 0 || ps > 400)
      throw new MarketDataError('invalid_option', `priceScale: ${String(ps)} must be an integer 0..400`, {
        field: 'priceScale',
      })
    if (!Number.isInteger(vs) || vs < 0 || vs > 400)
      throw new MarketDataError('invalid_option', `volumeScale: ${String(vs)} must be an integer 0..400`, {
        field: 'volumeScale',
      })
    this.capacity = cap
    this.priceScale = ps
    this.volumeScale = vs
    this.time = new Float64Array(cap)
    this.price = new Float64Array(cap)
    this.volume = new Float64Array(cap)
    this.side = new Uint8Array(cap)
    this.session = new Uint8Array(cap)
  }

  /** Exact price units of entry i (any entry; needed where `price[i]` is NaN). */
  priceBig(i: number): bigint {
    const v = this.price[i] as number
    if (v === v) return BigInt(v)
    return this.bigPrice?.get(i) ?? 0n
  }

  /** Exact volume units of entry i (any entry; needed where `volume[i]` is NaN). */
  volumeBig(i: number): bigint {
    const v = this.volume[i] as number
    if (v === v) return BigInt(v)
    return this.bigVolume?.get(i) ?? 0n
  }

  /**
   * Reads columns records [from, min(to, from + capacity)) into the buffers; `index` is the stream index
   * of record `from` (for errors). Returns the number of records read.
   */
  readColumns(c: TradeColumns, from: number, to: number, index: number): number {
    const n = Math.min(to - from, this.capacity)
    this.length = n
    this.index = index
    this.bigPrice = undefined
    this.bigVolume = undefined
    this.ps0 = this.priceScale
    this.vs0 = this.volumeScale
    const T = c.time
    const S = c.side
    const SS = c.session
    const time = this.time
    const side = this.side
    const session = this.session
    for (let i = 0; i < n; i++) {
      const j = from + i
      const t = T[j] as number
      const s = S[j] as number
      const ss = SS === undefined ? 0 : (SS[j] as number)
      if (!(t >= -MAX_TIME && t <= MAX_TIME) || Math.floor(t) !== t || (s !== 1 && s !== 2) || ss > 2)
        this.throwFirstColumn(c, from, n, index)
      time[i] = t
      side[i] = s
      session[i] = ss
    }
    this.convertNumbers(c, from, n, true, index)
    this.convertNumbers(c, from, n, false, index)
    return n
  }

  /**
   * Reads trade objects [from, min(to, from + capacity)) of an array; `index` is the stream index of
   * `trades[from]`. Returns the number of records read.
   */
  readTrades(trades: ArrayLike<Trade>, from: number, to: number, index: number): number {
    const n = Math.min(to - from, this.capacity)
    this.length = n
    this.index = index
    this.bigPrice = undefined
    this.bigVolume = undefined
    this.ps0 = this.priceScale
    this.vs0 = this.volumeScale
    const time = this.time
    const side = this.side
    const session = this.session
    const price = this.price
    const volume = this.volume
    // one pass over the objects: validate and convert at the current scales; any entry that does not
    // convert on the fast path sends the chunk's prices and volumes through the exact slow conversion
    const ps = this.priceScale
    const vs = this.volumeScale
    let fast = ps <= MAX_FAST_SCALE && vs <= MAX_FAST_SCALE
    const PP = POW10[ps] as number
    const VP = POW10[vs] as number
    let lastPS = ''
    let lastPU = Number.NaN
    let lastVS = ''
    let lastVU = Number.NaN
    for (let i = 0; i < n; i++) {
      const tr = trades[from + i] as Trade
      if (typeof tr !== 'object' || tr === null) this.throwFirstTrade(trades, from, n, index)
      const t = tr.time
      const sd = tr.side
      const s = sd === 'buy' ? 1 : sd === 'sell' ? 2 : 0
      const se = tr.session
      const ss = se === undefined || se === 'MAINSESSION' ? 0 : se === 'PRE_MARKET' ? 1 : se === 'POST_MARKET' ? 2 : 3
      if (typeof t !== 'number' || !(t >= -MAX_TIME && t <= MAX_TIME) || Math.floor(t) !== t || s === 0 || ss === 3)
        this.throwFirstTrade(trades, from, n, index)
      time[i] = t
      side[i] = s
      session[i] = ss
      if (fast) {
        const p = tr.price
        let pu: number
        if (typeof p === 'string') {
          if (p === lastPS) pu = lastPU
          else {
            pu = stringToUnits(p, ps)
            lastPS = p
            lastPU = pu
          }
        } else if (typeof p === 'number') {
          pu = Math.floor(p * PP + 0.5)
          if (!(pu / PP === p && pu < UNITS_LIMIT && pu > -UNITS_LIMIT)) pu = Number.NaN
        } else pu = Number.NaN
        const v = tr.volume
        let vu: number
        if (typeof v === 'string') {
          if (v === lastVS) vu = lastVU
          else {
            vu = stringToUnits(v, vs)
            lastVS = v
            lastVU = vu
          }
        } else if (typeof v === 'number') {
          vu = Math.floor(v * VP + 0.5)
          if (!(vu / VP === v && vu < UNITS_LIMIT)) vu = Number.NaN
        } else vu = Number.NaN
        if (pu !== pu || !(vu >= 0)) fast = false
        price[i] = pu
        volume[i] = vu
      }
    }
    if (!fast) {
      this.convertObjects(trades, from, n, true, index)
      this.convertObjects(trades, from, n, false, index)
    }
    return n
  }

  /** Reads one trade object (a chunk of one); `index` is its stream index. */
  readTrade(trade: Trade, index: number): number {
    this.one[0] = trade
    return this.readTrades(this.one, 0, 1, index)
  }

  private convertNumbers(c: TradeColumns, from: number, n: number, isPrice: boolean, index: number): void {
    const src = isPrice ? c.price : c.volume
    const out = isPrice ? this.price : this.volume
    for (;;) {
      const scale = isPrice ? this.priceScale : this.volumeScale
      let failed = false
      if (scale <= MAX_FAST_SCALE) {
        const P = POW10[scale] as number
        for (let i = 0; i < n; i++) {
          const x = src[from + i] as number
          const u = Math.floor(x * P + 0.5)
          if (u / P === x && u < UNITS_LIMIT && u > -UNITS_LIMIT && (isPrice || x >= 0)) out[i] = u
          else {
            out[i] = Number.NaN
            failed = true
          }
        }
      } else {
        out.fill(Number.NaN, 0, n)
        failed = n > 0
      }
      if (!failed) return
      if (
        !this.repair(
          n,
          isPrice,
          (i) => src[from + i] as number,
          () => this.throwFirstColumn(c, from, n, index),
        )
      )
        return
    }
  }

  /**
   * Puts the scales back as they were before the last read: for a read that refuses its record, and for a
   * caller that refuses the record it read (a late one), so that a refused record changes nothing.
   */
  unread(): void {
    this.priceScale = this.ps0
    this.volumeScale = this.vs0
  }

  private throwFirstColumn(c: TradeColumns, from: number, n: number, index: number): never {
    this.unread()
    for (let i = 0; i < n; i++) {
      const e = columnRecordProblem(c, from + i, index + i)
      if (e !== undefined) throw e
    }
    throw new MarketDataError('invalid_decimal', 'internal: no bad record found', { index })
  }

  private throwFirstTrade(trades: ArrayLike<Trade>, from: number, n: number, index: number): never {
    this.unread()
    for (let i = 0; i < n; i++) {
      const e = tradeProblem(trades[from + i], index + i)
      if (e !== undefined) throw e
    }
    throw new MarketDataError('invalid_decimal', 'internal: no bad record found', { index })
  }

  private convertObjects(trades: ArrayLike<Trade>, from: number, n: number, isPrice: boolean, index: number): void {
    const out = isPrice ? this.price : this.volume
    for (;;) {
      const scale = isPrice ? this.priceScale : this.volumeScale
      let failed = false
      if (scale <= MAX_FAST_SCALE) {
        const P = POW10[scale] as number
        // consecutive trades often repeat a price or volume: reuse the last conversion
        let lastS = ''
        let lastU = Number.NaN
        for (let i = 0; i < n; i++) {
          const tr = trades[from + i] as Trade
          const x = isPrice ? tr.price : tr.volume
          let u: number
          if (typeof x === 'string') {
            if (x === lastS) u = lastU
            else {
              u = stringToUnits(x, scale)
              lastS = x
              lastU = u
            }
          } else if (typeof x === 'number') {
            u = Math.floor(x * P + 0.5)
            if (!(u / P === x && u < UNITS_LIMIT && u > -UNITS_LIMIT)) u = Number.NaN
          } else u = Number.NaN
          if (u === u && (isPrice || u >= 0)) out[i] = u
          else {
            out[i] = Number.NaN
            failed = true
          }
        }
      } else {
        out.fill(Number.NaN, 0, n)
        failed = n > 0
      }
      if (!failed) return
      const get = (i: number): unknown => {
        const tr = trades[from + i] as Trade
        return isPrice ? tr.price : tr.volume
      }
      if (!this.repair(n, isPrice, get, () => this.throwFirstTrade(trades, from, n, index))) return
    }
  }

  /**
   * Slow path for the NaN entries: validates them exactly, grows the scale when an entry has more
   * decimals (returns true: convert again), else stores the exact bigint units of the too-large ones.
   */
  private repair(n: number, isPrice: boolean, get: (i: number) => unknown, fail: () => never): boolean {
    const out = isPrice ? this.price : this.volume
    const scale = isPrice ? this.priceScale : this.volumeScale
    const big = new Map<number, bigint>()
    for (let i = 0; i < n; i++) {
      if (out[i] === out[i]) continue
      const d = parseDataDecimal(get(i))
      if (!d.ok || (!isPrice && d.value.units < 0n)) fail()
      if (d.value.scale > scale) {
        // grow at the first entry that needs it and convert again (cheap: a fast pass, not a parse per entry)
        if (isPrice) this.priceScale = d.value.scale
        else this.volumeScale = d.value.scale
        return true
      }
      const u = d.value.units * 10n ** BigInt(scale - d.value.scale)
      // a value only the fast reader's syntax missed (exponent notation) keeps the fast path
      if (u < UNITS_LIMIT_BIG && u > -UNITS_LIMIT_BIG) out[i] = Number(u)
      else big.set(i, u)
    }
    if (isPrice) this.bigPrice = big
    else this.bigVolume = big
    return false
  }
}

/**
 * Creates a {@link ScaledTradeReader}: the shared, allocation-free way to turn trades (columns or
 * objects with decimal strings) into exact integer price and volume units for hot loops.
 *
 * @example
 * const r = createScaledTradeReader({ priceScale: 2 })
 * for (let at = 0, k = 0; at < cols.time.length; at += k) {
 *   k = r.readColumns(cols, at, cols.time.length, at) // at most r.capacity records a call
 *   for (let i = 0; i < k; i++) total += r.volume[i] // units at r.volumeScale (check r.volume[i] === r.volume[i])
 * }
 */
export function createScaledTradeReader(opts: ScaledTradeReaderOptions = {}): ScaledTradeReader {
  return new ScaledTradeReader(opts)
}
