import { exactDouble, POW10 } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { DAY_MS, HOUR_MS, MINUTE_MS, resolveTimeframe, type Timeframe, type TimeframeInput } from '../time/index.js'
import { isTradeColumns, type TradeColumns } from '../trades/index.js'
import { tradeInputKind } from '../trades/feed.js'
import { CandleAggregator, checkCandleColumns, checkTradeColumns, writeColumnsTo } from './aggregator.js'
import { formatSum } from './format.js'
import { CANDLE_MSG } from './messages.js'
import { CANDLE_OPTION_KEYS, RESAMPLE_OPTION_KEYS, type CandleColumns, type CandleOptions, type SourceTimeframeOption } from './types.js'
import { checkOptions } from '../_lib/closed-options.js'

/** Options of {@link resampleCandleColumns} and {@link candleColumnsFromTrades}: those of `resampleCandles` / `candlesFromTrades` but `tickSize` (it shapes decimal strings only). */
export type CandleColumnOptions = Pick<CandleOptions, 'timeframe' | 'timeZone' | 'sessions'>

/** Options of {@link resampleCandleColumns} (internal name): {@link CandleColumnOptions} and `sourceTimeframe`, as `resampleCandles`. */
type ResampleColumnOptions = CandleColumnOptions & SourceTimeframeOption

/**
 * Resamples candle columns into candle columns: the same candles as {@link resampleCandles} (any unit
 * MINUTE..YEAR, any count, aligned in `timeZone`, `sessions` filtering inputs first, no candle for an empty
 * bucket), as numbers instead of decimal strings, for pipelines that stay columnar (no object or string
 * per candle). Prices are the input numbers (selections); `volume`, `value` and `trades` are summed
 * exactly and returned as the number whose shortest form is that exact sum. A sum a double cannot carry
 * (more significant digits than it keeps, e.g. long crypto values) throws `MarketDataError` `inexact`
 * naming the field: `resampleCandles` returns it as a decimal string. The output has `value` / `trades` /
 * `session` columns when the input has them. Bad or out-of-order candles throw `MarketDataError` naming
 * the index and field, as `resampleCandles` does; so does a frame that does not nest (`sourceTimeframe`, as
 * `resampleCandles`: `incompatible`).
 *
 * @param columns - columnar input: equal-length typed arrays
 * @param opts - options, see {@link CandleColumnOptions}
 * @returns the `CandleColumns`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * const m15 = resampleCandleColumns(oneMinuteColumns, { timeframe: '15m' })
 * m15.time.length // candles; m15.volume[0] // 1234.5, exactly the sum of its 1m volumes
 */
export function resampleCandleColumns(columns: CandleColumns, opts: CandleColumnOptions & { sourceTimeframe?: TimeframeInput }): CandleColumns {
  const { agg, tf } = columnAggregator(opts, 'resampleCandles', false)
  checkCandleColumns(columns)
  const n = columns.time.length
  const out = new ColumnOut(outputRows(tf, n, (columns.time[n - 1] as number) - (columns.time[0] as number)), 'resampleCandles')
  writeColumnsTo(agg, out)
  agg.addCandleColumns(columns)
  agg.finish()
  // an input error (thrown above) comes before a sum numbers cannot carry
  if (out.inexact !== undefined) throw out.inexact
  return out.result(columns)
}

/**
 * Candles from trade columns as candle columns: the same candles as {@link candlesFromTrades} (time frames
 * of any unit and count aligned in `timeZone`, or tick frames; `sessions` filtering trades; no candle for an
 * empty bucket), as numbers instead of decimal strings, for pipelines that stay columnar (no object or
 * string per candle). Takes one `TradeColumns` or an iterable of `TradeColumns` batches in time order (a
 * bucket may span batches). Prices are the trades' numbers; `volume` and `value` (sum of price x volume)
 * are summed exactly and returned as the number whose shortest form is that exact sum; a sum a double cannot
 * carry throws `MarketDataError` `inexact` naming the field (`candlesFromTrades` returns it as a decimal
 * string). The output always has `value`, `trades` and `session` (the first kept trade's code), so it can be
 * resampled again with {@link resampleCandleColumns}. Bad or out-of-order trades throw `MarketDataError`
 * naming the index (counted across all batches) and field, as `candlesFromTrades` does.
 *
 * @param trades - trades as objects (an array or iterable of `Trade`), `TradeColumns`, or a mix of batches
 * @param opts - options, see {@link CandleColumnOptions}
 * @returns the `CandleColumns`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * const m1 = candleColumnsFromTrades(tradeColumns, { timeframe: '1m' })
 * m1.time.length // candles; m1.value[0] // 15001.25, exactly the sum of price x volume of its trades
 * candleColumnsFromTrades([dayOne, dayTwo], { timeframe: '15m', timeZone: 'America/New_York' })
 */
