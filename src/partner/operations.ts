/** The seven interface A operations, by short name. */
export type PartnerOperationName =
  | 'Login'
  | 'Refresh'
  | 'ListSecurities'
  | 'ListCandles'
  | 'LinkSecurity'
  | 'UnlinkSecurity'
  | 'GetLinkedSecurity'

/**
 * Interface A operation paths: each is `POST {partner_base_url}/<path>`; every operation but Login and Refresh
 * needs the `accesstoken` header.
 *
 * @example
 * `${partnerBaseUrl}/${PARTNER_OPERATION_PATHS.Login}` // '.../svc.partner.external.auth.v1.AuthApi.Login'
 */
export const PARTNER_OPERATION_PATHS = {
  Login: 'svc.partner.external.auth.v1.AuthApi.Login',
  Refresh: 'svc.partner.external.auth.v1.AuthApi.Refresh',
  ListSecurities: 'svc.reference.external.security.v1.SecurityInfoApi.ListSecurities',
  ListCandles: 'svc.marketdata.external.candle.v1.CandleHistoryApi.ListCandles',
  LinkSecurity: 'svc.partner.external.security.v1.LinkApi.LinkSecurity',
  UnlinkSecurity: 'svc.partner.external.security.v1.LinkApi.UnlinkSecurity',
  GetLinkedSecurity: 'svc.partner.external.security.v1.LinkApi.GetLinkedSecurity',
} as const satisfies Readonly<Record<PartnerOperationName, string>>

/** The operations that need no `accesstoken` (they obtain one). */
export const PARTNER_TOKENLESS_OPERATIONS: readonly PartnerOperationName[] = ['Login', 'Refresh']
