import { MAX_TIME } from '../_lib/max-time.js'
import { isArray } from '../_lib/describe.js'
import { parseDataDecimal } from '../decimal/parse.js'
import { MarketDataError } from '../errors.js'
import { err, ok, type Result } from '../result.js'
import { TRADE_MSG } from '../trades/messages.js'
import { isIndex } from '../trades/validate.js'
import { CANDLE_MSG } from './messages.js'
import type { CandleInput } from './types.js'

/** Compares two exact decimals (-1, 0, 1). */
export function compareDecimals(a: { units: bigint; scale: number }, b: { units: bigint; scale: number }): number {
  const s = Math.max(a.scale, b.scale)
  const x = a.units * 10n ** BigInt(s - a.scale)
  const y = b.units * 10n ** BigInt(s - b.scale)
  return x < y ? -1 : x > y ? 1 : 0
}

/** Code of a bad value of each candle field (a field whose read threw gets its field's code). */
const FIELD_CODE = {
  candle: 'invalid_option',
  time: 'invalid_time',
  open: 'invalid_decimal',
  high: 'invalid_decimal',
  low: 'invalid_decimal',
  close: 'invalid_decimal',
  volume: 'invalid_volume',
  value: 'invalid_decimal',
  trades: 'invalid_option',
  session: 'invalid_session',
} as const

/**
 * The first problem of a candle-like value, unthrown, or undefined. Never throws: a getter or Proxy trap
 * that throws gives an error naming the field being read (as for trades).
 */
export function candleProblem(x: unknown, index: number): MarketDataError | undefined {
  const r = checkCandle(x, index)
  return typeof r === 'number' ? undefined : r
}

/** {@link candleProblem}, with the time it read (each field is read once) when the candle is valid. */
function checkCandle(x: unknown, index: number): MarketDataError | number {
  let f: keyof typeof FIELD_CODE = 'candle'
  try {
    return readCandle(x, index, (name) => (f = name))
  } catch (e) {
    return new MarketDataError(FIELD_CODE[f], TRADE_MSG.readThrew(f, e), { index, field: f })
  }
}

function readCandle(
  x: unknown,
  index: number,
  reading: (f: keyof typeof FIELD_CODE) => void,
): MarketDataError | number {
  if (typeof x !== 'object' || x === null || isArray(x))
    return new MarketDataError('invalid_option', CANDLE_MSG.notCandle(x), { index, field: 'candle' })
  const c = x as Record<string, unknown>
  reading('time')
  const t = c.time
  if (typeof t !== 'number' || !(t >= -MAX_TIME && t <= MAX_TIME) || Math.floor(t) !== t)
    return new MarketDataError('invalid_time', CANDLE_MSG.time(t), { index, field: 'time' })
  const px: Record<string, { units: bigint; scale: number }> = {}
  for (const f of ['open', 'high', 'low', 'close'] as const) {
    reading(f)
    const raw = c[f]
    const d = parseDataDecimal(raw)
    if (!d.ok) return new MarketDataError('invalid_decimal', CANDLE_MSG.price(f, raw), { index, field: f })
    px[f] = d.value
  }
  reading('volume')
  const vol = c.volume
  const v = parseDataDecimal(vol)
  if (!v.ok || v.value.units < 0n)
    return new MarketDataError('invalid_volume', CANDLE_MSG.volume('volume', vol), { index, field: 'volume' })
  reading('value')
  const value = c.value
  if (value !== undefined && !parseDataDecimal(value).ok)
    return new MarketDataError('invalid_decimal', CANDLE_MSG.value(value), { index, field: 'value' })
  reading('trades')
  const trades = c.trades
  if (trades !== undefined && (typeof trades !== 'number' || !Number.isSafeInteger(trades) || trades < 0))
    return new MarketDataError('invalid_option', CANDLE_MSG.trades(trades), { index, field: 'trades' })
  reading('session')
  const s = c.session
  if (s !== undefined && s !== 'MAINSESSION' && s !== 'PRE_MARKET' && s !== 'POST_MARKET')
    return new MarketDataError('invalid_session', CANDLE_MSG.session(s), { index, field: 'session' })
  const { open, high, low, close } = px as Record<'open' | 'high' | 'low' | 'close', { units: bigint; scale: number }>
  if (compareDecimals(low, open) > 0 || compareDecimals(low, close) > 0 || compareDecimals(low, high) > 0)
    return new MarketDataError('invalid_decimal', CANDLE_MSG.ohlc('low'), { index, field: 'low' })
  if (compareDecimals(open, high) > 0 || compareDecimals(close, high) > 0)
    return new MarketDataError('invalid_decimal', CANDLE_MSG.ohlc('high'), { index, field: 'high' })
  return t
}

/**
 * Checks one input candle: `time` an integer of epoch ms, open/high/low/close finite decimals with
 * low <= open, close <= high, `volume` a decimal >= 0, `value` (optional) a decimal, `trades` (optional)
 * an integer >= 0, `session` absent or a session type. Never throws.
 *
 * @param x - the value to check: anything, never trusted
 * @param index - the record's index, named in the error (optional)
 * @returns `{ ok: true, value }`, or `{ ok: false, error }` naming the field and the rule
 * @throws never: bad input is answered, not thrown
 * @example validateCandle({ time: 0, open: '2', high: '1', low: '1', close: '1', volume: '0' }) // error: field 'high'
 */
export function validateCandle(x: unknown, index = 0): Result<CandleInput, MarketDataError> {
  if (!isIndex(index)) return err(new MarketDataError('invalid_option', TRADE_MSG.index(index), { field: 'index' }))
  const e = candleProblem(x, index)
  return e === undefined ? ok(x as CandleInput) : err(e)
}

/**
 * Checks a list of input candles, also that times never decrease (equal times are allowed); the error
 * names the first bad candle's index and field. Never throws.
 *
 * @param x - the value to check: anything, never trusted
 * @returns `{ ok: true, value }`, or `{ ok: false, error }` naming the field and the rule
 * @throws never: bad input is answered, not thrown
 * @example validateCandles([c1, c0]) // error: index 1, field 'time', code 'out_of_order'
 */
export function validateCandles(x: unknown): Result<CandleInput[], MarketDataError> {
  if (!isArray(x)) return err(new MarketDataError('invalid_option', CANDLE_MSG.notCandles(x), { field: 'candles' }))
  // a Proxy or a hostile array can throw from `length` or an index: both give an error result
  let i = -1
  try {
    const n = x.length
    let last = Number.NEGATIVE_INFINITY
    for (i = 0; i < n; i++) {
      // the time checked is the time ordered: each field is read once
      const t = checkCandle(x[i], i)
      if (typeof t !== 'number') return err(t)
      if (t < last)
        return err(new MarketDataError('out_of_order', CANDLE_MSG.outOfOrder(t, last), { index: i, field: 'time' }))
      last = t
    }
    return ok(x as CandleInput[])
  } catch (e) {
    return err(
      i < 0
        ? new MarketDataError('invalid_option', TRADE_MSG.readThrew('candles', e), { field: 'candles' })
        : new MarketDataError('invalid_option', TRADE_MSG.readThrew('candle', e), { index: i, field: 'candle' }),
    )
  }
}
