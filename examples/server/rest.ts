// Interface B (REST) handlers. Each one parses with the library, looks the security up in the store,
// lets the library trim, cap, aggregate and price, and formats times for the wire. The order is the service's:
// (auth and lock-out in server.ts) -> 400 parse -> 404 -> trim and cap -> read -> price (charge in server.ts).
import {
  bucketEnd,
  bucketStart,
  candlesFromTrades,
  decimalToString,
  footprintProfiles,
  listTimeframes,
  parseDecimal,
  resolveTimeframe,
  rowSizeScale,
  timeframeRank,
  tpoProfiles,
  type Candle,
  type CandleOptions,
  type FootprintProfile,
  type Timeframe,
  type TpoProfile,
} from '../../src/index.js'
import {
  DEFAULT_SERVICE_CONFIG,
  checkCap,
  checkRowSize,
  countTpoPeriods,
  createServiceConfig,
  footprintHistoryStart,
  formatIso,
  invalidArgumentError,
  notFoundError,
  parseHistoryQuery,
  priceOf,
  trimToDepth,
  type ApiError,
  type CandlesHistoryRequest,
  type HistoryRequest,
  type ServiceConfig,
} from '../../src/service/index.js'
import { restSecurity } from './catalog.js'
import { searchSecurities } from './search.js'
import type { MarketStore, StoredSecurity } from './store.js'

/** The endpoint names `priceOf` takes. */
export type RestEndpointName =
  | 'candles'
  | 'timeframes'
  | 'footprint'
  | 'row-size-scale'
  | 'tpo'
  | 'search'
  | 'exchanges'
  | 'securities'
  | 'security'

/** A matched REST route. */
export interface RestRoute {
  endpoint: RestEndpointName
  exchange?: string
  symbol?: string
}

/** What a handler answers: a 200 body and its price, or an error (never billed). */
export type RestResult = { ok: true; body: unknown; price: number } | { ok: false; error: ApiError }

export interface RestContext {
  store: MarketStore
  /** The request's clock reading (UTC ms), read once per request. */
  now: number
}

/** REST paths, relative to `/api/v1/marketdata`. */
export const REST_PREFIX = '/api/v1/marketdata'

/** Matches a path below {@link REST_PREFIX}; `undefined` for an unknown path, `null` for a bad percent-encoding. */
export function matchRestRoute(path: string): RestRoute | undefined | null {
  const simple: Record<string, RestEndpointName> = {
    '/candles': 'candles',
    '/timeframes': 'timeframes',
    '/footprint': 'footprint',
    '/footprint/row-size-scale': 'row-size-scale',
    '/tpo': 'tpo',
    '/search': 'search',
    '/exchanges': 'exchanges',
  }
  const hit = simple[path]
  if (hit !== undefined && Object.hasOwn(simple, path)) return { endpoint: hit }
  const parts = path.split('/')
  // ['', 'exchanges', '{exchange}', 'securities'(, '{symbol}')]
  if (parts[0] !== '' || parts[1] !== 'exchanges' || parts[3] !== 'securities' || parts.length < 4 || parts.length > 5)
    return undefined
  try {
    const exchange = decodeURIComponent(parts[2]!)
    if (parts.length === 4) return { endpoint: 'securities', exchange }
    return { endpoint: 'security', exchange, symbol: decodeURIComponent(parts[4]!) }
  } catch {
    return null
  }
}

const ok = (body: unknown, price: number): RestResult => ({ ok: true, body, price })
const fail = (error: ApiError): RestResult => ({ ok: false, error })

/** Rejects query parameters an endpoint does not take, and repeats of single-valued ones. */
function checkParams(query: URLSearchParams, endpoint: string, allowed: readonly string[]): ApiError | undefined {
  const seen = new Set<string>()
  for (const name of query.keys()) {
    if (!allowed.includes(name))
      return invalidArgumentError(`unknown query parameter ${JSON.stringify(name)} for /${endpoint}`, name)
    if (seen.has(name)) return invalidArgumentError(`${name}: given more than once`, name)
    seen.add(name)
  }
  return undefined
}

/** Exchange and security of a request, or the spec's 404. */
function locate(store: MarketStore, exchange: string, symbol: string): StoredSecurity | ApiError {
  if (store.exchange(exchange) === undefined) return notFoundError('exchange')
  const s = store.security(exchange, symbol)
  return s === undefined ? notFoundError('security') : s
}

