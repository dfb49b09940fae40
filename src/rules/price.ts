import { MarketDataError } from '../errors.js'
import { OPTION_MSG } from './messages.js'
import { DEFAULT_SERVICE_CONFIG, type ServiceConfig } from './service-config.js'
import type { RestEndpoint } from './types.js'

/** Every billed REST request costs at least this many credits. */
export const PRICE_MIN = DEFAULT_SERVICE_CONFIG.prices.min
/** No REST request costs more than this many credits. */
export const PRICE_MAX = DEFAULT_SERVICE_CONFIG.prices.max

/**
 * What a REST answer returned, for {@link priceOf}. `status` is the HTTP status of the answer (default 200);
 * only a 200 is billed. The count that matters per endpoint: `candles` for `candles`, `profiles` for
 * `footprint`, `periods` for `tpo` (with GROUP_BY_TYPE the per-session-type profiles of one period count once).
 */
export interface PriceInput {
  status?: number
  candles?: number
  profiles?: number
  periods?: number
}

/** Per-item prices of the history endpoints: the count {@link PriceInput} field that is billed, and the price of the service config that applies. */
export const PER_ITEM_PRICES: Readonly<
  Record<
    'candles' | 'footprint' | 'tpo',
    { field: 'candles' | 'profiles' | 'periods'; price: 'candle' | 'footprintProfile' | 'tpoPeriod' }
  >
> = {
  candles: { field: 'candles', price: 'candle' },
  footprint: { field: 'profiles', price: 'footprintProfile' },
  tpo: { field: 'periods', price: 'tpoPeriod' },
}
const FLAT: ReadonlySet<string> = new Set([
  'row-size-scale',
  'search',
  'exchanges',
  'securities',
  'security',
  'timeframes',
])
const COUNT_FIELDS = ['candles', 'profiles', 'periods'] as const

/**
 * Credits a REST answer costs (by default): candles 1 per candle, footprint 10 per profile,
 * TPO 25 per period, every other endpoint 1,000; at least 1,000 (an empty range costs 1,000) and at most 10,000.
 * Unbilled outcomes cost 0: pass the answer's `status`, anything but 200 (400 invalid_argument or
 * too_much_data, 401, 403, 404, 429, 5xx) is never billed. Throws `MarketDataError` for an unknown
 * endpoint, a negative or fractional count, or a count that does not belong to the endpoint (a programming error).
 * The prices and bounds come from `config` (default {@link DEFAULT_SERVICE_CONFIG}).
 *
 * @param endpoint - `candles`, `footprint`, `tpo`, `row-size-scale`, `search`, `exchanges`, `securities`, `security` or `timeframes`
 * @param returned - the answer's `status` and the count of its endpoint (`candles`, `profiles` or `periods`)
 * @param config - the service config whose `prices` apply
 * @returns the credits to charge (0 for an answer that is not a 200)
 * @throws `MarketDataError` `invalid_option` naming the field for an unknown endpoint, a bad count or status
 * @example
 * priceOf('candles', { candles: 2500 })      // 2500
 * priceOf('footprint', { profiles: 3 })      // 1000 (minimum)
 * priceOf('tpo', { periods: 400 })           // 10000 (maximum)
 * priceOf('exchanges')                       // 1000
 * priceOf('footprint', { status: 400 })      // 0: too_much_data is not billed
 */
export function priceOf(
  endpoint: RestEndpoint,
  returned: PriceInput = {},
  config: ServiceConfig = DEFAULT_SERVICE_CONFIG,
): number {
  const status = returned.status ?? 200
  const item =
    endpoint === 'candles' || endpoint === 'footprint' || endpoint === 'tpo' ? PER_ITEM_PRICES[endpoint] : undefined
  if (item === undefined && !FLAT.has(endpoint)) {
    throw new MarketDataError('invalid_option', OPTION_MSG.badEndpoint(endpoint), { field: 'endpoint' })
  }
  let count = 0
  for (const field of COUNT_FIELDS) {
    const v = returned[field]
    if (v === undefined) continue
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
      throw new MarketDataError('invalid_option', OPTION_MSG.badCount(field), { field })
    }
    if (item === undefined || item.field !== field) {
      throw new MarketDataError('invalid_option', OPTION_MSG.foreignCount(field, endpoint, item?.field), { field })
    }
    count = v
  }
  if (typeof status !== 'number' || !Number.isInteger(status)) {
    throw new MarketDataError('invalid_option', OPTION_MSG.badStatus(), { field: 'status' })
  }
  if (status !== 200) return 0
  const { min, max } = config.prices
  const credits = item === undefined ? config.prices.otherEndpoint : count * config.prices[item.price]
  return credits < min ? min : credits > max ? max : credits
}

/**
 * Number of TPO periods among profiles (distinct `time`s), the count {@link priceOf} bills for `tpo`: with
 * GROUP_BY_TYPE the per-session-type profiles of one period count once. Throws `MarketDataError`
 * `invalid_option` when `profiles` is not an iterable that can be read (field `profiles`) or a profile has no
 * finite `time` that can be read (field `time`, with its index).
 *
 * @param profiles - profiles as the library returned them
 * @returns the `number`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * countTpoPeriods([{ time: 0 }, { time: 0 }, { time: 86_400_000 }]) // 2
 */
export function countTpoPeriods(profiles: Iterable<{ time: number }>): number {
  const seen = new Set<number>()
  // a read that throws (a Proxy, a getter, an iterator) is refused as the value would be: a profile's time
  // while `at` names it, else the iterable
  let i = -1
  let at = -1
  try {
    if (
      typeof profiles !== 'object' ||
      profiles === null ||
      typeof (profiles as { [Symbol.iterator]?: unknown })[Symbol.iterator] !== 'function'
    ) {
      throw new MarketDataError('invalid_option', OPTION_MSG.notProfiles(), { field: 'profiles' })
    }
    for (const p of profiles) {
      at = ++i
      const t = typeof p === 'object' && p !== null ? p.time : undefined
      at = -1
      // a profile without a finite time would be billed as a period of its own (or merged with another)
      if (typeof t !== 'number' || !Number.isFinite(t))
        throw new MarketDataError('invalid_option', OPTION_MSG.profileTime(i), { index: i, field: 'time' })
      seen.add(t)
    }
  } catch (e) {
    throw e instanceof MarketDataError
      ? e
      : at < 0
        ? new MarketDataError('invalid_option', OPTION_MSG.notProfiles(), { field: 'profiles' })
        : new MarketDataError('invalid_option', OPTION_MSG.profileTime(at), { index: at, field: 'time' })
  }
  return seen.size
}
