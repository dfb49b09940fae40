import { createBucketer, DAY_MS, HOUR_MS, MINUTE_MS, type Timeframe } from '../time/index.js'
import { tooMuchDataError, type ApiError } from '../_lib/api-error.js'
import { DEFAULT_SERVICE_CONFIG, type ServiceConfig } from './service-config.js'
import type { HistoryRequest } from './types.js'
import { checkOptions } from '../_lib/closed-options.js'

/** Per-request caps of the profile endpoints (defaults; see `ServiceConfig.caps`). Candles are capped by `limit`. */
export const PROFILE_CAPS = {
  footprint: DEFAULT_SERVICE_CONFIG.caps.footprintProfiles,
  tpo: DEFAULT_SERVICE_CONFIG.caps.tpoProfiles,
} as const

/**
 * Checks the per-request cap before any data is read: footprint buckets overlapping `[from, to)` above the cap, or TPO
 * periods x (GROUP_BY_TYPE ? selected session types : 1) above the cap -> 400 `too_much_data` naming the cap. Slots are
 * counted, not profiles with data. Candles never answer `too_much_data` (their cap is `limit`); an empty request
 * holds no slots. Pass the request as the server runs it (for profiles, the one {@link trimToDepth} returns).
 * Counting walks at most cap + 1 buckets and allocates nothing per bucket. The caps come from `ctx.config`
 * (default {@link DEFAULT_SERVICE_CONFIG}: 1,000 footprint, 400 TPO).
 *
 * @param request - the parsed (and, for profiles, trimmed) request
 * @param ctx - `timeZone` to count buckets in (default the request's) and the service `config`
 * @returns the 400 `too_much_data` error to answer, or `undefined` when the request is within its cap
 * @throws never for a request from `parseHistoryQuery`; a hand-made request with an invalid zone throws `MarketDataError`
 * @example
 * const r = parseHistoryQuery('footprint', { exchange: 'X', symbol: 'S', timeframe: '1m', from: '1780000000', period: '86400' }, { now })
 * if (r.ok) checkCap(r.value) // 1440 one-minute buckets -> { status: 400, code: 'too_much_data', message: '... 1000 ...' }
 */
export function checkCap(
  request: HistoryRequest,
  ctx?: { timeZone?: string; config?: ServiceConfig },
): ApiError | undefined {
  checkOptions(ctx, ['timeZone', 'config'], 'checkCap')
  if (request.endpoint === 'candles' || request.empty || !(request.from < request.to)) return undefined
  const timeZone = ctx?.timeZone ?? request.timeZone
  if (request.endpoint === 'footprint') {
    const cap = (ctx?.config ?? DEFAULT_SERVICE_CONFIG).caps.footprintProfiles
    return countSlots(request.timeframe, timeZone, request.from, request.to, cap + 1) > cap
      ? tooMuchDataError(cap, 'footprint profiles')
      : undefined
  }
  const cap = (ctx?.config ?? DEFAULT_SERVICE_CONFIG).caps.tpoProfiles
  const perPeriod = request.mergeSessions === 'GROUP_BY_TYPE' ? Math.max(1, request.sessionTypes.length) : 1
  const maxPeriods = Math.floor(cap / perPeriod)
  const periods = countSlots(request.timeframe, timeZone, request.from, request.to, maxPeriods + 1)
  return periods * perPeriod > cap
    ? tooMuchDataError(
        cap,
        perPeriod > 1 ? 'TPO profiles (each session type of a period counts as one)' : 'TPO profiles',
      )
    : undefined
}

/**
 * Number of timeframe buckets overlapping `[from, to)`, counting at most `stopAt` (a bounded walk: the answer
 * is `min(count, stopAt)`).
 */
export function countSlots(tf: Timeframe, timeZone: string, from: number, to: number, stopAt: number): number {
  if (!(from < to) || stopAt <= 0) return 0
  // No bucket is longer than maxBucketMs, so at least floor(span / max) buckets overlap: decide huge ranges at once.
  const max = maxBucketMs(tf)
  if (max > 0 && Math.floor((to - from) / max) >= stopAt) return stopAt
  const b = createBucketer(tf, { timeZone })
  b.locate(from)
  let n = 1
  while (n < stopAt && b.end < to) {
    const end = b.end
    b.locate(end)
    if (!(b.end > end)) break // defensive: a bucketer must move forward
    n++
  }
  return n
}

// An upper bound of one bucket's length: minute and hour buckets are elapsed time (never longer than nominal);
// calendar buckets get a whole day of slack for DST and zone offset changes. 0 = unknown (tick frames).
function maxBucketMs(tf: Timeframe): number {
  switch (tf.unit) {
    case 'MINUTE':
      return tf.count * MINUTE_MS
    case 'HOUR':
      return tf.count * HOUR_MS
    case 'DAY':
      return tf.count * DAY_MS + DAY_MS
    case 'WEEK':
      return tf.count * 7 * DAY_MS + DAY_MS
    case 'MONTH':
      return tf.count * 31 * DAY_MS + DAY_MS
    case 'QUARTER':
      return tf.count * 92 * DAY_MS + DAY_MS
    case 'YEAR':
      return tf.count * 366 * DAY_MS + DAY_MS
    default:
      return 0
  }
}
