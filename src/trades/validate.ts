import { MAX_TIME } from '../_lib/max-time.js'
import { parseDataDecimal } from '../decimal/parse.js'
import { MarketDataError, type MarketDataErrorCode } from '../errors.js'
import { err, ok, type Result } from '../result.js'
import { TRADE_MSG } from './messages.js'
import type { SessionType, Trade, TradeColumns } from './types.js'

/** True when `t` is an integer number of epoch milliseconds a `Date` can hold. */
export function isValidTime(t: unknown): t is number {
  return typeof t === 'number' && t >= -MAX_TIME && t <= MAX_TIME && Math.floor(t) === t
}

/** True for a record index a caller may pass to a validator: an integer >= 0. */
export function isIndex(i: unknown): i is number {
  return Number.isSafeInteger(i) && (i as number) >= 0
}

/** Session code of a session name (`undefined` -> 0, MAINSESSION), or -1 when it is not a session. */
export function sessionCodeOf(s: unknown): number {
  if (s === undefined || s === 'MAINSESSION') return 0
  if (s === 'PRE_MARKET') return 1
  if (s === 'POST_MARKET') return 2
  return -1
}

/** Side code of a side name (1 buy, 2 sell), or 0 when it is not a side. */
export function sideCodeOf(s: unknown): number {
  return s === 'buy' ? 1 : s === 'sell' ? 2 : 0
}

/** Code of a bad value of each trade field (a field whose read threw gets its field's code). */
const FIELD_CODE = {
  trade: 'invalid_option',
  trades: 'invalid_option',
  columns: 'invalid_option',
  time: 'invalid_time',
  price: 'invalid_decimal',
  volume: 'invalid_volume',
  side: 'invalid_side',
  session: 'invalid_session',
} as const

/** The MarketDataError for a read of `field` (a getter, a Proxy trap, an iterator) that threw `e`. Never throws. */
export function readProblem(
  field: keyof typeof FIELD_CODE,
  e: unknown,
  index?: number,
  code: MarketDataErrorCode = FIELD_CODE[field],
): MarketDataError {
  return new MarketDataError(code, TRADE_MSG.readThrew(field, e), index === undefined ? { field } : { index, field })
}

/** The first problem of a trade-like value, as an unthrown MarketDataError, or undefined when it is a valid trade. Never throws: a getter or Proxy trap that throws gives an error naming the field being read. */
export function tradeProblem(x: unknown, index: number): MarketDataError | undefined {
  let field: 'trade' | 'time' | 'price' | 'volume' | 'side' | 'session' = 'trade'
  try {
    if (typeof x !== 'object' || x === null || Array.isArray(x))
      return new MarketDataError('invalid_option', TRADE_MSG.notObject(x), { index, field: 'trade' })
    const t = x as Record<string, unknown>
    field = 'time'
    const time = t.time
    if (!isValidTime(time)) return new MarketDataError('invalid_time', TRADE_MSG.time(time), { index, field: 'time' })
    field = 'price'
    const price = t.price
    const p = parseDataDecimal(price)
    if (!p.ok) return new MarketDataError('invalid_decimal', TRADE_MSG.price(price, p.error), { index, field: 'price' })
    field = 'volume'
    const volume = t.volume
    const v = parseDataDecimal(volume)
    if (!v.ok)
      return new MarketDataError('invalid_volume', TRADE_MSG.volume(volume, v.error), { index, field: 'volume' })
    if (v.value.units < 0n)
      return new MarketDataError('invalid_volume', TRADE_MSG.negativeVolume(volume), { index, field: 'volume' })
    field = 'side'
    const side = t.side
    if (sideCodeOf(side) === 0)
      return new MarketDataError('invalid_side', TRADE_MSG.side(side), { index, field: 'side' })
    field = 'session'
    const session = t.session
    if (sessionCodeOf(session) < 0)
      return new MarketDataError('invalid_session', TRADE_MSG.session(session), { index, field: 'session' })
    return undefined
  } catch (e) {
    return readProblem(field, e, index)
  }
}

/**
 * Checks one trade: `time` an integer of epoch ms within ±8.64e15, `price` a finite decimal (any sign; a
 * price off the tick grid is valid), `volume` a finite decimal >= 0, `side` `'buy'`/`'sell'`, `session`
 * absent or a session type. Never throws; the error names the index and the field.
 *
 * @param x - the value to check: anything, never trusted
 * @param index - the record's index, named in the error (optional)
 * @returns `{ ok: true, value }`, or `{ ok: false, error }` naming the field and the rule
 * @throws never: bad input is answered, not thrown
 * @example
 * validateTrade({ time: 0, price: '5000.25', volume: 1, side: 'buy' }).ok // true
 * validateTrade({ time: 0, price: 'x', volume: 1, side: 'buy' }, 7)        // { ok: false, error: MarketDataError (index 7, field 'price') }
 */
