/**
 * Profile analytics over the library's TPO and footprint profiles: open range, balanced target, volume nodes,
 * value migration, day types, composite volume profile, poor extremes and single prints; the day session's
 * rotation factor, open type and location, range extension, shape and spike; multi-day brackets, repairs
 * and the value-area trend.
 *
 * @module svc-marketdata/analytics
 */
export type {
  AnalyticsProfile,
  AnyTpoProfile,
  PriceRange,
  OpenRangeOptions,
  OpenRange,
  BalancedTargetOptions,
  BalancedTarget,
  VolumeNodeOptions,
  VolumeNode,
  VolumeNodes,
  ValueRelation,
  ValueMigrationOptions,
  ValueMigration,
  DayType,
  DayTypeOptions,
  DayTypeResult,
  CompositeVolumeOptions,
  CompositeVolumeProfile,
  PoorExtremes,
  SinglePrintZone,
} from './types.js'
export { openRange, balancedTarget } from './open-range.js'
export { volumeNodes } from './nodes.js'
export { valueMigration, valueMigrations } from './value-migration.js'
export { dayType } from './day-type.js'
export { compositeVolumeProfile } from './composite.js'
export { poorExtremes, singlePrintZones } from './extremes.js'
export type {
  RotationPeriod,
  RotationFactor,
  OpenTypeName,
  OpenTypeOptions,
  OpenType,
  OpenLocationName,
  OpenLocation,
  ExtensionSide,
  RangeExtension,
  ProfileShapeName,
  ProfileShapeOptions,
  ProfileShapeResult,
  Spike,
  BalanceBracketOptions,
  BalanceBracket,
  RepairKind,
  Repair,
  ValueAreaTrendEntry,
} from './read-types.js'
export { rotationFactor } from './rotation-factor.js'
export { openType } from './open-type.js'
export { openLocation } from './open-location.js'
export { rangeExtension } from './range-extension.js'
export { profileShapeType } from './shape-type.js'
export { spike } from './spike.js'
export { balanceBrackets } from './brackets.js'
export { repairs } from './repairs.js'
export { valueAreaTrend } from './value-area-trend.js'
export type { ProfileAnalytics, ProfileAnalyticsOptions } from './profile-analytics.js'
export { profileAnalytics } from './profile-analytics.js'
