/**
 * The outcome of a validator: validators never throw on bad input, they return a `Result`.
 *
 * @example
 * const r = parseTimeframe('15m')
 * if (r.ok) console.log(r.value.count) // 15
 * else console.log(r.error.message)
 */
export type Result<T, E> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E }

/**
 * The one shape of a validator's error object: a code and a message naming the field and the rule. Each of the
 * three error types has it and is chosen by who reads the answer: `MarketDataError` (records, options and
 * stored states given to the library), `ApiError` (interface B: an HTTP status beside the code), `Status`
 * (interface A: a numeric code and details). The low-level readers whose reason another message quotes
 * (`parseDecimal`, `floorToGrid`, `parseRfc3339`, `parseUnixSeconds`, `parseIsoDuration`) answer that reason
 * as a plain string. Internal: not exported (the public signatures name the concrete types).
 */
export type ResultError = { readonly code: string | number; readonly message: string }

/**
 * Wraps a value as a successful {@link Result}.
 *
 * @param value - the value to wrap
 * @returns the `{ readonly ok: true; readonly value: T }`
 * @throws never: bad input is answered, not thrown
 * @example ok(1) // { ok: true, value: 1 }
 */
export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value }
}

/**
 * The value of a successful {@link Result}; the error of a failed one is thrown. For callers that throw where
 * a validator answers (a ledger constructor refusing a corrupt stored state). Internal: not exported.
 *
 * @param result - a validator's answer
 * @returns the value
 * @throws the result's error when it failed
 * @example valueOrThrow(ok(1)) // 1
 */
export function valueOrThrow<T, E>(result: Result<T, E>): T {
  if (!result.ok) throw result.error
  return result.value
}

/**
 * Wraps an error as a failed {@link Result}.
 *
 * @param error - the error to wrap
 * @returns the `{ readonly ok: false; readonly error: E }`
 * @throws never: bad input is answered, not thrown
 * @example err('bad') // { ok: false, error: 'bad' }
 */
export function err<E>(error: E): { readonly ok: false; readonly error: E } {
  return { ok: false, error }
}
