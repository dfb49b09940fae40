// Error messages of src/trades, in one place. Each names the field and the rule.
import { describeValue, showThrown } from '../_lib/describe.js'

export const TRADE_MSG = {
  index: (x: unknown) =>
    `index: ${describeValue(x)} is not a record index: expected a safe integer >= 0 (the index errors name)`,
  notObject: (x: unknown) => `trade: ${describeValue(x)} is not a trade object {time, price, volume, side, session?}`,
  time: (x: unknown) =>
    `time: ${describeValue(x)} is not a valid time: expected an integer number of UTC epoch milliseconds within ±8.64e15`,
  price: (x: unknown, why: string) => `price: ${describeValue(x)} is not a finite decimal (${why})`,
  volume: (x: unknown, why: string) =>
    `volume: ${describeValue(x)} is not valid: a volume must be a finite decimal >= 0 (${why})`,
  negativeVolume: (x: unknown) => `volume: ${describeValue(x)} is negative: a volume must be >= 0`,
  side: (x: unknown) => `side: ${describeValue(x)} is not a side: expected 'buy' or 'sell'`,
  sideCode: (x: unknown) => `side: ${describeValue(x)} is not a side code: expected 1 (buy) or 2 (sell)`,
  session: (x: unknown) =>
    `session: ${describeValue(x)} is not a session: expected 'MAINSESSION', 'PRE_MARKET' or 'POST_MARKET' (or none)`,
  sessionCode: (x: unknown) =>
    `session: ${describeValue(x)} is not a session code: expected 0 (MAINSESSION), 1 (PRE_MARKET) or 2 (POST_MARKET)`,
  notColumns: (x: unknown) =>
    `columns: ${describeValue(x)} is not TradeColumns {time: Float64Array, price: Float64Array, volume: Float64Array, side: Uint8Array, session?: Uint8Array}`,
  columnType: (field: string, want: string) => `${field}: expected a ${want}`,
  columnLength: (field: string, len: number, want: number) =>
    `${field}: length ${len} differs from time's length ${want}; all columns must have equal length`,
  notFloat: (field: string, x: unknown) =>
    `${field}: ${describeValue(x)} cannot be held exactly in a Float64Array column (more significant digits than a double keeps)`,
  notIterable: (x: unknown) =>
    `trades: ${describeValue(x)} is neither TradeColumns, an array nor an iterable of trades`,
  readThrew: (field: string, e: unknown) =>
    `${field}: reading it threw (${showThrown(e)}); records must be plain readable values (a getter or Proxy trap threw)`,
  iterableThrew: (e: unknown) => `trades: reading the iterable failed: it threw ${showThrown(e)}`,
  notTradeList: (x: unknown, columns: boolean) =>
    columns
      ? 'trades: got TradeColumns, expected an array or an iterable of trade objects (these are already columns)'
      : `trades: ${describeValue(x)} is not an array or an iterable of trade objects {time, price, volume, side, session?}`,
  sessions: (x: unknown) =>
    `sessions: ${describeValue(x)} is not a list of session types ('MAINSESSION', 'PRE_MARKET', 'POST_MARKET')`,
} as const