const isError = (x: unknown): x is ApiError => typeof x === 'object' && x !== null && 'code' in x && 'status' in x

/** Times are epoch ms in the library; on the wire they are ISO 8601 UTC strings. */
function iso(t: number | null | undefined): string | null | undefined {
  return typeof t === 'number' ? formatIso(t) : t
}

export function wireCandle(c: Candle): Record<string, unknown> {
  return { ...c, time: formatIso(c.time) }
}

/** ISO times in a profile: `time`, `end`, `profileStart`, `blocks`, and the TPO bookkeeping times. */
export function wireProfile(p: object): Record<string, unknown> {
  const out: Record<string, unknown> = { ...p }
  for (const k of ['time', 'end', 'profileStart', 'openTime', 'closeTime', 'initialBalanceStart']) {
    if (k in out) out[k] = iso(out[k] as number | null | undefined)
  }
  if (Array.isArray(out.blocks)) out.blocks = (out.blocks as number[]).map((t) => formatIso(t))
  return out
}

/**
 * The half-open window of trades to read for a resolved range: buckets overlapping `[from, to)` are returned
 * whole, except that where depth or the data floor cut the first bucket (`trimToDepth` set `profileStart`)
 * the read starts at that effective start, never before it.
 */
function readWindow(r: HistoryRequest, tf: Timeframe): { from: number; to: number } {
  const opts = { timeZone: r.timeZone }
  const profileStart = 'profileStart' in r ? r.profileStart : undefined
  return {
    from: profileStart !== undefined ? profileStart : bucketStart(r.from, tf, opts),
    to: bucketEnd(r.to - 1, tf, opts),
  }
}

/**
 * When depth or the data floor trimmed the range, the profile of the bucket holding the real start
 * (`trimToDepth`'s) carries it. When that bucket had no trades, the first returned profile begins after the
 * real start: nothing of it was cut, so it gets no `profileStart`.
 */
function markProfileStart(
  profiles: Array<{ time: number; profileStart?: number }>,
  profileStart: number | undefined,
): void {
  const first = profiles[0]
  if (profileStart !== undefined && first !== undefined && first.time <= profileStart) first.profileStart = profileStart
}

/**
 * Candles of a time frame for a resolved request: buckets overlapping `[from, to)`, whole. Reading strategy
 * (I/O only): start with about `limit` buckets next to the pinned end and widen the read until `limit`
 * candles came back or the range is exhausted, so a recent `limit` never aggregates the whole history.
 */
function readCandles(store: MarketStore, s: StoredSecurity, r: CandlesHistoryRequest, opts: CandleOptions): Candle[] {
  const tf = r.timeframe
  const zone = { timeZone: r.timeZone }
  const whole = readWindow(r, tf)
  const first = s.trades.time[0] ?? 0
  const last = store.newest(s) ?? 0
  let span = timeframeRank(tf) * r.limit
  for (;;) {
    let from = whole.from
    let to = whole.to
    if (r.direction === 'backward' && whole.to - span > whole.from && whole.to - span > first)
      from = bucketStart(whole.to - span, tf, zone)
    if (r.direction === 'forward' && whole.from + span < whole.to && whole.from + span <= last)
      to = bucketEnd(whole.from + span, tf, zone)
    const out = candlesFromTrades(store.tradesIn(s, from, to), opts)
    if (out.length >= r.limit || (from === whole.from && to === whole.to)) return out
    // widen by the density seen so far (at least twice as wide), with a margin
    span *= out.length === 0 ? 4 : Math.max(2, Math.ceil(((r.limit / out.length) * 5) / 4))
  }
}

const ONE_DAY = resolveTimeframe('1d')

/**
 * Tick candles (N trades a candle) of the newest `limit` candles before `to`. The count restarts at the first
 * trade of each local day (exchange zone), so the grouping is the same on every request whatever is read;
 * days are read newest first until `limit` candles are in.
 */
function readTickCandles(
  store: MarketStore,
  s: StoredSecurity,
  r: CandlesHistoryRequest,
  opts: CandleOptions,
): Candle[] {
  const zone = { timeZone: r.timeZone }
  const first = s.trades.time[0]
  if (first === undefined) return []
  const days: Candle[][] = []
  let n = 0
  let day = bucketStart(r.to - 1, ONE_DAY, zone)
  while (n < r.limit && bucketEnd(day, ONE_DAY, zone) > first && bucketEnd(day, ONE_DAY, zone) > r.from) {
    const c = candlesFromTrades(
      store.tradesIn(s, Math.max(day, r.from), Math.min(bucketEnd(day, ONE_DAY, zone), r.to)),
      opts,
    )
    days.push(c)
    n += c.length
    day = bucketStart(day - 1, ONE_DAY, zone)
  }
  return days.reverse().flat()
}

