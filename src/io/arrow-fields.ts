// One field of a record read from an Arrow column: times (Timestamp and Date columns by their unit, numbers and
// text by the text reader's rules), exact decimals as doubles, sides, sessions and trade counts. Each reader
// walks the column's chunks once and throws one MarketDataError naming the row, the column and its type.
import { describeValue } from '../_lib/describe.js'
import { MAX_TIME } from '../_lib/max-time.js'
import { exactDouble } from '../decimal/index.js'
import { MarketDataError, type MarketDataErrorCode } from '../errors.js'
import { DAY_MS } from '../time/constants.js'
import { SESSION_CODES } from '../trades/index.js'
import { ARROW_TYPE, arrowTypeName, type ArrowVectorLike, type Cell, isNull } from './arrow-data.js'
import { readDecimal, readSession, readSide } from './fields.js'
import { unitOfName } from './text-reader.js'
import { detectTimeFormat, readTime, type EpochUnit, type TimeFormat } from './time-input.js'

/** A column of the table as a field reads it: the field, the column's name, its chunks and the cell reader. */
export interface FieldColumn {
  /** The record field (`time`, `price`, ...). */
  field: string
  /** The column's name in the table. */
  name: string
  vector: ArrowVectorLike
  cell: (d: ArrowVectorLike['data'][number], i: number) => Cell | undefined
}

const STRINGS: readonly number[] = [ARROW_TYPE.Utf8, ARROW_TYPE.LargeUtf8, ARROW_TYPE.Utf8View, ARROW_TYPE.Dictionary]
const NUMBERS: readonly number[] = [ARROW_TYPE.Float, ARROW_TYPE.Int, ARROW_TYPE.Decimal]
/** The Arrow types each kind of field reads, and what they are in messages. */
export const FIELD_TYPES = {
  time: {
    ids: [ARROW_TYPE.Timestamp, ARROW_TYPE.Date, ...NUMBERS, ...STRINGS],
    what: 'a Timestamp, a Date, epoch numbers or date-time text',
  },
  decimal: { ids: [...NUMBERS, ...STRINGS], what: 'numbers (Float, Int, Decimal) or decimal text' },
  side: {
    ids: [...STRINGS, ARROW_TYPE.Bool, ARROW_TYPE.Int],
    what: 'text (buy/sell, b/s), 1/2 or is_buyer_maker booleans',
  },
  session: { ids: [...STRINGS, ARROW_TYPE.Int], what: 'text (MAINSESSION, PRE_MARKET, POST_MARKET) or 0/1/2' },
  count: { ids: [ARROW_TYPE.Int, ARROW_TYPE.Float, ARROW_TYPE.Decimal, ...STRINGS], what: 'whole numbers' },
} as const

/** `column "px" (Float64)`: where a value was found. */
export function columnLabel(c: FieldColumn, d = c.vector.data[0]): string {
  return `column ${JSON.stringify(c.name.slice(0, 60))} (${arrowTypeName(d?.type)})`
}

/** The error of a row of a column (its index from 0): `record N: <what> in column "x" (Type)` plus a hint. */
export function rowError(
  code: MarketDataErrorCode,
  c: FieldColumn,
  row: number,
  what: string,
  hint = '',
): MarketDataError {
  return new MarketDataError(code, `${what} in ${columnLabel(c)}${hint}`, { index: row, field: c.field })
}

/** Throws `invalid_option` when a chunk of the column has a type this field does not read. */
export function checkColumnType(c: FieldColumn, kind: keyof typeof FIELD_TYPES): void {
  const allowed: readonly number[] = FIELD_TYPES[kind].ids
  for (const d of c.vector.data) {
    const t = d?.type
    const dictOk =
      t?.typeId !== ARROW_TYPE.Dictionary || (t.dictionary !== undefined && allowed.includes(t.dictionary.typeId))
    if (typeof t !== 'object' || t === null || !allowed.includes(t.typeId) || !dictOk)
      throw new MarketDataError(
        'invalid_option',
        `${columnLabel(c, d)} cannot be the ${c.field} column: ${c.field} is ${FIELD_TYPES[kind].what}; cast it, or name another column with columns.${c.field}`,
        { field: c.field },
      )
  }
}

/** Calls `f` with each row's cell; a cell the reader cannot read (buffers not as the type says) throws. */
export function eachCell(c: FieldColumn, f: (v: Cell, row: number) => void): void {
  let row = 0
  for (const d of c.vector.data) {
    for (let i = 0; i < d.length; i++, row++) {
      const v = c.cell(d, i)
      if (v === undefined)
        throw new MarketDataError(
          'invalid_option',
          `${columnLabel(c, d)} has buffers that do not match its type (values ${describeValue(d.values)})`,
          { index: row, field: c.field },
        )
      f(v, row)
    }
  }
}

