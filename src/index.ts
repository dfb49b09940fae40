// Public API of svc-marketdata: re-exports only. Each folder's index.ts lists its public names explicitly.
export type { Result } from './result.js'
export { ok, err } from './result.js'
export type { MarketDataErrorCode } from './errors.js'
export { MarketDataError } from './errors.js'
export * from './decimal/index.js'
export * from './time/index.js'
export * from './trades/index.js'
export * from './candles/index.js'
export * from './footprint/index.js'
export * from './tpo/index.js'
export * from './rules/index.js'
export * from './credits/index.js'
export * from './partner/index.js'
export * from './render/index.js'
export * from './sample/index.js'

// The streaming contract of the candle, footprint and TPO aggregators (docs/streaming.md).
export type { Aggregator, AggregatorCheckpoint, AggregatorKind } from './aggregator.js'
