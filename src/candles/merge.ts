import { decimalToString, type DecimalInput, formatUnits } from '../decimal/index.js'
import { parseDataDecimal } from '../decimal/parse.js'
import { MarketDataError } from '../errors.js'
import type { SessionType } from '../trades/index.js'
import { CANDLE_MSG } from './messages.js'
import type { Candle, CandleInput } from './types.js'

function exact(
  x: DecimalInput | undefined,
  field: string,
  index: number,
  which: string,
): { units: bigint; scale: number } {
  const d = parseDataDecimal(x)
  if (!d.ok)
    throw new MarketDataError('invalid_decimal', `${which}: candle ${index}: ${field}: ${d.error}`, { index, field })
  return d.value
}

function plain(x: DecimalInput): string {
  if (typeof x === 'string' && x.indexOf('e') < 0 && x.indexOf('E') < 0) return x
  const d = parseDataDecimal(x)
  return d.ok ? decimalToString(d.value) : String(x)
}

function sum(a: { units: bigint; scale: number }, b: { units: bigint; scale: number }): string {
  const s = Math.max(a.scale, b.scale)
  return formatUnits(a.units * 10n ** BigInt(s - a.scale) + b.units * 10n ** BigInt(s - b.scale), s)
}

function cmp(a: { units: bigint; scale: number }, b: { units: bigint; scale: number }): number {
  const s = Math.max(a.scale, b.scale)
  const x = a.units * 10n ** BigInt(s - a.scale)
  const y = b.units * 10n ** BigInt(s - b.scale)
  return x < y ? -1 : x > y ? 1 : 0
}

function normalize(c: CandleInput, index: number, which: string): Candle {
  if (typeof c !== 'object' || c === null)
    throw new MarketDataError('invalid_option', `${which}: ${CANDLE_MSG.notCandle(c)}`, { index, field: 'candle' })
  if (typeof c.time !== 'number' || !Number.isFinite(c.time))
    throw new MarketDataError('invalid_time', `${which}: ${CANDLE_MSG.time(c.time)}`, { index, field: 'time' })
  for (const f of ['open', 'high', 'low', 'close'] as const) exact(c[f], f, index, which)
  const out: Candle = {
    time: c.time,
    open: plain(c.open),
    high: plain(c.high),
    low: plain(c.low),
    close: plain(c.close),
    volume: decimalToString(exact(c.volume, 'volume', index, which)),
  }
  if (c.value !== undefined) out.value = decimalToString(exact(c.value, 'value', index, which))
  if (c.trades !== undefined) out.trades = c.trades
  out.session = (c.session ?? 'MAINSESSION') as SessionType
  return out
}

function checkSorted(xs: readonly CandleInput[], which: string): void {
  for (let i = 1; i < xs.length; i++) {
    const a = (xs[i - 1] as CandleInput).time
    const b = (xs[i] as CandleInput).time
    if (!(b >= a))
      throw new MarketDataError('out_of_order', CANDLE_MSG.mergeUnsorted(which, i), { index: i, field: 'time' })
  }
}

/**
 * Joins two partial candle series of one time frame split by time (`a` from records before the split,
 * `b` from records after it): the candle both hold at the boundary (equal `time`) is combined — open
 * from `a`, close from `b`, high / low the extremes (ties keep `a`'s spelling), volume / value / trades
 * summed exactly (`value` / `trades` kept only when both have them), session `a`'s. So
 * `mergeCandles(candlesFromTrades(x), candlesFromTrades(y))` equals `candlesFromTrades(x ++ y)` for time
 * frames. Throws `MarketDataError` when `b` starts before `a` ends (`incompatible`) or the boundary
 * candle's trade count would pass 2^53 - 1 (`inexact`). Inputs are not modified.
 *
 * @param a - the first part
 * @param b - the second part
 * @returns the `Candle[]`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * mergeCandles(
 *   [{ time: 0, open: '1', high: '3', low: '1', close: '2', volume: '5' }],
 *   [{ time: 0, open: '2', high: '4', low: '0.5', close: '3', volume: '1.5' }],
 * ) // [{ time: 0, open: '1', high: '4', low: '0.5', close: '3', volume: '6.5', session: 'MAINSESSION' }]
 */
export function mergeCandles(a: readonly CandleInput[], b: readonly CandleInput[]): Candle[] {
  checkSorted(a, 'a')
  checkSorted(b, 'b')
  const out: Candle[] = a.map((c, i) => normalize(c, i, 'a'))
  if (b.length === 0) return out
  const first = b[0] as CandleInput
  const lastA = a.length > 0 ? (a[a.length - 1] as CandleInput) : undefined
  let from = 0
  if (lastA !== undefined) {
    if (first.time < lastA.time)
      throw new MarketDataError('incompatible', CANDLE_MSG.mergeOrder(lastA.time, first.time), {
        index: 0,
        field: 'time',
      })
    if (first.time === lastA.time) {
      const x = out[out.length - 1] as Candle
      const y = normalize(first, 0, 'b')
      const merged: Candle = {
        time: x.time,
        open: x.open,
        high: cmp(exact(y.high, 'high', 0, 'b'), exact(x.high, 'high', a.length - 1, 'a')) > 0 ? y.high : x.high,
        low: cmp(exact(y.low, 'low', 0, 'b'), exact(x.low, 'low', a.length - 1, 'a')) < 0 ? y.low : x.low,
        close: y.close,
        volume: sum(exact(x.volume, 'volume', a.length - 1, 'a'), exact(y.volume, 'volume', 0, 'b')),
      }
      if (x.value !== undefined && y.value !== undefined)
        merged.value = sum(exact(x.value, 'value', a.length - 1, 'a'), exact(y.value, 'value', 0, 'b'))
      if (x.trades !== undefined && y.trades !== undefined) {
        const n = x.trades + y.trades
        if (n > Number.MAX_SAFE_INTEGER)
          throw new MarketDataError('inexact', CANDLE_MSG.tradesCount(x.time), { index: 0, field: 'trades' })
        merged.trades = n
      }
      merged.session = x.session as SessionType
      out[out.length - 1] = merged
      from = 1
    }
  }
  for (let i = from; i < b.length; i++) out.push(normalize(b[i] as CandleInput, i, 'b'))
  return out
}
