import type { CandleColumns, CandleInput } from '../candles/index.js'
import { exactDouble } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { SESSION_CODES } from '../trades/index.js'
import { describeValue } from '../_lib/describe.js'
import { readDecimal, readSession, TIME_ALIASES } from './fields.js'
import {
  createTextReader,
  readAll,
  type FieldError,
  type RecordKind,
  type TextReader,
  type TextReaderOptions,
} from './text-reader.js'

const PRICES = ['open', 'high', 'low', 'close'] as const

/** Candle columns, their positions in a CSV without a header, and the header names each accepts. */
export const CANDLE_KIND: RecordKind<CandleInput> = {
  name: 'candles',
  columns: ['time', 'open', 'high', 'low', 'close', 'volume', 'value', 'trades', 'session'],
  required: 6,
  aliases: {
    time: [...TIME_ALIASES, 'open_time'],
    open: ['open', 'o'],
    high: ['high', 'h'],
    low: ['low', 'l'],
    close: ['close', 'c'],
    volume: ['volume', 'vol', 'v', 'qty', 'base_volume'],
    value: ['value', 'turnover', 'notional', 'quote_volume'],
    trades: ['trades', 'count', 'trade_count', 'n'],
    session: ['session', 'session_type', 'sessiontype'],
  },
  decimals: ['open', 'high', 'low', 'close', 'volume', 'value'],
  builder: () => buildCandle,
  time: (c) => c.time,
}

function buildCandle(f: Readonly<Record<string, unknown>>): CandleInput | FieldError {
  const t = f.time as number
  const c: Partial<CandleInput> & { time: number } = { time: t }
  for (const k of PRICES) {
    const v = readDecimal(f[k], k, true)
    if (typeof v === 'object') return { code: 'invalid_decimal', field: k, message: v.error }
    c[k] = v
  }
  const volume = readDecimal(f.volume, 'volume', false)
  if (typeof volume === 'object') return { code: 'invalid_volume', field: 'volume', message: volume.error }
  c.volume = volume
  if (f.value !== undefined && f.value !== '') {
    const value = readDecimal(f.value, 'value', true)
    if (typeof value === 'object') return { code: 'invalid_decimal', field: 'value', message: value.error }
    c.value = value
  }
  if (f.trades !== undefined && f.trades !== '') {
    const n = typeof f.trades === 'string' && /^\d+$/.test(f.trades.trim()) ? Number(f.trades.trim()) : f.trades
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
      return {
        code: 'invalid_option',
        field: 'trades',
        message: `trades ${describeValue(f.trades)} is not a whole number >= 0`,
      }
    c.trades = n
  }
  const session = readSession(f.session)
  if (session === null) {
    return {
      code: 'invalid_session',
      field: 'session',
      message: `session ${describeValue(f.session)} is not MAINSESSION, PRE_MARKET, POST_MARKET (or 0, 1, 2)`,
    }
  }
  if (session !== undefined) c.session = session
  return c as CandleInput
}

/**
 * Creates a streaming reader of candles written as CSV or NDJSON text: push chunks as they arrive, then call
 * `end`. CSV has a header naming the columns (`time`, `open`, `high`, `low`, `close`, `volume`, optional
 * `value`, `trades`, `session`, with aliases such as `timestamp`, `o`, `vol`) or none (the first six in that
 * order). Times and decimals are read as for trades: the time format set by the first data row, decimals by
 * their exact text. No file system: the caller reads the bytes.
 *
 * @param options - `format`, `skipBad`, `sorted`, `onBad`, `onTimeFormat` (see {@link TextReaderOptions})
 * @returns a reader whose `push(chunk)` and `end()` return the candles they completed, with their line numbers
 * @throws `MarketDataError` `invalid_option` for an unknown option; `push` / `end` throw for a bad row naming its line and field, unless `skipBad`
 * @example
 * const reader = createCandleReader()
 * reader.push('time,open,high,low,close,volume\n2026-06-01T13:30:00Z,5000,5001.25,4999.5,5000.75,120\n').records
 * // [{ time: 1780320600000, open: '5000', high: '5001.25', low: '4999.5', close: '5000.75', volume: '120' }]
 */
export function createCandleReader(options: TextReaderOptions = {}): TextReader<CandleInput> {
  return createTextReader(CANDLE_KIND, options)
}

/**
 * Reads candles from a whole CSV or NDJSON text, as {@link createCandleReader} reads chunks.
 *
 * @param text - the whole text
 * @param options - as for {@link createCandleReader}
 * @returns the candles, in input order, ready for `resampleCandles`
 * @throws `MarketDataError` for a bad row (naming its line) unless `skipBad`, or an unknown option
 * @example
 * readCandles('1780320600,5000,5001,4999,5000.5,12')
 * // [{ time: 1780320600000, open: '5000', high: '5001', low: '4999', close: '5000.5', volume: '12' }]
 */
export function readCandles(text: string, options: TextReaderOptions = {}): CandleInput[] {
  return readAll(CANDLE_KIND, text, options).records
}

function column(
  list: readonly CandleInput[],
  key: 'open' | 'high' | 'low' | 'close' | 'volume' | 'value',
  lines: readonly number[],
): Float64Array {
  const out = new Float64Array(list.length)
  for (let i = 0; i < list.length; i++) {
    const x = list[i]![key]!
    const d = exactDouble(x)
    if (Number.isNaN(d))
      throw new MarketDataError(
        'invalid_decimal',
        `line ${lines[i]}: ${key} ${describeValue(x)} does not fit a double exactly; read candles as objects`,
        { field: key },
      )
    out[i] = d
  }
  return out
}

/**
 * Reads candles from a whole CSV or NDJSON text into columns (the fast input of `resampleCandleColumns`). The
 * `value`, `trades` and `session` columns are present when every row has a value / trade count, or any row a session.
 *
 * @param text - the whole text
 * @param options - as for {@link createCandleReader}
 * @returns the candles as {@link CandleColumns}
 * @throws `MarketDataError` for a bad row (naming its line) unless `skipBad`; `invalid_decimal` for a decimal a double cannot hold exactly
 * @example
 * readCandleColumns('1780320600,5000,5001,4999,5000.5,12').close // Float64Array [5000.5]
 */
export function readCandleColumns(text: string, options: TextReaderOptions = {}): CandleColumns {
  const { records, lines } = readAll(CANDLE_KIND, text, options)
  const cols: CandleColumns = {
    time: Float64Array.from(records, (c) => c.time),
    open: column(records, 'open', lines),
    high: column(records, 'high', lines),
    low: column(records, 'low', lines),
    close: column(records, 'close', lines),
    volume: column(records, 'volume', lines),
  }
  if (records.length > 0 && records.every((c) => c.value !== undefined)) cols.value = column(records, 'value', lines)
  if (records.length > 0 && records.every((c) => c.trades !== undefined))
    cols.trades = Float64Array.from(records, (c) => c.trades!)
  if (records.some((c) => c.session !== undefined))
    cols.session = Uint8Array.from(records, (c) => SESSION_CODES[c.session ?? 'MAINSESSION'])
  return cols
}
