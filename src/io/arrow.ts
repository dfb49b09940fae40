// Trades and candles from the columns of an Arrow table (what Polars' `to_arrow()`, an Arrow IPC file or a DuckDB
// Arrow result hands over), without the apache-arrow package: the columns found by the text reader's names and
// options, each column converted once (a Float64 column without nulls used as it is), decimals exactly.
import type { CandleColumns, CandleInput } from '../candles/index.js'
import { checkOptions } from '../_lib/closed-options.js'
import { describeValue } from '../_lib/describe.js'
import { MarketDataError } from '../errors.js'
import type { Trade, TradeColumns } from '../trades/index.js'
import { type ArrowTableLike, type ArrowVectorLike, createCellReader, isNull } from './arrow-data.js'
import {
  checkColumnType,
  decimalCell,
  eachCell,
  type FieldColumn,
  readCounts,
  readDoubles,
  readSessions,
  readSides,
  readTimes,
  rowError,
} from './arrow-fields.js'
import { CANDLE_KIND } from './candles.js'
import { checkReaderOptions, type SideRule } from './reader-options.js'
import { headerColumns, type FieldError, type RecordKind } from './text-reader.js'
import type { EpochUnit, TimeFormat } from './time-input.js'
import { TRADE_KIND } from './trades.js'

/** Options of the Arrow table readers: the text reader's, for what a table can need. */
export interface ArrowReaderOptions {
  /** The column of a field, by name (any case) or by position from 1: `{ time: 'ts', volume: 'qty' }`. Other fields are found by their usual names. */
  columns?: Readonly<Record<string, string | number>>
  /** The unit of an integer or float time column: `s`, `ms`, `us` or `ns`. Default: from a name such as `time_us`, else the first row's magnitude. Timestamp and Date columns carry their own. */
  timeUnit?: EpochUnit
  /** IANA zone of date-time text without an offset. */
  inputZone?: string
  /** Where trade sides come from: `column` (default) or `tick` (estimated by the tick rule). Trades only. */
  sideRule?: Exclude<SideRule, 'optional'>
  /** Refuse a row whose time is earlier than the previous row's. Default false. */
  sorted?: boolean
  /** Told once which time format the first row set, with the row (from 0) and its value. */
  onTimeFormat?: (format: TimeFormat, row: number, value: unknown) => void
}

const ARROW_OPTIONS = ['columns', 'timeUnit', 'inputZone', 'sideRule', 'sorted', 'onTimeFormat'] as const

