import { MarketDataError } from '../errors.js'
import { floorDiv } from '../decimal/index.js'
import { DAY_MS, HOUR_MS, MINUTE_MS, formatIso, resolveTimeframe, timeframeRank, type TimeframeInput } from '../time/index.js'
import { MSG } from './messages.js'

/** The live footprint stream's frame announcing that the history limit moved; `since` is the new earliest time (ISO 8601 UTC). */
export interface RangeTruncatedFrame {
  type: 'rangeTruncated'
  since: string
}

/** Footprint and TPO data start: 2026-05-29T00:00Z (no backfill). */
const DATA_FLOOR = Date.UTC(2026, 4, 29)

/** The spec's footprint depth table, by nominal frame length: [frames shorter than, depth days]. */
const DEPTH: readonly (readonly [number, number])[] = [
  [5 * MINUTE_MS, 30],
  [15 * MINUTE_MS, 45],
  [30 * MINUTE_MS, 90],
  [HOUR_MS, 120],
  [4 * HOUR_MS, 180],
  [DAY_MS, 270],
  [7 * DAY_MS, 365],
]

/** Footprint history depth in calendar days (1m-4m 30 ... 1d-6d 365, 1w and longer 1,095). */
function depthDays(timeframe: TimeframeInput): number {
  const tf = resolveTimeframe(timeframe)
  if (tf.unit === 'TICK') throw new MarketDataError('invalid_option', MSG.badTimeframe(tf.id), { field: 'timeframe' })
  const len = timeframeRank(tf)
  for (const [below, days] of DEPTH) if (len < below) return days
  return 1095
}

/**
 * The earliest time the live footprint stream of `timeframe` can show: UTC midnight of the newest candle's
 * UTC date minus the frame's depth days, never before the 2026-05-29 data floor.
 *
 * @example footprintHistorySince(Date.UTC(2026, 9, 1, 15), '1m') // Date.UTC(2026, 8, 1)
 */
export function footprintHistorySince(newestCandleTime: number, timeframe: TimeframeInput): number {
  if (typeof newestCandleTime !== 'number' || !Number.isFinite(newestCandleTime)) {
    throw new MarketDataError('invalid_time', MSG.badNewest(newestCandleTime), { field: 'newestCandleTime' })
  }
  const midnight = floorDiv(newestCandleTime, DAY_MS) * DAY_MS
  const start = midnight - depthDays(timeframe) * DAY_MS
  return start > DATA_FLOOR ? start : DATA_FLOOR
}

/**
 * Tells a live footprint stream whether its history limit moved: computes the new `since` from the newest
 * candle time and, when it is later than `previousSince` (the one the client last saw), the
 * `rangeTruncated` frame to send. Without `previousSince` (a new stream) no frame is due.
 *
 * @example
 * const t = Date.UTC(2026, 9, 1, 0, 5)
 * rangeTruncatedFrame(t, '1m', Date.UTC(2026, 7, 31))
 * // { since: Date.UTC(2026, 8, 1), frame: { type: 'rangeTruncated', since: '2026-09-01T00:00:00.000Z' } }
 */
export function rangeTruncatedFrame(
  newestCandleTime: number,
  timeframe: TimeframeInput,
  previousSince?: number,
): { since: number; frame?: RangeTruncatedFrame } {
  const since = footprintHistorySince(newestCandleTime, timeframe)
  if (previousSince === undefined || !(since > previousSince)) return { since }
  return { since, frame: { type: 'rangeTruncated', since: formatIso(since) } }
}
