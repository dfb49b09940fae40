import type { TradeColumns } from './trades/types.js'

/** Which aggregator wrote a checkpoint. */
export type AggregatorKind = 'candles' | 'footprint' | 'tpo'

/**
 * An aggregator's state as plain JSON data (no bigint, no Infinity, no class): store it anywhere
 * (`JSON.stringify`), then pass it as the `restore` option of the same factory with the same options to
 * continue exactly. `version` is the state layout; another version, another kind, options that differ or
 * a field that was altered (`check`) are refused with `invalid_option` naming the field.
 */
export interface AggregatorCheckpoint {
  readonly format: string
  readonly version: number
  readonly kind: AggregatorKind
  /** The options that shape the output, resolved (the restoring aggregator's must be equal). */
  readonly options: Readonly<Record<string, unknown>>
  /** The aggregator's watermark (an infinity written as a string). */
  readonly watermark: number | string
  /** Open buckets, scales and counters, kind-specific. */
  readonly state: Readonly<Record<string, unknown>>
  /**
   * A hash of the other fields, keys sorted (any store's key order restores). Unkeyed: it catches damage,
   * not a forger; restore checks what the state means, and an untrusted store needs your own signature.
   */
  readonly check: string
}

/**
 * The one streaming contract of the candle, footprint and TPO aggregators: records in, closed outputs out.
 * A refused record changes nothing; a batch call that throws sets `applied` on the `MarketDataError` (the
 * records of the call taken before the refused one); `checkpoint()` + the factory's `restore` option
 * continue a stream exactly; the factories' `maxTime` option bounds record times.
 *
 * @typeParam In - one record (a `Trade`)
 * @typeParam Out - one closed output (a `Candle`, a `FootprintProfile`, a `TpoProfile`)
 * @typeParam Columns - the columnar batch (`TradeColumns`)
 *
 * @example
 * function drain<O>(agg: Aggregator<Trade, O>, batch: TradeColumns, now: number): O[] {
 *   agg.addColumns(batch)
 *   return agg.advance(now)
 * }
 */
export interface Aggregator<In, Out, Columns = TradeColumns> {
  /** Adds one record. @throws MarketDataError for a refused record (it changed nothing). */
  add(record: In): void
  /** Adds a columnar batch (the fast path). @throws MarketDataError with `applied`. */
  addColumns(columns: Columns): void
  /** Adds records[from, to) of an array. @throws MarketDataError with `applied` (resume at `from + applied`). */
  addTrades(records: ArrayLike<In>, from?: number, to?: number): void
  /**
   * Declares that the stream reached `time`: closes every bucket that ends at or before it and returns, in
   * time order, every closed output not returned yet. A later record for a closed bucket is `late_record`.
   */
  advance(time: number): Out[]
  /** The open buckets' outputs so far, without closing them (empty when none is open). */
  snapshot(): Out[]
  /** The state as JSON-safe data, to continue later with the factory's `restore` option. */
  checkpoint(): AggregatorCheckpoint
  /**
   * End of stream: closes every open bucket and returns every closed output not returned yet. The
   * watermark moves past the buckets it closed, so a later record for one of them is `late_record`.
   */
  flush(): Out[]
  /**
   * The time the stream has reached (-Infinity at first): the latest `advance` (or `flush`) time, and for
   * candles, whose records come in time order, the latest record time too. A record for a bucket that
   * ended at or before it is refused (`late_record`; candles also refuse any record before it).
   */
  readonly watermark: number
}
