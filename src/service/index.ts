/**
 * The market data service's rules: interface B (REST and WebSocket) requests, caps, depth, prices and errors; credits and ledgers; interface A (partner API); one config object for the service's numbers.
 *
 * @module svc-marketdata/service
 */
// svc-marketdata/service: the market data service's rules as pure functions. Interface B (the REST and WebSocket
// API: query parsing, ranges, caps, depth, prices, errors), credits and their ledgers, interface A (the partner
// API: securities, links, tokens, ListCandles, Decimal, Status), and one config object holding the service's
// numbers. An explicit list: what is not named here is internal.

// the service's numbers
export type { ServiceConfig, ServiceConfigOverrides, ServiceStreamKind, DepthRow } from '../rules/index.js'
export { DEFAULT_SERVICE_CONFIG, createServiceConfig } from '../rules/index.js'

// interface B: requests, ranges, caps, depth, prices, errors
export type {
  ApiError,
  ApiErrorCode,
  ApiErrorResponse,
  NotFoundKind,
  HistoryEndpoint,
  RestEndpoint,
  PinnedEnd,
  HistoryRequestBase,
  HistoryRequest,
  CandlesHistoryRequest,
  FootprintHistoryRequest,
  TpoHistoryRequest,
  HistoryQueryContext,
  QueryInput,
  PriceInput,
} from '../rules/index.js'
export {
  parseHistoryQuery,
  checkCap,
  checkRowSize,
  trimToDepth,
  footprintDepthDays,
  footprintHistoryStart,
  priceOf,
  countTpoPeriods,
  REST_ENDPOINTS,
  TIME_MIN,
  TIME_MAX,
  invalidArgumentError,
  tooMuchDataError,
  unauthenticatedError,
  permissionDeniedError,
  notFoundError,
  rateLimitedError,
  tooManyStreamsError,
  unavailableError,
  toHttpResponse,
} from '../rules/index.js'
export { parseRfc3339, parseUnixSeconds, formatIso, toUnixSeconds } from '../time/index.js'

// credits: the REST ledger and the WebSocket stream ledger
export type {
  RestLedgerState,
  RateLimitHeaders,
  RestCheckOutcome,
  RestChargeOutcome,
  RestLedger,
  LedgerTransition,
  StreamKind,
  StreamRecord,
  StreamLedgerState,
  StreamErrorFrame,
  StreamNotice,
  HandshakeOutcome,
  ConfirmOutcome,
  EndOutcome,
  RenewOutcome,
  StreamLedger,
  RangeTruncatedFrame,
} from '../credits/index.js'
export {
  restCheck,
  restCharge,
  createRestLedger,
  streamHandshake,
  streamConfirm,
  streamRenew,
  streamClose,
  streamUpstreamError,
  nextStreamDue,
  createStreamLedger,
  rangeTruncatedFrame,
} from '../credits/index.js'

// interface A: the partner API
export type {
  Status,
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
  LinkOperationName,
  LinkOperation,
  LinkRequest,
  LinkResponse,
  TokenValidity,
  AccessTokenValidity,
} from '../partner/index.js'
export {
  StatusCode,
  statusOk,
  invalidArgument,
  notFound,
  unauthenticated,
  resourceExhausted,
  validateLinkRequest,
  applyLinkOperation,
  listSecuritiesItems,
  LIST_SECURITIES_MAX,
  ACCESS_TOKEN_LIFETIME_MS,
  DEFAULT_REFRESH_TOKEN_LIFETIME_MS,
  tokenValidity,
  accessTokenValidity,
  checkAccessToken,
} from '../partner/index.js'
export type { ListCandlesQuery, ListCandlesProperty } from '../rules/index.js'
export { parseSecurityId, validateListCandlesRequest, LIST_CANDLES_PROPERTIES } from '../rules/index.js'
export type { PartnerDecimal } from '../partner/index.js'
export { toPartnerDecimal, fromPartnerDecimal } from '../partner/index.js'
export type { IsoDuration } from '../time/index.js'
export { parseIsoDuration, addIsoDuration } from '../time/index.js'
export { timeframeFromPartner } from '../partner/index.js'
export type { PartnerOperationName } from '../partner/index.js'
export { PARTNER_OPERATION_PATHS, PARTNER_TOKENLESS_OPERATIONS } from '../partner/index.js'
export type { PartnerCandle, PartnerDecimalValue, CandleProperty } from '../candles/index.js'
export type { PartnerCandleOptions } from '../partner/index.js'
export { toPartnerCandle, toPartnerCandles } from '../partner/index.js'

// the service contract as an OpenAPI 3.1 document (data; docs/openapi.md)
export type { Json, JsonObject, OpenApiDocumentOptions } from '../openapi/index.js'
export { openApiDocument, openApiJson, REST_PATHS } from '../openapi/index.js'
