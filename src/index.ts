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
// profile analytics (open range, balanced target, volume nodes, value migration, day types, composite volume profile, poor extremes, single prints)
export * from './analytics/index.js'

// ---- charts (issue 25): also reached through the folders above; listed here so the chart surface is in one place
export type { FootprintCells, FootprintChartCandle, RenderFootprintChartOptions, RenderTpoChartOptions, TpoChartAnnotation } from './render/index.js'
export { renderFootprintChart, renderTpoChart } from './render/index.js'
export type { AutoRowSize, AutoRowSizeOptions, RegridTpoOptions } from './tpo/index.js'
export { autoRowSize, regridTpo } from './tpo/index.js'
export type { FootprintValueArea, FootprintValueAreaOptions } from './footprint/index.js'
export { footprintValueArea } from './footprint/index.js'

// The streaming contract of the candle, footprint and TPO aggregators (docs/streaming.md).
export type { Aggregator, AggregatorCheckpoint, AggregatorKind } from './aggregator.js'
// OpenAPI document of both interfaces (issue 27; belongs in the `svc-marketdata/service` entry)
export * from './openapi/index.js'
