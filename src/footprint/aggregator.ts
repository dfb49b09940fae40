import { MarketDataError } from '../errors.js'
import { feedTrades, type TradeInput } from '../trades/index.js'
import type { Trade, TradeColumns } from '../trades/types.js'
import { FootprintEngine } from './engine.js'
import { engineSink } from './footprint-profiles.js'
import { MSG } from './messages.js'
import type { FootprintOptions, FootprintProfile } from './types.js'

/** A streaming footprint aggregator (see {@link createFootprintAggregator}). */
export interface FootprintAggregator {
  /** Adds one trade. */
  add(trade: Trade): void
  /** Adds a batch of columnar trades (the fast path). */
  addColumns(columns: TradeColumns): void
  /** Adds any batch input: trade objects, columns, or an iterable mixing them. */
  addAll(trades: TradeInput): void
  /**
   * Declares that the stream has reached `time`: closes and returns (in time order) every bucket whose
   * end is <= time. Later trades for a closed bucket are rejected (`late_record`).
   */
  advance(time: number): FootprintProfile[]
  /** Closes and returns every open bucket (end of stream). */
  flush(): FootprintProfile[]
  /** The open buckets as profiles so far, without closing them. */
  snapshot(): FootprintProfile[]
  /** The latest time given to `advance` (-Infinity before the first call). */
  readonly watermark: number
}

/**
 * Creates a streaming footprint aggregator with the options of {@link footprintProfiles}. Trades may
 * arrive in any order among open buckets; memory holds only the open buckets. Call `advance(time)` as
 * the stream's time moves to hand closed profiles out; a trade for a closed bucket then throws
 * `MarketDataError` `late_record`. Streaming gives the same profiles as the batch function. It is a
 * `TradeSink`, so `feedTrades(input, aggregator)` works.
 *
 * @param opts - options, see {@link FootprintOptions}
 * @returns the `FootprintAggregator`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * const agg = createFootprintAggregator({ timeframe: '1m', tickSize: '0.25' })
 * agg.add({ time: Date.UTC(2026, 4, 29, 10, 0, 5), price: '5000.25', volume: '1', side: 'sell' })
 * agg.advance(Date.UTC(2026, 4, 29, 10, 1)) // [profile of 10:00]
 */
export function createFootprintAggregator(opts: FootprintOptions): FootprintAggregator {
  const engine = new FootprintEngine(opts, 'createFootprintAggregator')
  return {
    add(trade) {
      engine.addTrade(trade, 0)
    },
    addColumns(columns) {
      engine.addColumns(columns, 0)
    },
    addAll(trades) {
      feedTrades(trades, engineSink(engine))
    },
    advance(time) {
      if (typeof time !== 'number' || Number.isNaN(time)) throw new MarketDataError('invalid_time', MSG.advance(time), { field: 'time' })
      if (time > engine.watermark) engine.watermark = time
      return engine.close(engine.watermark)
    },
    flush() {
      return engine.close(Infinity)
    },
    snapshot() {
      return engine.snapshot()
    },
    get watermark() {
      return engine.watermark
    },
  }
}
