import { parseDataDecimal } from '../decimal/parse.js'
import { MarketDataError } from '../errors.js'
import { TRADE_MSG } from './messages.js'
import { SESSION_NAMES, type SessionType, type Side, type Trade, type TradeColumns } from './types.js'
import {
  columnRecordProblem,
  columnsShapeProblem,
  isTradeColumns,
  sessionCodeOf,
  sideCodeOf,
  tradeProblem,
} from './validate.js'

const SIDES: readonly Side[] = ['buy', 'buy', 'sell']

/** A decimal input as a number that holds it exactly (its shortest round-trip form is the same decimal), or throws. */
function exactNumber(x: string | number, index: number, field: 'price' | 'volume'): number {
  if (typeof x === 'number') return x === 0 ? 0 : x
  const n = Number(x)
  const a = parseDataDecimal(x)
  const b = parseDataDecimal(n)
  if (!a.ok || !b.ok || a.value.units !== b.value.units || a.value.scale !== b.value.scale) {
    throw new MarketDataError('invalid_decimal', TRADE_MSG.notFloat(field, x), { index, field })
  }
  return n === 0 ? 0 : n
}

/**
 * The trades of an array or an iterable of trade objects as an array; anything else (null, a number, a
 * plain object, TradeColumns, a string) throws MarketDataError `invalid_option`, field `trades`, as does
 * an iterable that throws while being read.
 */
function tradeList(trades: unknown): Trade[] {
  let iterable = false
  let columns = false
  try {
    if (Array.isArray(trades)) return trades as Trade[]
    iterable =
      typeof trades === 'object' &&
      trades !== null &&
      typeof (trades as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function'
    columns = !iterable && isTradeColumns(trades)
  } catch (e) {
    throw new MarketDataError('invalid_option', TRADE_MSG.readThrew('trades', e), { field: 'trades' })
  }
  if (!iterable)
    throw new MarketDataError('invalid_option', TRADE_MSG.notTradeList(trades, columns), { field: 'trades' })
  try {
    return Array.from(trades as Iterable<Trade>)
  } catch (e) {
    throw new MarketDataError('invalid_option', TRADE_MSG.iterableThrew(e), { field: 'trades' })
  }
}

/**
 * Converts trade objects to columns (the fast path's input). Decimal strings must survive as doubles:
 * a string whose decimal a double cannot hold exactly (more than ~15 significant digits) throws rather
 * than rounding. A `session` column is present when any trade has a session. Takes an array or an
 * iterable of trade objects only: anything else (null, a plain object, TradeColumns) throws
 * `MarketDataError` `invalid_option`, field `trades`. Throws `MarketDataError` naming the index and the
 * field of the first bad record.
 *
 * @param trades - trades as objects (an array or iterable of `Trade`), `TradeColumns`, or a mix of batches
 * @returns the `TradeColumns`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * const cols = tradesToColumns([{ time: 0, price: '5000.25', volume: '2', side: 'sell' }])
 * cols.price[0] // 5000.25; cols.side[0] // 2
 */
export function tradesToColumns(trades: Iterable<Trade>): TradeColumns {
  const list = tradeList(trades)
  const n = list.length
  const time = new Float64Array(n)
  const price = new Float64Array(n)
  const volume = new Float64Array(n)
  const side = new Uint8Array(n)
  const session = new Uint8Array(n)
  let anySession = false
  for (let i = 0; i < n; i++) {
    const t = list[i]
    const e = tradeProblem(t, i)
    if (e !== undefined) throw e
    const tr = t as Trade
    time[i] = tr.time
    price[i] = exactNumber(tr.price, i, 'price')
    volume[i] = exactNumber(tr.volume, i, 'volume')
    side[i] = sideCodeOf(tr.side)
    if (tr.session !== undefined) anySession = true
    session[i] = sessionCodeOf(tr.session)
  }
  return anySession ? { time, price, volume, side, session } : { time, price, volume, side }
}

/**
 * Converts columns back to trade objects; price and volume are numbers (exact by the shortest
 * round-trip rule), `session` set only when the columns have a session column. Throws
 * `MarketDataError` naming the index and field of the first bad record.
 *
 * @param columns - columnar input: equal-length typed arrays
 * @returns the `Trade[]`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example columnsToTrades(tradesToColumns(trades)) // same trades, decimals as numbers
 */
export function columnsToTrades(columns: TradeColumns): Trade[] {
  const shape = columnsShapeProblem(columns)
  if (shape !== undefined) throw shape
  const n = columns.time.length
  const out: Trade[] = new Array(n)
  for (let i = 0; i < n; i++) {
    const e = columnRecordProblem(columns, i, i)
    if (e !== undefined) throw e
    const p = columns.price[i] as number
    const v = columns.volume[i] as number
    const tr: Trade = {
      time: columns.time[i] as number,
      price: p === 0 ? 0 : p,
      volume: v === 0 ? 0 : v,
      side: SIDES[columns.side[i] as number] as Side,
    }
    if (columns.session !== undefined) tr.session = SESSION_NAMES[columns.session[i] as number] as SessionType
    out[i] = tr
  }
  return out
}

/**
 * A view of records [from, to) of columns (no copy: typed-array subarrays).
 *
 * @param columns - columnar input: equal-length typed arrays
 * @param from - first index, inclusive
 * @param to - end index, exclusive
 * @returns the `TradeColumns`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example sliceTradeColumns(cols, 0, 100).time.length // 100
 */
export function sliceTradeColumns(columns: TradeColumns, from: number, to: number): TradeColumns {
  const out: TradeColumns = {
    time: columns.time.subarray(from, to),
    price: columns.price.subarray(from, to),
    volume: columns.volume.subarray(from, to),
    side: columns.side.subarray(from, to),
  }
  if (columns.session !== undefined) out.session = columns.session.subarray(from, to)
  return out
}
