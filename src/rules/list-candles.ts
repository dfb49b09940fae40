import { invalidArgument, type Status } from '../partner/status.js'
import { err, ok, type Result } from '../result.js'
import { addIsoDuration, parseIsoDuration, type Timeframe } from '../time/index.js'
import { timeframeFromPartner } from '../partner/timeframe.js'
import { SESSION_NAMES, type SessionType } from '../trades/types.js'
import { isArray } from '../_lib/describe.js'
import { closedObject, field, itemOf, lengthOf, readingJson } from './json-fields.js'
import { readRangeDateTime, TIME_MAX, TIME_MIN } from './range.js'
import { parseSecurityId, type SecurityId } from './security-id.js'
import { FIELD_MSG } from './messages.js'

/** A candle property of ListCandles' `properties`. */
export type ListCandlesProperty = 'OPEN' | 'HIGH' | 'LOW' | 'CLOSE' | 'VALUE' | 'VOLUME' | 'SESSION_TYPE'

/** The `properties` values, in the service's order. */
export const LIST_CANDLES_PROPERTIES: readonly ListCandlesProperty[] = [
  'OPEN',
  'HIGH',
  'LOW',
  'CLOSE',
  'VALUE',
  'VOLUME',
  'SESSION_TYPE',
]

const TIME_UNITS: ReadonlySet<string> = new Set(['MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR'])
const BODY: ReadonlySet<string> = new Set(['security_id', 'time_frame', 'range', 'properties', 'session_types'])
const TIME_FRAME: ReadonlySet<string> = new Set(['time_unit', 'count'])
const RANGE: ReadonlySet<string> = new Set(['first_bound_time', 'second_bound_time', 'duration', 'count'])
/** Largest `time_frame.count` and `range.count` magnitude (int32). */
export const INT32_MAX = 2_147_483_647
const TOKEN_MAX = 64

/**
 * A validated ListCandles request with its resolved range: candles with `time` in `[from, to)` (UTC ms),
 * read in `direction`; `limit` (count form only) is the number of candles.
 * - bounds: `[min(first, second), max(first, second))`, forward;
 * - duration: `[first, first + duration)`, forward (calendar-aware in UTC);
 * - count > 0: the first `count` candles from `first` (`to` = 10000-01-01), forward;
 *   count < 0: the last `-count` candles before `first` (`from` = 1970-01-01), backward.
 */
export interface ListCandlesQuery {
  securityId: SecurityId
  timeframe: Timeframe
  rangeForm: 'bounds' | 'duration' | 'count'
  from: number
  to: number
  direction: 'forward' | 'backward'
  limit?: number
  /** Requested properties, de-duplicated, in the service's order; all seven when omitted or empty. */
  properties: ListCandlesProperty[]
  /** Requested sessions, de-duplicated, in code order; all three when omitted or empty. */
  sessionTypes: SessionType[]
}

const fail = (message: string): { ok: false; error: Status } => err(invalidArgument(message))

/**
 * Validates an interface A ListCandles request body: `security_id`
 * (see {@link parseSecurityId}), `time_frame {time_unit, count?}` (count an integer >= 1, default 1), exactly one
 * range form with `first_bound_time` (bounds in either order, equal bounds invalid; a positive ISO 8601
 * duration counted forward; a non-zero count, negative reading backwards), `properties` and `session_types`
 * enums. Date-times need `Z` or an offset. Unknown fields at any level are rejected by name; `null` counts as
 * absent. Returns 3 INVALID_ARGUMENT naming the field, never throws.
 *
 * @param body - a parsed JSON body: anything, never trusted
 * @returns `{ ok: true, value }`, or `{ ok: false, error }` naming the field and the rule
 * @throws never: bad input is answered, not thrown
 * @example
 * validateListCandlesRequest({ security_id: { guid: 'g1' }, time_frame: { time_unit: 'MINUTE', count: 15 },
 *   range: { first_bound_time: '2026-06-01T00:00:00Z', duration: 'PT4H' } })
 * // { ok: true, value: { from: 1780272000000, to: 1780286400000, direction: 'forward', rangeForm: 'duration', ... } }
 */
export function validateListCandlesRequest(body: unknown): Result<ListCandlesQuery, Status> {
  return readingJson('the request body', () => readBody(body))
}

function readBody(body: unknown): Result<ListCandlesQuery, Status> {
  const closed = closedObject(body, '', BODY, FIELD_MSG.bodyNotObject())
  if (!closed.ok) return closed
  const fields = closed.value

  const sid = field(fields, 'security_id', '')
  if (sid === undefined) return fail(FIELD_MSG.required('security_id'))
  const securityId = parseSecurityId(sid, 'security_id')
  if (!securityId.ok) return securityId

  const timeframe = readTimeFrame(field(fields, 'time_frame', ''))
  if (!timeframe.ok) return timeframe

  const range = readRange(field(fields, 'range', ''))
  if (!range.ok) return range

  const properties = readEnumList('properties', field(fields, 'properties', ''), LIST_CANDLES_PROPERTIES)
  if (!properties.ok) return properties
  const sessionTypes = readEnumList('session_types', field(fields, 'session_types', ''), SESSION_NAMES)
  if (!sessionTypes.ok) return sessionTypes

  return ok({
    securityId: securityId.value,
    timeframe: timeframe.value,
    ...range.value,
    properties: properties.value,
    sessionTypes: sessionTypes.value,
  })
}