export function candleColumnsFromTrades(trades: TradeColumns | Iterable<TradeColumns>, opts: CandleColumnOptions): CandleColumns {
  const { agg, tf } = columnAggregator(opts, 'candlesFromTrades', true)
  const one = isTradeColumns(trades)
  if (one) checkTradeColumns(trades)
  // read without throwing: a revoked Proxy or a throwing getter is refused as any other non-input
  else if (tradeInputKind(trades) === undefined) throw new MarketDataError('invalid_option', CANDLE_MSG.notTradeColumns(trades, -1), { field: 'trades' })
  // batches: no span to size the output from; it grows as candles come
  const n = one ? trades.time.length : 0
  const out = new ColumnOut(one ? outputRows(tf, n, (trades.time[n - 1] as number) - (trades.time[0] as number)) : 1024, 'candlesFromTrades')
  writeColumnsTo(agg, out)
  if (one) agg.addColumns(trades)
  else {
    let k = 0
    for (const batch of trades) {
      if (!isTradeColumns(batch)) throw new MarketDataError('invalid_option', CANDLE_MSG.notTradeColumns(batch, k), { field: 'trades' })
      agg.addColumns(batch)
      k++
    }
  }
  agg.finish()
  // an input error (thrown above) comes before a sum numbers cannot carry
  if (out.inexact !== undefined) throw out.inexact
  return out.result(ALL_COLUMNS)
}

/** Every optional column present (for {@link ColumnOut.result}): candles from trades always have them. */
const ALL_COLUMNS = { value: true, trades: true, session: true }

/**
 * The aggregator of a columns-out call, its options checked in the order of the string-out call
 * (`strings`): options object, timeframe (a tick frame refused unless `ticks`), `tickSize` refused, then
 * zone and sessions.
 */
function columnAggregator(opts: ResampleColumnOptions, strings: string, ticks: boolean): { agg: CandleAggregator; tf: Timeframe } {
  if (typeof opts !== 'object' || opts === null) throw new MarketDataError('invalid_option', 'options: expected an object with a timeframe', { field: 'options' })
  // tickSize is known (refused below with its own reason); sourceTimeframe only when resampling
  checkOptions(opts, ticks ? CANDLE_OPTION_KEYS : RESAMPLE_OPTION_KEYS, ticks ? 'candleColumnsFromTrades' : 'resampleCandleColumns')
  const tf = resolveTimeframe(opts.timeframe)
  if (!ticks && tf.unit === 'TICK') throw new MarketDataError('invalid_option', CANDLE_MSG.tickResample(tf.id), { field: 'timeframe' })
  if ((opts as CandleOptions).tickSize !== undefined) throw new MarketDataError('invalid_option', CANDLE_MSG.columnTickSize(strings), { field: 'tickSize' })
  const agg = new CandleAggregator({ timeframe: tf, ...(opts.timeZone !== undefined ? { timeZone: opts.timeZone } : {}), ...(opts.sessions !== undefined ? { sessions: opts.sessions } : {}), ...(opts.sourceTimeframe !== undefined ? { sourceTimeframe: opts.sourceTimeframe } : {}) })
  return { agg, tf }
}

/** The shortest length of a bucket of one unit, ms (a local day can be 23 hours long; months 28 days). */
const UNIT_MIN_MS: Record<string, number> = { MINUTE: MINUTE_MS, HOUR: HOUR_MS, DAY: DAY_MS - HOUR_MS, WEEK: 7 * DAY_MS - HOUR_MS, MONTH: 28 * DAY_MS - HOUR_MS, QUARTER: 89 * DAY_MS - HOUR_MS, YEAR: 365 * DAY_MS - HOUR_MS }

/**
 * Rows to allocate for the output at first: the buckets the input's time span can hold (one more a day,
 * where frames that do not divide the day restart; for tick frames one per `count` records), at most one per
 * input record, at most 2^17 (about
 * 9 MB of columns; more grow). A guess only: a wrong one (unsorted input, NaN) costs a growth or some unused rows, never a candle.
 * Enough rows at first mean no growth copies and less garbage (1m -> 5m: about 1.2x).
 */
