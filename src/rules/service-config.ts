// The service's numbers in one object: prices, caps, the footprint depth table, the data floor and the credit
// windows. The defaults are the service's own values; another deployment passes its own object to the functions
// that use them (priceOf, checkCap, trimToDepth, footprintDepthDays, footprintHistoryStart, the ledgers).
import { MarketDataError } from '../errors.js'
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../time/index.js'

/** One row of the footprint depth table: frames shorter than `shorterThanMs` keep `days` calendar days. */
export interface DepthRow {
  readonly shorterThanMs: number
  readonly days: number
}

/** The stream kinds a WebSocket ledger prices and caps. */
export type ServiceStreamKind = 'candles' | 'footprint' | 'orderbook'

/** Every number of the service that a deployment may change. Build one with {@link createServiceConfig}. */
export interface ServiceConfig {
  /** REST prices in credits: per candle, per footprint profile, per TPO period, any other endpoint; the bounds of one bill. */
  readonly prices: {
    readonly candle: number
    readonly footprintProfile: number
    readonly tpoPeriod: number
    readonly otherEndpoint: number
    readonly min: number
    readonly max: number
  }
  /** Per-request caps, counted in slots before data is read. */
  readonly caps: { readonly footprintProfiles: number; readonly tpoProfiles: number }
  /** Footprint history depth: the first row whose `shorterThanMs` exceeds the frame's nominal length applies, else `longestDays`. */
  readonly footprintDepth: { readonly rows: readonly DepthRow[]; readonly longestDays: number }
  /** Footprint and TPO data start (epoch ms): nothing older is served. */
  readonly dataFloor: number
  /** REST credits: per fixed window aligned to the Unix epoch, shared by an account's keys. */
  readonly restCredits: { readonly limit: number; readonly windowMs: number }
  /** WebSocket credits: per fixed window; price per window and most open streams, per kind. */
  readonly streamCredits: {
    readonly limit: number
    readonly windowMs: number
    readonly prices: Readonly<Record<ServiceStreamKind, number>>
    readonly caps: Readonly<Record<ServiceStreamKind, number>>
  }
}

/** What {@link createServiceConfig} accepts: any part of a {@link ServiceConfig}; groups are merged field by field. */
export interface ServiceConfigOverrides {
  prices?: Partial<ServiceConfig['prices']>
  caps?: Partial<ServiceConfig['caps']>
  footprintDepth?: ServiceConfig['footprintDepth']
  dataFloor?: number
  restCredits?: Partial<ServiceConfig['restCredits']>
  streamCredits?: {
    limit?: number
    windowMs?: number
    prices?: Partial<Record<ServiceStreamKind, number>>
    caps?: Partial<Record<ServiceStreamKind, number>>
  }
}

function deepFreeze<T>(o: T): T {
  if (typeof o === 'object' && o !== null) {
    for (const v of Object.values(o)) deepFreeze(v)
    Object.freeze(o)
  }
  return o
}

/**
 * The service's own values: candles 1 credit each, footprint 10 per profile, TPO 25 per period, other endpoints
 * 1,000, a bill between 1,000 and 10,000; caps of 1,000 footprint and 400 TPO profiles; the depth table
 * (1m-4m 30 days ... 1w and longer 1,095); data from 2026-05-29T00:00Z; REST 100,000 credits a minute;
 * streams 1,000 credits per 5 minutes.
 */
export const DEFAULT_SERVICE_CONFIG: ServiceConfig = deepFreeze({
  prices: { candle: 1, footprintProfile: 10, tpoPeriod: 25, otherEndpoint: 1000, min: 1000, max: 10_000 },
  caps: { footprintProfiles: 1000, tpoProfiles: 400 },
  footprintDepth: {
    rows: [
      { shorterThanMs: 5 * MINUTE_MS, days: 30 },
      { shorterThanMs: 15 * MINUTE_MS, days: 45 },
      { shorterThanMs: 30 * MINUTE_MS, days: 90 },
      { shorterThanMs: HOUR_MS, days: 120 },
      { shorterThanMs: 4 * HOUR_MS, days: 180 },
      { shorterThanMs: DAY_MS, days: 270 },
      { shorterThanMs: 7 * DAY_MS, days: 365 },
    ],
    longestDays: 1095,
  },
  dataFloor: Date.UTC(2026, 4, 29),
  restCredits: { limit: 100_000, windowMs: 60_000 },
  streamCredits: {
    limit: 1000,
    windowMs: 300_000,
    prices: { candles: 10, footprint: 25, orderbook: 50 },
    caps: { candles: 100, footprint: 40, orderbook: 20 },
  },
})

