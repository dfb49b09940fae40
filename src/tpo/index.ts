export type {
  TpoProfile,
  TpoRow,
  TpoOptions,
  TpoMergeSessions,
  TpoAggregator,
  TpoAggregatorOptions,
  TpoCandleProfile,
  TpoCandleRow,
  TpoCandleInput,
  TpoCandleOptions,
  TpoProfileLike,
  NakedPoc,
  DevelopingTpo,
} from './types.js'
export type { TpoTradeInput } from './tpo-profiles.js'
export { tpoProfiles, tpoProfilesAsync } from './tpo-profiles.js'
export { createTpoAggregator } from './aggregator.js'
export { mergeTpoProfiles, compositeTpoProfile } from './merge.js'
export { tpoFromCandles } from './from-candles.js'
export { nakedPocs } from './naked-poc.js'
export { developingTpo } from './developing.js'
export type { AutoRowSize, AutoRowSizeOptions } from './auto-row-size.js'
export { autoRowSize } from './auto-row-size.js'
export type { RegridTpoOptions } from './regrid.js'
export { regridTpo } from './regrid.js'