const TIMESTAMP_UNITS: readonly EpochUnit[] = ['s', 'ms', 'us', 'ns']
const PER_MS: Readonly<Record<EpochUnit, bigint>> = { s: 1n, ms: 1n, us: 1000n, ns: 1000000n }

/** The reading options a time column needs. */
export interface TimeReading {
  timeUnit?: EpochUnit
  inputZone?: string
  sorted?: boolean
  onTimeFormat?: (format: TimeFormat, row: number, value: unknown) => void
}

/**
 * A time column as epoch ms: a Timestamp (any unit, any zone: instants are UTC) or a Date by its type; numbers
 * and text by the text reader's rules (`timeUnit`, a name such as `time_us`, else the first row's magnitude;
 * date-times with an offset or in `inputZone`). Finer units are floored to the millisecond.
 */
export function readTimes(c: FieldColumn, rows: number, o: TimeReading): Float64Array {
  checkColumnType(c, 'time')
  const unit = o.timeUnit ?? unitOfName(c.name)
  const own = wholeFloat64(c, rows)
  if (own !== undefined && epochMs(own, unit, o.sorted === true)) {
    if (rows > 0) o.onTimeFormat?.('ms', 0, own[0])
    return own
  }
  const out = new Float64Array(rows)
  const t = c.vector.data[0]?.type
  let format: TimeFormat | undefined
  let last = -Number.POSITIVE_INFINITY
  eachCell(c, (v, row) => {
    if (v === null) throw rowError('invalid_time', c, row, 'time is null', '; every record needs a time')
    let ms: number | string
    if (t?.typeId === ARROW_TYPE.Timestamp || t?.typeId === ARROW_TYPE.Date) {
      const u = t.typeId === ARROW_TYPE.Date ? (t.unit === 0 ? 'day' : 'ms') : (TIMESTAMP_UNITS[t.unit ?? 1] ?? 'ms')
      if (format === undefined) {
        format = u === 'day' ? 'ms' : u
        o.onTimeFormat?.(format, row, v)
      }
      const b = typeof v === 'bigint' ? v : BigInt(v as number)
      const whole = u === 'day' ? b * BigInt(DAY_MS) : u === 's' ? b * 1000n : b / PER_MS[u]
      ms =
        b < 0n
          ? `time ${String(v)} (${u}) is before 1970`
          : whole > BigInt(MAX_TIME)
            ? `time ${String(v)} (${u}) is out of range (1970..9999)`
            : Number(whole)
    } else {
      const x = typeof v === 'bigint' ? String(v) : v
      if (format === undefined) {
        format = detectTimeFormat(x, unit)
        if (format === undefined)
          throw rowError(
            'invalid_time',
            c,
            row,
            `time ${describeValue(x)} is not an epoch time (s, ms, us, ns) nor a date-time`,
            '; if the time is another column, name it with columns.time',
          )
        o.onTimeFormat?.(format, row, x)
      }
      ms =
        format === 'ms' && typeof x === 'number' && Number.isSafeInteger(x) && x >= 0 && x <= MAX_TIME
          ? x
          : readTime(x, format, { inputZone: o.inputZone, last })
    }
    if (typeof ms === 'string') throw rowError('invalid_time', c, row, ms)
    if (o.sorted === true && ms < last)
      throw rowError(
        'out_of_order',
        c,
        row,
        `time ${new Date(ms).toISOString()} is earlier than the previous row's (${new Date(last).toISOString()})`,
        '; the table must be sorted by time',
      )
    out[row] = ms
    last = ms
  })
  return out
}

/** Whether a Float64 time column holds epoch ms as they are: whole, in range, in order when it must be. */
function epochMs(v: Float64Array, unit: EpochUnit | undefined, sorted: boolean): boolean {
  if (v.length === 0 || detectTimeFormat(v[0], unit) !== 'ms') return false
  let last = 0
  for (let i = 0; i < v.length; i++) {
    const x = v[i] as number
    if (!Number.isSafeInteger(x) || x < 0 || x > MAX_TIME || (sorted && x < last)) return false
    last = x
  }
  return true
}

/** What a decimal column hands a record: a number (a float or a small integer) or exact decimal text. */
export function decimalCell(v: Cell): unknown {
  return typeof v === 'bigint' ? String(v) : v
}

