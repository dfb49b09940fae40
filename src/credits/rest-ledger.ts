import { MarketDataError } from '../errors.js'
import { DEFAULT_SERVICE_CONFIG, rateLimitedError, type ApiError, type ServiceConfig } from '../rules/index.js'
import { valueOrThrow } from '../result.js'
import { ledgerOptions, validateRestLedgerState } from './ledger-state.js'
import type { LedgerTransition, RateLimitHeaders, RestLedgerState } from './ledger-types.js'
import { CREDIT_MSG } from './messages.js'
import { assertNow, retryAfterSeconds, windowStartOf } from './window.js'

/** REST credits per window (all API keys of one account share them). */
export const REST_CREDIT_LIMIT = DEFAULT_SERVICE_CONFIG.restCredits.limit
/** REST window length in ms: fixed 60 s windows aligned to the Unix epoch. */
export const REST_WINDOW_MS = DEFAULT_SERVICE_CONFIG.restCredits.windowMs

/** What {@link restCheck} answers: whether the account is locked out, and the headers as they stand. */
export type RestCheckOutcome =
  | { locked: false; remaining: number; reset: number; headers: RateLimitHeaders }
  | { locked: true; remaining: number; reset: number; headers: RateLimitHeaders; retryAfter: number; error: ApiError }

/** What {@link restCharge} answers: charged (headers include the price in `remaining`) or a 429. */
export type RestChargeOutcome =
  | { ok: true; charged: number; remaining: number; reset: number; headers: RateLimitHeaders }
  | {
      ok: false
      charged: 0
      remaining: number
      reset: number
      headers: RateLimitHeaders
      retryAfter: number
      error: ApiError
    }

type Credits = ServiceConfig['restCredits']

/** The state as it stands at `now`: a later window starts fresh; a clock that steps back stays in the stored window. */
function current(
  state: RestLedgerState | undefined,
  now: number,
  fn: string,
  cfg: Credits,
): { state: RestLedgerState; now: number } {
  assertNow(now, fn)
  const w = windowStartOf(now, cfg.windowMs)
  if (state === undefined || state === null) return { state: { windowStart: w, used: 0, locked: false }, now }
  state = valueOrThrow(validateRestLedgerState(state, fn, { ...DEFAULT_SERVICE_CONFIG, restCredits: cfg }))
  if (w > state.windowStart) return { state: { windowStart: w, used: 0, locked: false }, now }
  // The clock never goes back: a `now` before the stored window is read as that window's start, so credits
  // of a window are never handed out twice.
  return { state, now: now < state.windowStart ? state.windowStart : now }
}

