import { describeValue } from '../_lib/describe.js'
import { SECURITY_ID_STRING_MAX } from '../rules/security-id.js'

/** Messages of the partner folder: each names the field and the rule. */

export const PARTNER_MSG = {
  linked: () => 'security linked',
  unlinked: () => 'security unlinked',
  notObject: (what: string) => `${what}: must be a JSON object`,
  unknownField: (path: string) => `${path.length > 60 ? `${path.slice(0, 60)}...` : path}: unknown field`,
  badIdString: (field: string, x: unknown) =>
    `${field}: must be a non-empty string of at most ${SECURITY_ID_STRING_MAX} characters, got ${x === undefined ? 'nothing' : describeValue(x)}`,
  badOperation: (op: unknown) =>
    `operation: must be LinkSecurity, UnlinkSecurity or GetLinkedSecurity, got ${describeValue(op)}`,
  otherGuid: (current: string, requested: string) =>
    `applyLinkOperation: current is the link of security_guid ${describeValue(current)}, the request is about ${describeValue(requested)}`,
  idsNotArray: (x: unknown) => `security_ids: must be an array of SecurityId, got ${describeValue(x)}`,
  idsEmpty: () => 'security_ids: must hold at least one SecurityId',
  idsTooMany: (max: number, n: number) => `security_ids: at most ${max} SecurityId per request, got ${n}`,
  expiryTooLate: (field: string) =>
    `${field}: the token would expire after 9999-12-31T23:59:59.999Z, which an ISO 8601 time with a 4-digit year cannot name`,
  badRefreshLifetime: (x: unknown) =>
    `refreshLifetimeMs: must be an integer number of ms >= 1, got ${describeValue(x)}`,
  badNow: (fn: string, x: unknown) => `${fn}: now must be a finite epoch millisecond time, got ${describeValue(x)}`,
  tokenExpired: () => 'access token expired',
  tokenInvalidTime: () => 'access token has no valid valid_to_time',
} as const