/** Whether a column is one Float64 chunk whose values are the rows themselves, with no null: used as it is. */
function wholeFloat64(c: FieldColumn, rows: number): Float64Array | undefined {
  if (c.vector.data.length !== 1) return undefined
  const d = c.vector.data[0]!
  const ok =
    d.type.typeId === ARROW_TYPE.Float &&
    d.type.precision === 2 &&
    d.values instanceof Float64Array &&
    d.values.length === rows &&
    d.length === rows &&
    d.offset === 0
  if (!ok) return undefined
  for (let i = 0; i < rows; i++) if (isNull(d, i)) return undefined
  return d.values as Float64Array
}

/**
 * A decimal column as the doubles that hold it exactly. A single Float64 chunk without nulls is the column's
 * own array (no copy); other columns are converted once; a decimal a double cannot hold exactly throws
 * `invalid_decimal` naming `records` (the record reader that keeps its exact text).
 */
export function readDoubles(
  c: FieldColumn,
  rows: number,
  signed: boolean,
  code: 'invalid_decimal' | 'invalid_volume',
  records: string,
): Float64Array {
  checkColumnType(c, 'decimal')
  const own = wholeFloat64(c, rows)
  const out = own ?? new Float64Array(rows)
  const check = (x: unknown, row: number): number => {
    const r = readDecimal(x, c.field, signed)
    if (typeof r === 'object') throw rowError(code, c, row, r.error)
    const n = exactDouble(r)
    if (Number.isNaN(n))
      throw rowError(
        'invalid_decimal',
        c,
        row,
        `${c.field} ${describeValue(r)} does not fit a double exactly`,
        `; columns hold doubles: read the table with ${records}, whose records keep the exact text`,
      )
    return n
  }
  if (own !== undefined) {
    for (let i = 0; i < rows; i++) {
      const x = own[i] as number
      if (!Number.isFinite(x) || (!signed && x < 0)) check(x, i)
    }
    return own
  }
  eachCell(c, (v, row) => {
    if (v === null) throw rowError(code, c, row, `${c.field} is null`, `; every record needs a ${c.field}`)
    out[row] = typeof v === 'number' && Number.isFinite(v) && (signed || v >= 0) ? v + 0 : check(decimalCell(v), row)
  })
  return out
}

/** A side column as 1 (buy) / 2 (sell) codes. */
export function readSides(c: FieldColumn, rows: number): Uint8Array {
  checkColumnType(c, 'side')
  const out = new Uint8Array(rows)
  eachCell(c, (v, row) => {
    const s = readSide(typeof v === 'bigint' ? Number(v) : v)
    if (s === undefined)
      throw rowError(
        'invalid_side',
        c,
        row,
        `side ${describeValue(v)} is not buy or sell (also b/s, 1/2, or is_buyer_maker true/false)`,
        v === null ? "; name the side column with columns.side, or estimate sides with sideRule 'tick'" : '',
      )
    out[row] = s === 'buy' ? 1 : 2
  })
  return out
}

/** A session column as codes (null reads as MAINSESSION), or undefined when no row has a session. */
export function readSessions(c: FieldColumn, rows: number): Uint8Array | undefined {
  checkColumnType(c, 'session')
  const out = new Uint8Array(rows)
  let any = false
  eachCell(c, (v, row) => {
    const s = readSession(typeof v === 'bigint' ? Number(v) : v)
    if (s === null)
      throw rowError(
        'invalid_session',
        c,
        row,
        `session ${describeValue(v)} is not MAINSESSION, PRE_MARKET, POST_MARKET (or 0, 1, 2)`,
      )
    if (s !== undefined) any = true
    out[row] = SESSION_CODES[s ?? 'MAINSESSION']
  })
  return any ? out : undefined
}

/** A trade-count column as whole numbers >= 0, or undefined when a row has none (as the text reader leaves it out). */
export function readCounts(c: FieldColumn, rows: number): Float64Array | undefined {
  checkColumnType(c, 'count')
  const out = new Float64Array(rows)
  let all = true
  eachCell(c, (v, row) => {
    if (v === null || v === '') {
      all = false
      return
    }
    const s = typeof v === 'string' ? v.trim() : String(v)
    const n = /^\d+(\.0+)?$/.test(s) ? Number(s) : Number.NaN
    if (!Number.isSafeInteger(n))
      throw rowError('invalid_option', c, row, `trades ${describeValue(v)} is not a whole number >= 0`)
    out[row] = n
  })
  return all ? out : undefined
}