function headers(remaining: number, resetMs: number, cfg: Credits): RateLimitHeaders {
  return {
    'x-ratelimit-limit': String(cfg.limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(resetMs / 1000),
  }
}

function limited(
  state: RestLedgerState,
  now: number,
  cfg: Credits,
  price?: number,
): { remaining: number; reset: number; headers: RateLimitHeaders; retryAfter: number; error: ApiError } {
  const resetMs = state.windowStart + cfg.windowMs
  const remaining = cfg.limit - state.used
  const retryAfter = retryAfterSeconds(resetMs, now)
  const h = headers(remaining, resetMs, cfg)
  h['retry-after'] = String(retryAfter)
  return {
    remaining,
    reset: resetMs / 1000,
    headers: h,
    retryAfter,
    error: {
      ...rateLimitedError(retryAfter),
      message:
        price === undefined
          ? CREDIT_MSG.restLocked(retryAfter)
          : CREDIT_MSG.restUncovered(price, remaining, retryAfter),
    },
  }
}

/**
 * Pure: reads an account's REST credits at `now` without charging — the lock-out check a server makes
 * before parsing a request (the order: auth -> 429 when locked -> 400 -> 404 -> cap -> read -> charge).
 *
 * @param state - the stored state, or `undefined` for an account or connection never seen
 * @param now - the current time, epoch milliseconds (the library never reads the clock)
 * @param config - a `ServiceConfig` (optional)
 * @returns the `LedgerTransition<RestLedgerState, RestCheckOutcome>`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * const { outcome } = restCheck(undefined, Date.UTC(2026, 5, 1))
 * outcome.locked // false; outcome.headers['x-ratelimit-remaining'] === '100000'
 */
export function restCheck(
  state: RestLedgerState | undefined,
  now: number,
  config: ServiceConfig = DEFAULT_SERVICE_CONFIG,
): LedgerTransition<RestLedgerState, RestCheckOutcome> {
  const cfg = config.restCredits
  const c = current(state, now, 'restCheck', cfg)
  const s = c.state
  if (s.locked) return { state: s, outcome: { locked: true, ...limited(s, c.now, cfg) } }
  const resetMs = s.windowStart + cfg.windowMs
  const remaining = cfg.limit - s.used
  return {
    state: s,
    outcome: { locked: false, remaining, reset: resetMs / 1000, headers: headers(remaining, resetMs, cfg) },
  }
}

/**
 * Pure: charges `credits` (the price of a 200, from `priceOf`) to an account's REST window at `now`.
 * When the remaining credits cannot cover it — or the account is already locked out — the answer is 429
 * `rate_limited` with `Retry-After` (seconds to the window end, at least 1), nothing is charged, and the
 * account stays locked out until the window ends. `remaining` in the headers includes this price.
 * A charge of 0 (an unbilled outcome) changes nothing.
 *
 * @param state - the stored state, or `undefined` for an account or connection never seen
 * @param now - the current time, epoch milliseconds (the library never reads the clock)
 * @param credits - the price to charge, from `priceOf`
 * @param config - a `ServiceConfig` (optional)
 * @returns the `LedgerTransition<RestLedgerState, RestChargeOutcome>`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * let state: RestLedgerState | undefined
 * const r = restCharge(state, Date.UTC(2026, 5, 1, 0, 0, 30), 1000)
 * state = r.state // store it
 * r.outcome.ok // true; r.outcome.headers['x-ratelimit-remaining'] === '99000'
 */
export function restCharge(
  state: RestLedgerState | undefined,
  now: number,
  credits: number,
  config: ServiceConfig = DEFAULT_SERVICE_CONFIG,
): LedgerTransition<RestLedgerState, RestChargeOutcome> {
  const cfg = config.restCredits
  if (typeof credits !== 'number' || !Number.isSafeInteger(credits) || credits < 0) {
    throw new MarketDataError('invalid_option', CREDIT_MSG.badCredits(credits), { field: 'credits' })
  }
  const c = current(state, now, 'restCharge', cfg)
  const s = c.state
  if (s.locked) return { state: s, outcome: { ok: false, charged: 0, ...limited(s, c.now, cfg) } }
  if (cfg.limit - s.used < credits) {
    const locked: RestLedgerState = { windowStart: s.windowStart, used: s.used, locked: true }
    return { state: locked, outcome: { ok: false, charged: 0, ...limited(locked, c.now, cfg, credits) } }
  }
  const next: RestLedgerState =
    credits === 0 ? s : { windowStart: s.windowStart, used: s.used + credits, locked: false }
  const resetMs = next.windowStart + cfg.windowMs
  const remaining = cfg.limit - next.used
  return {
    state: next,
    outcome: {
      ok: true,
      charged: credits,
      remaining,
      reset: resetMs / 1000,
      headers: headers(remaining, resetMs, cfg),
    },
  }
}

/** An in-memory REST ledger for one account (a thin wrapper over {@link restCheck} / {@link restCharge}). */
export interface RestLedger {
  /** The lock-out check; charges nothing. */
  check(now: number): RestCheckOutcome
  /** Charges a billed response's price, or answers 429. */
  charge(now: number, credits: number): RestChargeOutcome
  /** A copy of the serializable state (undefined before the first call). */
  state(): RestLedgerState | undefined
}

/**
 * Creates an in-memory REST credit ledger for one account, optionally from a stored state (checked field by
 * field: aligned window start, used within the limit, a boolean locked, no other field).
 *
 * @param opts - `state`: a state stored earlier (`ledger.state()`), or none for a fresh account.
 * @returns The ledger.
 * @throws {MarketDataError} `invalid_option` naming the field (`state.used`) when the stored state is not a valid one.
 * @example
 * const ledger = createRestLedger()
 * const t = Date.UTC(2026, 5, 1, 12, 0, 10)
 * ledger.check(t).locked // false
 * ledger.charge(t, 1000).headers // { 'x-ratelimit-limit': '100000', 'x-ratelimit-remaining': '99000', 'x-ratelimit-reset': '1780315260' }
 */
export function createRestLedger(opts: { state?: RestLedgerState; config?: ServiceConfig } = {}): RestLedger {
  const { config, state } = ledgerOptions(opts, 'createRestLedger', validateRestLedgerState)
  let s = state
  return {
    check(now) {
      const r = restCheck(s, now, config)
      s = r.state
      return r.outcome
    },
    charge(now, credits) {
      const r = restCharge(s, now, credits, config)
      s = r.state
      return r.outcome
    },
    state: () => (s === undefined ? undefined : { ...s }),
  }
}
