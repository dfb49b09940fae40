import { describeValue } from '../_lib/describe.js'
import { MAX_TIME } from '../_lib/max-time.js'
import { DAY_MS } from '../time/index.js'
import { parseDecimal, POW10 } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { SAMPLE_MSG } from './messages.js'
import { checkOptions } from '../_lib/closed-options.js'

/** Kind of a trading day's main session: a one-directional trend or a two-sided balance around the open. */
export type SampleDayKind = 'trend' | 'balanced'

/** Keys of {@link SampleOptions}. */
const SAMPLE_OPTION_KEYS = [
  'seed',
  'start',
  'days',
  'tradesPerDay',
  'tickSize',
  'startPrice',
  'volumeDecimals',
  'timeZone',
  'dayKinds',
] as const

/** Options of the sample generator; every field is optional (defaults in brackets). */
export interface SampleOptions {
  /** PRNG seed [1], an integer 0..2^32 - 1; the same seed and options always give the same trades. */
  seed?: number
  /**
   * Integer epoch ms whose UTC calendar date is the first trading day [Date.UTC(2026, 5, 1), Monday 1 June 2026].
   * The sample's days, plus a day either side, must lie within ±8.64e15 ms (the range of a Date).
   */
  start?: number
  /** Number of consecutive calendar days, each one trading day with three sessions [1]. */
  days?: number
  /** Trades per day over the three sessions [50_000]. */
  tradesPerDay?: number
  /** Tick size, a positive decimal [`'0.25'`]; every price is a whole number of ticks. */
  tickSize?: string
  /** Price of the first trade, floored to the tick grid [`'5000'`]. */
  startPrice?: string
  /** 0: whole lots (default); 8: volumes with up to 8 decimals (crypto style, `k / 1e8`). */
  volumeDecimals?: number
  /** IANA zone of the session hours [`'America/New_York'`]. */
  timeZone?: string
  /** Main-session kind per day, cycled [`['trend', 'balanced']`]. */
  dayKinds?: SampleDayKind[]
}

/** Options resolved once: integers on the tick grid. */
export interface ResolvedSample {
  seed: number
  startDay: number // UTC epoch day of the first trading day
  days: number
  tradesPerDay: number
  /** Tick in units of 10^-scale. */
  tickUnits: number
  scale: number
  /** Divisor giving the price: price = ticks * tickUnits / pow. */
  pow: number
  startTicks: number
  /** Highest tick count that keeps prices exact (units < 10^15). */
  maxTicks: number
  volumeDecimals: 0 | 8
  timeZone: string
  trendDays: boolean[]
}

export const DEFAULT_START = Date.UTC(2026, 5, 1)

/** 8.64e15 ms (the last time a Date holds) in days. */
const MAX_DAY = MAX_TIME / DAY_MS

function intOption(name: string, v: number | undefined, dflt: number, min: number): number {
  if (v === undefined) return dflt
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) {
    throw new MarketDataError('invalid_option', SAMPLE_MSG.notInteger(name, min, v), { field: name })
  }
  return v
}

function positiveDecimal(name: string, v: unknown): { units: bigint; scale: number } {
  const r = parseDecimal(v)
  if (typeof v !== 'string' || !r.ok || r.value.units <= 0n) {
    throw new MarketDataError('invalid_option', SAMPLE_MSG.notPositiveDecimal(name, v), { field: name })
  }
  return r.value
}

