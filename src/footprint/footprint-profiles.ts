import type { Trade, TradeColumns } from '../trades/types.js'
import { FootprintEngine, isColumns } from './engine.js'
import type { FootprintOptions, FootprintProfile } from './types.js'

/**
 * Volume footprint profiles: one profile per timeframe bucket that has trades, rows
 * `[price, volumeBuy, volumeSell, tradesCountBuy, tradesCountSell]` in ascending price, where row `price`
 * is `floor(p / rowSizeValue) * rowSizeValue` (grid anchored at 0) and `rowSizeValue = rowSize * tickSize`.
 * Exact: volumes are summed as scaled integers (bigint past 2^52), never through a float. Trades may come
 * in any order; `TradeColumns` is the fast path. Throws `MarketDataError` for bad options or records.
 *
 * @example
 * footprintProfiles(
 *   [{ time: Date.UTC(2026, 4, 29, 10, 5), price: '5000.25', volume: '2', side: 'buy' }],
 *   { timeframe: '1h', tickSize: '0.25', rowSize: 4 },
 * )[0].rows // [['5000.00', '2', '0', 1, 0]]
 */
export function footprintProfiles(trades: TradeColumns | Iterable<Trade>, opts: FootprintOptions): FootprintProfile[] {
  const engine = new FootprintEngine(opts, 'footprintProfiles')
  if (isColumns(trades)) engine.addColumns(trades)
  else engine.addTrades(trades)
  return engine.close(Infinity)
}
