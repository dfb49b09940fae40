export type {
  SessionType,
  Side,
  Trade,
  TradeColumns,
  TradeInput,
  AsyncTradeInput,
  TradeSink,
  TradeArraySink,
} from './types.js'
export { SESSION_CODES, SESSION_NAMES } from './types.js'
export {
  validateTrade,
  validateTrades,
  validateTradeColumns,
  validateTradeColumnsShape,
  isTradeColumns,
  sessionMask,
} from './validate.js'
export { tradesToColumns, columnsToTrades, sliceTradeColumns } from './columns.js'
export { feedTrades, feedTradesAsync } from './feed.js'
export type { ScaledTradeReaderOptions } from './scaled.js'
export { ScaledTradeReader, createScaledTradeReader } from './scaled.js'
export type { ClockSessionOptions } from './clock-sessions.js'
export { sessionsFromClock } from './clock-sessions.js'