function candles(query: URLSearchParams, ctx: RestContext): RestResult {
  const zone = zoneOf(ctx.store, query)
  const parsed = parseHistoryQuery('candles', query, { now: ctx.now, timeZone: zone })
  if (!parsed.ok) return fail(parsed.error)
  const q = parsed.value
  if (q.endpoint !== 'candles') throw new Error('parseHistoryQuery: endpoint mismatch')
  const s = locate(ctx.store, q.exchange, q.symbol)
  if (isError(s)) return fail(s)
  const newest = ctx.store.newest(s)
  if (newest === undefined) return fail(notFoundError('data'))
  const r = trimToDepth(q, { newestCandleTime: newest })
  const capped = checkCap(r)
  if (capped !== undefined) return fail(capped)
  let out: Candle[] = []
  if (!r.empty) {
    const opts = {
      timeframe: r.timeframe,
      timeZone: r.timeZone,
      sessions: r.sessionTypes,
      tickSize: s.security.tickSize,
    }
    if (r.timeframe.unit === 'TICK') {
      if (ctx.store.tickFrames === false)
        return fail(invalidArgumentError('timeframe: tick frames need trades; this store keeps minutes', 'timeframe'))
      out = readTickCandles(ctx.store, s, r, opts)
    } else {
      out = readCandles(ctx.store, s, r, opts)
    }
    out = r.direction === 'forward' ? out.slice(0, r.limit) : out.slice(Math.max(0, out.length - r.limit))
  }
  const price = priceOf('candles', { candles: out.length })
  return ok({ exchange: r.exchange, symbol: r.symbol, timeframe: r.timeframe.id, candles: out.map(wireCandle) }, price)
}

/**
 * The steps footprint and TPO share, in the service's order: 400 parse -> 404 exchange / symbol / data ->
 * depth trim -> 400 too_much_data. Returns the request as it will run, or the error to answer.
 */
function profileRequest<E extends 'footprint' | 'tpo'>(
  endpoint: E,
  query: URLSearchParams,
  ctx: RestContext,
): { r: Extract<HistoryRequest, { endpoint: E }>; s: StoredSecurity; note?: string } | ApiError {
  const parsed = parseHistoryQuery(endpoint, query, { now: ctx.now, timeZone: zoneOf(ctx.store, query) })
  if (!parsed.ok) return parsed.error
  const q = parsed.value
  if (q.endpoint !== endpoint) throw new Error('parseHistoryQuery: endpoint mismatch')
  const s = locate(ctx.store, q.exchange, q.symbol)
  if (isError(s)) return s
  const newest = ctx.store.newest(s)
  if (newest === undefined) return notFoundError('data')
  // a row size the security's price grid cannot hold is the request's 400, before anything is read
  const badRow = checkRowSize(q, { tickSize: s.security.tickSize })
  if (badRow !== undefined) return badRow
  const r = trimToDepth(q, { newestCandleTime: newest, config: configOf(s) }) as Extract<
    HistoryRequest,
    { endpoint: E }
  >
  const note =
    (r as { empty?: boolean }).empty === true && (q as { empty?: boolean }).empty !== true
      ? emptiedNote(r, s, newest)
      : undefined
  return checkCap(r) ?? { r, s, ...(note !== undefined ? { note } : {}) }
}

const configs = new WeakMap<StoredSecurity, ServiceConfig>()

/** The service config a security's answers use: the service's, with the security's own data floor if it has one. */
function configOf(s: StoredSecurity): ServiceConfig {
  if (s.dataFloor === undefined) return DEFAULT_SERVICE_CONFIG
  let c = configs.get(s)
  if (c === undefined) {
    c = createServiceConfig({ dataFloor: s.dataFloor })
    configs.set(s, c)
  }
  return c
}

