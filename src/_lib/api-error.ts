import { textOf } from './describe.js'

/** Stable interface B error codes (`error.code` of the JSON body). */
export type ApiErrorCode =
  | 'invalid_argument'
  | 'too_much_data'
  | 'unauthenticated'
  | 'permission_denied'
  | 'not_found'
  | 'rate_limited'
  | 'too_many_streams'
  | 'unavailable'

// every code once: `satisfies` fails to compile when a code of the union is missing or unknown
const CODES = {
  invalid_argument: true,
  too_much_data: true,
  unauthenticated: true,
  permission_denied: true,
  not_found: true,
  rate_limited: true,
  too_many_streams: true,
  unavailable: true,
} as const satisfies Record<ApiErrorCode, true>

/** Every {@link ApiErrorCode}, in the order of their HTTP statuses (400 ... 503). */
export const API_ERROR_CODES: readonly ApiErrorCode[] = Object.keys(CODES) as ApiErrorCode[]

/**
 * An interface B error: the HTTP status, the stable `code`, a message for people; 429 `rate_limited`
 * carries `retryAfter` (whole seconds, >= 1). `parameter` names the query parameter a 400
 * `invalid_argument` is about (it is not sent on the wire; the message names it too).
 */
export interface ApiError {
  status: number
  code: ApiErrorCode
  message: string
  retryAfter?: number
  parameter?: string
}

/** What {@link notFoundError} is about; each has the service's message (`exchange not found`, ...). */
export type NotFoundKind = 'exchange' | 'security' | 'data'

/** The HTTP answer of an {@link ApiError}: status, headers and the service's JSON body `{error: {code, message}}`. */
export interface ApiErrorResponse {
  status: number
  headers: Record<string, string>
  body: { error: { code: ApiErrorCode; message: string } }
}

/**
 * 400 `invalid_argument`, naming the parameter and the rule. When `parameter` is given it is kept on the
 * error (not sent on the wire) so callers and tests can tell which parameter was rejected.
 *
 * @param message - the message
 * @param parameter - the query parameter the error names (optional)
 * @returns the `ApiError`
 * @throws never: bad input is answered, not thrown
 * @example
 * invalidArgumentError('limit: must be an integer 1..10000', 'limit')
 * // { status: 400, code: 'invalid_argument', message: 'limit: must be an integer 1..10000', parameter: 'limit' }
 */
export function invalidArgumentError(message: string, parameter?: string): ApiError {
  const text = textOf(message)
  return typeof parameter !== 'string'
    ? { status: 400, code: 'invalid_argument', message: text }
    : { status: 400, code: 'invalid_argument', message: text, parameter }
}

/**
 * 400 `too_much_data`: the resolved range holds more slots than the per-request cap. The message names the
 * cap in digits. Nothing is billed and retrying the same request does not help.
 *
 * @param cap - the cap that was passed
 * @param what - what the cap counts
 * @returns the `ApiError`
 * @throws never: bad input is answered, not thrown
 * @example
 * tooMuchDataError(1000, 'footprint profiles').message
 * // 'too much data: the range holds more than 1000 footprint profiles, the cap per request is 1000; narrow from/to or period'
 */
export function tooMuchDataError(cap: number, what: string): ApiError {
  return {
    status: 400,
    code: 'too_much_data',
    message: `too much data: the range holds more than ${textOf(cap)} ${textOf(what)}, the cap per request is ${textOf(cap)}; narrow from/to or period`,
  }
}

/**
 * 401 `unauthenticated`: missing or invalid API key.
 *
 * @param message - the message (optional)
 * @returns the `ApiError`
 * @throws never: bad input is answered, not thrown
 * @example unauthenticatedError().status // 401
 */
export function unauthenticatedError(message = 'missing or invalid API key (header x-api-key)'): ApiError {
  return { status: 401, code: 'unauthenticated', message: textOf(message) }
}

/**
 * 403 `permission_denied`: the key has no access to this data.
 *
 * @param message - the message (optional)
 * @returns the `ApiError`
 * @throws never: bad input is answered, not thrown
 * @example permissionDeniedError().status // 403
 */
export function permissionDeniedError(message = 'the API key has no access to this data'): ApiError {
  return { status: 403, code: 'permission_denied', message: textOf(message) }
}

/**
 * 404 `not_found` with the service's messages: `exchange not found` (unknown exchange code), `security not found`
 * (symbol not listed on that exchange), `data not found` (the security has no data of that kind at all; an
 * empty range of existing data is a 200, not a 404).
 *
 * @param kind - the stream kind
 * @returns the `ApiError`
 * @throws never: bad input is answered, not thrown
 * @example
 * notFoundError('security') // { status: 404, code: 'not_found', message: 'security not found' }
 */
