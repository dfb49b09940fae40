export type { Status } from './status.js'
export { StatusCode, statusOk, invalidArgument, notFound, unauthenticated, resourceExhausted } from './status.js'
export type {
  TickerCode,
  SecurityId,
  TokenInfo,
  LoginRequest,
  LoginResponse,
  RefreshRequest,
  RefreshResponse,
  Industry,
  Company,
  AssetId,
  Asset,
  SecurityClass,
  PricePrecision,
  SecurityInfo,
  ListSecuritiesRequest,
  ListSecuritiesItem,
  ListSecuritiesResponse,
  PartnerCandleRange,
  ListCandlesRequest,
  ListCandlesResponse,
  LinkedSecurity,
  LinkSecurityRequest,
  LinkSecurityResponse,
  UnlinkSecurityRequest,
  UnlinkSecurityResponse,
  GetLinkedSecurityRequest,
  GetLinkedSecurityResponse,
} from './types.js'
export type { LinkOperationName, LinkOperation, LinkRequest, LinkResponse } from './link.js'
export { validateLinkRequest, applyLinkOperation } from './link.js'
export { listSecuritiesItems, LIST_SECURITIES_MAX } from './list-securities.js'
export type { TokenValidity, AccessTokenValidity } from './tokens.js'
export {
  ACCESS_TOKEN_LIFETIME_MS,
  DEFAULT_REFRESH_TOKEN_LIFETIME_MS,
  tokenValidity,
  accessTokenValidity,
  checkAccessToken,
} from './tokens.js'
export type { PartnerOperationName } from './operations.js'
export { PARTNER_OPERATION_PATHS, PARTNER_TOKENLESS_OPERATIONS } from './operations.js'
export { timeframeFromPartner } from './timeframe.js'
export type { PartnerDecimal } from './decimal.js'
export { toPartnerDecimal, fromPartnerDecimal } from './decimal.js'
export type { PartnerCandleOptions } from './candles.js'
export { toPartnerCandle, toPartnerCandles } from './candles.js'
