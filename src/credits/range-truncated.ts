import { footprintHistoryStart } from '../rules/index.js'
import { formatIso, resolveTimeframe, type TimeframeInput } from '../time/index.js'

/** The live footprint stream's frame announcing that the history limit moved; `since` is the new earliest time (ISO 8601 UTC). */
export interface RangeTruncatedFrame {
  type: 'rangeTruncated'
  since: string
}

/**
 * Tells a live footprint stream whether its history limit moved: computes the new earliest time from the
 * newest candle time and the frame's footprint depth (`footprintHistoryStart` of src/rules: UTC midnight
 * of the newest candle's date minus the depth days, never before 2026-05-29) and, when it is later than
 * `previousSince` (the limit the client last saw), the `rangeTruncated` frame to send. Without
 * `previousSince` (a new stream) no frame is due. Tick frames have no footprint (throws `MarketDataError`).
 *
 * @param newestCandleTime - the newest candle time of the security, epoch ms
 * @param timeframe - the stream's timeframe
 * @param previousSince - the `since` sent before, if any (optional)
 * @returns the `{ since: number; frame?: RangeTruncatedFrame }`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * rangeTruncatedFrame(Date.UTC(2026, 9, 1, 0, 5), '1m', Date.UTC(2026, 7, 31))
 * // { since: Date.UTC(2026, 8, 1), frame: { type: 'rangeTruncated', since: '2026-09-01T00:00:00.000Z' } }
 */
export function rangeTruncatedFrame(
  newestCandleTime: number,
  timeframe: TimeframeInput,
  previousSince?: number,
): { since: number; frame?: RangeTruncatedFrame } {
  const since = footprintHistoryStart(resolveTimeframe(timeframe), newestCandleTime)
  if (previousSince === undefined || !(since > previousSince)) return { since }
  return { since, frame: { type: 'rangeTruncated', since: formatIso(since) } }
}