const bad = (field: string, rule: string): MarketDataError =>
  new MarketDataError('invalid_option', `${field}: ${rule}`, { field })

function count(v: unknown, field: string, min: number): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min)
    throw bad(field, `must be a whole number >= ${min}, got ${String(v)}`)
  return v
}

function time(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v))
    throw bad(field, `must be a time in epoch milliseconds, got ${String(v)}`)
  return v
}

function group<K extends string>(
  base: Readonly<Record<K, number>>,
  over: Partial<Record<K, number>> | undefined,
  path: string,
  min: number,
): Record<K, number> {
  if (over !== undefined && (typeof over !== 'object' || over === null)) throw bad(path, 'must be an object')
  const out: Record<K, number> = { ...base }
  for (const [k, v] of Object.entries(over ?? {})) {
    if (v === undefined) continue
    if (!(k in base)) throw bad(`${path}.${k}`, `is not a setting (expected one of ${Object.keys(base).join(', ')})`)
    out[k as K] = count(v, `${path}.${k}`, min)
  }
  return out
}

function depthTable(t: ServiceConfig['footprintDepth']): ServiceConfig['footprintDepth'] {
  if (typeof t !== 'object' || t === null || !Array.isArray(t.rows))
    throw bad('footprintDepth', 'must be { rows: [{ shorterThanMs, days }], longestDays }')
  let last = 0
  const rows = t.rows.map((r, i) => {
    const at = `footprintDepth.rows[${i}]`
    const shorterThanMs = count(r?.shorterThanMs, `${at}.shorterThanMs`, 1)
    if (shorterThanMs <= last) throw bad(`${at}.shorterThanMs`, 'rows must be in increasing shorterThanMs')
    last = shorterThanMs
    return { shorterThanMs, days: count(r?.days, `${at}.days`, 0) }
  })
  return { rows, longestDays: count(t.longestDays, 'footprintDepth.longestDays', 0) }
}

/**
 * Builds a service config: the service's defaults ({@link DEFAULT_SERVICE_CONFIG}) with your overrides merged
 * in, checked and frozen. Prices, caps and credit limits are whole numbers (prices and limits >= 0, caps and
 * windows >= 1); the depth table's rows run in increasing `shorterThanMs`.
 *
 * @param overrides - the settings that differ from the service's; groups are merged field by field, the depth table is replaced whole
 * @returns a frozen {@link ServiceConfig} to pass to `priceOf`, `checkCap`, `trimToDepth` and the ledgers
 * @throws `MarketDataError` `invalid_option` naming the setting (such as `prices.candle`) when a value breaks its rule or is not a setting
 * @example
 * const config = createServiceConfig({ prices: { candle: 2 }, caps: { footprintProfiles: 500 } })
 * priceOf('candles', { candles: 2500 }, config) // 5000
 */
export function createServiceConfig(overrides: ServiceConfigOverrides = {}): ServiceConfig {
  if (typeof overrides !== 'object' || overrides === null) throw bad('overrides', 'must be an object')
  const d = DEFAULT_SERVICE_CONFIG
  const known = Object.keys(d)
  for (const k of Object.keys(overrides))
    if (!known.includes(k)) throw bad(k, `is not a setting (expected one of ${known.join(', ')})`)
  const prices = group(d.prices, overrides.prices, 'prices', 0)
  if (prices.min > prices.max) throw bad('prices.min', `must not exceed prices.max (${prices.max})`)
  const s = overrides.streamCredits ?? {}
  const stream = group(
    { limit: d.streamCredits.limit, windowMs: d.streamCredits.windowMs },
    { limit: s.limit, windowMs: s.windowMs },
    'streamCredits',
    0,
  )
  const rest = group(d.restCredits, overrides.restCredits, 'restCredits', 0)
  return deepFreeze({
    prices,
    caps: group(d.caps, overrides.caps, 'caps', 1),
    footprintDepth: overrides.footprintDepth === undefined ? d.footprintDepth : depthTable(overrides.footprintDepth),
    dataFloor: overrides.dataFloor === undefined ? d.dataFloor : time(overrides.dataFloor, 'dataFloor'),
    restCredits: { limit: rest.limit, windowMs: count(rest.windowMs, 'restCredits.windowMs', 1) },
    streamCredits: {
      limit: stream.limit,
      windowMs: count(stream.windowMs, 'streamCredits.windowMs', 1),
      prices: group(d.streamCredits.prices, s.prices, 'streamCredits.prices', 0),
      caps: group(d.streamCredits.caps, s.caps, 'streamCredits.caps', 1),
    },
  })
}
