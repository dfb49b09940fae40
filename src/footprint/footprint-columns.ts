import { checkOptions } from '../_lib/closed-options.js'
import type { TradeInput } from '../trades/index.js'
import { autoRowsColumns } from './auto-columns.js'
import { oneTickRows, wantsAutoRows } from './auto-rows.js'
import { ColumnSink } from './column-sink.js'
import { FootprintEngine } from './engine.js'
import { runEngine } from './footprint-profiles.js'
import { FOOTPRINT_COLUMN_OPTION_KEYS, type FootprintColumnOptions, type FootprintColumns } from './types.js'

/**
 * Volume footprint profiles as columns: the same profiles as {@link footprintProfiles} (same options but
 * `analytics`, same validation and errors, same engine), as numbers in typed arrays instead of one object,
 * row arrays and decimal strings per profile, for pipelines that stay columnar (a bucket's fixed cost on thin
 * data was mostly building those). Rows are grid row indexes (price = `row × rowSizeValue`, exactly);
 * volumes are summed exactly and returned as the double whose shortest form is that exact sum; see
 * {@link FootprintColumns} for how to read each column exactly.
 *
 * @param trades - trades as objects (an array or iterable of `Trade`), `TradeColumns`, or a mix of batches
 * @param opts - options, see {@link FootprintColumnOptions}
 * @returns the `FootprintColumns`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option; `inexact` naming the field for a volume sum with more significant digits than a double carries (`footprintProfiles` returns it as a decimal string)
 * @example
 * const fp = footprintColumnsFromTrades(
 *   [{ time: Date.UTC(2026, 4, 29, 10, 5), price: '5000.25', volume: '2', side: 'buy' }],
 *   { timeframe: '1h', tickSize: '0.25', rowSize: 4 },
 * )
 * fp.rows.row[0] // 5000: the row priced 5000 × rowSizeValue ('1') = 5000.00
 * fp.rows.volumeBuy[0] // 2
 */
export function footprintColumnsFromTrades(trades: TradeInput, opts: FootprintColumnOptions): FootprintColumns {
  checkOptions(opts, FOOTPRINT_COLUMN_OPTION_KEYS, 'footprintColumnsFromTrades')
  if (wantsAutoRows(opts)) return autoRowsColumns(footprintColumnsFromTrades(trades, oneTickRows(opts)))
  const sink = new ColumnSink()
  const engine = new FootprintEngine<void>(opts, 'footprintColumnsFromTrades', sink)
  runEngine(engine, trades)
  // an input error (thrown while reading) comes before a sum a double cannot carry
  if (sink.inexact !== undefined) throw sink.inexact
  return sink.result(engine)
}
