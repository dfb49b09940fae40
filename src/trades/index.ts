export type { SessionType, Side, Trade, TradeColumns } from './types.js'
export { SESSION_CODES, SESSION_NAMES } from './types.js'
