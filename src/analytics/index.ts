/**
 * Profile analytics over the library's TPO and footprint profiles: open range, balanced target, volume nodes,
 * value migration, day types, composite volume profile, poor extremes and single prints.
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
export type { ProfileAnalytics } from './profile-analytics.js'
export { profileAnalytics } from './profile-analytics.js'