export function validateTrade(x: unknown, index = 0): Result<Trade, MarketDataError> {
  if (!isIndex(index)) return err(new MarketDataError('invalid_option', TRADE_MSG.index(index), { field: 'index' }))
  const e = tradeProblem(x, index)
  return e === undefined ? ok(x as Trade) : err(e)
}

/**
 * Checks a list (or any iterable) of trades; the error names the first bad record's index and field.
 * Never throws (an iterable that throws while being read gives an error result).
 *
 * @param x - the value to check: anything, never trusted
 * @returns `{ ok: true, value }`, or `{ ok: false, error }` naming the field and the rule
 * @throws never: bad input is answered, not thrown
 * @example validateTrades([{ time: 0, price: 1, volume: -1, side: 'buy' }]) // error: index 0, field 'volume'
 */
export function validateTrades(x: unknown): Result<Trade[], MarketDataError> {
  // a Proxy or a hostile array can throw from Array.isArray, `length`, an index or its iterator: all give an error result
  let i = -1
  let iterating = false
  try {
    if (Array.isArray(x)) {
      const n = x.length
      for (i = 0; i < n; i++) {
        const e = tradeProblem(x[i], i)
        if (e !== undefined) return err(e)
      }
      return ok(x as Trade[])
    }
    if (
      typeof x !== 'object' ||
      x === null ||
      typeof (x as { [Symbol.iterator]?: unknown })[Symbol.iterator] !== 'function'
    ) {
      return err(new MarketDataError('invalid_option', TRADE_MSG.notIterable(x), { field: 'trades' }))
    }
    const out: Trade[] = []
    iterating = true
    i = 0
    for (const t of x as Iterable<unknown>) {
      const e = tradeProblem(t, i)
      if (e !== undefined) return err(e)
      out.push(t as Trade)
      i++
    }
    return ok(out)
  } catch (e) {
    if (iterating) return err(new MarketDataError('invalid_option', TRADE_MSG.iterableThrew(e), { field: 'trades' }))
    return err(i < 0 ? readProblem('trades', e) : readProblem('trade', e, i))
  }
}

/** The first problem of record `i` of columns already known to be well-formed arrays, or undefined. */
export function columnRecordProblem(c: TradeColumns, i: number, index: number): MarketDataError | undefined {
  const t = c.time[i]
  if (!isValidTime(t)) return new MarketDataError('invalid_time', TRADE_MSG.time(t), { index, field: 'time' })
  const p = c.price[i] as number
  if (!Number.isFinite(p))
    return new MarketDataError('invalid_decimal', TRADE_MSG.price(p, 'numbers must be finite'), {
      index,
      field: 'price',
    })
  const v = c.volume[i] as number
  if (!Number.isFinite(v))
    return new MarketDataError('invalid_volume', TRADE_MSG.volume(v, 'numbers must be finite'), {
      index,
      field: 'volume',
    })
  if (v < 0) return new MarketDataError('invalid_volume', TRADE_MSG.negativeVolume(v), { index, field: 'volume' })
  const s = c.side[i]
  if (s !== 1 && s !== 2) return new MarketDataError('invalid_side', TRADE_MSG.sideCode(s), { index, field: 'side' })
  const ss = c.session === undefined ? 0 : (c.session[i] as number)
  if (ss > 2) return new MarketDataError('invalid_session', TRADE_MSG.sessionCode(ss), { index, field: 'session' })
  return undefined
}

/** The shape problem of a TradeColumns-like value (types, equal lengths), or undefined. */
export function columnsShapeProblem(x: unknown): MarketDataError | undefined {
  if (typeof x !== 'object' || x === null)
    return new MarketDataError('invalid_option', TRADE_MSG.notColumns(x), { field: 'columns' })
  const c = x as Record<string, unknown>
  if (!(c.time instanceof Float64Array))
    return new MarketDataError('invalid_option', TRADE_MSG.columnType('time', 'Float64Array'), { field: 'time' })
  const n = c.time.length
  for (const f of ['price', 'volume'] as const) {
    const a = c[f]
    if (!(a instanceof Float64Array))
      return new MarketDataError('invalid_option', TRADE_MSG.columnType(f, 'Float64Array'), { field: f })
    if (a.length !== n)
      return new MarketDataError('invalid_option', TRADE_MSG.columnLength(f, a.length, n), { field: f })
  }
  for (const f of ['side', 'session'] as const) {
    const a = c[f]
    if (f === 'session' && a === undefined) continue
    if (!(a instanceof Uint8Array))
      return new MarketDataError('invalid_option', TRADE_MSG.columnType(f, 'Uint8Array'), { field: f })
    if (a.length !== n)
      return new MarketDataError('invalid_option', TRADE_MSG.columnLength(f, a.length, n), { field: f })
  }
  return undefined
}

