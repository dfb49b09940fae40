import { checkOptions } from '../_lib/closed-options.js'
import { toPartnerDecimal } from './decimal.js'
import { MarketDataError } from '../errors.js'
import { formatIso } from '../time/index.js'
import { SESSION_NAMES, type SessionType } from '../trades/index.js'
import { sessionCodeOf } from '../trades/validate.js'
import { CANDLE_MSG } from '../candles/messages.js'
import type { CandleInput, CandleProperty, PartnerCandle, PartnerDecimalValue } from '../candles/types.js'

const ALL: readonly CandleProperty[] = ['OPEN', 'HIGH', 'LOW', 'CLOSE', 'VALUE', 'VOLUME', 'SESSION_TYPE']
const FIELD = { OPEN: 'open', HIGH: 'high', LOW: 'low', CLOSE: 'close', VALUE: 'value', VOLUME: 'volume' } as const

/** Options of {@link toPartnerCandle} / {@link toPartnerCandles}: ListCandles' `properties` and `session_types`. */
export interface PartnerCandleOptions {
  /** Fields to include (default all: OPEN, HIGH, LOW, CLOSE, VALUE, VOLUME, SESSION_TYPE). `time` is always present. */
  properties?: readonly CandleProperty[]
  /** Sessions to keep (default all); a candle without a session is MAINSESSION. */
  session_types?: readonly SessionType[]
}

function dec(x: unknown, field: string, index: number): PartnerDecimalValue {
  const r = toPartnerDecimal(x as string)
  if (!r.ok) throw new MarketDataError('invalid_decimal', `${field}: ${r.error.message}`, { index, field })
  return r.value
}

function checkProperties(p: unknown): readonly CandleProperty[] {
  if (p === undefined) return ALL
  if (!Array.isArray(p) || !p.every((x) => ALL.includes(x as CandleProperty)))
    throw new MarketDataError('invalid_option', CANDLE_MSG.properties(p), { field: 'properties' })
  return p as CandleProperty[]
}

function project(c: CandleInput, props: readonly CandleProperty[], index: number): PartnerCandle {
  if (typeof c !== 'object' || c === null || typeof c.time !== 'number' || !Number.isFinite(c.time))
    throw new MarketDataError('invalid_time', CANDLE_MSG.time((c as { time?: unknown } | null)?.time), {
      index,
      field: 'time',
    })
  const out: PartnerCandle = { time: formatIso(c.time) }
  for (const p of ALL) {
    if (!props.includes(p)) continue
    if (p === 'SESSION_TYPE') {
      // by equality, not a property look-up: 'toString' or '__proto__' is no session
      const code = sessionCodeOf(c.session)
      if (code < 0)
        throw new MarketDataError('invalid_session', CANDLE_MSG.session(c.session), { index, field: 'session' })
      out.session_type = code
      continue
    }
    const f = FIELD[p]
    const v = c[f]
    if (v === undefined) continue
    out[f] = dec(v, f, index)
  }
  return out
}

/**
 * One candle in interface A's shape: `time` ISO 8601 (UTC), prices / volume / value as Decimal
 * `{value, scale}` (scale from the minimal form), `session_type` 0 | 1 | 2; only the fields named in
 * `properties` (default all; `value` only when the candle has one). Throws `MarketDataError` on a bad candle
 * or property name.
 *
 * @param candle - a candle
 * @param opts - options (see the type) (optional)
 * @returns the `PartnerCandle`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * toPartnerCandle({ time: 0, open: '123.45', high: '124', low: '123', close: '123.5', volume: '10' }, { properties: ['OPEN', 'SESSION_TYPE'] })
 * // { time: '1970-01-01T00:00:00.000Z', open: { value: '12345', scale: '100' }, session_type: 0 }
 */
export function toPartnerCandle(
  candle: CandleInput,
  opts: Pick<PartnerCandleOptions, 'properties'> = {},
): PartnerCandle {
  checkOptions(opts, ['properties'], 'toPartnerCandle')
  return project(candle, checkProperties(opts.properties), 0)
}

/**
 * Candles in interface A's shape, filtered by `session_types` (applied to each candle's session) and
 * projected by `properties` (see {@link toPartnerCandle}). Errors name the candle's index.
 *
 * @param candles - the input candles, in any order
 * @param opts - options, see {@link PartnerCandleOptions} (optional)
 * @returns the `PartnerCandle[]`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example toPartnerCandles(candles, { properties: ['CLOSE', 'VOLUME'], session_types: ['MAINSESSION'] })
 */
export function toPartnerCandles(candles: readonly CandleInput[], opts: PartnerCandleOptions = {}): PartnerCandle[] {
  checkOptions(opts, ['properties', 'session_types'], 'toPartnerCandles')
  const props = checkProperties(opts.properties)
  const st = opts.session_types
  if (st !== undefined && (!Array.isArray(st) || !st.every((s) => SESSION_NAMES.includes(s))))
    throw new MarketDataError('invalid_option', CANDLE_MSG.sessionTypes(st), { field: 'session_types' })
  const out: PartnerCandle[] = []
  for (let i = 0; i < candles.length; i++) {
    const c = candles[i] as CandleInput
    if (st !== undefined && !st.includes(c?.session ?? 'MAINSESSION')) continue
    out.push(project(c, props, i))
  }
  return out
}
