// Interface B rules (query parsing, ranges, caps, depth, prices, errors) and interface A request validation.
export type { ApiError, ApiErrorCode, ApiErrorResponse, NotFoundKind } from '../_lib/api-error.js'
export {
  invalidArgumentError,
  tooMuchDataError,
  unauthenticatedError,
  permissionDeniedError,
  notFoundError,
  rateLimitedError,
  tooManyStreamsError,
  unavailableError,
  toHttpResponse,
} from '../_lib/api-error.js'
export type {
  HistoryEndpoint,
  RestEndpoint,
  PinnedEnd,
  HistoryRequestBase,
  HistoryRequest,
  CandlesHistoryRequest,
  FootprintHistoryRequest,
  TpoHistoryRequest,
  HistoryQueryContext,
} from './types.js'
export { REST_ENDPOINTS } from './types.js'
export type { QueryInput } from './query-params.js'
export { parseHistoryQuery } from './history-query.js'
export { TIME_MIN, TIME_MAX } from './range.js'
export { checkCap, PROFILE_CAPS } from './cap.js'
export { checkRowSize } from './row-size.js'
export { trimToDepth, footprintDepthDays, footprintHistoryStart, PROFILE_DATA_START } from './depth.js'
export type { PriceInput } from './price.js'
export { priceOf, countTpoPeriods, PRICE_MIN, PRICE_MAX } from './price.js'
// SecurityId (the type) is exported by src/partner (same shape); exporting it here too would clash in src/index.ts.
export { parseSecurityId } from './security-id.js'
export type { ListCandlesQuery, ListCandlesProperty } from './list-candles.js'
export { validateListCandlesRequest, LIST_CANDLES_PROPERTIES } from './list-candles.js'
export type { ServiceConfig, ServiceConfigOverrides, ServiceStreamKind, DepthRow } from './service-config.js'
export { DEFAULT_SERVICE_CONFIG, createServiceConfig } from './service-config.js'
