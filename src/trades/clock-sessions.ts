import { describeValue } from '../_lib/describe.js'
import { checkOptions } from '../_lib/closed-options.js'
import { MarketDataError } from '../errors.js'
import { DAY_MS, MINUTE_MS } from '../time/constants.js'
import { isValidTimeZone, zoneOffset } from '../time/zone.js'
import type { SessionType } from './types.js'

/** Options of {@link sessionsFromClock}: the zone and the local hours of each session. */
export interface ClockSessionOptions {
  /** IANA zone the hours are local to (`America/New_York`). */
  timeZone: string
  /** Main session hours, `hh:mm-hh:mm` local (`09:30-16:00`); the end is excluded. */
  main: string
  /** Pre-market hours (`04:00-09:30`); none when absent. */
  pre?: string
  /** Post-market hours (`16:00-20:00`); none when absent. */
  post?: string
  /** What a record outside every window becomes: `drop` (default: left out) or a session type. */
  outside?: 'drop' | SessionType
}

const KEYS = ['timeZone', 'main', 'pre', 'post', 'outside']
const HOURS = /^([01]\d|2[0-4]):([0-5]\d)-([01]\d|2[0-4]):([0-5]\d)$/
/** Offsets of real zones change only on quarter hours: one look-up per 15 minutes of time. */
const SLOT_MS = 15 * MINUTE_MS

/** A window in local minutes of the day, `[start, end)`; start > end wraps past midnight (`18:00-09:30`). */
function window(text: unknown, field: string): [number, number] {
  const m = typeof text === 'string' ? HOURS.exec(text) : null
  const start = m === null ? Number.NaN : Number(m[1]) * 60 + Number(m[2])
  const end = m === null ? Number.NaN : Number(m[3]) * 60 + Number(m[4])
  if (m === null || start > 1440 || end > 1440 || start === end)
    throw new MarketDataError(
      'invalid_option',
      `sessionsFromClock: \`${field}\` must be local hours hh:mm-hh:mm such as 09:30-16:00 (start != end), got ${describeValue(text)}`,
      { field },
    )
  return [start, end]
}

const inside = (w: [number, number] | undefined, minute: number): boolean =>
  w !== undefined && (w[0] < w[1] ? minute >= w[0] && minute < w[1] : minute >= w[0] || minute < w[1])

/**
 * The session of each record from its local clock time: most trade and candle files carry no session, and
 * this gives them the exchange's (`America/New_York`, main `09:30-16:00`, pre `04:00-09:30`, post
 * `16:00-20:00`) so that TPO profiles can be made per session, with an initial balance of the main session.
 * Windows are checked main, pre, post (the first holding the time wins) and may wrap past midnight. A record's
 * own `session` is replaced. Records outside every window are left out, or given the `outside` session.
 * Pure: returns new records, never changes the input.
 *
 * @param records - records with an epoch-ms `time` (trades or candles), in any order
 * @param options - the zone and the hours, see {@link ClockSessionOptions}
 * @returns the records with `session` set, in input order (those outside every window left out by default)
 * @throws `MarketDataError` `invalid_option` for a bad zone, hours or option; `invalid_time` for a record
 *   whose `time` is not a finite number (its index given)
 * @example
 * sessionsFromClock([{ time: Date.UTC(2026, 5, 1, 13, 45), price: '5000', volume: 1, side: 'buy' }],
 *   { timeZone: 'America/New_York', main: '09:30-16:00', pre: '04:00-09:30' })
 * // [{ time: ..., price: '5000', volume: 1, side: 'buy', session: 'MAINSESSION' }] (09:45 in New York)
 */
export function sessionsFromClock<T extends { time: number }>(
  records: readonly T[],
  options: ClockSessionOptions,
): (T & { session: SessionType })[] {
  if (typeof options !== 'object' || options === null)
    throw new MarketDataError('invalid_option', 'sessionsFromClock: options must be an object', { field: 'options' })
  checkOptions(options, KEYS, 'sessionsFromClock')
  const tz = options.timeZone
  if (typeof tz !== 'string' || !isValidTimeZone(tz))
    throw new MarketDataError(
      'invalid_option',
      `sessionsFromClock: \`timeZone\` must be an IANA time zone such as America/New_York, got ${describeValue(tz)}`,
      { field: 'timeZone' },
    )
  const main = window(options.main, 'main')
  const pre = options.pre === undefined ? undefined : window(options.pre, 'pre')
  const post = options.post === undefined ? undefined : window(options.post, 'post')
  const outside = options.outside ?? 'drop'
  if (!['drop', 'MAINSESSION', 'PRE_MARKET', 'POST_MARKET'].includes(outside))
    throw new MarketDataError(
      'invalid_option',
      `sessionsFromClock: \`outside\` must be drop, MAINSESSION, PRE_MARKET or POST_MARKET, got ${describeValue(outside)}`,
      { field: 'outside' },
    )
  const out: (T & { session: SessionType })[] = []
  let slot = Number.NaN
  let offset = 0
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!
    const t = r.time
    if (typeof t !== 'number' || !Number.isFinite(t))
      throw new MarketDataError('invalid_time', `record ${i}: time ${describeValue(t)} is not epoch milliseconds`, {
        index: i,
        field: 'time',
      })
    const s = Math.floor(t / SLOT_MS)
    if (s !== slot) {
      slot = s
      offset = zoneOffset(tz, t)
    }
    const local = t + offset
    const minute = Math.floor((local - Math.floor(local / DAY_MS) * DAY_MS) / MINUTE_MS)
    const session: SessionType | 'drop' = inside(main, minute)
      ? 'MAINSESSION'
      : inside(pre, minute)
        ? 'PRE_MARKET'
        : inside(post, minute)
          ? 'POST_MARKET'
          : outside
    if (session !== 'drop') out.push({ ...r, session })
  }
  return out
}
