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
