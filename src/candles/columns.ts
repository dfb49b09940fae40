import { MarketDataError } from '../errors.js'
import { DAY_MS, HOUR_MS, MINUTE_MS, resolveTimeframe, type Timeframe, type TimeframeInput } from '../time/index.js'
import { isTradeColumns, type TradeColumns } from '../trades/index.js'
import { tradeInputKind } from '../trades/feed.js'
import { CandleEngine } from './engine.js'
import { closeStream, columnBatch } from './engine-ops.js'
import { candleColumnsIn } from './read-candle-columns.js'
import { tradeColumnsIn } from './read-trade-columns.js'
import { checkCandleColumns, checkTradeColumns } from './column-checks.js'
import { ColumnOut } from './column-out.js'
import { CANDLE_MSG } from './messages.js'
import {
  CANDLE_COLUMN_OPTION_KEYS,
  RESAMPLE_OPTION_KEYS,
  type CandleColumns,
  type CandleOptions,
  type SourceTimeframeOption,
} from './types.js'
import { checkOptions } from '../_lib/closed-options.js'

/** Options of {@link resampleCandleColumns} and {@link candleColumnsFromTrades}: those of `resampleCandles` / `candlesFromTrades` but `tickSize` (it shapes decimal strings only). */
export type CandleColumnOptions = Pick<CandleOptions, 'timeframe' | 'timeZone' | 'sessions'>

/**
 * Options of {@link candleColumnsFromTrades}: {@link CandleColumnOptions} and `valueText`: `true` returns
 * each candle's exact `value` as decimal text (`valueText: string[]`, no `value` column), so sums a double
 * cannot carry (crypto prices x 8-decimal volumes) come out instead of throwing `inexact` (default `false`).
 */
export type CandleColumnsFromTradesOptions = CandleColumnOptions & { valueText?: boolean }

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
export function resampleCandleColumns(
  columns: CandleColumns,
  opts: CandleColumnOptions & { sourceTimeframe?: TimeframeInput },
): CandleColumns {
  const tf = columnTimeframe(opts, 'resampleCandles', false)
  const out = new ColumnOut(0, 'resampleCandles')
  const e = columnEngine(opts, tf, out)
  checkCandleColumns(columns)
  const n = columns.time.length
  out.reserve(outputRows(tf, n, (columns.time[n - 1] as number) - (columns.time[0] as number)))
  columnBatch(e, columns, checkCandleColumns, (c) => candleColumnsIn(e, c))
  closeStream(e)
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
 * string). With `valueText: true` the output has `valueText` (each candle's exact value as decimal text, one
 * string a candle) instead of the `value` column, and no value sum is refused; `volume` stays a number column.
 * The output always has `value` (or `valueText`), `trades` and `session` (the first kept trade's code), so it can be
 * resampled again with {@link resampleCandleColumns}. Bad or out-of-order trades throw `MarketDataError`
 * naming the index (counted across all batches) and field, as `candlesFromTrades` does.
 *
 * @param trades - trades as objects (an array or iterable of `Trade`), `TradeColumns`, or a mix of batches
 * @param opts - options, see {@link CandleColumnsFromTradesOptions}
 * @returns the `CandleColumns` (with `valueText: string[]` in place of `value` when asked for)
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * candleColumnsFromTrades(btcColumns, { timeframe: '1h', valueText: true }).valueText?.[0] // '6012345.6789012345'
 * const m1 = candleColumnsFromTrades(tradeColumns, { timeframe: '1m' })
 * m1.time.length // candles; m1.value[0] // 15001.25, exactly the sum of price x volume of its trades
 * candleColumnsFromTrades([dayOne, dayTwo], { timeframe: '15m', timeZone: 'America/New_York' })
 */
export function candleColumnsFromTrades(
  trades: TradeColumns | Iterable<TradeColumns>,
  opts: CandleColumnsFromTradesOptions,
): CandleColumns & { valueText?: string[] } {
  const tf = columnTimeframe(opts, 'candlesFromTrades', true)
  const text = opts.valueText
  if (text !== undefined && typeof text !== 'boolean')
    throw new MarketDataError('invalid_option', CANDLE_MSG.valueText(text), { field: 'valueText' })
  const out = new ColumnOut(0, 'candlesFromTrades', text === true)
  const e = columnEngine(opts, tf, out)
  const one = isTradeColumns(trades)
  if (one) checkTradeColumns(trades)
  // read without throwing: a revoked Proxy or a throwing getter is refused as any other non-input
  else if (tradeInputKind(trades) === undefined)
    throw new MarketDataError('invalid_option', CANDLE_MSG.notTradeColumns(trades, -1), { field: 'trades' })
  // batches: no span to size the output from; it grows as candles come
  const n = one ? trades.time.length : 0
  out.reserve(one ? outputRows(tf, n, (trades.time[n - 1] as number) - (trades.time[0] as number)) : 1024)
  const add = (c: TradeColumns): void => columnBatch(e, c, checkTradeColumns, (b) => tradeColumnsIn(e, b))
  if (one) add(trades)
  else {
    let k = 0
    for (const batch of trades) {
      if (!isTradeColumns(batch))
        throw new MarketDataError('invalid_option', CANDLE_MSG.notTradeColumns(batch, k), { field: 'trades' })
      add(batch)
      k++
    }
  }
  closeStream(e)
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
function columnTimeframe(opts: ResampleColumnOptions, strings: string, ticks: boolean): Timeframe {
  if (typeof opts !== 'object' || opts === null)
    throw new MarketDataError('invalid_option', 'options: expected an object with a timeframe', { field: 'options' })
  // tickSize is known (refused below with its own reason); sourceTimeframe only when resampling
  checkOptions(
    opts,
    ticks ? CANDLE_COLUMN_OPTION_KEYS : RESAMPLE_OPTION_KEYS,
    ticks ? 'candleColumnsFromTrades' : 'resampleCandleColumns',
  )
  const tf = resolveTimeframe(opts.timeframe)
  if (!ticks && tf.unit === 'TICK')
    throw new MarketDataError('invalid_option', CANDLE_MSG.tickResample(tf.id), { field: 'timeframe' })
  if ((opts as CandleOptions).tickSize !== undefined)
    throw new MarketDataError('invalid_option', CANDLE_MSG.columnTickSize(strings), { field: 'tickSize' })
  return tf
}

/** The candle engine of the column functions: closed candles go to the column sink `out`. */
function columnEngine(opts: ResampleColumnOptions, tf: Timeframe, out: ColumnOut): CandleEngine {
  return new CandleEngine(
    {
      timeframe: tf,
      ...(opts.timeZone !== undefined ? { timeZone: opts.timeZone } : {}),
      ...(opts.sessions !== undefined ? { sessions: opts.sessions } : {}),
      ...(opts.sourceTimeframe !== undefined ? { sourceTimeframe: opts.sourceTimeframe } : {}),
    },
    out,
  )
}

/** The shortest length of a bucket of one unit, ms (a local day can be 23 hours long; months 28 days). */
const UNIT_MIN_MS: Record<string, number> = {
  MINUTE: MINUTE_MS,
  HOUR: HOUR_MS,
  DAY: DAY_MS - HOUR_MS,
  WEEK: 7 * DAY_MS - HOUR_MS,
  MONTH: 28 * DAY_MS - HOUR_MS,
  QUARTER: 89 * DAY_MS - HOUR_MS,
  YEAR: 365 * DAY_MS - HOUR_MS,
}

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
