export { MINUTE_MS, HOUR_MS, DAY_MS, LAST_ISO_MS } from './constants.js'
export type { TimeUnit, Timeframe, TimeframeId, TimeframeInput, TimeframeRule } from './timeframe.js'
export {
  parseTimeframe,
  resolveTimeframe,
  listTimeframes,
  timeframeRank,
  timeframeId,
  PARTNER_UNITS,
} from './timeframe.js'
export type { BucketOptions } from './bucket.js'
export { bucketStart, bucketEnd, createBucketer, Bucketer } from './bucket.js'
export { isValidTimeZone } from './zone.js'
export { parseRfc3339, parseUnixSeconds, formatIso, toUnixSeconds } from './wire.js'
export type { IsoDuration } from './duration.js'
export { parseIsoDuration, addIsoDuration, parseClockDuration } from './duration.js'
