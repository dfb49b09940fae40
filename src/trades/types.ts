import type { DecimalInput } from '../decimal/types.js'

/** Trading session of a trade or candle; interface A codes 0, 1, 2. A record without one is `MAINSESSION`. */
export type SessionType = 'MAINSESSION' | 'PRE_MARKET' | 'POST_MARKET'

/** Aggressor side of a trade. In columns: 1 = buy, 2 = sell (0 is invalid). */
export type Side = 'buy' | 'sell'

/** One trade. `time` is UTC epoch milliseconds; price and volume are exact decimals (a number is read by its shortest round-trip form). */
export interface Trade {
  time: number
  price: DecimalInput
  volume: DecimalInput
  side: Side
  session?: SessionType
}

/**
 * Columnar trades, the fast path: equal-length arrays. `side`: 1 = buy, 2 = sell.
 * `session` (optional): 0 = MAINSESSION, 1 = PRE_MARKET, 2 = POST_MARKET (interface A codes).
 */
export interface TradeColumns {
  time: Float64Array
  price: Float64Array
  volume: Float64Array
  side: Uint8Array
  session?: Uint8Array
}

/** Session codes in columns and on interface A. */
export const SESSION_CODES: Readonly<Record<SessionType, number>> = { MAINSESSION: 0, PRE_MARKET: 1, POST_MARKET: 2 }
/** Session names by code. */
export const SESSION_NAMES: readonly SessionType[] = ['MAINSESSION', 'PRE_MARKET', 'POST_MARKET']

/**
 * Trades a batch function accepts: trade objects (array or any iterable), one `TradeColumns`, or an
 * iterable mixing trade objects and `TradeColumns` batches (read in order).
 */
export type TradeInput = Iterable<Trade | TradeColumns> | TradeColumns

/** An asynchronous source of trades: anything {@link TradeInput} is, or an async iterable of trades and batches. */
export type AsyncTradeInput = TradeInput | AsyncIterable<Trade | TradeColumns>

/** What {@link feedTrades} pushes records into: every aggregator of the library is one. */
export interface TradeSink {
  add(trade: Trade): void
  addColumns(columns: TradeColumns): void
}

/** A sink that can also take a run of trade objects from an array at once (the library's aggregators can). */
export interface TradeArraySink extends TradeSink {
  addTrades?(trades: ArrayLike<Trade>, from: number, to: number): void
  /**
   * Takes trade objects of `trades` from `from` on (`trades[from]` is not a `TradeColumns` batch) and returns
   * the index where it stopped: after at least one record, and at the latest at the first batch or at `to`.
   * With it `feedTrades` hands a sink a whole array at once and does not scan it for batches first (the
   * sink's own loop sees a batch where a trade's `time` is not a number). A sink that returns `from` took
   * nothing: the records then go through `addTrades` / `add`.
   */
  addTradeRun?(trades: ArrayLike<Trade | TradeColumns>, from: number, to: number): number
}