/** The table's columns of a record kind, found as the text reader finds a header's, and its row count. */
function tableColumns(
  table: unknown,
  kind: RecordKind<unknown>,
  opts: ArrowReaderOptions,
  fn: string,
): { columns: Map<string, FieldColumn>; rows: number } {
  if (typeof opts !== 'object' || opts === null)
    throw new MarketDataError('invalid_option', 'options: must be an object', { field: 'options' })
  checkOptions(opts, ARROW_OPTIONS, fn)
  if ((opts.sideRule as string) === 'optional')
    throw new MarketDataError('invalid_option', "sideRule: the Arrow readers need a side: use 'column' or 'tick'", {
      field: 'sideRule',
    })
  checkReaderOptions(opts, kind.columns, fn)
  const t = table as Partial<ArrowTableLike> | null
  const fields = typeof t === 'object' && t !== null ? t.schema?.fields : undefined
  if (!Array.isArray(fields) || typeof t?.getChild !== 'function')
    throw new MarketDataError(
      'invalid_option',
      `table: ${describeValue(table)} is not an Arrow table (an object with schema.fields and getChild(name), as apache-arrow's Table)`,
      { field: 'table' },
    )
  const names = fields.map((f: { name?: unknown }) => String(f?.name))
  const at = headerColumns(kind, names, opts.columns, opts.sideRule ?? 'column', 'the table')
  if (at === undefined || typeof at === 'string')
    throw new MarketDataError(
      'invalid_record',
      at ??
        `the table has none of the ${kind.name} columns (it has: ${names.join(', ').slice(0, 200)}); name them with columns`,
      { field: 'columns' },
    )
  const cell = createCellReader()
  const columns = new Map<string, FieldColumn>()
  let rows: number | undefined
  for (const field of kind.columns) {
    const i = at[field] ?? -1
    if (i < 0) continue
    const name = names[i]!
    let vector: ArrowVectorLike | null
    try {
      vector = (t.getChildAt?.(i) ?? t.getChild(name)) as ArrowVectorLike | null
    } catch (e) {
      throw new MarketDataError(
        'invalid_option',
        `table: reading column ${JSON.stringify(name)} threw ${describeValue(e instanceof Error ? e.message : e)}`,
        { field },
      )
    }
    if (typeof vector !== 'object' || vector === null || !Array.isArray(vector.data))
      throw new MarketDataError('invalid_option', `table: column ${JSON.stringify(name)} is not an Arrow vector`, {
        field,
      })
    const n = vector.data.reduce((s, d) => s + (d?.length ?? 0), 0)
    if (rows !== undefined && n !== rows)
      throw new MarketDataError('invalid_option', `table: column ${JSON.stringify(name)} has ${n} rows, not ${rows}`, {
        field,
      })
    rows = n
    columns.set(field, { field, name, vector, cell })
  }
  return { columns, rows: rows ?? 0 }
}

/** Whether any row of a column is null. */
function anyNull(c: FieldColumn): boolean {
  return c.vector.data.some((d) => {
    for (let i = 0; i < d.length; i++) if (isNull(d, i)) return true
    return false
  })
}

/** Sides by the tick rule over exact prices: up a buy, down a sell, equal the previous side; buys before the first change. */
function tickSides(price: Float64Array): Uint8Array {
  const out = new Uint8Array(price.length)
  let side = 1
  for (let i = 0; i < price.length; i++) {
    if (i > 0 && price[i]! > price[i - 1]!) side = 1
    else if (i > 0 && price[i]! < price[i - 1]!) side = 2
    out[i] = side
  }
  return out
}

/**
 * Reads trades from the columns of an Arrow table (apache-arrow's `Table`, or any object shaped like one: what
 * Polars' `to_arrow()`, DuckDB's Arrow results and Arrow IPC files give) into {@link TradeColumns}. Columns are
 * found by the names the text reader knows (`time`, `timestamp`, `price`, `qty`, `side`, `is_buyer_maker`,
 * ...) or named with `columns`. Times: Timestamp (any unit, any zone: instants are UTC) and Date columns by
 * their type; integer, float and text columns as the text reader reads them (`timeUnit`, a name such as
 * `time_us`, or the first row's magnitude). Prices and volumes: Float, Int, Decimal (read exactly from their
 * scaled integers) or decimal text; a single-chunk Float64 column without nulls is used as it is, without a
 * copy. Sides: text, 1 / 2 or `is_buyer_maker` booleans, dictionaries of text included; or `sideRule: 'tick'`.
 * Rows are counted from 0, as `index` of the error and `record N:` of its message.
 *
 * @param table - an Arrow table
 * @param options - `columns`, `timeUnit`, `inputZone`, `sideRule`, `sorted`, `onTimeFormat` (see {@link ArrowReaderOptions})
 * @returns the trades as {@link TradeColumns}, `session` present when a row has one
 * @throws `MarketDataError` naming the row, the column, its type and what was found: `invalid_time`,
 *   `invalid_decimal` (also for a decimal a double cannot hold exactly: read those with {@link tradesFromArrow}),
 *   `invalid_volume`, `invalid_side`, `invalid_session`, `out_of_order` (with `sorted`); `invalid_record`
 *   (field `columns`) for a missing column; `invalid_option` for a column of a type the field does not read, a
 *   value that is not a table, or an unknown option
 * @example
 * import { tableFromArrays } from 'apache-arrow'
 * const table = tableFromArrays({
 *   time: new Float64Array([1780320600000, 1780320601000]),
 *   price: new Float64Array([5000.25, 5000.5]),
 *   qty: new Float64Array([2, 1]),
 *   side: ['buy', 'sell'],
 * })
 * tradeColumnsFromArrow(table).side // Uint8Array [1, 2]
 */
