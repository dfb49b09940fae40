import { parseDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { err, ok, type Result } from '../result.js'
import { CANDLE_MSG } from './messages.js'
import type { CandleInput } from './types.js'

const MAX_TIME = 8.64e15

function cmp(a: { units: bigint; scale: number }, b: { units: bigint; scale: number }): number {
  const s = Math.max(a.scale, b.scale)
  const x = a.units * 10n ** BigInt(s - a.scale)
  const y = b.units * 10n ** BigInt(s - b.scale)
  return x < y ? -1 : x > y ? 1 : 0
}

/** The first problem of a candle-like value, unthrown, or undefined. */
export function candleProblem(x: unknown, index: number): MarketDataError | undefined {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return new MarketDataError('invalid_option', CANDLE_MSG.notCandle(x), { index, field: 'candle' })
  const c = x as Record<string, unknown>
  const t = c.time
  if (typeof t !== 'number' || !(t >= -MAX_TIME && t <= MAX_TIME) || Math.floor(t) !== t) return new MarketDataError('invalid_time', CANDLE_MSG.time(t), { index, field: 'time' })
  const px: Record<string, { units: bigint; scale: number }> = {}
  for (const f of ['open', 'high', 'low', 'close'] as const) {
    const d = parseDecimal(c[f])
    if (!d.ok) return new MarketDataError('invalid_decimal', CANDLE_MSG.price(f, c[f]), { index, field: f })
    px[f] = d.value
  }
  const v = parseDecimal(c.volume)
  if (!v.ok || v.value.units < 0n) return new MarketDataError('invalid_volume', CANDLE_MSG.volume('volume', c.volume), { index, field: 'volume' })
  if (c.value !== undefined && !parseDecimal(c.value).ok) return new MarketDataError('invalid_decimal', CANDLE_MSG.value(c.value), { index, field: 'value' })
  if (c.trades !== undefined && (typeof c.trades !== 'number' || !Number.isSafeInteger(c.trades) || c.trades < 0)) return new MarketDataError('invalid_option', CANDLE_MSG.trades(c.trades), { index, field: 'trades' })
  const s = c.session
  if (s !== undefined && s !== 'MAINSESSION' && s !== 'PRE_MARKET' && s !== 'POST_MARKET') return new MarketDataError('invalid_session', CANDLE_MSG.session(s), { index, field: 'session' })
  const { open, high, low, close } = px as Record<'open' | 'high' | 'low' | 'close', { units: bigint; scale: number }>
  if (cmp(low, open) > 0 || cmp(low, close) > 0 || cmp(low, high) > 0) return new MarketDataError('invalid_decimal', CANDLE_MSG.ohlc('low'), { index, field: 'low' })
  if (cmp(open, high) > 0 || cmp(close, high) > 0) return new MarketDataError('invalid_decimal', CANDLE_MSG.ohlc('high'), { index, field: 'high' })
  return undefined
}

/**
 * Checks one input candle: `time` an integer of epoch ms, open/high/low/close finite decimals with
 * low <= open, close <= high, `volume` a decimal >= 0, `value` (optional) a decimal, `trades` (optional)
 * an integer >= 0, `session` absent or a session type. Never throws.
 *
 * @example validateCandle({ time: 0, open: '2', high: '1', low: '1', close: '1', volume: '0' }) // error: field 'high'
 */
export function validateCandle(x: unknown, index = 0): Result<CandleInput, MarketDataError> {
  const e = candleProblem(x, index)
  return e === undefined ? ok(x as CandleInput) : err(e)
}

/**
 * Checks a list of input candles, also that times never decrease (equal times are allowed); the error
 * names the first bad candle's index and field. Never throws.
 *
 * @example validateCandles([c1, c0]) // error: index 1, field 'time', code 'out_of_order'
 */
export function validateCandles(x: unknown): Result<CandleInput[], MarketDataError> {
  if (!Array.isArray(x)) return err(new MarketDataError('invalid_option', CANDLE_MSG.notCandles(x), { field: 'candles' }))
  let last = Number.NEGATIVE_INFINITY
  for (let i = 0; i < x.length; i++) {
    const e = candleProblem(x[i], i)
    if (e !== undefined) return err(e)
    const t = (x[i] as CandleInput).time
    if (t < last) return err(new MarketDataError('out_of_order', CANDLE_MSG.outOfOrder(t, last), { index: i, field: 'time' }))
    last = t
  }
  return ok(x as CandleInput[])
}
