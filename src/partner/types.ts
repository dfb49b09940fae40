import type { PartnerCandle } from '../candles/index.js'
import type { PartnerDecimal } from './decimal.js'
import type { ListCandlesProperty } from '../rules/index.js'
import type { TimeUnit } from '../time/index.js'
import type { SessionType } from '../trades/index.js'
import type { Status } from './status.js'

// Request and response bodies of interface A (the partner API), field names exactly as on the wire.
// Every response carries `status` ("clients check status.code in every response"); a request-level failure
// answers HTTP 200 with the failing `status` and the body's other fields absent.

/** `ticker_code` variant of a SecurityId: both fields required. */
export interface TickerCode {
  ticker: string
  exchange_code: string
}

/** A SecurityId: exactly one of `guid` or `ticker_code`. */
export type SecurityId = { guid: string } | { ticker_code: TickerCode }

/** A token with its expiry (ISO 8601 UTC). */
export interface TokenInfo {
  token: string
  valid_to_time: string
}

/** `AuthApi.Login` request. */
export interface LoginRequest {
  api_key: string
}

/** `AuthApi.Login` response: both tokens with their expiry. */
export interface LoginResponse {
  status: Status
  access_token?: TokenInfo
  refresh_token?: TokenInfo
}

/** `AuthApi.Refresh` request. */
export interface RefreshRequest {
  refresh_token: string
}

/** `AuthApi.Refresh` response: only a new `access_token`. */
export interface RefreshResponse {
  status: Status
  access_token?: TokenInfo
}

/** An industry, possibly with nested industries (the list may be empty). */
export interface Industry {
  name: string
  industries: Industry[]
}

/** The company behind an asset. */
export interface Company {
  name: string
  industries: Industry[]
}

/** Asset identity. */
export interface AssetId {
  code: string
  asset_class_code: string
}

/** A base or quote asset; the quote asset may carry only `id`. */
export interface Asset {
  id: AssetId
  icon_url?: string
  background_color?: string
  company?: Company
}

/** A security class in the class tree. */
export interface SecurityClass {
  name: string
  parent_class?: SecurityClass
  top_level_class?: SecurityClass
}

/** A price band and its number of decimals; `price_to` is omitted on the open-ended top band. */
export interface PricePrecision {
  price_from: PartnerDecimal
  price_to?: PartnerDecimal
  precision: number
}

/** `security_info` of a ListSecurities item. `status` 1 means active. */
export interface SecurityInfo {
  guid: string
  ticker: string
  exchange_code: string
  /** Language code -> name. */
  names?: Record<string, string>
  /** ISO 10962 code. */
  cfi?: string
  isin?: string
  status?: number
  /** Number of decimal places. */
  price_precision?: number
  tick_size?: PartnerDecimal
  asset_base?: Asset
  asset_quote?: Asset
  classes?: SecurityClass[]
  exchange_alias?: string
  price_precisions?: PricePrecision[]
}

/** `SecurityInfoApi.ListSecurities` request. */
export interface ListSecuritiesRequest {
  security_ids: SecurityId[]
}

/**
 * One ListSecurities answer item: `security_id` as requested (echoed even when invalid), status 0 with
 * `security_info`, 5 NOT_FOUND without it, or 3 INVALID_ARGUMENT for an invalid id.
 */
export interface ListSecuritiesItem {
  status: Status
  security_id: SecurityId | unknown
  security_info?: SecurityInfo
}

/** `SecurityInfoApi.ListSecurities` response. */
export interface ListSecuritiesResponse {
  status?: Status
  securities: ListSecuritiesItem[]
}

/** ListCandles `range`: `first_bound_time` plus exactly one of `second_bound_time`, `duration`, `count`. */
export type PartnerCandleRange =
  | { first_bound_time: string; second_bound_time: string }
  | { first_bound_time: string; duration: string }
  | { first_bound_time: string; count: number }

/** `CandleHistoryApi.ListCandles` request. */
export interface ListCandlesRequest {
  security_id: SecurityId
  time_frame: { time_unit: TimeUnit; count?: number }
  range: PartnerCandleRange
  properties?: ListCandlesProperty[]
  session_types?: SessionType[]
}

/** `CandleHistoryApi.ListCandles` response; candles are src/candles' `PartnerCandle` (built by `toPartnerCandles`). */
export interface ListCandlesResponse {
  status?: Status
  candles: PartnerCandle[]
}

/** A stored link: the service's GUID and the partner's own id for that security. */
export interface LinkedSecurity {
  security_guid: string
  partner_security_id: string
}

/** `LinkApi.LinkSecurity` request. */
export interface LinkSecurityRequest {
  security_guid: string
  partner_security_id: string
}

/** `LinkApi.LinkSecurity` response. */
export interface LinkSecurityResponse {
  status: Status
}

/** `LinkApi.UnlinkSecurity` request. */
export interface UnlinkSecurityRequest {
  security_guid: string
}

/** `LinkApi.UnlinkSecurity` response. */
export interface UnlinkSecurityResponse {
  status: Status
}

/** `LinkApi.GetLinkedSecurity` request. */
export interface GetLinkedSecurityRequest {
  security_guid: string
}

/** `LinkApi.GetLinkedSecurity` response: `linked_security` when the security is linked. */
export interface GetLinkedSecurityResponse {
  status: Status
  linked_security?: LinkedSecurity
}
