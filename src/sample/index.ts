/**
 * Deterministic sample trades that look like a real market day, for demos, tests and benchmarks.
 *
 * @module svc-marketdata/sample
 */
export type { SampleOptions, SampleDayKind } from './options.js'
export { MAX_MATERIALIZED_TRADES, sampleTrades, sampleTradeBatches, sampleTradeObjects } from './sample-trades.js'
export type { SampleMarket, SampleMarketOptions } from './markets.js'
export { sampleMarketTrades } from './markets.js'