/** Why an answer has no profiles although its range was not empty: it ends before the history held. */
function emptiedNote(r: HistoryRequest, s: StoredSecurity, newest: number): string {
  const config = configOf(s)
  const floor = new Date(config.dataFloor).toISOString()
  if (r.endpoint === 'footprint' && footprintHistoryStart(r.timeframe, newest, config) > config.dataFloor)
    return `no profiles: the range ends before ${new Date(r.from).toISOString()}, where the ${r.timeframe.id} footprint history of this security starts (its depth, counted back from the newest trade)`
  return `no profiles: the range ends before ${floor}, the data floor of this security (a server option: --data-floor)`
}

function footprint(query: URLSearchParams, ctx: RestContext): RestResult {
  const req = profileRequest('footprint', query, ctx)
  if (isError(req)) return fail(req)
  const { r, s, note } = req
  let profiles: FootprintProfile[] = []
  if (!r.empty) {
    const w = readWindow(r, r.timeframe)
    profiles = footprintProfiles(ctx.store.tradesIn(s, w.from, w.to), {
      timeframe: r.timeframe,
      tickSize: s.security.tickSize,
      ...(r.rowSizeValue !== undefined ? { rowSizeValue: r.rowSizeValue } : { rowSize: r.rowSize ?? 1 }),
      timeZone: r.timeZone,
      sessions: r.sessionTypes,
      from: w.from,
      to: w.to,
    })
    markProfileStart(profiles, r.profileStart)
  }
  const price = priceOf('footprint', { profiles: profiles.length })
  return ok(
    {
      exchange: r.exchange,
      symbol: r.symbol,
      timeframe: r.timeframe.id,
      from: formatIso(r.from),
      to: formatIso(r.to),
      profiles: profiles.map(wireProfile),
      ...(note !== undefined ? { note } : {}),
    },
    price,
  )
}

function tpo(query: URLSearchParams, ctx: RestContext): RestResult {
  const req = profileRequest('tpo', query, ctx)
  if (isError(req)) return fail(req)
  const { r, s, note } = req
  let profiles: TpoProfile[] = []
  if (!r.empty) {
    const w = readWindow(r, r.timeframe)
    profiles = tpoProfiles(ctx.store.tradesIn(s, w.from, w.to), {
      timeframe: r.timeframe,
      tickSize: s.security.tickSize,
      blockSize: r.blockSize,
      mergeSessions: r.mergeSessions,
      timeZone: r.timeZone,
      sessions: r.sessionTypes,
    })
    markProfileStart(profiles, r.profileStart)
  }
  const price = priceOf('tpo', { periods: countTpoPeriods(profiles) })
  return ok(
    {
      exchange: r.exchange,
      symbol: r.symbol,
      timeframe: r.timeframe.id,
      blockSize: r.blockSize.id,
      mergeSessions: r.mergeSessions,
      from: formatIso(r.from),
      to: formatIso(r.to),
      profiles: profiles.map(wireProfile),
      ...(note !== undefined ? { note } : {}),
    },
    price,
  )
}

function rowSizeScaleEndpoint(query: URLSearchParams, ctx: RestContext): RestResult {
  const bad = checkParams(query, 'footprint/row-size-scale', ['exchange', 'symbol', 'timeframe'])
  if (bad !== undefined) return fail(bad)
  // The footprint rules validate exchange, symbol and timeframe (minute .. month frames).
  const parsed = parseHistoryQuery('footprint', query, { now: ctx.now, timeZone: zoneOf(ctx.store, query) })
  if (!parsed.ok) return fail(parsed.error)
  const q = parsed.value
  const s = locate(ctx.store, q.exchange, q.symbol)
  if (isError(s)) return fail(s)
  const newest = ctx.store.newest(s)
  if (newest === undefined) return fail(notFoundError('data'))
  const badRow = checkRowSize(q, { tickSize: s.security.tickSize })
  if (badRow !== undefined) return fail(badRow)
  // The typical bucket range comes from the newest footprint profiles of the default window (high - low).
  const r = trimToDepth(q, { newestCandleTime: newest, config: configOf(s) })
  let ranges: string[] = []
  if (!r.empty && r.endpoint === 'footprint') {
    const w = readWindow(r, r.timeframe)
    const recent = footprintProfiles(ctx.store.tradesIn(s, w.from, w.to), {
      timeframe: r.timeframe,
      tickSize: s.security.tickSize,
      timeZone: r.timeZone,
    })
    ranges = recent.slice(-20).map((p) => difference(p.high, p.low))
  }
  const scale = rowSizeScale({ tickSize: s.security.tickSize, ranges })
  return ok({ exchange: q.exchange, symbol: q.symbol, timeframe: q.timeframe.id, ...scale }, priceOf('row-size-scale'))
}

