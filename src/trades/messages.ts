// Error messages of src/trades, in one place. Each names the field and the rule.
import { isArray, showThrown } from '../_lib/describe.js'

export const show = (x: unknown): string => {
  if (typeof x === 'string') return JSON.stringify(x.length > 40 ? `${x.slice(0, 40)}…` : x)
  if (typeof x === 'number' || typeof x === 'bigint' || typeof x === 'boolean') return String(x)
  if (x === null) return 'null'
  if (x === undefined) return 'undefined'
  return isArray(x) ? 'an array' : typeof x
}

export const TRADE_MSG = {
  index: (x: unknown) => `index: ${show(x)} is not a record index: expected a safe integer >= 0 (the index errors name)`,
  notObject: (x: unknown) => `trade: ${show(x)} is not a trade object {time, price, volume, side, session?}`,
  time: (x: unknown) => `time: ${show(x)} is not a valid time: expected an integer number of UTC epoch milliseconds within ±8.64e15`,
  price: (x: unknown, why: string) => `price: ${show(x)} is not a finite decimal (${why})`,
  volume: (x: unknown, why: string) => `volume: ${show(x)} is not valid: a volume must be a finite decimal >= 0 (${why})`,
  negativeVolume: (x: unknown) => `volume: ${show(x)} is negative: a volume must be >= 0`,
  side: (x: unknown) => `side: ${show(x)} is not a side: expected 'buy' or 'sell'`,
  sideCode: (x: unknown) => `side: ${show(x)} is not a side code: expected 1 (buy) or 2 (sell)`,
  session: (x: unknown) => `session: ${show(x)} is not a session: expected 'MAINSESSION', 'PRE_MARKET' or 'POST_MARKET' (or none)`,
  sessionCode: (x: unknown) => `session: ${show(x)} is not a session code: expected 0 (MAINSESSION), 1 (PRE_MARKET) or 2 (POST_MARKET)`,
  notColumns: (x: unknown) => `columns: ${show(x)} is not TradeColumns {time: Float64Array, price: Float64Array, volume: Float64Array, side: Uint8Array, session?: Uint8Array}`,
  columnType: (field: string, want: string) => `${field}: expected a ${want}`,
  columnLength: (field: string, len: number, want: number) => `${field}: length ${len} differs from time's length ${want}; all columns must have equal length`,
  notFloat: (field: string, x: unknown) => `${field}: ${show(x)} cannot be held exactly in a Float64Array column (more significant digits than a double keeps)`,
  notIterable: (x: unknown) => `trades: ${show(x)} is neither TradeColumns, an array nor an iterable of trades`,
  readThrew: (field: string, e: unknown) =>
    `${field}: reading it threw (${showThrown(e)}); records must be plain readable values (a getter or Proxy trap threw)`,
  iterableThrew: (e: unknown) => `trades: reading the iterable failed: it threw ${showThrown(e)}`,
  notTradeList: (x: unknown, columns: boolean) =>
    columns
      ? 'trades: got TradeColumns, expected an array or an iterable of trade objects (these are already columns)'
      : `trades: ${show(x)} is not an array or an iterable of trade objects {time, price, volume, side, session?}`,
  sessions: (x: unknown) => `sessions: ${show(x)} is not a list of session types ('MAINSESSION', 'PRE_MARKET', 'POST_MARKET')`,
} as const
