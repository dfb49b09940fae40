import { MarketDataError } from '../errors.js'
import { appliedBefore, withApplied } from '../_lib/applied.js'
import type { Aggregator, AggregatorCheckpoint } from '../aggregator.js'
import { footprintCheckpoint, restoreFootprint } from './checkpoint.js'
import {
  boundedSink,
  firstPastInColumn,
  firstPastInRecords,
  headOf,
  isAdvanceTime,
  pastMaxTime,
  readMaxTime,
  recordPast,
  timeAt,
} from '../_lib/max-time.js'
import { validateTradeColumnsShape } from '../trades/index.js'
import { feedTrades, type TradeInput } from '../trades/index.js'
import type { Trade } from '../trades/types.js'
import { FootprintEngine } from './engine.js'
import { readColumns } from './read-columns.js'
import { readTrade, readTradeArray } from './read-objects.js'
import { profileSink } from './profile-sink.js'
import { engineSink } from './footprint-profiles.js'
import { FOOTPRINT_MSG } from './messages.js'
import type { FootprintOptions, FootprintProfile } from './types.js'
import { checkOptions } from '../_lib/closed-options.js'
import { FOOTPRINT_OPTION_KEYS } from './types.js'

/** Options of {@link createFootprintAggregator}: those of {@link footprintProfiles}, and the stream's own. */
export interface FootprintAggregatorOptions extends Omit<FootprintOptions, 'rowSize'> {
  /** Row height in ticks, an integer >= 1 (default 1); not `'auto'`, which needs the whole result's range. */
  rowSize?: number
  /**
   * Latest record time accepted (UTC epoch ms, inclusive). A record stamped after it is refused with
   * `out_of_range` and changes nothing. Default: no bound.
   */
  maxTime?: number
  /**
   * A state from `checkpoint()` (after `JSON.stringify` / `JSON.parse` as you like): the aggregator
   * continues exactly where that one stood. The options must shape the output as the checkpointed
   * aggregator's did, else `invalid_option` naming `restore.options.<name>`; every field is validated.
   */
  restore?: AggregatorCheckpoint
}

/**
 * A streaming footprint aggregator (see {@link createFootprintAggregator}): the {@link Aggregator} contract
 * over trades and footprint profiles, plus `addAll` for inputs that mix trade objects and column batches.
 */
export interface FootprintAggregator extends Aggregator<Trade, FootprintProfile> {
  /** Adds any batch input: trade objects, columns, or an iterable mixing them (`applied` counts across it). */
  addAll(trades: TradeInput): void
}

/**
 * Creates a streaming footprint aggregator with the options of {@link footprintProfiles}. Trades may
 * arrive in any order among open buckets; memory holds only the open buckets. Call `advance(time)` as
 * the stream's time moves to hand closed profiles out; a trade for a closed bucket then throws
 * `MarketDataError` `late_record`. Streaming gives the same profiles as the batch function. It is a
 * `TradeSink`, so `feedTrades(input, aggregator)` works. `checkpoint()` + `restore` continue a stream
 * after a restart; `maxTime` bounds record times (docs/streaming.md).
 *
 * @param opts - the options of {@link footprintProfiles}, plus `maxTime` and `restore`
 * @returns the aggregator
 * @throws MarketDataError `invalid_option` for a bad option or a refused `restore` state (naming the field)
 *
 * @param opts - options, see {@link FootprintOptions}
 * @returns the `FootprintAggregator`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * const agg = createFootprintAggregator({ timeframe: '1m', tickSize: '0.25' })
 * agg.add({ time: Date.UTC(2026, 4, 29, 10, 0, 5), price: '5000.25', volume: '1', side: 'sell' })
 * agg.advance(Date.UTC(2026, 4, 29, 10, 1)) // [profile of 10:00]
 */
export function createFootprintAggregator(opts: FootprintAggregatorOptions): FootprintAggregator {
  checkOptions(opts, [...FOOTPRINT_OPTION_KEYS, 'restore', 'maxTime'], 'createFootprintAggregator')
  const engine = new FootprintEngine(opts, 'createFootprintAggregator', profileSink)
  const maxTime = readMaxTime(opts.maxTime)
  if (opts.restore !== undefined) restoreFootprint(engine, opts.restore)
  return {
    add(trade) {
      if (maxTime !== undefined) {
        const t = recordPast(trade, maxTime)
        if (t !== undefined) throw pastMaxTime(t, maxTime, 0)
      }
      readTrade(engine, trade, 0)
    },
    addColumns(columns) {
      try {
        let past = -1
        if (maxTime !== undefined && (past = firstPastInColumn(columns, maxTime)) >= 0) {
          const shape = validateTradeColumnsShape(columns)
          if (!shape.ok) throw shape.error
          readColumns(engine, headOf(columns, past), 0)
          throw pastMaxTime(columns.time[past] as number, maxTime, past)
        }
        readColumns(engine, columns, 0)
      } catch (e) {
        throw withApplied(e, appliedBefore(e, 0))
      }
    },
    addTrades(trades, from = 0, to = trades.length) {
      try {
        const past = maxTime === undefined ? -1 : firstPastInRecords(trades, from, to, maxTime)
        readTradeArray(engine, trades, from, past >= 0 ? past : to, 0)
        if (past >= 0) throw pastMaxTime(timeAt(trades, past), maxTime as number, past - from)
      } catch (e) {
        throw withApplied(e, appliedBefore(e, 0))
      }
    },
    addAll(trades) {
      try {
        feedTrades(trades, maxTime === undefined ? engineSink(engine) : boundedSink(engineSink(engine), maxTime))
      } catch (e) {
        throw withApplied(e, appliedBefore(e, 0))
      }
    },
    advance(time) {
      if (!isAdvanceTime(time, true))
        throw new MarketDataError('invalid_time', FOOTPRINT_MSG.advance(time), { field: 'time' })
      if (time > engine.watermark) engine.watermark = time
      return engine.close(engine.watermark)
    },
    flush() {
      // the watermark moves past the buckets it closes: a later trade for one of them is late
      for (const st of engine.openBuckets()) if (st.end > engine.watermark) engine.watermark = st.end
      return engine.close(Infinity)
    },
    snapshot() {
      return engine.snapshot()
    },
    checkpoint() {
      return footprintCheckpoint(engine)
    },
    get watermark() {
      return engine.watermark
    },
  }
}