function outputRows(tf: { unit: string; count: number }, n: number, span: number): number {
  // tick frames: at most one candle per `count` trades
  if (tf.unit === 'TICK') return Math.max(16, Math.min(Math.ceil(n / tf.count), 1 << 17))
  const len = (UNIT_MIN_MS[tf.unit] ?? DAY_MS) * tf.count
  const est = Math.floor(span / len) + Math.floor(span / (DAY_MS - HOUR_MS)) + 2
  return est >= 16 ? Math.min(est, n, 1 << 17) : 16
}

/**
 * Growable candle columns that an aggregator writes closed candles to ({@link writeColumnsTo}) instead
 * of making `Candle` objects.
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

  /** `strings`: the function that returns these candles as decimal strings (named in the `inexact` error). */
  constructor(
    cap: number,
    private readonly strings: string,
  ) {
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
   * (number part), trades, session code]; the bigint parts and scales beside it.
   */
  write(st: Float64Array, volHi: bigint, vs: number, valHi: bigint, xs: number): void {
    if (this.n >= this.time.length) this.grow()
    const k = this.n++
    const time = st[0] as number
    this.time[k] = time
    // + 0: a -0 price is 0 (as its decimal form "0" reads back)
    this.open[k] = (st[1] as number) + 0
    this.high[k] = (st[2] as number) + 0
    this.low[k] = (st[3] as number) + 0
    this.close[k] = (st[4] as number) + 0
    this.volume[k] = this.sum(volHi, st[5] as number, vs, 'volume', time)
    this.value[k] = this.sum(valHi, st[6] as number, xs, 'value', time)
    this.trades[k] = st[7] as number
    this.session[k] = st[8] as number
  }

  /**
   * Appends k candles from closed-bucket records (`size` numbers each: start, opener index, high, low,
   * close index, volume units, value units, trades, session code; sums below 2^53, no bigint part), the
   * open and close read from the input columns `O` / `C`, high and low too from `HL` when given (the
   * records then hold their indexes: trade records). The same cells as {@link write} for each.
   */
  writeRecords(r: Float64Array, k: number, size: number, O: Float64Array, C: Float64Array, vs: number, xs: number, HL?: Float64Array): void {
    while (this.n + k > this.time.length) this.grow()
    const { time: tm, open: op, high: hi, low: lo, close: cl, volume: vo, value: va, trades: tr, session: se } = this
    const VP = POW10[vs] as number
    const XP = POW10[xs] as number
    let at = 0
    for (let q = 0; q < k; q++, at += size) {
      const j = this.n++
      const time = r[at] as number
      tm[j] = time
      op[j] = (O[r[at + 1] as number] as number) + 0
      hi[j] = (HL === undefined ? (r[at + 2] as number) : (HL[r[at + 2] as number] as number)) + 0
      lo[j] = (HL === undefined ? (r[at + 3] as number) : (HL[r[at + 3] as number] as number)) + 0
      cl[j] = (C[r[at + 4] as number] as number) + 0
      const v = r[at + 5] as number
      vo[j] = v < 1e15 && vs <= 22 ? v / VP + 0 : this.sum(0n, v, vs, 'volume', time)
      const x = r[at + 6] as number
      // + 0: a -0 sum is 0, as sum() gives it
      va[j] = x < 1e15 && x > -1e15 && xs <= 22 ? x / XP + 0 : this.sum(0n, x, xs, 'value', time)
      tr[j] = r[at + 7] as number
      se[j] = r[at + 8] as number
    }
  }

  private grow(): void {
    const cap = Math.max(16, this.time.length * 2)
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

  /** The candles written, with the optional columns the input has. */
  result(like: { value?: unknown; trades?: unknown; session?: unknown }): CandleColumns {
    const n = this.n
    // full columns are handed out as they are; others are copied to their length (no unused rows kept)
    const fit = <A extends Float64Array | Uint8Array>(a: A): A => (a.length === n ? a : (a.slice(0, n) as A))
    const out: CandleColumns = {
      time: fit(this.time),
      open: fit(this.open),
      high: fit(this.high),
      low: fit(this.low),
      close: fit(this.close),
      volume: fit(this.volume),
    }
    if (like.value !== undefined) out.value = fit(this.value)
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
    if (x !== x) this.inexact ??= new MarketDataError('inexact', CANDLE_MSG.inexact(field, text, time, this.strings), { field })
    return x
  }
}
