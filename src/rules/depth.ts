import { MarketDataError } from '../errors.js'
import { bucketStart, DAY_MS, HOUR_MS, MINUTE_MS, type Timeframe } from '../time/index.js'
import { OPTION_MSG } from './messages.js'
import { DEFAULT_SERVICE_CONFIG, type ServiceConfig } from './service-config.js'
import type { HistoryRequest } from './types.js'
import { checkOptions } from '../_lib/closed-options.js'

/** Footprint and TPO data start: 2026-05-29T00:00Z (no backfill). Weekly profiles start with the week of Monday 2026-05-25. */
export const PROFILE_DATA_START = DEFAULT_SERVICE_CONFIG.dataFloor

/**
 * Footprint history depth in calendar days for a timeframe, from the config's depth table (the service's:
 * 1m-4m 30, 5m-14m 45, 15m-29m 90, 30m-59m 120, 1h-3h 180, 4h-23h 270, 1d-6d 365, 1w and longer 1,095). A custom
 * count is placed by its nominal length (90m -> the 1h-3h row); weeks, months, quarters and years are at least
 * a week long.
 *
 * @param tf - a minute, hour, day, week, month, quarter or year frame
 * @param config - the service config (default {@link DEFAULT_SERVICE_CONFIG})
 * @returns the number of calendar days of footprint history kept for that frame
 * @throws `MarketDataError` `invalid_option` for a tick frame (tick frames have no footprint)
 * @example
 * footprintDepthDays(resolveTimeframe('15m')) // 90
 */
export function footprintDepthDays(tf: Timeframe, config: ServiceConfig = DEFAULT_SERVICE_CONFIG): number {
  let len: number
  switch (tf.unit) {
    case 'MINUTE':
      len = tf.count * MINUTE_MS
      break
    case 'HOUR':
      len = tf.count * HOUR_MS
      break
    case 'DAY':
      len = tf.count * DAY_MS
      break
    case 'WEEK':
    case 'MONTH':
    case 'QUARTER':
    case 'YEAR':
      len = tf.count * 7 * DAY_MS
      break
    default:
      throw new MarketDataError('invalid_option', OPTION_MSG.noDepth(tf.id), { field: 'timeframe' })
  }
  const table = config.footprintDepth
  for (const row of table.rows) if (len < row.shorterThanMs) return row.days
  return table.longestDays
}

/**
 * The earliest time a footprint can start: UTC midnight of the newest candle's UTC date minus the depth days of
 * {@link footprintDepthDays}, but never before the config's data floor (2026-05-29T00:00Z by default). Also the
 * `since` of a live `rangeTruncated` frame when the newest candle moves to a new day.
 *
 * @param tf - the footprint's timeframe (minute to year)
 * @param newestCandleTime - the newest candle's time of the security, epoch ms
 * @param config - the service config (default {@link DEFAULT_SERVICE_CONFIG})
 * @returns the effective start, epoch ms
 * @throws `MarketDataError` `invalid_option` for a tick frame or a `newestCandleTime` that is not a finite number
 * @example
 * footprintHistoryStart(resolveTimeframe('1m'), Date.UTC(2026, 7, 15, 13)) // Date.UTC(2026, 6, 16): 30 days before 2026-08-15
 */
export function footprintHistoryStart(
  tf: Timeframe,
  newestCandleTime: number,
  config: ServiceConfig = DEFAULT_SERVICE_CONFIG,
): number {
  checkTime(newestCandleTime)
  const midnight = Math.floor(newestCandleTime / DAY_MS) * DAY_MS
  const depthStart = midnight - footprintDepthDays(tf, config) * DAY_MS
  return depthStart > config.dataFloor ? depthStart : config.dataFloor
}

/**
 * Trims a parsed history request to the history the service holds, as the server will run it: footprint to
 * the depth of its timeframe counted back from the newest candle ({@link footprintHistoryStart}), footprint and
 * TPO to the data floor (2026-05-29T00:00Z by default); candles unchanged (full history). A `from` older than the effective
 * start moves to it and `profileStart` is set to it (the first profile's bucket still starts at the bucket
 * start, e.g. Monday 2026-05-25 for weekly); a `from` not older than the effective start whose bucket begins
 * before it keeps its `from` and gets `profileStart` too (that bucket's data starts there); a range ending at or before the effective start comes back
 * `empty: true` with `from === to` (a 200 with no profiles, 1,000 credits). Never mutates the request.
 *
 * @param request - a request from `parseHistoryQuery`
 * @param ctx - `newestCandleTime` (epoch ms) of the security, and the service `config` (default {@link DEFAULT_SERVICE_CONFIG})
 * @returns the request as the server runs it (the same object when nothing changes)
 * @throws `MarketDataError` `invalid_option` when `newestCandleTime` is not a finite number
 * @example
 * trimToDepth(footprint1mRequest, { newestCandleTime: Date.UTC(2026, 7, 15, 13) })
 * // { ...footprint1mRequest, from: Date.UTC(2026, 6, 16), profileStart: Date.UTC(2026, 6, 16) } when from was earlier
 */
export function trimToDepth<R extends HistoryRequest>(
  request: R,
  ctx: { newestCandleTime: number; config?: ServiceConfig },
): R {
  checkOptions(ctx, ['newestCandleTime', 'config'], 'trimToDepth')
  if (request.endpoint === 'candles') return request
  const config = ctx.config ?? DEFAULT_SERVICE_CONFIG
  if (request.endpoint !== 'footprint') checkTime(ctx.newestCandleTime)
  const start =
    request.endpoint === 'footprint'
      ? footprintHistoryStart(request.timeframe, ctx.newestCandleTime, config)
      : config.dataFloor
  if (request.empty) return request.from >= start ? request : { ...request, from: start, to: start }
  if (request.to <= start) return { ...request, from: start, to: start, empty: true }
  if (request.from < start) return { ...request, from: start, profileStart: start }
  // `from` is not older than the effective start, but the bucket holding it (returned whole) begins before it:
  // that first profile really starts at the effective start (e.g. weekly from Saturday 2026-05-30: Monday 25 May).
  if (
    request.profileStart === undefined &&
    bucketStart(request.from, request.timeframe, { timeZone: request.timeZone }) < start
  ) {
    return { ...request, profileStart: start }
  }
  return request
}

function checkTime(t: number): void {
  if (typeof t !== 'number' || !Number.isFinite(t)) {
    throw new MarketDataError('invalid_option', OPTION_MSG.badNewest(), { field: 'newestCandleTime' })
  }
}
