import { MarketDataError } from '../errors.js'
import { formatIso, LAST_ISO_MS, parseRfc3339 } from '../time/index.js'
import { PARTNER_MSG } from './messages.js'
import { statusOk, unauthenticated, type Status } from './status.js'
import { checkOptions } from '../_lib/closed-options.js'

/** Access token lifetime: 30 minutes. */
export const ACCESS_TOKEN_LIFETIME_MS = 30 * 60_000
/** Default refresh token lifetime (a setting): 30 days. */
export const DEFAULT_REFRESH_TOKEN_LIFETIME_MS = 30 * 86_400_000

/** Expiry times of a Login answer (ISO 8601 UTC, `Date#toISOString`); the caller adds the signed `token`s. */
export interface TokenValidity {
  access_token: { valid_to_time: string }
  refresh_token: { valid_to_time: string }
}

/** Expiry of a Refresh answer: only `access_token` (the refresh token is not renewed). */
export interface AccessTokenValidity {
  access_token: { valid_to_time: string }
}

function assertNow(now: number, fn: string): void {
  if (typeof now !== 'number' || !Number.isFinite(now))
    throw new MarketDataError('invalid_time', PARTNER_MSG.badNow(fn, now), { field: 'now' })
}

/**
 * Token expiry times for a Login at `now`: access token `now + 30 min`, refresh token `now +
 * refreshLifetimeMs` (default 30 days).
 *
 * @param now - the current time, epoch milliseconds (the library never reads the clock)
 * @param opts - options (see the type) (optional)
 * @returns the `TokenValidity`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * tokenValidity(Date.UTC(2026, 5, 1, 12))
 * // { access_token: { valid_to_time: '2026-06-01T12:30:00.000Z' }, refresh_token: { valid_to_time: '2026-07-01T12:00:00.000Z' } }
 */
export function tokenValidity(now: number, opts: { refreshLifetimeMs?: number } = {}): TokenValidity {
  assertNow(now, 'tokenValidity')
  checkOptions(opts, ['refreshLifetimeMs'], 'tokenValidity')
  const life = opts.refreshLifetimeMs ?? DEFAULT_REFRESH_TOKEN_LIFETIME_MS
  if (typeof life !== 'number' || !Number.isSafeInteger(life) || life < 1) {
    throw new MarketDataError('invalid_option', PARTNER_MSG.badRefreshLifetime(life), { field: 'refreshLifetimeMs' })
  }
  return {
    access_token: { valid_to_time: expiryIso(now + ACCESS_TOKEN_LIFETIME_MS, 'now') },
    refresh_token: { valid_to_time: expiryIso(now + life, 'refreshLifetimeMs') },
  }
}

/** An expiry as ISO 8601 UTC; an expiry past year 9999 (which `checkAccessToken` could not read back) throws. */
function expiryIso(t: number, field: string): string {
  if (!(t <= LAST_ISO_MS)) throw new MarketDataError('invalid_option', PARTNER_MSG.expiryTooLate(field), { field })
  return formatIso(t)
}

/**
 * Expiry of the new access token a Refresh at `now` returns: `now + 30 min`. The Refresh answer carries
 * only `access_token`.
 *
 * @param now - the current time, epoch milliseconds (the library never reads the clock)
 * @returns the `AccessTokenValidity`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example accessTokenValidity(Date.UTC(2026, 5, 1, 12)) // { access_token: { valid_to_time: '2026-06-01T12:30:00.000Z' } }
 */
export function accessTokenValidity(now: number): AccessTokenValidity {
  assertNow(now, 'accessTokenValidity')
  return { access_token: { valid_to_time: expiryIso(now + ACCESS_TOKEN_LIFETIME_MS, 'now') } }
}

/**
 * Checks an access token's expiry at `now`: Status 0 while `now < validTo`, 16 UNAUTHENTICATED from
 * `valid_to_time` on (the token expires when the time reaches it) or when `validTo` is not a valid time.
 * `validTo` is the token's `valid_to_time` (RFC 3339 / ISO 8601 with `Z` or an offset) or epoch ms (a
 * JWT `exp` times 1000).
 *
 * @param validTo - the token's `valid_to_time` (ISO string) or epoch ms
 * @param now - the current time, epoch milliseconds (the library never reads the clock)
 * @returns the `Status`
 * @throws never: bad input is answered, not thrown
 * @example checkAccessToken('2026-06-01T12:30:00.000Z', Date.UTC(2026, 5, 1, 12, 30)).code // 16
 */
export function checkAccessToken(validTo: string | number, now: number): Status {
  assertNow(now, 'checkAccessToken')
  let t: number
  if (typeof validTo === 'number') {
    if (!Number.isFinite(validTo)) return unauthenticated(PARTNER_MSG.tokenInvalidTime())
    t = validTo
  } else {
    const p = typeof validTo === 'string' ? parseRfc3339(validTo) : undefined
    if (p === undefined || !p.ok) return unauthenticated(PARTNER_MSG.tokenInvalidTime())
    t = p.value
  }
  return now < t ? statusOk() : unauthenticated(PARTNER_MSG.tokenExpired())
}