/** Exact `a - b` of two decimal strings (scaled integers, no float). */
function difference(a: string, b: string): string {
  const x = parseDecimal(a)
  const y = parseDecimal(b)
  if (!x.ok || !y.ok) throw new Error(`difference: ${a} - ${b}`)
  const scale = Math.max(x.value.scale, y.value.scale)
  const units =
    x.value.units * 10n ** BigInt(scale - x.value.scale) - y.value.units * 10n ** BigInt(scale - y.value.scale)
  return decimalToString({ units, scale })
}

function search(query: URLSearchParams, ctx: RestContext): RestResult {
  const bad = checkParams(query, 'search', ['q', 'exchange', 'limit'])
  if (bad !== undefined) return fail(bad)
  const q = query.get('q')
  if (q === null) return fail(invalidArgumentError('q: is required (search text or an exact ISIN)', 'q'))
  // characters are code points (an emoji is one), not UTF-16 units
  if (q.trim().length === 0 || [...q].length > 128)
    return fail(invalidArgumentError('q: must hold 1..128 characters', 'q'))
  const limitRaw = query.get('limit')
  const limit = limitRaw === null ? 10 : /^[0-9]{1,3}$/.test(limitRaw) ? Number(limitRaw) : NaN
  if (!(limit >= 1 && limit <= 50)) return fail(invalidArgumentError('limit: must be an integer 1..50', 'limit'))
  const exchange = query.get('exchange')
  if (exchange !== null && ctx.store.exchange(exchange) === undefined) return fail(notFoundError('exchange'))
  const pool = exchange === null ? ctx.store.all() : ctx.store.listed(exchange)
  return ok({ query: q, results: searchSecurities(pool, q, limit) }, priceOf('search'))
}

function exchanges(query: URLSearchParams, ctx: RestContext): RestResult {
  const bad = checkParams(query, 'exchanges', [])
  if (bad !== undefined) return fail(bad)
  return ok({ exchanges: ctx.store.catalog.exchanges }, priceOf('exchanges'))
}

function securities(route: RestRoute, query: URLSearchParams, ctx: RestContext): RestResult {
  const bad = checkParams(query, 'exchanges/{exchange}/securities', [])
  if (bad !== undefined) return fail(bad)
  const exchange = route.exchange ?? ''
  if (ctx.store.exchange(exchange) === undefined) return fail(notFoundError('exchange'))
  return ok(
    { exchange, securities: ctx.store.listed(exchange).map((s) => restSecurity(s.security)) },
    priceOf('securities'),
  )
}

function security(route: RestRoute, query: URLSearchParams, ctx: RestContext): RestResult {
  const bad = checkParams(query, 'exchanges/{exchange}/securities/{symbol}', [])
  if (bad !== undefined) return fail(bad)
  const s = locate(ctx.store, route.exchange ?? '', route.symbol ?? '')
  if (isError(s)) return fail(s)
  return ok(restSecurity(s.security), priceOf('security'))
}

function timeframes(query: URLSearchParams): RestResult {
  const bad = checkParams(query, 'timeframes', [])
  if (bad !== undefined) return fail(bad)
  return ok({ timeframes: listTimeframes() }, priceOf('timeframes'))
}

/** The bucket zone of a history request: its exchange's zone (UTC until the exchange is known). */
function zoneOf(store: MarketStore, query: URLSearchParams): string {
  const code = query.get('exchange')
  return (code === null ? undefined : store.exchange(code)?.timezone) ?? 'UTC'
}

/** Runs one REST endpoint (after auth and the lock-out check). */
export function handleRest(route: RestRoute, query: URLSearchParams, ctx: RestContext): RestResult {
  switch (route.endpoint) {
    case 'candles':
      return candles(query, ctx)
    case 'footprint':
      return footprint(query, ctx)
    case 'tpo':
      return tpo(query, ctx)
    case 'row-size-scale':
      return rowSizeScaleEndpoint(query, ctx)
    case 'search':
      return search(query, ctx)
    case 'exchanges':
      return exchanges(query, ctx)
    case 'securities':
      return securities(route, query, ctx)
    case 'security':
      return security(route, query, ctx)
    case 'timeframes':
      return timeframes(query)
  }
}