export function tradeColumnsFromArrow(table: ArrowTableLike, options: ArrowReaderOptions = {}): TradeColumns {
  const { columns: c, rows } = tableColumns(table, TRADE_KIND as RecordKind<unknown>, options, 'tradeColumnsFromArrow')
  const time = readTimes(c.get('time')!, rows, options)
  const price = readDoubles(c.get('price')!, rows, true, 'invalid_decimal', 'tradesFromArrow')
  const volume = readDoubles(c.get('volume')!, rows, false, 'invalid_volume', 'tradesFromArrow')
  const side = options.sideRule === 'tick' ? tickSides(price) : readSides(c.get('side')!, rows)
  const s = c.get('session')
  const session = s === undefined ? undefined : readSessions(s, rows)
  return session === undefined ? { time, price, volume, side } : { time, price, volume, side, session }
}

/**
 * Reads candles from the columns of an Arrow table into {@link CandleColumns} (the input of
 * `resampleCandleColumns`), as {@link tradeColumnsFromArrow} reads trades: `time`, `open`, `high`, `low`, `close`,
 * `volume`, and `value`, `trades`, `session` when the table has them (`value` and `trades` when no row of
 * theirs is null, as the text reader keeps them when every row has one).
 *
 * @param table - an Arrow table
 * @param options - `columns`, `timeUnit`, `inputZone`, `sorted`, `onTimeFormat` (see {@link ArrowReaderOptions})
 * @returns the candles as {@link CandleColumns}
 * @throws `MarketDataError` naming the row, the column, its type and what was found (`invalid_time`,
 *   `invalid_decimal`, also for a decimal a double cannot hold exactly: read those with
 *   {@link candlesFromArrow}; `invalid_volume`, `invalid_session`, `out_of_order`); `invalid_record` for a
 *   missing column; `invalid_option` for a column of the wrong type or an unknown option
 * @example
 * import { tableFromArrays } from 'apache-arrow'
 * const table = tableFromArrays({
 *   time: new Float64Array([1780320600000]),
 *   open: new Float64Array([5000]), high: new Float64Array([5001]), low: new Float64Array([4999]),
 *   close: new Float64Array([5000.5]), volume: new Float64Array([12]),
 * })
 * candleColumnsFromArrow(table).close // Float64Array [5000.5]
 */
export function candleColumnsFromArrow(table: ArrowTableLike, options: ArrowReaderOptions = {}): CandleColumns {
  const { columns: c, rows } = tableColumns(
    table,
    CANDLE_KIND as RecordKind<unknown>,
    options,
    'candleColumnsFromArrow',
  )
  const d = (f: string, code: 'invalid_decimal' | 'invalid_volume' = 'invalid_decimal') =>
    readDoubles(c.get(f)!, rows, f !== 'volume', code, 'candlesFromArrow')
  const out: CandleColumns = {
    time: readTimes(c.get('time')!, rows, options),
    open: d('open'),
    high: d('high'),
    low: d('low'),
    close: d('close'),
    volume: d('volume', 'invalid_volume'),
  }
  const value = c.get('value')
  if (value !== undefined && rows > 0 && !anyNull(value)) out.value = d('value')
  const trades = c.get('trades')
  const counts = trades === undefined || rows === 0 ? undefined : readCounts(trades, rows)
  if (counts !== undefined) out.trades = counts
  const s = c.get('session')
  const session = s === undefined ? undefined : readSessions(s, rows)
  if (session !== undefined) out.session = session
  return out
}

