import { decimalToString, parseDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { err, ok, type Result } from '../result.js'
import { isValidTimeZone, parseTimeframe, type Timeframe } from '../time/index.js'
import { SESSION_NAMES, type SessionType } from '../trades/types.js'
import { invalidArgumentError, type ApiError } from '../_lib/api-error.js'
import { collectParams, type QueryInput } from './query-params.js'
import { DEFAULT_WINDOW, PERIOD_MAX_SECONDS, readRangeDateTime, resolveRange, TIME_MAX, TIME_MIN } from './range.js'
import { OPTION_MSG, QUERY_MSG, PARAM_MSG } from './messages.js'
import { rowSizeValueProblem } from './row-size.js'
import { isDigits, readDigits } from './text.js'
import type {
  CandlesHistoryRequest,
  FootprintHistoryRequest,
  HistoryEndpoint,
  HistoryQueryContext,
  HistoryRequest,
  HistoryRequestBase,
  TpoHistoryRequest,
} from './types.js'
import { checkOptions } from '../_lib/closed-options.js'

const COMMON = ['exchange', 'symbol', 'timeframe', 'from', 'to', 'period', 'sessionType'] as const
/** The query parameters each history endpoint accepts, in the spec's order; any other is 400 `invalid_argument`. */
export const HISTORY_QUERY_PARAMETERS: Readonly<Record<HistoryEndpoint, readonly string[]>> = {
  candles: [...COMMON, 'limit'],
  footprint: [...COMMON, 'rowSize', 'rowSizeValue'],
  tpo: [...COMMON, 'blockSize', 'mergeSessions'],
}
const ALLOWED: Readonly<Record<HistoryEndpoint, ReadonlySet<string>>> = {
  candles: new Set<string>(HISTORY_QUERY_PARAMETERS.candles),
  footprint: new Set<string>(HISTORY_QUERY_PARAMETERS.footprint),
  tpo: new Set<string>(HISTORY_QUERY_PARAMETERS.tpo),
}
/** The history query parameters that may be repeated (all others: 400 when given twice). */
export const REPEATABLE_QUERY_PARAMETERS: readonly string[] = ['sessionType']
const REPEATABLE: ReadonlySet<string> = new Set(REPEATABLE_QUERY_PARAMETERS)
const ENDPOINT_ONLY: ReadonlyMap<string, string> = new Map([
  ['limit', '/candles'],
  ['rowSize', '/footprint'],
  ['rowSizeValue', '/footprint'],
  ['blockSize', '/tpo'],
  ['mergeSessions', '/tpo'],
])

/**
 * Limits of the history query values: longest `exchange` / `symbol` (`nameMax`), longest string handed to a time,
 * timeframe or decimal parser (`tokenMax`, bounds their work on huge values), candles' `limit` default and
 * maximum, footprint's largest `rowSize` in ticks, TPO's default `blockSize`.
 */
export const HISTORY_QUERY_LIMITS = {
  nameMax: 128,
  tokenMax: 64,
  limitDefault: 1000,
  limitMax: 10_000,
  rowSizeMax: 1000,
  blockSizeDefault: '30m',
} as const
const NAME_MAX = HISTORY_QUERY_LIMITS.nameMax
const TOKEN_MAX = HISTORY_QUERY_LIMITS.tokenMax
const LIMIT_DEFAULT = HISTORY_QUERY_LIMITS.limitDefault
const LIMIT_MAX = HISTORY_QUERY_LIMITS.limitMax
const ROW_SIZE_MAX = HISTORY_QUERY_LIMITS.rowSizeMax

/** Timeframe units each history endpoint accepts (footprint: minute to month frames; TPO: day, week, month). */
export const HISTORY_TIMEFRAME_UNITS: Readonly<Record<HistoryEndpoint, readonly Timeframe['unit'][]>> = {
  candles: ['MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR', 'TICK'],
  footprint: ['MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH'],
  tpo: ['DAY', 'WEEK', 'MONTH'],
}
/** Units a TPO `blockSize` may have (a minute or hour timeframe id). */
export const TPO_BLOCK_UNITS: readonly Timeframe['unit'][] = ['MINUTE', 'HOUR']
/** `mergeSessions` query values and what each means. */
export const MERGE_SESSIONS_QUERY_VALUES: Readonly<Record<string, TpoHistoryRequest['mergeSessions']>> = {
  true: 'MERGE_ALL',
  MERGE_ALL: 'MERGE_ALL',
  false: 'GROUP_BY_TYPE',
  GROUP_BY_TYPE: 'GROUP_BY_TYPE',
}
const UNIX_SECONDS_MAX = TIME_MAX / 1000 - 1

const SESSION_BIT: ReadonlyMap<string, number> = new Map([
  ['MAINSESSION', 1],
  ['PRE_MARKET', 2],
  ['POST_MARKET', 4],
])

const fail = (parameter: string, rule: string): { ok: false; error: ApiError } =>
  err(invalidArgumentError(`${parameter}: ${rule}`, parameter))

/**
 * Parses and validates an interface B history query (`GET /candles`, `/footprint`, `/tpo`) and resolves its
 * range, following the service's interface B rules: exactly the endpoint's parameters,
 * `from` / `to` as Unix seconds or RFC3339, `period` in whole seconds, the half-open range `[from, to)` with its
 * pinned end, candles' `limit` and direction, default windows of 100 footprint buckets / 20 TPO periods, and
 * the endpoint options. Returns one 400 `invalid_argument` naming the first offending parameter (`error.parameter`).
 * A `rowSizeValue` no price grid can hold (units at its own decimals of 2^52 or more) is refused here; the rules
 * that need the security's tick size are {@link checkRowSize}'s, run after the catalog look-up.
 * Never throws on query input and runs in linear time; throws {@link MarketDataError} only for an invalid
 * `ctx` (a programming error).
 *
 * @param endpoint - the endpoint
 * @param query - the query: `URLSearchParams` or a record of strings
 * @param ctx - the context: `now` (epoch ms) and an optional IANA `timeZone`
 * @returns `{ ok: true, value }`, or `{ ok: false, error }` naming the field and the rule
 * @throws never: bad input is answered, not thrown
 * @example
 * const r = parseHistoryQuery('candles', new URLSearchParams('exchange=XNAS&symbol=AAPL&timeframe=1h&from=1780000000'), { now: Date.UTC(2026, 5, 1) })
 * // r.ok && r.value: { from: 1780000000000, to: 1780272000000, pinned: 'from', limit: 1000, direction: 'forward', ... }
 */
export function parseHistoryQuery(
  endpoint: HistoryEndpoint,
  query: QueryInput,
  ctx: HistoryQueryContext,
): Result<HistoryRequest, ApiError> {
  const now = checkContext(ctx)
  const timeZone = ctx.timeZone ?? 'UTC'
  if (endpoint !== 'candles' && endpoint !== 'footprint' && endpoint !== 'tpo') {
    return fail('endpoint', PARAM_MSG.badEndpoint(endpoint))
  }
  const allowed = ALLOWED[endpoint]
  const collected = collectParams(query, allowed, REPEATABLE, (name) => {
    const only = ENDPOINT_ONLY.get(name)
    return only !== undefined ? QUERY_MSG.otherEndpoint(name, endpoint, only) : QUERY_MSG.unknown(name, endpoint)
  })
  if (!collected.ok) return collected
  const params = collected.value
  const one = (name: string): string | undefined => params.get(name)?.[0]

  // Required parameters, in the service's order.
  for (const name of ['exchange', 'symbol', 'timeframe']) {
    if (one(name) === undefined) return fail(name, PARAM_MSG.required())
  }
  for (const name of ['exchange', 'symbol']) {
    const v = one(name) as string
    if (v.length === 0) return fail(name, PARAM_MSG.empty())
    if (v.length > NAME_MAX) return fail(name, PARAM_MSG.tooLong(NAME_MAX))
  }
  const tf = readTimeframe('timeframe', one('timeframe') as string)
  if (!tf.ok) return tf
  const timeframe = tf.value
  const kind = checkTimeframeKind(endpoint, timeframe)
  if (kind !== undefined) return err(kind)
  const tick = timeframe.unit === 'TICK'
  if (tick) {
    for (const name of ['from', 'to', 'period']) {
      if (params.has(name)) return fail(name, PARAM_MSG.tickOnly(timeframe.id))
    }
  }

  // Range parameters.
  const fromRaw = one('from')
  const toRaw = one('to')
  const periodRaw = one('period')
  let from: number | undefined
  let to: number | undefined
  let period: number | undefined
  if (fromRaw !== undefined) {
    const r = readTime('from', fromRaw)
    if (!r.ok) return r
    from = r.value
  }
  if (toRaw !== undefined) {
    const r = readTime('to', toRaw)
    if (!r.ok) return r
    to = r.value
  }
  if (periodRaw !== undefined) {
    const r = readPeriod(periodRaw)
    if (!r.ok) return r
    period = r.value
  }
  if (from !== undefined && to !== undefined && period !== undefined) {
    return fail('period', PARAM_MSG.periodWithBoth())
  }
  if (from !== undefined && to !== undefined && to <= from) return fail('to', PARAM_MSG.toNotAfterFrom())

  const sessions = readSessionTypes(params.get('sessionType'))
  if (!sessions.ok) return sessions

  // Endpoint options, all validated before the range is resolved (that may walk buckets in a zone).
  const options = readOptions(endpoint, one)
  if (!options.ok) return options

  const window = endpoint === 'candles' ? undefined : { count: DEFAULT_WINDOW[endpoint], timeframe, timeZone }
  const range = resolveRange({ from, to, period }, now, window)
  const base: HistoryRequestBase = {
    endpoint,
    exchange: one('exchange') as string,
    symbol: one('symbol') as string,
    timeframe,
    from: range.from,
    to: range.to,
    pinned: range.pinned,
    sessionTypes: sessions.value,
    timeZone,
    empty: range.empty,
  }
  const o = options.value
  if (o.endpoint === 'candles') {
    const request: CandlesHistoryRequest = {
      ...base,
      endpoint: 'candles',
      limit: o.limit,
      direction: range.pinned === 'from' ? 'forward' : 'backward',
    }
    return ok(request)
  }
  if (o.endpoint === 'footprint') {
    const request: FootprintHistoryRequest =
      o.rowSizeValue !== undefined
        ? { ...base, endpoint: 'footprint', rowSizeValue: o.rowSizeValue }
        : { ...base, endpoint: 'footprint', rowSize: o.rowSize ?? 1 }
    return ok(request)
  }
  const request: TpoHistoryRequest = {
    ...base,
    endpoint: 'tpo',
    blockSize: o.blockSize,
    mergeSessions: o.mergeSessions,
  }
  return ok(request)
}

type Options =
  | { endpoint: 'candles'; limit: number }
  | { endpoint: 'footprint'; rowSize?: number; rowSizeValue?: string }
  | { endpoint: 'tpo'; blockSize: Timeframe; mergeSessions: TpoHistoryRequest['mergeSessions'] }

function readOptions(endpoint: HistoryEndpoint, one: (name: string) => string | undefined): Result<Options, ApiError> {
  if (endpoint === 'candles') {
    const limitRaw = one('limit')
    if (limitRaw === undefined) return ok({ endpoint, limit: LIMIT_DEFAULT })
    if (limitRaw.length === 0) return fail('limit', PARAM_MSG.empty())
    const n = readDigits(limitRaw, LIMIT_MAX)
    if (n < 0) return fail('limit', PARAM_MSG.badLimit(LIMIT_MAX))
    if (n === Infinity) return fail('limit', PARAM_MSG.limitTooLarge(LIMIT_MAX))
    if (n === 0) return fail('limit', PARAM_MSG.limitZero())
    return ok({ endpoint, limit: n })
  }

  if (endpoint === 'footprint') {
    const rowSizeRaw = one('rowSize')
    const rowSizeValueRaw = one('rowSizeValue')
    let rowSize: number | undefined
    if (rowSizeRaw !== undefined) {
      if (rowSizeRaw.length === 0) return fail('rowSize', PARAM_MSG.empty())
      const n = readDigits(rowSizeRaw, ROW_SIZE_MAX)
      if (n < 0) return fail('rowSize', PARAM_MSG.badRowSize(ROW_SIZE_MAX))
      if (n === Infinity) return fail('rowSize', PARAM_MSG.rowSizeTooLarge(ROW_SIZE_MAX))
      if (n === 0) return fail('rowSize', PARAM_MSG.rowSizeZero())
      rowSize = n
    }
    if (rowSizeValueRaw === undefined) return ok({ endpoint, rowSize: rowSize ?? 1 })
    if (rowSizeValueRaw.length === 0) return fail('rowSizeValue', PARAM_MSG.empty())
    if (rowSizeRaw !== undefined) return fail('rowSizeValue', PARAM_MSG.rowSizeBoth())
    const d = rowSizeValueRaw.length > TOKEN_MAX ? undefined : parseDecimal(rowSizeValueRaw)
    if (d === undefined || !d.ok) return fail('rowSizeValue', PARAM_MSG.badDecimal(rowSizeValueRaw))
    if (d.value.units <= 0n) return fail('rowSizeValue', PARAM_MSG.notPositive())
    const problem = rowSizeValueProblem(d.value)
    if (problem !== undefined) return fail('rowSizeValue', problem)
    return ok({ endpoint, rowSizeValue: decimalToString(d.value) })
  }

  let blockSize: Timeframe
  const blockRaw = one('blockSize')
  if (blockRaw !== undefined) {
    const b = readTimeframe('blockSize', blockRaw)
    if (!b.ok) return b
    if (!TPO_BLOCK_UNITS.includes(b.value.unit)) return fail('blockSize', PARAM_MSG.badBlockSize(blockRaw))
    blockSize = b.value
  } else {
    const b = parseTimeframe(HISTORY_QUERY_LIMITS.blockSizeDefault)
    if (!b.ok) throw new MarketDataError('invalid_option', OPTION_MSG.badDefaultBlock())
    blockSize = b.value
  }
  let mergeSessions: TpoHistoryRequest['mergeSessions'] = 'MERGE_ALL'
  const mergeRaw = one('mergeSessions')
  if (mergeRaw !== undefined) {
    const value = Object.hasOwn(MERGE_SESSIONS_QUERY_VALUES, mergeRaw)
      ? MERGE_SESSIONS_QUERY_VALUES[mergeRaw]
      : undefined
    if (value === undefined) return fail('mergeSessions', PARAM_MSG.badMergeSessions(mergeRaw))
    mergeSessions = value
  }
  return ok({ endpoint: 'tpo', blockSize, mergeSessions })
}

function checkContext(ctx: HistoryQueryContext): number {
  if (typeof ctx !== 'object' || ctx === null || typeof ctx.now !== 'number' || !Number.isFinite(ctx.now)) {
    throw new MarketDataError('invalid_option', OPTION_MSG.badNow(), { field: 'now' })
  }
  // the context is the server's, not the client's: a wrong key is a programming error, thrown as a bad now is
  checkOptions(ctx, ['now', 'timeZone'], 'parseHistoryQuery')
  if (ctx.timeZone !== undefined && (typeof ctx.timeZone !== 'string' || !isValidTimeZone(ctx.timeZone))) {
    throw new MarketDataError('invalid_option', OPTION_MSG.badTimeZone(), { field: 'timeZone' })
  }
  return ctx.now < TIME_MIN ? TIME_MIN : ctx.now > TIME_MAX ? TIME_MAX : ctx.now
}

function readTimeframe(name: string, v: string): Result<Timeframe, ApiError> {
  if (v.length === 0) return fail(name, PARAM_MSG.empty())
  const r = v.length > TOKEN_MAX ? undefined : parseTimeframe(v)
  if (r === undefined || !r.ok) return fail(name, PARAM_MSG.badTimeframe(v))
  return r
}

function checkTimeframeKind(endpoint: HistoryEndpoint, tf: Timeframe): ApiError | undefined {
  if (endpoint === 'footprint' && !HISTORY_TIMEFRAME_UNITS.footprint.includes(tf.unit)) {
    return invalidArgumentError(`timeframe: ${PARAM_MSG.footprintFrame(tf.id)}`, 'timeframe')
  }
  if (endpoint === 'tpo' && !HISTORY_TIMEFRAME_UNITS.tpo.includes(tf.unit)) {
    return invalidArgumentError(`timeframe: ${PARAM_MSG.tpoFrame(tf.id)}`, 'timeframe')
  }
  return undefined
}

// Unix seconds (digits only, >= 0) or RFC3339 with Z or an offset; 1970-01-01 .. 10000-01-01.
function readTime(name: 'from' | 'to', v: string): Result<number, ApiError> {
  if (v.length === 0) return fail(name, PARAM_MSG.empty())
  let t: number
  if (isDigits(v)) {
    const s = readDigits(v, UNIX_SECONDS_MAX)
    if (s === Infinity) return fail(name, PARAM_MSG.unixTooLarge(UNIX_SECONDS_MAX))
    t = s * 1000
  } else {
    const r = v.length > TOKEN_MAX ? 'format' : readRangeDateTime(v)
    if (r === 'format') return fail(name, PARAM_MSG.badTime(v))
    if (r === 'before') return fail(name, PARAM_MSG.beforeEpoch())
    if (r === 'after') return fail(name, PARAM_MSG.afterYear9999())
    t = r
  }
  return ok(t)
}

function readPeriod(v: string): Result<number, ApiError> {
  if (v.length === 0) return fail('period', PARAM_MSG.empty())
  const n = readDigits(v, PERIOD_MAX_SECONDS)
  if (n < 0) return fail('period', PARAM_MSG.badPeriod(v))
  if (n === Infinity) return fail('period', PARAM_MSG.periodTooLarge(PERIOD_MAX_SECONDS))
  if (n === 0) return fail('period', PARAM_MSG.periodZero())
  return ok(n)
}

// Repeated and/or comma-separated; each item exactly one of the three names; de-duplicated, in code order.
function readSessionTypes(values: readonly string[] | undefined): Result<SessionType[], ApiError> {
  if (values === undefined) return ok([...SESSION_NAMES])
  let bits = 0
  for (let k = 0; k < values.length; k++) {
    const v = values[k] as string
    let start = 0
    for (let i = 0; i <= v.length; i++) {
      if (i < v.length && v.charCodeAt(i) !== 44) continue
      const item = v.slice(start, i)
      start = i + 1
      if (item.length === 0) return fail('sessionType', PARAM_MSG.sessionEmpty())
      const bit = item.length > 11 ? undefined : SESSION_BIT.get(item)
      if (bit === undefined) return fail('sessionType', PARAM_MSG.badSession(item))
      bits |= bit
    }
  }
  const out: SessionType[] = []
  for (const name of SESSION_NAMES) {
    if ((bits & (SESSION_BIT.get(name) as number)) !== 0) out.push(name)
  }
  return ok(out)
}
