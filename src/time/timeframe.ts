import { describeValue } from '../_lib/describe.js'
import { MarketDataError } from '../errors.js'
import { err, ok, type Result } from '../result.js'
import { type ApiError, invalidArgumentError } from '../_lib/api-error.js'
import { DAY_MS, HOUR_MS, MINUTE_MS } from './constants.js'

/** Calendar units of interface A's `time_frame.time_unit`. QUARTER is 3 months. */
export type TimeUnit = 'MINUTE' | 'HOUR' | 'DAY' | 'WEEK' | 'MONTH' | 'QUARTER' | 'YEAR'

/** A timeframe: `count` units per bucket; `TICK` frames hold `count` trades per candle. */
export interface Timeframe {
  id: string
  unit: TimeUnit | 'TICK'
  count: number
}

type Digit = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9'
type OneToNine = Exclude<Digit, '0'>
type OneToThree = '1' | '2' | '3'
type OneToSix = OneToThree | '4' | '5' | '6'

/**
 * A canonical timeframe id: `1m`..`59m`, `1h`..`23h`, `1d`..`6d`, `1w`..`3w`, `1M`..`11M`, `1y`, or a tick
 * frame `<n>t` (1 to 1000 trades a candle, checked when it is used). Editors complete the ids; `'5min'` or
 * `'60m'` do not compile.
 */
export type TimeframeId =
  | `${OneToNine | `${'1' | '2' | '3' | '4' | '5'}${Digit}`}m`
  | `${OneToNine | `1${Digit}` | `2${'0' | OneToThree}`}h`
  | `${OneToSix}d`
  | `${OneToThree}w`
  | `${OneToNine | '10' | '11'}M`
  | '1y'
  | `${number}t`

/**
 * A timeframe option: a canonical id (`'15m'`) or an object with any count >= 1 (`{ unit: 'MINUTE', count: 90 }`).
 * A string read at run time (a query, a command line) goes through {@link parseTimeframe} first, which returns
 * a {@link Timeframe}; every function still checks its timeframe at run time.
 */
export type TimeframeInput = TimeframeId | { unit: TimeUnit | 'TICK'; count?: number; id?: string }

/** One count rule of `GET /timeframes`: ids `<count><suffix>` for count in [min, max]. */
export interface TimeframeRule {
  unit: TimeUnit | 'TICK'
  suffix: string
  min: number
  max: number
  /** Example ids. */
  examples: string[]
}

const RULES: readonly TimeframeRule[] = [
  { unit: 'MINUTE', suffix: 'm', min: 1, max: 59, examples: ['1m', '5m', '15m', '30m'] },
  { unit: 'HOUR', suffix: 'h', min: 1, max: 23, examples: ['1h', '4h'] },
  { unit: 'DAY', suffix: 'd', min: 1, max: 6, examples: ['1d'] },
  { unit: 'WEEK', suffix: 'w', min: 1, max: 3, examples: ['1w'] },
  { unit: 'MONTH', suffix: 'M', min: 1, max: 11, examples: ['1M', '3M'] },
  { unit: 'YEAR', suffix: 'y', min: 1, max: 1, examples: ['1y'] },
  { unit: 'TICK', suffix: 't', min: 1, max: 1000, examples: ['1t', '100t'] },
]

const SUFFIX: Readonly<Record<TimeUnit | 'TICK', string>> = {
  MINUTE: 'm',
  HOUR: 'h',
  DAY: 'd',
  WEEK: 'w',
  MONTH: 'M',
  QUARTER: 'Q',
  YEAR: 'y',
  TICK: 't',
}

const UNITS: readonly (TimeUnit | 'TICK')[] = ['MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR', 'TICK']
/** Units of interface A's `time_frame.time_unit` (every TimeUnit; QUARTER is 3 months). */
export const PARTNER_UNITS: readonly TimeUnit[] = ['MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR']

/**
 * The timeframe count rules, as `GET /timeframes` answers them.
 *
 * @returns the `TimeframeRule[]`
 * @throws never: bad input is answered, not thrown
 * @example listTimeframes().find((r) => r.unit === 'MINUTE') // { suffix: 'm', min: 1, max: 59, ... }
 */
export function listTimeframes(): TimeframeRule[] {
  return RULES.map((r) => ({ ...r, examples: [...r.examples] }))
}

/** Reads `<digits><suffix>` without a regex; returns undefined on any other shape. */
function splitId(id: string): { count: number; suffix: string } | undefined {
  const n = id.length
  if (n < 2 || n > 5) return undefined
  let count = 0
  for (let i = 0; i < n - 1; i++) {
    const c = id.charCodeAt(i) - 48
    if (c < 0 || c > 9) return undefined
    if (i === 0 && c === 0) return undefined // no leading zeros: ids are canonical
    count = count * 10 + c
  }
  return { count, suffix: id[n - 1] as string }
}

