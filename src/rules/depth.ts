import { MarketDataError } from '../errors.js'
import { bucketStart, DAY_MS, type Timeframe } from '../time/index.js'
import { OPTION_MSG } from './messages.js'
import type { HistoryRequest } from './types.js'
import { checkOptions } from '../_lib/closed-options.js'

/** Footprint and TPO data start: 2026-05-29T00:00Z (no backfill). Weekly profiles start with the week of Monday 2026-05-25. */
export const PROFILE_DATA_START = Date.UTC(2026, 4, 29)

const MINUTE = 60_000
const HOUR = 3_600_000

/**
 * Footprint history depth in calendar days for a timeframe (SERVICE-SPEC.md "History depth"): 1m-4m 30,
 * 5m-14m 45, 15m-29m 90, 30m-59m 120, 1h-3h 180, 4h-23h 270, 1d-6d 365, 1w and longer 1,095. A custom count
 * is placed by its nominal length (90m -> the 1h-3h row). Tick frames have no footprint (throws).
 *
 * @example
 * footprintDepthDays(resolveTimeframe('15m')) // 90
 */
export function footprintDepthDays(tf: Timeframe): number {
  const count = tf.count
  switch (tf.unit) {
    case 'MINUTE':
    case 'HOUR':
    case 'DAY': {
      const len = count * (tf.unit === 'MINUTE' ? MINUTE : tf.unit === 'HOUR' ? HOUR : DAY_MS)
      if (len < 5 * MINUTE) return 30
      if (len < 15 * MINUTE) return 45
      if (len < 30 * MINUTE) return 90
      if (len < HOUR) return 120
      if (len < 4 * HOUR) return 180
      if (len < DAY_MS) return 270
      if (len < 7 * DAY_MS) return 365
      return 1095
    }
    case 'WEEK':
    case 'MONTH':
    case 'QUARTER':
    case 'YEAR':
      return 1095
    default:
      throw new MarketDataError('invalid_option', OPTION_MSG.noDepth(tf.id), { field: 'timeframe' })
  }
}

/**
 * The earliest time a footprint can start: UTC midnight of the newest candle's UTC date minus the depth days of
 * {@link footprintDepthDays}, but never before {@link PROFILE_DATA_START}. Also the `since` of a live
 * `rangeTruncated` frame when the newest candle moves to a new day.
 *
 * @example
 * footprintHistoryStart(resolveTimeframe('1m'), Date.UTC(2026, 7, 15, 13)) // Date.UTC(2026, 6, 16): 30 days before 2026-08-15
 */
export function footprintHistoryStart(tf: Timeframe, newestCandleTime: number): number {
  checkTime(newestCandleTime)
  const midnight = Math.floor(newestCandleTime / DAY_MS) * DAY_MS
  const depthStart = midnight - footprintDepthDays(tf) * DAY_MS
  return depthStart > PROFILE_DATA_START ? depthStart : PROFILE_DATA_START
}

/**
 * Trims a parsed history request to the history the service holds, as the server will run it: footprint to
 * the depth of its timeframe counted back from the newest candle ({@link footprintHistoryStart}), footprint and
 * TPO to the data start 2026-05-29T00:00Z; candles unchanged (full history). A `from` older than the effective
 * start moves to it and `profileStart` is set to it (the first profile's bucket still starts at the bucket
 * start, e.g. Monday 2026-05-25 for weekly); a `from` not older than the effective start whose bucket begins
 * before it keeps its `from` and gets `profileStart` too (that bucket's data starts there); a range ending at or before the effective start comes back
 * `empty: true` with `from === to` (a 200 with no profiles, 1,000 credits). Never mutates the request.
 *
 * @example
 * trimToDepth(footprint1mRequest, { newestCandleTime: Date.UTC(2026, 7, 15, 13) })
 * // { ...footprint1mRequest, from: Date.UTC(2026, 6, 16), profileStart: Date.UTC(2026, 6, 16) } when from was earlier
 */
export function trimToDepth<R extends HistoryRequest>(request: R, ctx: { newestCandleTime: number }): R {
  checkOptions(ctx, ['newestCandleTime'], 'trimToDepth')
  if (request.endpoint === 'candles') return request
  const start =
    request.endpoint === 'footprint'
      ? footprintHistoryStart(request.timeframe, ctx.newestCandleTime)
      : (checkTime(ctx.newestCandleTime), PROFILE_DATA_START)
  if (request.empty) return request.from >= start ? request : { ...request, from: start, to: start }
  if (request.to <= start) return { ...request, from: start, to: start, empty: true }
  if (request.from < start) return { ...request, from: start, profileStart: start }
  // `from` is not older than the effective start, but the bucket holding it (returned whole) begins before it:
  // that first profile really starts at the effective start (e.g. weekly from Saturday 2026-05-30: Monday 25 May).
  if (request.profileStart === undefined && bucketStart(request.from, request.timeframe, { timeZone: request.timeZone }) < start) {
    return { ...request, profileStart: start }
  }
  return request
}

function checkTime(t: number): void {
  if (typeof t !== 'number' || !Number.isFinite(t)) {
    throw new MarketDataError('invalid_option', OPTION_MSG.badNewest, { field: 'newestCandleTime' })
  }
}
