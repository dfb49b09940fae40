/**
 * Trades and candles from CSV or NDJSON text, chunk by chunk, with line-numbered errors, and from the columns
 * of an Arrow table (Polars, DuckDB, Arrow IPC). No file system.
 *
 * @module svc-marketdata/io
 */
// svc-marketdata/io: trades and candles from CSV or NDJSON text, chunk by chunk, with line-numbered errors.
// Pure functions over strings: the caller reads files, sockets or fetch bodies.
export type { TimeFormat, EpochUnit } from './time-input.js'
export type { TextReaderOptions, SideRule } from './reader-options.js'
export type { TextReaderStats, TextBatch, TextReader } from './text-reader.js'
export type { TradeRecord, TradeOf } from './trades.js'
export { createTradeReader, readTrades, readTradeColumns } from './trades.js'
export { createCandleReader, readCandles, readCandleColumns } from './candles.js'
export type { ArrowReaderOptions } from './arrow.js'
export type { ArrowTableLike, ArrowVectorLike, ArrowDataLike, ArrowTypeLike } from './arrow-data.js'
export { tradeColumnsFromArrow, candleColumnsFromArrow, tradesFromArrow, candlesFromArrow } from './arrow.js'