function readTimeFrame(tf: unknown): Result<Timeframe, Status> {
  if (tf === undefined) return fail(FIELD_MSG.required('time_frame'))
  const closed = closedObject(tf, 'time_frame', TIME_FRAME, FIELD_MSG.timeFrameNotObject())
  if (!closed.ok) return closed
  const fields = closed.value
  const unit = field(fields, 'time_unit', 'time_frame')
  if (unit === undefined) return fail(FIELD_MSG.required('time_frame.time_unit'))
  if (typeof unit !== 'string' || !TIME_UNITS.has(unit)) {
    return fail(FIELD_MSG.badTimeUnit(unit))
  }
  const count = field(fields, 'count', 'time_frame')
  if (
    count !== undefined &&
    (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > INT32_MAX)
  ) {
    return fail(FIELD_MSG.badTimeFrameCount(INT32_MAX, count))
  }
  return timeframeFromPartner(count === undefined ? { time_unit: unit } : { time_unit: unit, count })
}

type RangeValue = Pick<ListCandlesQuery, 'rangeForm' | 'from' | 'to' | 'direction' | 'limit'>

function readRange(range: unknown): Result<RangeValue, Status> {
  if (range === undefined) return fail(FIELD_MSG.required('range'))
  const closed = closedObject(range, 'range', RANGE, FIELD_MSG.rangeNotObject())
  if (!closed.ok) return closed
  const fields = closed.value
  const firstRaw = field(fields, 'first_bound_time', 'range')
  if (firstRaw === undefined) return fail(FIELD_MSG.required('range.first_bound_time'))
  const first = readDateTime('range.first_bound_time', firstRaw)
  if (!first.ok) return first
  const second = field(fields, 'second_bound_time', 'range')
  const duration = field(fields, 'duration', 'range')
  const count = field(fields, 'count', 'range')
  const forms = (second !== undefined ? 1 : 0) + (duration !== undefined ? 1 : 0) + (count !== undefined ? 1 : 0)
  if (forms !== 1) return fail(FIELD_MSG.rangeForms(forms))
  const t0 = first.value
  if (second !== undefined) {
    const t1 = readDateTime('range.second_bound_time', second)
    if (!t1.ok) return t1
    if (t1.value === t0) return fail(FIELD_MSG.equalBounds())
    return ok({ rangeForm: 'bounds', from: Math.min(t0, t1.value), to: Math.max(t0, t1.value), direction: 'forward' })
  }
  if (duration !== undefined) {
    if (typeof duration !== 'string') return fail(FIELD_MSG.durationNotString(duration))
    const d = duration.length > TOKEN_MAX ? undefined : parseIsoDuration(duration)
    if (d === undefined || !d.ok) return fail(FIELD_MSG.badDuration(duration))
    const end = addIsoDuration(t0, d.value)
    if (!Number.isFinite(end) || end > TIME_MAX) return fail(FIELD_MSG.durationTooLong())
    if (!(end > t0)) return fail(FIELD_MSG.durationNotPositive())
    return ok({ rangeForm: 'duration', from: t0, to: end, direction: 'forward' })
  }
  if (typeof count !== 'number' || !Number.isInteger(count) || count < -INT32_MAX - 1 || count > INT32_MAX) {
    return fail(FIELD_MSG.badCount(count))
  }
  if (count === 0) return fail(FIELD_MSG.countZero())
  return count > 0
    ? ok({ rangeForm: 'count', from: t0, to: TIME_MAX, direction: 'forward', limit: count })
    : ok({ rangeForm: 'count', from: TIME_MIN, to: t0, direction: 'backward', limit: -count })
}

function readDateTime(path: string, v: unknown): Result<number, Status> {
  if (typeof v !== 'string') return fail(FIELD_MSG.dateTimeNotString(path, v))
  const r = v.length > TOKEN_MAX ? 'format' : readRangeDateTime(v)
  if (r === 'format') return fail(FIELD_MSG.badDateTime(path, v))
  if (r === 'before') return fail(FIELD_MSG.dateTimeBeforeEpoch(path))
  if (r === 'after') return fail(FIELD_MSG.dateTimeAfter9999(path))
  return ok(r)
}

function readEnumList<T extends string>(path: string, v: unknown, names: readonly T[]): Result<T[], Status> {
  if (v === undefined) return ok([...names])
  if (!isArray(v)) return fail(FIELD_MSG.notArrayOf(path, names))
  const n = lengthOf(v, path)
  const seen = new Set<string>()
  for (let i = 0; i < n; i++) {
    const item: unknown = itemOf(v, i, path)
    if (typeof item !== 'string' || !(names as readonly string[]).includes(item)) {
      return fail(FIELD_MSG.badEnumItem(path, i, names, item))
    }
    seen.add(item)
  }
  if (seen.size === 0) return ok([...names])
  return ok(names.filter((n) => seen.has(n)))
}