/** Each row of the table as the fields a record builder of the text reader takes (time in epoch ms). */
function buildRecords<T>(
  table: unknown,
  kind: RecordKind<T>,
  options: ArrowReaderOptions,
  fn: string,
  kinds: Readonly<Record<string, Parameters<typeof checkColumnType>[1]>>,
): T[] {
  const { columns, rows } = tableColumns(table, kind as RecordKind<unknown>, options, fn)
  const time = readTimes(columns.get(kind.columns[0]!)!, rows, options)
  const fields: Record<string, unknown>[] = Array.from({ length: rows }, (_, i) => ({ [kind.columns[0]!]: time[i] }))
  for (const [f, c] of columns) {
    if (f === kind.columns[0] || (f === 'side' && options.sideRule === 'tick')) continue
    checkColumnType(c, kinds[f] ?? 'decimal')
    eachCell(c, (v, row) => {
      if (v !== null) fields[row]![f] = kinds[f] === 'decimal' ? decimalCell(v) : typeof v === 'bigint' ? Number(v) : v
    })
  }
  const build = kind.builder(options)
  const out: T[] = new Array(rows)
  for (let i = 0; i < rows; i++) {
    const r = build(fields[i]!)
    const e = r as Partial<FieldError>
    if (typeof r === 'object' && r !== null && typeof e.message === 'string' && typeof e.code === 'string') {
      const c = columns.get(e.field ?? '')
      if (c === undefined) throw new MarketDataError(e.code, e.message, { index: i, field: e.field ?? '' })
      throw rowError(e.code, c, i, e.message)
    }
    out[i] = r as T
  }
  return out
}

const TRADE_FIELDS = { price: 'decimal', volume: 'decimal', side: 'side', session: 'session' } as const
const CANDLE_FIELDS = {
  open: 'decimal',
  high: 'decimal',
  low: 'decimal',
  close: 'decimal',
  volume: 'decimal',
  value: 'decimal',
  trades: 'count',
  session: 'session',
} as const

/**
 * Reads trades from the columns of an Arrow table as trade records, whose prices and volumes keep their exact
 * text: for decimals a double cannot hold (a Decimal128 `973063183.99440743`), which
 * {@link tradeColumnsFromArrow} refuses. Columns, types and options as for {@link tradeColumnsFromArrow}.
 *
 * @param table - an Arrow table
 * @param options - as for {@link tradeColumnsFromArrow}
 * @returns the trades, in table order: prices and volumes as numbers (Float and small Int columns) or exact text
 * @throws `MarketDataError` naming the row and the column, as {@link tradeColumnsFromArrow} does
 * @example
 * tradesFromArrow(table)[0] // { time: 1780320600000, price: '973063183.99440743', volume: 2, side: 'buy' }
 */
export function tradesFromArrow(table: ArrowTableLike, options: ArrowReaderOptions = {}): Trade[] {
  return buildRecords(table, TRADE_KIND, options, 'tradesFromArrow', TRADE_FIELDS)
}

/**
 * Reads candles from the columns of an Arrow table as candle records, whose prices and volumes keep their
 * exact text (for decimals {@link candleColumnsFromArrow} refuses). Columns, types and options as for
 * {@link candleColumnsFromArrow}.
 *
 * @param table - an Arrow table
 * @param options - as for {@link candleColumnsFromArrow}
 * @returns the candles, in table order, ready for `resampleCandles`
 * @throws `MarketDataError` naming the row and the column, as {@link candleColumnsFromArrow} does
 * @example
 * candlesFromArrow(table)[0].close // '5000.12345678901234567' (a Decimal128 with scale 17)
 */
export function candlesFromArrow(table: ArrowTableLike, options: ArrowReaderOptions = {}): CandleInput[] {
  return buildRecords(table, CANDLE_KIND, options, 'candlesFromArrow', CANDLE_FIELDS)
}
