import { inputKind } from '../_lib/input-kind.js'
import { MarketDataError } from '../errors.js'
import { resolveTimeframe } from '../time/index.js'
import { CandleAggregator } from './aggregator.js'
import { CANDLE_MSG } from './messages.js'
import type { Candle, CandleColumns, CandleInput, CandleOptions } from './types.js'

/** Candles a resampling function accepts: objects (array or iterable), one `CandleColumns`, or an iterable mixing both. */
export type CandleSource = Iterable<CandleInput | CandleColumns> | CandleColumns

const isCandleColumns = (x: unknown): x is CandleColumns =>
  typeof x === 'object' && x !== null && (x as { time?: unknown }).time instanceof Float64Array

/** Pushes candles into an aggregator in order. */
export function feedCandles(input: CandleSource, agg: CandleAggregator): void {
  // read without throwing, as trade inputs: a shape that cannot be read is refused as any other non-input
  const kind = inputKind(input, isCandleColumns)
  if (kind === undefined) throw new MarketDataError('invalid_option', CANDLE_MSG.notCandles(input), { field: 'candles' })
  if (kind === 'columns') {
    agg.addCandleColumns(input as CandleColumns)
    return
  }
  if (Array.isArray(input)) {
    let i = 0
    const n = input.length
    while (i < n) {
      const x = input[i]
      if (isCandleColumns(x)) {
        agg.addCandleColumns(x)
        i++
        continue
      }
      let j = i + 1
      while (j < n && !isCandleColumns(input[j])) j++
      agg.addCandles(input as CandleInput[], i, j)
      i = j
    }
    return
  }
  for (const x of input as Iterable<CandleInput | CandleColumns>) {
    if (isCandleColumns(x)) agg.addCandleColumns(x)
    else agg.addCandle(x)
  }
}

/**
 * Resamples candles into a larger frame of any unit MINUTE..YEAR and any count >= 1 (5m, 90m, 4h, 2d,
 * 2w, 1M, 1Q, 1y ...), aligned in `timeZone` as every frame aligns: open = first, close = last, high = max,
 * low = min, volume / value / trades summed exactly (`value` / `trades` only when every input candle of
 * the bucket has them); `session` = the first input candle's; `sessions` filters inputs first; buckets
 * without input give no candle. Input in non-decreasing time order; equal times are allowed and taken
 * in input order. Throws `MarketDataError` naming the index and field of a bad or out-of-order candle.
 *
 * @param candles - the input candles, in any order
 * @param opts - options, see {@link CandleOptions}
 * @returns the `Candle[]`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * resampleCandles(oneMinuteCandles, { timeframe: '15m' })
 * resampleCandles(dailyColumns, { timeframe: { unit: 'QUARTER', count: 1 }, timeZone: 'America/New_York' })
 */
export function resampleCandles(candles: CandleSource, opts: CandleOptions): Candle[] {
  const tf = resolveTimeframe(opts?.timeframe)
  if (tf.unit === 'TICK') throw new MarketDataError('invalid_option', CANDLE_MSG.tickResample(tf.id), { field: 'timeframe' })
  const agg = new CandleAggregator({ ...opts, timeframe: tf })
  feedCandles(candles, agg)
  return agg.finish()
}
