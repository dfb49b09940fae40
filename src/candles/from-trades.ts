import { checkOptions } from '../_lib/closed-options.js'
import { type AsyncTradeInput, feedTrades, feedTradesAsync, type TradeInput } from '../trades/index.js'
import { CandleAggregator } from './aggregator.js'
import { CANDLE_OPTION_KEYS, type Candle, type CandleOptions } from './types.js'

/**
 * Candles from trades: OHLC (the input's price spellings, or the grid's decimals with `tickSize`),
 * `volume`, `value` = exact sum of price x volume, `trades` = count, `session` = the first trade's.
 * Time frames (any unit and count, aligned in `timeZone`) or tick frames (`'100t'`: each candle is 100
 * consecutive trades, timed at its first trade; the last may hold fewer). Trades must come in
 * non-decreasing time (equal times allowed); `sessions` skips other sessions' trades. Buckets without
 * trades give no candle. Throws `MarketDataError` naming the record index and field.
 *
 * @param trades - trades as objects (an array or iterable of `Trade`), `TradeColumns`, or a mix of batches
 * @param opts - options, see {@link CandleOptions}
 * @returns the `Candle[]`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * candlesFromTrades([
 *   { time: Date.UTC(2026, 4, 29, 10, 0, 1), price: '5000.25', volume: '2', side: 'buy' },
 *   { time: Date.UTC(2026, 4, 29, 10, 0, 9), price: '5000.5', volume: '1', side: 'sell' },
 * ], { timeframe: '1m' })
 * // [{ time: Date.UTC(2026, 4, 29, 10), open: '5000.25', high: '5000.5', low: '5000.25', close: '5000.5',
 * //    volume: '3', value: '15001', trades: 2, session: 'MAINSESSION' }]
 */
export function candlesFromTrades(trades: TradeInput, opts: CandleOptions): Candle[] {
  checkOptions(opts, CANDLE_OPTION_KEYS, 'candlesFromTrades')
  const agg = new CandleAggregator(opts)
  feedTrades(trades, agg)
  return agg.finish()
}

/**
 * {@link candlesFromTrades} over an async source (e.g. a cursor yielding `TradeColumns` batches).
 *
 * @param trades - trades as objects (an array or iterable of `Trade`), `TradeColumns`, or a mix of batches
 * @param opts - options, see {@link CandleOptions}
 * @returns a promise of `Candle[]`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example const candles = await candlesFromTradesAsync(cursor, { timeframe: { unit: 'MINUTE', count: 90 } })
 */
export async function candlesFromTradesAsync(trades: AsyncTradeInput, opts: CandleOptions): Promise<Candle[]> {
  checkOptions(opts, CANDLE_OPTION_KEYS, 'candlesFromTradesAsync')
  const agg = new CandleAggregator(opts)
  await feedTradesAsync(trades, agg)
  return agg.finish()
}