/**
 * Parses a canonical timeframe id: `<n>m` (1-59), `<n>h` (1-23), `<n>d` (1-6), `<n>w` (1-3), `<n>M` (1-11),
 * `1y`, ticks `<n>t` (1-1000). Non-canonical ids (`60m`, `05m`) are 400 `invalid_argument`.
 *
 * @param id - the id to read
 * @returns `{ ok: true, value }`, or `{ ok: false, error }` naming the field and the rule
 * @throws never: bad input is answered, not thrown
 * @example parseTimeframe('15m') // { ok: true, value: { id: '15m', unit: 'MINUTE', count: 15 } }
 */
export function parseTimeframe(id: string): Result<Timeframe, ApiError> {
  const bad = () =>
    err(
      invalidArgumentError(
        `timeframe: ${describeValue(id)} is not a supported timeframe id (1-59m, 1-23h, 1-6d, 1-3w, 1-11M, 1y, 1-1000t)`,
      ),
    )
  if (typeof id !== 'string') return bad()
  const parts = splitId(id)
  if (parts === undefined) return bad()
  const rule = RULES.find((r) => r.suffix === parts.suffix)
  if (rule === undefined || parts.count < rule.min || parts.count > rule.max) return bad()
  return ok({ id, unit: rule.unit, count: parts.count })
}

/**
 * The id of any unit and count: canonical where one exists, else `<count><suffix>` with `Q` for quarters.
 *
 * @example timeframeId('MINUTE', 90) // '90m'; timeframeId('QUARTER', 1) // '1Q'
 */
export function timeframeId(unit: TimeUnit | 'TICK', count: number): string {
  return `${count}${SUFFIX[unit]}`
}

/**
 * Resolves an aggregator's `timeframe` option: a canonical id, or an object with any integer count >= 1.
 * Throws `MarketDataError` (`invalid_option`) naming the field.
 *
 * @param x - the value to check: anything, never trusted
 * @param field - the option name to use in error messages (optional)
 * @returns the `Timeframe`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example resolveTimeframe({ unit: 'MINUTE', count: 90 }) // { id: '90m', unit: 'MINUTE', count: 90 }
 */
export function resolveTimeframe(x: TimeframeInput, field = 'timeframe'): Timeframe {
  if (typeof x === 'string') {
    const r = parseTimeframe(x)
    if (!r.ok) throw new MarketDataError('invalid_option', r.error.message.replace(/^timeframe/, field), { field })
    return r.value
  }
  if (typeof x !== 'object' || x === null || !UNITS.includes(x.unit)) {
    throw new MarketDataError(
      'invalid_option',
      `${field}: expected a timeframe id or { unit, count } with unit one of ${UNITS.join(', ')}`,
      { field },
    )
  }
  const count = x.count ?? 1
  if (!Number.isSafeInteger(count) || count < 1) {
    throw new MarketDataError(
      'invalid_option',
      `${field}.count: must be an integer >= 1 (got ${describeValue(count)})`,
      { field: `${field}.count` },
    )
  }
  const id = timeframeId(x.unit, count)
  // a given id must name the same frame: a stale or hand-written one would label the output wrongly
  if (x.id !== undefined && x.id !== id) {
    throw new MarketDataError(
      'invalid_option',
      `${field}.id: ${describeValue(x.id)} does not name ${x.unit} x ${count} (its id is ${id}); leave id out or fix it`,
      { field: `${field}.id` },
    )
  }
  return { id, unit: x.unit, count }
}

const NOMINAL: Readonly<Record<TimeUnit | 'TICK', number>> = {
  MINUTE: MINUTE_MS,
  HOUR: HOUR_MS,
  DAY: DAY_MS,
  WEEK: 7 * DAY_MS,
  MONTH: 30.436875 * DAY_MS,
  QUARTER: 3 * 30.436875 * DAY_MS,
  YEAR: 365.2425 * DAY_MS,
  TICK: 0,
}

/**
 * Nominal length in ms (months of 30.44 days), for ordering frames and reading depth tables only — never
 * for alignment. Tick frames rank 0.
 *
 * @param tf - the timeframe
 * @returns the `number`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example timeframeRank({ id: '1h', unit: 'HOUR', count: 1 }) // 3600000
 */
export function timeframeRank(tf: Timeframe): number {
  return NOMINAL[tf.unit] * tf.count
}
