/**
 * fast-check arbitraries and law properties for property tests of your own code (fast-check is an optional peer dependency).
 *
 * @module svc-marketdata/testing
 */
// svc-marketdata/testing: fast-check arbitraries and reusable law properties for users' own property tests.
// A separate entry point (fast-check is an optional peer dependency of this entry only); never imported by src/index.ts.
export {
  TEST_TIME_ZONES,
  timeZoneArb,
  timeframeArb,
  tradesArb,
  tradeColumnsArb,
  splitsArb,
  candleSeriesArb,
} from './arbitraries.js'
export type { TradesArbOptions, CandleSeriesArbOptions } from './arbitraries.js'
export { aggregatorContract, nestingLaw, tilingLaw, splitAt } from './laws.js'
export type { AggregatorContractSpec, Law } from './laws.js'
