// The growable candle columns an aggregator writes closed candles into (candleColumnsFromTrades and
// resampleCandleColumns): numbers, no Candle object or string per candle.
import { exactDouble, POW10 } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { formatSum, LIMB_BIG, limbSumText } from './format.js'
import { CANDLE_MSG } from './messages.js'
import type { CandleColumns } from './types.js'
import {
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
  W_CLOSE,
  W_HIGH,
  W_LOW,
  W_OPEN,
  W_SESSION,
  W_TIME,
  W_TRADES,
  W_VALUE,
  W_VOLUME,
} from './loop-slots.js'

/**
 * Growable candle columns, the column sink of a candle engine (given at its construction): closed candles
 * are written here as numbers instead of made into `Candle` objects.
 */
export class ColumnOut {
  n = 0
  /** The first sum a double cannot carry (its cell holds NaN). */
  inexact: MarketDataError | undefined = undefined
  time: Float64Array
  open: Float64Array
  high: Float64Array
  low: Float64Array
  close: Float64Array
  volume: Float64Array
  value: Float64Array
  trades: Float64Array
  session: Uint8Array
  /** With `valueText`: each candle's exact `value` as decimal text (the `value` column is then not written). */
  readonly valueText: string[] | undefined

  /**
   * `strings`: the function that returns these candles as decimal strings (named in the `inexact` error);
   * `valueText`: write `value` as exact decimal text instead of a number (any sum, none refused).
   */
  constructor(
    cap: number,
    private readonly strings: string,
    valueText = false,
  ) {
    this.valueText = valueText ? [] : undefined
    this.time = new Float64Array(cap)
    this.open = new Float64Array(cap)
    this.high = new Float64Array(cap)
    this.low = new Float64Array(cap)
    this.close = new Float64Array(cap)
    this.volume = new Float64Array(cap)
    this.value = new Float64Array(cap)
    this.trades = new Float64Array(cap)
    this.session = new Uint8Array(cap)
  }

  /**
   * Appends a candle: st holds [time, open, high, low, close, volume units (number part), value units
   * (number part), trades, session code]; the bigint parts and scales beside it, and the value's high limb
   * `valMid` (weighted by 2^26: value = valHi + valMid * 2^26 + number part).
   */
  write(st: Float64Array, volHi: bigint, vs: number, valHi: bigint, xs: number, valMid = 0): void {
    if (this.n >= this.time.length) this.grow()
    const k = this.n++
    const time = st[W_TIME] as number
    this.time[k] = time
    // + 0: a -0 price is 0 (as its decimal form "0" reads back)
    this.open[k] = (st[W_OPEN] as number) + 0
    this.high[k] = (st[W_HIGH] as number) + 0
    this.low[k] = (st[W_LOW] as number) + 0
    this.close[k] = (st[W_CLOSE] as number) + 0
    this.volume[k] = this.sum(volHi, st[W_VOLUME] as number, vs, 'volume', time)
    const x = st[W_VALUE] as number
    if (this.valueText !== undefined) this.valueText.push(limbSumText(valHi, valMid, x, xs))
    else this.value[k] = this.sum(valMid === 0 ? valHi : valHi + BigInt(valMid) * LIMB_BIG, x, xs, 'value', time)
    this.trades[k] = st[W_TRADES] as number
    this.session[k] = st[W_SESSION] as number
  }

