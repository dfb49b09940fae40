/**
 * The computations: trades in; candles, footprint and TPO profiles out, with exact decimals and calendar-correct buckets.
 *
 * @module svc-marketdata
 */
// svc-marketdata: the computations. Trades in; candles, footprint and TPO profiles out; exact decimals, calendar-
// correct time buckets. An explicit list: what is not named here is internal. The service rules are in
// `svc-marketdata/service`, profile analytics in `/analytics`, renderings in `/render`, text readers in `/io`, sample data in `/sample`, property-test
// helpers in `/testing`.
export type { Result } from './result.js'
export { ok, err } from './result.js'
export type { MarketDataErrorCode } from './errors.js'
export { MarketDataError } from './errors.js'

// exact decimals
export type { DecimalInput, ExactDecimal } from './decimal/index.js'
export { parseDecimal, decimalToString, formatUnits, floorToGrid } from './decimal/index.js'

// time: frames and buckets
export type {
  TimeUnit,
  Timeframe,
  TimeframeId,
  TimeframeInput,
  TimeframeRule,
  BucketOptions,
  Bucketer,
} from './time/index.js'
export {
  parseTimeframe,
  resolveTimeframe,
  listTimeframes,
  timeframeRank,
  bucketStart,
  bucketEnd,
  createBucketer,
  isValidTimeZone,
} from './time/index.js'

// trades
export type {
  SessionType,
  Side,
  Trade,
  TradeColumns,
  TradeInput,
  AsyncTradeInput,
  ClockSessionOptions,
} from './trades/index.js'
export {
  sessionsFromClock,
  SESSION_CODES,
  SESSION_NAMES,
  validateTrade,
  validateTrades,
  validateTradeColumns,
  isTradeColumns,
  tradesToColumns,
  columnsToTrades,
  sliceTradeColumns,
} from './trades/index.js'

// candles
export type {
  Candle,
  CandleInput,
  CandleColumns,
  CandleOptions,
  CandleAggregatorOptions,
  CandleAggregator,
  CandleSource,
  CandleColumnOptions,
} from './candles/index.js'
export {
  candlesFromTrades,
  candlesFromTradesAsync,
  candleColumnsFromTrades,
  createCandleAggregator,
  resampleCandles,
  resampleCandleColumns,
  mergeCandles,
  validateCandle,
  validateCandles,
} from './candles/index.js'

// footprint
export type {
  FootprintProfile,
  FootprintRow,
  FootprintOptions,
  FootprintAggregator,
  FootprintAnalytics,
  FootprintAnalyticsOptions,
  FootprintImbalance,
  FootprintStackedImbalance,
  CumulativeDeltaPoint,
  RegridOptions,
  ResampleFootprintOptions,
  RowSizeScale,
  RowSizeScaleOptions,
} from './footprint/index.js'
export {
  footprintProfiles,
  footprintProfilesAsync,
  createFootprintAggregator,
  mergeFootprintProfiles,
  regridFootprint,
  resampleFootprint,
  rowSizeScale,
  footprintAnalytics,
  cumulativeDelta,
} from './footprint/index.js'

// TPO (Market Profile)
export type {
  TpoProfile,
  TpoRow,
  TpoOptions,
  TpoMergeSessions,
  TpoAggregator,
  TpoTradeInput,
  TpoCandleProfile,
  TpoCandleRow,
  TpoCandleInput,
  TpoCandleOptions,
  TpoProfileLike,
  NakedPoc,
  DevelopingTpo,
} from './tpo/index.js'
export {
  tpoProfiles,
  tpoProfilesAsync,
  createTpoAggregator,
  mergeTpoProfiles,
  compositeTpoProfile,
  tpoFromCandles,
  nakedPocs,
  developingTpo,
} from './tpo/index.js'

// the streaming contract the candle, footprint and TPO aggregators share (docs/streaming.md)
export type { Aggregator, AggregatorCheckpoint, AggregatorKind } from './aggregator.js'

// sizing and shaping profiles for charts: a row size for a range, a TPO profile on a coarser grid, a footprint value area
export type { AutoRowSize, AutoRowSizeOptions, RegridTpoOptions } from './tpo/index.js'
export { autoRowSize, regridTpo } from './tpo/index.js'
export type { FootprintValueArea, FootprintValueAreaOptions } from './footprint/index.js'
export { footprintValueArea } from './footprint/index.js'

// candle columns from trades with exact value text (sums a double cannot carry)
export type { CandleColumnsFromTradesOptions } from './candles/index.js'

// footprint profiles as columns (numbers in typed arrays), as candleColumnsFromTrades for candles
export type { FootprintColumns, FootprintColumnOptions, FootprintRowColumns } from './footprint/index.js'
export { footprintColumnsFromTrades } from './footprint/index.js'
