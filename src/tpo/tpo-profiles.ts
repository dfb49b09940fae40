import { MarketDataError } from '../errors.js'
import { tradeInputKind } from '../trades/feed.js'
import { TRADE_MSG } from '../trades/messages.js'
import {
  feedTradesAsync,
  isTradeColumns,
  type AsyncTradeInput,
  type Trade,
  type TradeColumns,
} from '../trades/index.js'
import { createTpoAggregator } from './aggregator.js'
import type { TpoAggregator, TpoOptions, TpoProfile } from './types.js'
import { checkOptions } from '../_lib/closed-options.js'
import { TPO_OPTION_KEYS } from './types.js'

/** Trades {@link tpoProfiles} reads: one `TradeColumns`, or trade objects and column batches (any iterable). */
export type TpoTradeInput = TradeColumns | Iterable<Trade | TradeColumns>

/** Pushes every record of `input` into the aggregator, runs of trade objects from arrays at once. */
export function feedTpo(input: TpoTradeInput, agg: TpoAggregator): void {
  const kind = tradeInputKind(input)
  if (kind === 'columns') {
    agg.addColumns(input as TradeColumns)
    return
  }
  if (kind === 'array') {
    // runs of trade objects go through the chunked converter, which hands column batches to addColumns
    agg.addTrades(input as Trade[], 0, (input as Trade[]).length)
    return
  }
  if (kind === undefined) throw new MarketDataError('invalid_option', TRADE_MSG.notIterable(input), { field: 'trades' })
  for (const x of input as Iterable<Trade | TradeColumns>) {
    if (isTradeColumns(x)) agg.addColumns(x)
    else agg.add(x)
  }
}

/**
 * TPO (Market Profile) profiles of trades: one per period (day, week or month frame, in `timeZone`), or
 * one per session type and period with `mergeSessions: 'GROUP_BY_TYPE'`; time order, then PRE_MARKET,
 * MAINSESSION, POST_MARKET. Blocks are `blockSize` buckets (default 30m); a block marks every row between
 * its low and high; rows are `rowSize`-tick rows anchored at 0 and cover the profile's range. Trades may
 * come in any order. Throws `MarketDataError` naming the record index and field of a bad record.
 *
 * @param trades - trades as objects (an array or iterable of `Trade`), `TradeColumns`, or a mix of batches
 * @param opts - options, see {@link TpoOptions}
 * @returns the `TpoProfile[]`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * const [day] = tpoProfiles(trades, { timeframe: '1d', tickSize: '0.25', timeZone: 'America/New_York' })
 * day.poc // "5001.25"; day.rows[0] // ["4998.50", [0, 1], "12", "7"]
 */
export function tpoProfiles(trades: TpoTradeInput, opts: TpoOptions): TpoProfile[] {
  checkOptions(opts, TPO_OPTION_KEYS, 'tpoProfiles')
  const agg = createTpoAggregator(opts)
  feedTpo(trades, agg)
  return agg.flush()
}

/**
 * {@link tpoProfiles} over an async source (a database cursor yielding trades or column batches), or
 * anything `tpoProfiles` takes. Uses the trades module's `feedTradesAsync`.
 *
 * @param trades - trades as objects (an array or iterable of `Trade`), `TradeColumns`, or a mix of batches
 * @param opts - options, see {@link TpoOptions}
 * @returns a promise of `TpoProfile[]`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * const profiles = await tpoProfilesAsync(cursor, { timeframe: '1d', tickSize: '0.25' })
 */
export async function tpoProfilesAsync(trades: AsyncTradeInput, opts: TpoOptions): Promise<TpoProfile[]> {
  checkOptions(opts, TPO_OPTION_KEYS, 'tpoProfilesAsync')
  const agg = createTpoAggregator(opts)
  await feedTradesAsync(trades, agg)
  return agg.flush()
}
