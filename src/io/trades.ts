import { describeValue } from '../_lib/describe.js'
import { MarketDataError } from '../errors.js'
import type { Side, Trade, TradeColumns } from '../trades/index.js'
import { tradesToColumns } from '../trades/index.js'
import { compareDecimals, readDecimal, readSession, readSide, TIME_ALIASES } from './fields.js'
import {
  createTextReader,
  readAll,
  type FieldError,
  type RecordKind,
  type TextReader,
  type TextReaderOptions,
} from './text-reader.js'

/** A trade as a reader with `sideRule: 'optional'` gives it: without a side when the file has none. */
export type TradeRecord = Omit<Trade, 'side'> & { side?: Side }

/** Trade columns, their positions in a CSV without a header, and the header names each accepts. */
export const TRADE_KIND: RecordKind<Trade> = {
  name: 'trades',
  columns: ['time', 'price', 'volume', 'side', 'session'],
  required: 4,
  aliases: {
    time: [...TIME_ALIASES, 'trade_time', 'transact_time', 'created_at'],
    price: ['price', 'p', 'px', 'rate', 'trade_price', 'last_price'],
    volume: ['volume', 'qty', 'quantity', 'size', 'amount', 'v', 'q', 'vol', 'base_volume', 'trade_size', 'last_size'],
    side: ['side', 'aggressor', 'direction', 'taker_side', 'is_buyer_maker', 'isbuyermaker', 'buyer_maker', 'm'],
    session: ['session', 'session_type', 'sessiontype'],
  },
  decimals: ['price', 'volume'],
  builder(opts) {
    const rule = opts.sideRule ?? 'column'
    // the tick rule's state: the previous price (compared exactly) and side
    let lastPrice: string | number | undefined
    let lastSide: Side = 'buy'
    return (f): Trade | FieldError => {
      const t = f.time as number
      const p = readDecimal(f.price, 'price', true)
      if (typeof p === 'object') return { code: 'invalid_decimal', field: 'price', message: p.error }
      const v = readDecimal(f.volume, 'volume', false)
      if (typeof v === 'object') return { code: 'invalid_volume', field: 'volume', message: v.error }
      let side: Side | undefined
      if (rule === 'tick') {
        const c = lastPrice === undefined ? 0 : compareDecimals(p, lastPrice)
        side = c > 0 ? 'buy' : c < 0 ? 'sell' : lastSide
        lastPrice = p
        lastSide = side
      } else if (f.side !== undefined || rule === 'column') {
        side = readSide(f.side)
        if (side === undefined)
          return {
            code: 'invalid_side',
            field: 'side',
            message: `side ${describeValue(f.side)} is not buy or sell (also b/s, 1/2, or is_buyer_maker true/false)`,
          }
      }
      const session = readSession(f.session)
      if (session === null) {
        return {
          code: 'invalid_session',
          field: 'session',
          message: `session ${describeValue(f.session)} is not MAINSESSION, PRE_MARKET, POST_MARKET (or 0, 1, 2)`,
        }
      }
      const trade = { time: t, price: p, volume: v } as Trade
      if (side !== undefined) trade.side = side
      if (session !== undefined) trade.session = session
      return trade
    }
  },
  time: (t) => t.time,
}

/**
 * Creates a streaming reader of trades written as CSV or NDJSON text: push chunks as they arrive (from a file,
 * a socket, a fetch body), in any sizes, then call `end`. CSV has a header naming the columns (`time`, `price`,
 * `volume`, `side`, optional `session`, with aliases such as `time_ms`, `timestamp`, `qty`, `amount`, `size`,
 * `is_buyer_maker`; any column named with `columns`; an unnamed leading index column is skipped) or none (those
 * columns in that order, or at the positions `columns` gives). Times are epoch s / ms / us / ns (`timeUnit`, a
 * header name such as `time_ms`, or the first row's magnitude) or date-times (RFC 3339 with `T` or a space,
 * any fraction; without an offset in `inputZone`), the format set by the first data row. Decimals keep their
 * exact text (exponents expanded); sides `buy` / `sell` in any case, `b` / `s`, `1` / `2`, or `is_buyer_maker`
 * booleans (`true` is a sell aggressor), or from `sideRule`; blank and `#` lines are skipped. NDJSON lines
 * nested deeper than 32 levels and lines over 1,000,000 characters are bad rows. No file system: the caller
 * reads the bytes.
 *
 * @param options - `format`, `skipBad`, `sorted`, `onBad`, `onTimeFormat`, `columns`, `timeUnit`, `inputZone`,
 *   `sideRule` (see {@link TextReaderOptions}); with `sideRule: 'optional'` the records are {@link TradeRecord}s
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
export function createTradeReader<O extends TextReaderOptions>(options?: O): TextReader<TradeOf<O>> {
  return createTextReader(TRADE_KIND, options ?? {}) as TextReader<TradeOf<O>>
}

/** The record type a trade reader with options `O` gives: {@link TradeRecord} for `sideRule: 'optional'`. */
export type TradeOf<O extends TextReaderOptions> = O extends { sideRule: 'optional' } ? TradeRecord : Trade

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
export function readTrades<O extends TextReaderOptions>(text: string, options?: O): TradeOf<O>[] {
  return readAll(TRADE_KIND, text, options ?? {}).records as TradeOf<O>[]
}

/**
 * Reads trades from a whole CSV or NDJSON text into columns (`time`, `price`, `volume` as Float64Array, `side`
 * 1 buy / 2 sell, `session` when any row has one): the fast input of the aggregators.
 *
 * @param text - the whole text
 * @param options - as for {@link createTradeReader}
 * @returns the trades as {@link TradeColumns}
 * @throws `MarketDataError` for a bad row (naming its line) unless `skipBad`; `invalid_decimal` for a decimal a
 *   double cannot hold exactly; `invalid_option` for `sideRule: 'optional'` (columns need a side)
 * @example
 * readTradeColumns('1780320600,5000.25,2,b\n1780320601,5000.5,1,s').side // Uint8Array [1, 2]
 */
export function readTradeColumns(text: string, options: TextReaderOptions = {}): TradeColumns {
  if (options.sideRule === 'optional')
    throw new MarketDataError('invalid_option', "sideRule: columns need a side: use 'column' or 'tick'", {
      field: 'sideRule',
    })
  return tradesToColumns(readTrades(text, options) as Trade[])
}
