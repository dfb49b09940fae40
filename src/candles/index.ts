export type {
  Candle,
  CandleInput,
  CandleColumns,
  CandleOptions,
  PartnerCandle,
  PartnerDecimalValue,
  CandleProperty,
} from './types.js'
export type { CandleAggregatorOptions } from './aggregator.js'
export { CandleAggregator, createCandleAggregator } from './aggregator.js'
export { candlesFromTrades, candlesFromTradesAsync } from './from-trades.js'
export type { CandleSource } from './resample.js'
export { resampleCandles } from './resample.js'
export type { CandleColumnOptions, CandleColumnsFromTradesOptions } from './columns.js'
export { candleColumnsFromTrades, resampleCandleColumns } from './columns.js'
export { mergeCandles } from './merge.js'
export { validateCandle, validateCandles } from './validate.js'