/**
 * The five column fields of `x` read once into a plain object (so getters and Proxy traps run once, and
 * the checks then see the very arrays they validate), or the problem. Never throws: a read that throws
 * gives an error naming the field being read ('columns' when unknown).
 */
function columnsSnapshot(
  x: unknown,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: MarketDataError } {
  let field: 'columns' | 'time' | 'price' | 'volume' | 'side' | 'session' = 'columns'
  try {
    if (typeof x !== 'object' || x === null)
      return err(new MarketDataError('invalid_option', TRADE_MSG.notColumns(x), { field: 'columns' }))
    const o = x as Record<string, unknown>
    field = 'time'
    const time = o.time
    field = 'price'
    const price = o.price
    field = 'volume'
    const volume = o.volume
    field = 'side'
    const side = o.side
    field = 'session'
    const session = o.session
    field = 'columns'
    const snap = session === undefined ? { time, price, volume, side } : { time, price, volume, side, session }
    // `instanceof` runs a Proxy's getPrototypeOf trap and `length` may be a subclass's getter: keep them inside the try
    const shape = columnsShapeProblem(snap)
    return shape === undefined ? ok(snap) : err(shape)
  } catch (e) {
    return err(readProblem(field, e, undefined, 'invalid_option')) // a column that cannot be read is a shape problem
  }
}

/**
 * Checks only the shape of columnar trades (array types, equal lengths), in O(1): what aggregators
 * check before their fused loops, which validate every record as they go. Never throws.
 *
 * @example validateTradeColumnsShape({ time: new Float64Array(2), price: new Float64Array(1) }).ok // false (field 'price')
 */
export function validateTradeColumnsShape(x: unknown): Result<TradeColumns, MarketDataError> {
  const s = columnsSnapshot(x)
  return s.ok ? ok(x as TradeColumns) : s
}

/**
 * True when `x` looks like TradeColumns (has a Float64Array `time`); the full check is {@link validateTradeColumns}.
 * Never throws: an object whose `time` cannot be read (a throwing getter or Proxy) is not columns.
 *
 * @param x - the value to check: anything, never trusted
 * @returns the `x is TradeColumns`
 * @throws never: bad input is answered, not thrown
 * @example isTradeColumns({ time: new Float64Array(0) }) // true; isTradeColumns([{ time: 1 }]) // false
 */
export function isTradeColumns(x: unknown): x is TradeColumns {
  if (typeof x !== 'object' || x === null) return false
  try {
    return (x as { time?: unknown }).time instanceof Float64Array
  } catch {
    return false
  }
}

/**
 * Checks columnar trades: the array types, equal lengths, and every record as {@link validateTrade} does
 * (side codes 1 | 2, session codes 0 | 1 | 2). A column price is any finite number, read by its shortest
 * round-trip decimal form. Never throws; the error names the index and the field.
 *
 * @param x - the value to check: anything, never trusted
 * @returns `{ ok: true, value }`, or `{ ok: false, error }` naming the field and the rule
 * @throws never: bad input is answered, not thrown
 * @example
 * validateTradeColumns({ time: new Float64Array([0]), price: new Float64Array([1.5]), volume: new Float64Array([2]), side: new Uint8Array([3]) })
 * // { ok: false, error: MarketDataError (index 0, field 'side') }
 */
export function validateTradeColumns(x: unknown): Result<TradeColumns, MarketDataError> {
  const s = columnsSnapshot(x)
  if (!s.ok) return s
  // the snapshot holds genuine typed arrays of equal length: indexed reads of them cannot run user code
  const c = s.value as unknown as TradeColumns
  const n = c.time.length
  for (let i = 0; i < n; i++) {
    const e = columnRecordProblem(c, i, i)
    if (e !== undefined) return err(e)
  }
  return ok(x as TradeColumns)
}

/**
 * Bit mask of the selected sessions (bit `code`), for hot loops: `(mask >> session) & 1`.
 * `undefined` selects all three. Throws `MarketDataError` (`invalid_option`, field `sessions`) on
 * anything but an array of session types; an empty array selects none.
 *
 * @example sessionMask(['MAINSESSION', 'POST_MARKET']) // 0b101
 */
export function sessionMask(sessions: readonly SessionType[] | undefined, field = 'sessions'): number {
  if (sessions === undefined) return 7
  if (!Array.isArray(sessions)) throw new MarketDataError('invalid_option', TRADE_MSG.sessions(sessions), { field })
  let m = 0
  for (const s of sessions) {
    const c = s === undefined ? -1 : sessionCodeOf(s)
    if (c < 0) throw new MarketDataError('invalid_option', TRADE_MSG.sessions(sessions), { field })
    m |= 1 << c
  }
  return m
}
