import type { Trade, TradeColumns } from '../trades/index.js'
import { tradesToColumns } from '../trades/index.js'
import { readDecimal, readSession, readSide, readTime } from './fields.js'
import {
  createTextReader,
  readAll,
  type FieldError,
  type RecordKind,
  type TextReader,
  type TextReaderOptions,
} from './text-reader.js'

/** Trade columns, their positions in a CSV without a header, and the header names each accepts. */
export const TRADE_KIND: RecordKind<Trade> = {
  name: 'trades',
  columns: ['time', 'price', 'volume', 'side', 'session'],
  required: 4,
  aliases: {
    time: ['time', 'timestamp', 'ts', 't', 'date', 'datetime'],
    price: ['price', 'p', 'px'],
    volume: ['volume', 'qty', 'quantity', 'size', 'amount', 'v'],
    side: ['side', 'aggressor', 'direction'],
    session: ['session', 'session_type', 'sessiontype'],
  },
  decimals: ['price', 'volume'],
  build(f, format): Trade | FieldError {
    const t = readTime(f.time, format)
    if (typeof t === 'string') return { code: 'invalid_time', field: 'time', message: t }
    const p = readDecimal(f.price, 'price', true)
    if (typeof p === 'object') return { code: 'invalid_decimal', field: 'price', message: p.error }
    const v = readDecimal(f.volume, 'volume', false)
    if (typeof v === 'object') return { code: 'invalid_volume', field: 'volume', message: v.error }
    const side = readSide(f.side)
    if (side === undefined)
      return {
        code: 'invalid_side',
        field: 'side',
        message: `side ${JSON.stringify(f.side)} is not buy or sell (also b/s, 1/2)`,
      }
    const session = readSession(f.session)
    if (session === null) {
      return {
        code: 'invalid_session',
        field: 'session',
        message: `session ${JSON.stringify(f.session)} is not MAINSESSION, PRE_MARKET, POST_MARKET (or 0, 1, 2)`,
      }
    }
    const trade: Trade = { time: t, price: p, volume: v, side }
    if (session !== undefined) trade.session = session
    return trade
  },
  time: (t) => t.time,
}

/**
 * Creates a streaming reader of trades written as CSV or NDJSON text: push chunks as they arrive (from a file,
 * a socket, a fetch body), in any sizes, then call `end`. CSV has a header naming the columns (`time`, `price`,
 * `volume`, `side`, optional `session`, with aliases such as `timestamp`, `qty`, `aggressor`) or none (those
 * columns in that order). Times are epoch milliseconds, epoch seconds or ISO 8601 with `Z` or an offset, the
 * format set by the first data row. Decimals keep their exact text (exponents expanded); sides `buy` / `sell`
 * (also `b` / `s`, `1` / `2`); blank and `#` lines are skipped. No file system: the caller reads the bytes.
 *
 * @param options - `format`, `skipBad`, `sorted`, `onBad`, `onTimeFormat` (see {@link TextReaderOptions})
 * @returns a reader whose `push(chunk)` and `end()` return the trades they completed, with their line numbers
 * @throws `MarketDataError` `invalid_option` for an unknown option; `push` / `end` throw for a bad row (code of
 *   the field: `invalid_time`, `invalid_decimal`, `invalid_volume`, `invalid_side`, `invalid_session`,
 *   `out_of_order`, or `invalid_record` for a line that is not a record), the message starting `line N:`, unless `skipBad`
 * @example
 * const reader = createTradeReader()
 * reader.push('time,price,volume,side\n1780320600000,5000.25,2,buy\n17803206')
 * // { records: [{ time: 1780320600000, price: '5000.25', volume: '2', side: 'buy' }], lines: [2] }
 * reader.push('01000,5000.5,1,sell\n').records // [{ time: 1780320601000, price: '5000.5', volume: '1', side: 'sell' }]
 */
export function createTradeReader(options: TextReaderOptions = {}): TextReader<Trade> {
  return createTextReader(TRADE_KIND, options)
}

/**
 * Reads trades from a whole CSV or NDJSON text, as {@link createTradeReader} reads chunks.
 *
 * @param text - the whole text
 * @param options - as for {@link createTradeReader}
 * @returns the trades, in input order
 * @throws `MarketDataError` for a bad row (naming its line) unless `skipBad`, or an unknown option
 * @example
 * readTrades('{"time":1780320600000,"price":5000.25,"volume":2,"side":"buy"}')
 * // [{ time: 1780320600000, price: '5000.25', volume: '2', side: 'buy' }]
 */
export function readTrades(text: string, options: TextReaderOptions = {}): Trade[] {
  return readAll(TRADE_KIND, text, options).records
}

/**
 * Reads trades from a whole CSV or NDJSON text into columns (`time`, `price`, `volume` as Float64Array, `side`
 * 1 buy / 2 sell, `session` when any row has one): the fast input of the aggregators.
 *
 * @param text - the whole text
 * @param options - as for {@link createTradeReader}
 * @returns the trades as {@link TradeColumns}
 * @throws `MarketDataError` for a bad row (naming its line) unless `skipBad`; `invalid_decimal` for a decimal a double cannot hold exactly
 * @example
 * readTradeColumns('1780320600,5000.25,2,b\n1780320601,5000.5,1,s').side // Uint8Array [1, 2]
 */
export function readTradeColumns(text: string, options: TextReaderOptions = {}): TradeColumns {
  return tradesToColumns(readTrades(text, options))
}