export function notFoundError(kind: NotFoundKind): ApiError {
  const message =
    kind === 'exchange' ? 'exchange not found' : kind === 'security' ? 'security not found' : 'data not found'
  return { status: 404, code: 'not_found', message }
}

/**
 * 429 `rate_limited`: the credit quota of the window is spent; `retryAfter` is the number of whole seconds
 * until the window resets (rounded up, at least 1; a non-finite input gives 1).
 *
 * @param retryAfterSeconds - seconds until the window resets
 * @returns the `ApiError`
 * @throws never: bad input is answered, not thrown
 * @example
 * rateLimitedError(12.2) // { status: 429, code: 'rate_limited', message: 'credit quota exhausted; retry after 13 s', retryAfter: 13 }
 */
export function rateLimitedError(retryAfterSeconds: number): ApiError {
  const retryAfter = Number.isFinite(retryAfterSeconds) ? Math.max(1, Math.ceil(retryAfterSeconds)) : 1
  return {
    status: 429,
    code: 'rate_limited',
    message: `credit quota exhausted; retry after ${retryAfter} s`,
    retryAfter,
  }
}

/**
 * 429 `too_many_streams`: a WebSocket handshake over the per-kind cap of open streams (no `Retry-After`).
 *
 * @param kind - the stream kind
 * @param max - the cap of that kind
 * @returns the `ApiError`
 * @throws never: bad input is answered, not thrown
 * @example
 * tooManyStreamsError('orderbook', 20).message // 'too many open orderbook streams: at most 20 at once'
 */
export function tooManyStreamsError(kind: string, max: number): ApiError {
  return {
    status: 429,
    code: 'too_many_streams',
    message: `too many open ${textOf(kind)} streams: at most ${textOf(max)} at once`,
  }
}

/**
 * 502 / 503 / 504 `unavailable`: a temporary upstream problem; retry later.
 *
 * @param status - the HTTP status (optional)
 * @param message - the message (optional)
 * @returns the `ApiError`
 * @throws never: bad input is answered, not thrown
 * @example
 * unavailableError(504) // { status: 504, code: 'unavailable', message: 'upstream timed out; retry later' }
 */
export function unavailableError(status: 502 | 503 | 504 = 503, message?: string): ApiError {
  // a status other than 502 / 504 is 503; a message that is not a string gives the status's own
  const code = status === 502 || status === 504 ? status : 503
  const text =
    typeof message === 'string'
      ? message
      : code === 502
        ? 'bad upstream response; retry later'
        : code === 504
          ? 'upstream timed out; retry later'
          : 'service temporarily unavailable; retry later'
  return { status: code, code: 'unavailable', message: text }
}

/**
 * Turns an {@link ApiError} into its HTTP answer: the status, the caller's headers (e.g. `x-request-id`,
 * `x-ratelimit-*`) plus `content-type`, `retry-after` on a 429 that carries `retryAfter`, and the service's body
 * `{error: {code, message}}`. Header names it adds are lower case; a caller header of the same name (any case)
 * is replaced. Never mutates its inputs.
 *
 * @param error - the error to wrap
 * @param headers - headers to send with it (optional)
 * @returns the `ApiErrorResponse`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * toHttpResponse(rateLimitedError(30), { 'x-request-id': 'r1' })
 * // { status: 429, headers: { 'x-request-id': 'r1', 'content-type': 'application/json; charset=utf-8', 'retry-after': '30' },
 * //   body: { error: { code: 'rate_limited', message: 'credit quota exhausted; retry after 30 s' } } }
 */
export function toHttpResponse(error: ApiError, headers?: Readonly<Record<string, string | number>>): ApiErrorResponse {
  const out: Record<string, string> = {}
  const retryAfter =
    error.status === 429 && error.retryAfter !== undefined && Number.isFinite(error.retryAfter)
      ? String(Math.max(1, Math.ceil(error.retryAfter)))
      : undefined
  if (headers !== undefined) {
    for (const name of Object.keys(headers)) {
      const lower = name.toLowerCase()
      if (lower === 'content-type' || (retryAfter !== undefined && lower === 'retry-after')) continue
      const value = headers[name]
      if (value !== undefined) defineHeader(out, name, String(value))
    }
  }
  defineHeader(out, 'content-type', 'application/json; charset=utf-8')
  if (retryAfter !== undefined) defineHeader(out, 'retry-after', retryAfter)
  return { status: error.status, headers: out, body: { error: { code: error.code, message: error.message } } }
}

// Header names come from the caller; define them as own data properties so `__proto__` stays a plain key.
function defineHeader(target: Record<string, string>, name: string, value: string): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true })
}