  /**
   * Appends k candles from closed-bucket records (`size` numbers each: start, opener index, high, low,
   * close index, volume units, value units, trades, session code, the value's high limb; sums below 2^53,
   * no bigint part), the
   * open and close read from the input columns `O` / `C`, high and low too from `HL` when given (the
   * records then hold their indexes: trade records). The same cells as {@link write} for each.
   */
  writeRecords(
    r: Float64Array,
    k: number,
    size: number,
    O: Float64Array,
    C: Float64Array,
    vs: number,
    xs: number,
    HL?: Float64Array,
  ): void {
    while (this.n + k > this.time.length) this.grow()
    const { time: tm, open: op, high: hi, low: lo, close: cl, volume: vo, value: va, trades: tr, session: se } = this
    const VP = POW10[vs] as number
    const XP = POW10[xs] as number
    const text = this.valueText
    let at = 0
    for (let q = 0; q < k; q++, at += size) {
      const j = this.n++
      const time = r[at + REC_START] as number
      tm[j] = time
      op[j] = (O[r[at + REC_OPEN_AT] as number] as number) + 0
      hi[j] = (HL === undefined ? (r[at + REC_HIGH] as number) : (HL[r[at + REC_HIGH] as number] as number)) + 0
      lo[j] = (HL === undefined ? (r[at + REC_LOW] as number) : (HL[r[at + REC_LOW] as number] as number)) + 0
      cl[j] = (C[r[at + REC_CLOSE_AT] as number] as number) + 0
      const v = r[at + REC_VOLUME] as number
      vo[j] = v < 1e15 && vs <= 22 ? v / VP + 0 : this.sum(0n, v, vs, 'volume', time)
      const x = r[at + REC_VALUE] as number
      const mid = r[at + REC_VALUE_MID] as number
      if (text !== undefined) text.push(mid === 0 ? formatSum(0n, x, xs) : limbSumText(0n, mid, x, xs))
      // + 0: a -0 sum is 0, as sum() gives it
      else if (mid === 0) va[j] = x < 1e15 && x > -1e15 && xs <= 22 ? x / XP + 0 : this.sum(0n, x, xs, 'value', time)
      else va[j] = this.sum(BigInt(mid) * LIMB_BIG, x, xs, 'value', time)
      tr[j] = r[at + REC_TRADES] as number
      se[j] = r[at + REC_SESSION] as number
    }
  }

  /** Grows the columns to hold at least `cap` candles (a size known once the input is checked). */
  reserve(cap: number): void {
    if (cap > this.time.length) this.grow(cap)
  }

  private grow(min = 0): void {
    const cap = Math.max(16, this.time.length * 2, min)
    const f = (a: Float64Array): Float64Array => {
      const b = new Float64Array(cap)
      b.set(a)
      return b
    }
    this.time = f(this.time)
    this.open = f(this.open)
    this.high = f(this.high)
    this.low = f(this.low)
    this.close = f(this.close)
    this.volume = f(this.volume)
    this.value = f(this.value)
    this.trades = f(this.trades)
    const s = new Uint8Array(cap)
    s.set(this.session)
    this.session = s
  }

  /** The candles written, with the optional columns the input has (`valueText` instead of `value` when written as text). */
  result(like: { value?: unknown; trades?: unknown; session?: unknown }): CandleColumns & { valueText?: string[] } {
    const n = this.n
    // full columns are handed out as they are; others are copied to their length (no unused rows kept)
    const fit = <A extends Float64Array | Uint8Array>(a: A): A => (a.length === n ? a : (a.slice(0, n) as A))
    const out: CandleColumns & { valueText?: string[] } = {
      time: fit(this.time),
      open: fit(this.open),
      high: fit(this.high),
      low: fit(this.low),
      close: fit(this.close),
      volume: fit(this.volume),
    }
    if (this.valueText !== undefined) out.valueText = this.valueText
    else if (like.value !== undefined) out.value = fit(this.value)
    if (like.trades !== undefined) out.trades = fit(this.trades)
    if (like.session !== undefined) out.session = fit(this.session)
    return out
  }

  /**
   * An exact sum (bigint part + number part, units at `scale`) as the number whose shortest form is that
   * decimal, or NaN with `inexact` set. Up to 15 significant digits a double always carries the decimal
   * (and u / 10^scale is the correctly rounded quotient, i.e. that double); beyond, the decimal's text decides.
   */
  private sum(hi: bigint, lo: number, scale: number, field: string, time: number): number {
    if (hi === 0n) {
      if (lo === 0) return 0
      if (lo < 1e15 && lo > -1e15 && scale <= 22) return lo / (POW10[scale] as number)
    }
    const text = formatSum(hi, lo, scale)
    const x = exactDouble(text)
    if (x !== x)
      this.inexact ??= new MarketDataError('inexact', CANDLE_MSG.inexact(field, text, time, this.strings), { field })
    return x
  }
}