/** Resolves and validates the options once; throws `MarketDataError` (`invalid_option`) naming the option. */
export function resolveSampleOptions(
  opts: SampleOptions = {},
  fn = 'sampleTrades',
  extraKeys: readonly string[] = [],
): ResolvedSample {
  if (typeof opts !== 'object' || opts === null)
    throw new MarketDataError(
      'invalid_option',
      `options: expected an object of sample options, got ${describeValue(opts)}`,
      { field: 'options' },
    )
  checkOptions(opts, [...SAMPLE_OPTION_KEYS, ...extraKeys], fn)
  const seed = opts.seed === undefined ? 1 : opts.seed
  // the generator keeps 32 bits of the seed: a fraction or a larger seed would silently repeat another one
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new MarketDataError(
      'invalid_option',
      `${SAMPLE_MSG.notInteger('seed', 0, seed)} (at most 4294967295: the generator keeps 32 bits)`,
      { field: 'seed' },
    )
  }
  const start = opts.start ?? DEFAULT_START
  // trades of UTC day d fall in [d - 10h, d + 1 day + 8h] (session hours 04:00-20:00 local, offsets -12h..+14h):
  // the sample's days plus a day either side must lie within ±8.64e15 ms, so every time is a valid Date
  if (
    typeof start !== 'number' ||
    !Number.isSafeInteger(start) ||
    Math.floor(start / DAY_MS) - 1 < -MAX_DAY ||
    Math.floor(start / DAY_MS) + 2 > MAX_DAY
  ) {
    throw new MarketDataError('invalid_option', SAMPLE_MSG.start(start), { field: 'start' })
  }
  const days = intOption('days', opts.days, 1, 0)
  if (Math.floor(start / DAY_MS) + days + 1 > MAX_DAY) {
    throw new MarketDataError('invalid_option', SAMPLE_MSG.daysRange(days, start), { field: 'days' })
  }
  const tradesPerDay = intOption('tradesPerDay', opts.tradesPerDay, 50_000, 0)
  const volumeDecimals = opts.volumeDecimals ?? 0
  if (volumeDecimals !== 0 && volumeDecimals !== 8) {
    throw new MarketDataError('invalid_option', SAMPLE_MSG.volumeDecimals(volumeDecimals), { field: 'volumeDecimals' })
  }
  const tick = positiveDecimal('tickSize', opts.tickSize ?? '0.25')
  const sp = positiveDecimal('startPrice', opts.startPrice ?? '5000')
  const scale = tick.scale
  if (scale > 15) throw new MarketDataError('invalid_option', SAMPLE_MSG.gridTooFine(), { field: 'tickSize' })
  const LIMIT = 10n ** 15n
  if (tick.units >= LIMIT)
    throw new MarketDataError('invalid_option', SAMPLE_MSG.tooLarge('tickSize'), { field: 'tickSize' })
  // start price in tick-scale units, floored (a finer start price is floored onto the grid)
  const spUnits =
    sp.scale <= scale ? sp.units * 10n ** BigInt(scale - sp.scale) : sp.units / 10n ** BigInt(sp.scale - scale)
  if (spUnits >= LIMIT)
    throw new MarketDataError('invalid_option', SAMPLE_MSG.tooLarge('startPrice'), { field: 'startPrice' })
  const tickUnits = Number(tick.units)
  const maxTicks = Math.floor((1e15 - 1) / tickUnits)
  const startTicks = Math.max(1, Number(spUnits / tick.units))
  const timeZone = opts.timeZone ?? 'America/New_York'
  if (typeof timeZone !== 'string' || !validZone(timeZone)) {
    throw new MarketDataError('invalid_option', SAMPLE_MSG.timeZone(timeZone), { field: 'timeZone' })
  }
  const kinds = opts.dayKinds ?? ['trend', 'balanced']
  if (!Array.isArray(kinds) || kinds.length === 0 || kinds.some((k) => k !== 'trend' && k !== 'balanced')) {
    throw new MarketDataError('invalid_option', SAMPLE_MSG.dayKinds(kinds), { field: 'dayKinds' })
  }
  return {
    seed: Math.trunc(seed) | 0,
    startDay: Math.floor(start / DAY_MS),
    days,
    tradesPerDay,
    tickUnits,
    scale,
    pow: POW10[scale]!,
    startTicks: Math.min(startTicks, maxTicks),
    maxTicks,
    volumeDecimals,
    timeZone,
    trendDays: kinds.map((k) => k === 'trend'),
  }
}

function validZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz })
    return true
  } catch {
    return false
  }
}
