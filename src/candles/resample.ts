import { inputKind } from '../_lib/input-kind.js'
import { MarketDataError } from '../errors.js'
import { resolveTimeframe, type TimeframeInput } from '../time/index.js'
import { CandleAggregator } from './aggregator.js'
import { CANDLE_MSG } from './messages.js'
import { RESAMPLE_OPTION_KEYS, type Candle, type CandleColumns, type CandleInput, type CandleOptions } from './types.js'
import { checkOptions } from '../_lib/closed-options.js'

/** Candles a resampling function accepts: objects (array or iterable), one `CandleColumns`, or an iterable mixing both. */
export type CandleSource = Iterable<CandleInput | CandleColumns> | CandleColumns

const isCandleColumns = (x: unknown): x is CandleColumns =>
  typeof x === 'object' && x !== null && (x as { time?: unknown }).time instanceof Float64Array

/** Pushes candles into an aggregator in order. */
export function feedCandles(input: CandleSource, agg: CandleAggregator): void {
  // read without throwing, as trade inputs: a shape that cannot be read is refused as any other non-input
  const kind = inputKind(input, isCandleColumns)
  if (kind === undefined)
    throw new MarketDataError('invalid_option', CANDLE_MSG.notCandles(input), { field: 'candles' })
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
 * Resampling never relabels: every target bucket must hold whole source buckets. With `sourceTimeframe`
 * (the input's frame) each candle's source bucket is checked in `timeZone`; without it the source frame
 * is inferred from the smallest positive gap between consecutive candle starts (minutes, local days or
 * months). A candle whose bucket holds a target boundary (`5m` into `7m`, any finer target) is refused
 * with `MarketDataError` `incompatible` naming its index, its bucket and the boundary.
 *
 * @param candles - candle objects, `CandleColumns`, or an iterable mixing both, in time order
 * @param opts - `timeframe`, `timeZone`, `sessions`, `tickSize` and `sourceTimeframe`; unknown keys are refused
 * @returns the resampled candles in time order
 * @throws MarketDataError for a bad candle or option, or a frame that does not nest (`incompatible`)
 *
 * @example
 * resampleCandles(oneMinuteCandles, { timeframe: '15m' })
 * resampleCandles(dailyColumns, { timeframe: { unit: 'QUARTER', count: 1 }, timeZone: 'America/New_York' })
 * resampleCandles(sparseFiveMinuteCandles, { timeframe: '15m', sourceTimeframe: '5m' })
 */
export function resampleCandles(
  candles: CandleSource,
  opts: CandleOptions & { sourceTimeframe?: TimeframeInput },
): Candle[] {
  checkOptions(opts, RESAMPLE_OPTION_KEYS, 'resampleCandles')
  const tf = resolveTimeframe(opts?.timeframe)
  if (tf.unit === 'TICK')
    throw new MarketDataError('invalid_option', CANDLE_MSG.tickResample(tf.id), { field: 'timeframe' })
  const agg = new CandleAggregator({ ...opts, timeframe: tf })
  feedCandles(candles, agg)
  return agg.finish()
}
