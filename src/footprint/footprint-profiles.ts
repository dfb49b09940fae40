import {
  feedTrades,
  feedTradesAsync,
  isTradeColumns,
  type AsyncTradeInput,
  type TradeArraySink,
  type TradeInput,
} from '../trades/index.js'
import type { Trade, TradeColumns } from '../trades/types.js'
import { FootprintEngine } from './engine.js'
import { readColumns } from './read-columns.js'
import { readTrade, readTradeArray } from './read-objects.js'
import { profileSink } from './profile-sink.js'
import type { FootprintOptions, FootprintProfile } from './types.js'
import { checkOptions } from '../_lib/closed-options.js'
import { FOOTPRINT_OPTION_KEYS } from './types.js'
import { autoRows, oneTickRows, wantsAutoRows } from './auto-rows.js'

/** A sink feeding an engine, numbering records across the whole input (for error indexes). */
export function engineSink<Out>(engine: FootprintEngine<Out>): TradeArraySink {
  let seen = 0
  return {
    add(trade: Trade) {
      readTrade(engine, trade, seen++)
    },
    addColumns(c: TradeColumns) {
      readColumns(engine, c, seen)
      seen += c.time.length
    },
    addTrades(trades: ArrayLike<Trade>, from: number, to: number) {
      readTradeArray(engine, trades, from, to, seen)
      seen += to - from
    },
    addTradeRun(trades: ArrayLike<Trade | TradeColumns>, from: number, to: number) {
      const j = readTradeArray(engine, trades as ArrayLike<Trade>, from, to, seen, true)
      seen += j - from
      return j
    },
  }
}

/**
 * Volume footprint profiles: one profile per timeframe bucket that has trades, rows
 * `[price, volumeBuy, volumeSell, tradesCountBuy, tradesCountSell]` in ascending price, where row `price`
 * is `floor(p / rowSizeValue) * rowSizeValue` (grid anchored at 0) and `rowSizeValue = rowSize * tickSize`.
 * Exact: volumes are summed as scaled integers (bigint past 2^52), never through a float. Trades may come
 * in any order; `TradeColumns` is the fast path (an iterable may mix trade objects and column batches).
 * Throws `MarketDataError` for bad options or records (naming the record index and field).
 *
 * @param trades - trades as objects (an array or iterable of `Trade`), `TradeColumns`, or a mix of batches
 * @param opts - options, see {@link FootprintOptions}
 * @returns the `FootprintProfile[]`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * footprintProfiles(
 *   [{ time: Date.UTC(2026, 4, 29, 10, 5), price: '5000.25', volume: '2', side: 'buy' }],
 *   { timeframe: '1h', tickSize: '0.25', rowSize: 4 },
 * )[0].rows // [['5000.00', '2', '0', 1, 0]]
 */
export function footprintProfiles(trades: TradeInput, opts: FootprintOptions): FootprintProfile[] {
  checkOptions(opts, FOOTPRINT_OPTION_KEYS, 'footprintProfiles')
  if (wantsAutoRows(opts)) return autoRows(footprintProfiles(trades, oneTickRows(opts)))
  return runEngine(new FootprintEngine(opts, 'footprintProfiles', profileSink), trades)
}

/** Feeds all of `trades` to the engine and closes every bucket: its sink's outputs in time order. */
export function runEngine<Out>(engine: FootprintEngine<Out>, trades: TradeInput): Out[] {
  if (isTradeColumns(trades) && fewTradesABucket(engine, trades) && timeOrdered(trades))
    return closingAsItGoes(engine, trades)
  feedTrades(trades, engineSink(engine))
  return engine.close(Infinity)
}

/** Records a sorted batch is fed in, closing the buckets behind it after each piece. */
const PIECE = 1024
/**
 * Mean trades a bucket below which a batch is checked for time order and closed piece by piece: with more,
 * the buckets are few, keeping them to the end costs nothing, and the order scan would cost the fast
 * columnar pass about a tenth.
 */
const FEW_TRADES = 1024

/** True when the batch's time span holds more than one bucket (of the first's length) a FEW_TRADES records. */
function fewTradesABucket<Out>(engine: FootprintEngine<Out>, c: TradeColumns): boolean {
  const n = c.time.length
  const first = c.time[0] as number
  const span = (c.time[n - 1] as number) - first
  if (!(n > PIECE && span > 0 && Number.isSafeInteger(first))) return false
  const b = engine.options.bucketer
  b.locate(first)
  return span / (b.end - b.start) > n / FEW_TRADES
}

/**
 * True for well-formed columns (typed arrays of one length) whose times never decrease: then a bucket
 * that ends at or before a record's time gets no later record.
 */
function timeOrdered(c: TradeColumns): boolean {
  const n = c.time.length
  if (
    !(
      c.time instanceof Float64Array &&
      c.price instanceof Float64Array &&
      c.volume instanceof Float64Array &&
      c.side instanceof Uint8Array
    )
  )
    return false
  if (
    c.price.length !== n ||
    c.volume.length !== n ||
    c.side.length !== n ||
    (c.session !== undefined && !(c.session instanceof Uint8Array && c.session.length === n))
  )
    return false
  const t = c.time
  for (let i = 1; i < n; i++) if (!((t[i] as number) >= (t[i - 1] as number))) return false
  return true
}

/**
 * Time-ordered columns, a piece at a time, closing after each piece the buckets that end at or before its
 * last time: the same profiles in the same order as closing everything at the end, but a closed bucket's
 * arrays go to the next buckets and memory holds the open ones only (most of a bucket's fixed cost on
 * thin data was keeping every bucket alive to the end). Error indexes count from the batch's start.
 */
function closingAsItGoes<Out>(engine: FootprintEngine<Out>, c: TradeColumns): Out[] {
  const n = c.time.length
  const out: Out[] = []
  for (let i = 0; i < n; i += PIECE) {
    const j = Math.min(n, i + PIECE)
    const piece: TradeColumns = {
      time: c.time.subarray(i, j),
      price: c.price.subarray(i, j),
      volume: c.volume.subarray(i, j),
      side: c.side.subarray(i, j),
    }
    if (c.session !== undefined) piece.session = c.session.subarray(i, j)
    readColumns(engine, piece, i)
    engine.close(c.time[j - 1] as number, out)
  }
  return engine.close(Infinity, out)
}

/**
 * {@link footprintProfiles} over an async source (e.g. a database cursor yielding `TradeColumns` batches);
 * memory holds the open buckets only, not the input.
 *
 * @param trades - trades as objects (an array or iterable of `Trade`), `TradeColumns`, or a mix of batches
 * @param opts - options, see {@link FootprintOptions}
 * @returns a promise of `FootprintProfile[]`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example const profiles = await footprintProfilesAsync(cursor, { timeframe: '1h', tickSize: '0.25', rowSize: 4 })
 */
export async function footprintProfilesAsync(
  trades: AsyncTradeInput,
  opts: FootprintOptions,
): Promise<FootprintProfile[]> {
  checkOptions(opts, FOOTPRINT_OPTION_KEYS, 'footprintProfilesAsync')
  if (wantsAutoRows(opts)) return autoRows(await footprintProfilesAsync(trades, oneTickRows(opts)))
  const engine = new FootprintEngine(opts, 'footprintProfilesAsync', profileSink)
  await feedTradesAsync(trades, engineSink(engine))
  return engine.close(Infinity)
}
