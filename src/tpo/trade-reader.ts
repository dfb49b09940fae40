import { exactDouble, type ExactDecimal } from '../decimal/index.js'
import { parseDataDecimal } from '../decimal/parse.js'
import { MarketDataError } from '../errors.js'
import { validateTrade, type Trade, type TradeColumns } from '../trades/index.js'
import { TPO_MSG } from './messages.js'

const NONE: unknown = Symbol('none')

/**
 * Converts trade objects into reusable scratch columns, in chunks. Consecutive trades mostly repeat a
 * price or volume string, so it keeps the last string of each and its conversion (a pure function):
 * per reader, no module state.
 */
export class TradeReader {
  cols: Required<TradeColumns>
  private lastPriceText: unknown = NONE
  private lastPrice = Number.NaN
  private lastVolumeText: unknown = NONE
  private lastVolume = Number.NaN
  /**
   * The exact volume of the trade {@link write} wrote last when a double cannot carry it (more
   * significant digits than a double keeps): its column entry is NaN and the engine adds these units
   * exactly (bigint), as the footprint does. Undefined otherwise.
   */
  exactVolume: ExactDecimal | undefined = undefined
  /**
   * The exact price of the trade {@link write} wrote last when a double cannot hold it: its column entry
   * is NaN and the engine places the price exactly (its row and its block's prices), as the footprint
   * does. Undefined otherwise.
   */
  exactPrice: ExactDecimal | undefined = undefined

  /** Columns of `n` rows to start with (at least 1); {@link reserve} grows them. */
  constructor(n: number) {
    this.cols = TradeReader.columns(Math.max(1, n))
  }

  private static columns(n: number): Required<TradeColumns> {
    return {
      time: new Float64Array(n),
      price: new Float64Array(n),
      volume: new Float64Array(n),
      side: new Uint8Array(n),
      session: new Uint8Array(n),
    }
  }

  /**
   * The columns, with room for at least `m` rows (grown to the next power of two: a call with a few
   * trades allocates a few rows, a long stream soon reaches its chunk size and stays there).
   */
  reserve(m: number): Required<TradeColumns> {
    let n = this.cols.time.length
    if (n >= m) return this.cols
    while (n < m) n *= 2
    this.cols = TradeReader.columns(n)
    return this.cols
  }

  /**
   * Writes trades `from..from+m-1` into rows `0..m-1` of the columns and returns how many it wrote: it
   * stops, writing nothing for it, at the first that is a `TradeColumns` batch or that {@link write}
   * would refuse (the caller hands that one to `write` for its error).
   */
  fill(trades: ArrayLike<Trade>, from: number, m: number): number {
    const c = this.cols
    const time = c.time
    const price = c.price
    const volume = c.volume
    const side = c.side
    const session = c.session
    let lpt = this.lastPriceText
    let lp = this.lastPrice
    let lvt = this.lastVolumeText
    let lv = this.lastVolume
    let k = 0
    for (; k < m; k++) {
      const t = trades[from + k] as Trade
      if (typeof t !== 'object' || t === null) break
      const tm = t.time
      const ps = t.price
      let p = lp
      if (ps !== lpt) {
        p = exactDouble(ps)
        if (p !== p) break
        if (typeof ps === 'string') {
          lpt = ps
          lp = p
        }
      }
      const vs = t.volume
      let v = lv
      if (vs !== lvt) {
        v = exactDouble(vs)
        if (v !== v) break
        if (typeof vs === 'string') {
          lvt = vs
          lv = v
        }
      }
      const sd = t.side
      const sd1 = sd === 'buy' ? 1 : sd === 'sell' ? 2 : 0
      const ss = t.session
      const sc = ss === undefined || ss === 'MAINSESSION' ? 0 : ss === 'PRE_MARKET' ? 1 : ss === 'POST_MARKET' ? 2 : 3
      if (sd1 === 0 || sc === 3 || (typeof tm !== 'number' && (tm as unknown) instanceof Float64Array)) break
      time[k] = typeof tm === 'number' ? tm : Number.NaN
      price[k] = p
      volume[k] = v
      side[k] = sd1
      session[k] = sc
    }
    this.lastPriceText = lpt
    this.lastPrice = lp
    this.lastVolumeText = lvt
    this.lastVolume = lv
    return k
  }

  /**
   * Writes trade `t` into row `k` of the columns; throws `MarketDataError` naming `index` and the field
   * for what the columnar loop cannot check itself (object shape, strings, side and session names).
   * Returns false, writing nothing, when `t` is a `TradeColumns` batch (mixed inputs).
   */
  write(t: Trade, k: number, index: number): boolean {
    const c = this.cols
    if (typeof t !== 'object' || t === null) fail(t, index, 'price')
    const time = t.time
    if (typeof time !== 'number') {
      if ((time as unknown) instanceof Float64Array) return false // a TradeColumns batch inside a mixed array
      c.time[k] = Number.NaN
    } else c.time[k] = time
    const ps = t.price
    let p: number
    this.exactPrice = undefined
    if (ps === this.lastPriceText) p = this.lastPrice
    else {
      p = exactDouble(ps)
      if (p !== p) {
        const d = parseDataDecimal(ps)
        if (!d.ok) fail(t, index, 'price')
        this.exactPrice = d.value
      } else if (typeof ps === 'string') {
        this.lastPriceText = ps
        this.lastPrice = p
      }
    }
    c.price[k] = p
    const vs = t.volume
    let v: number
    this.exactVolume = undefined
    if (vs === this.lastVolumeText) v = this.lastVolume
    else {
      v = exactDouble(vs)
      if (v !== v) {
        const d = parseDataDecimal(vs)
        if (!d.ok || d.value.units < 0n) fail(t, index, 'volume')
        this.exactVolume = d.value
      } else if (typeof vs === 'string') {
        this.lastVolumeText = vs
        this.lastVolume = v
      }
    }
    c.volume[k] = v
    const s = t.side
    if (s === 'buy') c.side[k] = 1
    else if (s === 'sell') c.side[k] = 2
    else fail(t, index, 'price')
    const ss = t.session
    if (ss === undefined || ss === 'MAINSESSION') c.session[k] = 0
    else if (ss === 'PRE_MARKET') c.session[k] = 1
    else if (ss === 'POST_MARKET') c.session[k] = 2
    else fail(t, index, 'price')
    return true
  }
}

/** Throws the trades module's own error for a bad trade object (same codes and messages library-wide). */
function fail(t: unknown, index: number, field: 'price' | 'volume'): never {
  const r = validateTrade(t, index)
  if (!r.ok) throw r.error
  // a valid decimal string a double cannot carry exactly: refused rather than rounded, as tradesToColumns does
  throw new MarketDataError('invalid_decimal', TPO_MSG.notFloat(field, (t as Record<string, unknown>)[field]), {
    index,
    field,
  })
}
