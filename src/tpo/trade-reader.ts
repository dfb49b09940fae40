import { parseDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { validateTrade, type Trade, type TradeColumns } from '../trades/index.js'
import { TPO_MSG } from './messages.js'

/**
 * A decimal input as the double that carries it exactly (its shortest round-trip form is the same
 * decimal), or NaN when it is not a decimal or a double cannot carry it (more than 15 significant
 * digits that do not survive). Strings of at most 15 significant digits take a fast path.
 */
export function exactDouble(x: unknown): number {
  if (typeof x === 'number') return x === 0 ? 0 : x
  if (typeof x !== 'string') return Number.NaN
  const n = x.length
  if (n === 0 || n > 400) return Number.NaN
  // fast path: at most 15 digits in all, read as exact integer units u (< 10^15 < 2^53) and f decimals;
  // u / 10^f is one correctly rounded division of two exact doubles, i.e. the double nearest the
  // decimal, which is what Number(x) gives (and at most 15 significant digits survive the round trip)
  let i = x.charCodeAt(0) === 45 ? 1 : 0
  const first = i
  let u = 0
  let dot = -1
  for (; i < n; i++) {
    const c = x.charCodeAt(i) - 48
    if (c >= 0 && c <= 9) u = u * 10 + c
    else if (c === -2 && dot < 0) dot = i
    else return Number.NaN
  }
  const digits = n - first - (dot < 0 ? 0 : 1)
  if (dot === first || dot === n - 1 || digits === 0) return Number.NaN // "", ".5", "5.", "-"
  if (digits <= 15) {
    const v = dot < 0 ? u : u / (POW10_F[n - 1 - dot] as number)
    return v === 0 ? 0 : first === 1 ? -v : v
  }
  return slowExactDouble(x)
}

const POW10_F = new Float64Array([1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15])

/** exactDouble of a syntactically valid decimal string of more than 15 digits. */
function slowExactDouble(x: string): number {
  const v = Number(x)
  let first = -1
  let last = -1
  for (let i = 0, k = 0; i < x.length; i++) {
    const c = x.charCodeAt(i)
    if (c === 46 || c === 45) continue
    if (c !== 48) {
      if (first < 0) first = k
      last = k
    }
    k++
  }
  if (first < 0 || last - first < 15) return v === 0 ? 0 : v
  const a = parseDecimal(x)
  const b = parseDecimal(v)
  if (!a.ok || !b.ok || a.value.units !== b.value.units || a.value.scale !== b.value.scale) return Number.NaN
  return v
}

const NONE: unknown = Symbol('none')

/**
 * Converts trade objects into reusable scratch columns, in chunks. Consecutive trades mostly repeat a
 * price or volume string, so it keeps the last string of each and its conversion (a pure function):
 * per reader, no module state.
 */
export class TradeReader {
  readonly cols: Required<TradeColumns>
  private lastPriceText: unknown = NONE
  private lastPrice = Number.NaN
  private lastVolumeText: unknown = NONE
  private lastVolume = Number.NaN

  constructor(n: number) {
    this.cols = { time: new Float64Array(n), price: new Float64Array(n), volume: new Float64Array(n), side: new Uint8Array(n), session: new Uint8Array(n) }
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
    if (ps === this.lastPriceText) p = this.lastPrice
    else {
      p = exactDouble(ps)
      if (p !== p) fail(t, index, 'price')
      if (typeof ps === 'string') {
        this.lastPriceText = ps
        this.lastPrice = p
      }
    }
    c.price[k] = p
    const vs = t.volume
    let v: number
    if (vs === this.lastVolumeText) v = this.lastVolume
    else {
      v = exactDouble(vs)
      if (v !== v) fail(t, index, 'volume')
      if (typeof vs === 'string') {
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
  throw new MarketDataError('invalid_decimal', TPO_MSG.notFloat(field, (t as Record<string, unknown>)[field]), { index, field })
}
