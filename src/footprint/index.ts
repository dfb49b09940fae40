export type {
  FootprintProfile,
  FootprintRow,
  FootprintOptions,
  FootprintAnalytics,
  FootprintAnalyticsOptions,
  FootprintImbalance,
  FootprintStackedImbalance,
} from './types.js'
export { footprintProfiles, footprintProfilesAsync } from './footprint-profiles.js'
export type { FootprintAggregator, FootprintAggregatorOptions } from './aggregator.js'
export { createFootprintAggregator } from './aggregator.js'
export { mergeFootprintProfiles } from './merge.js'
export type { RegridOptions } from './regrid.js'
export { regridFootprint } from './regrid.js'
export type { ResampleFootprintOptions } from './resample.js'
export { resampleFootprint } from './resample.js'
export type { RowSizeScale, RowSizeScaleOptions } from './row-size-scale.js'
export { rowSizeScale } from './row-size-scale.js'
export type { CumulativeDeltaPoint } from './analytics.js'
export { footprintAnalytics, cumulativeDelta } from './analytics.js'
export type { FootprintValueArea, FootprintValueAreaOptions } from './value-area.js'
export { footprintValueArea } from './value-area.js'
export type { FootprintColumns, FootprintColumnOptions, FootprintRowColumns } from './types.js'
export { footprintColumnsFromTrades } from './footprint-columns.js'
