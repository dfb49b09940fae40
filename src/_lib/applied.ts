import { MarketDataError } from '../errors.js'

/**
 * Marks an error thrown by an aggregator's batch call with how many records of the call were applied
 * (see {@link MarketDataError.applied}); returns it to be rethrown. Other errors pass unchanged.
 */
export function withApplied(e: unknown, applied: number): unknown {
  if (e instanceof MarketDataError && e.applied === undefined) e.applied = Math.max(0, applied)
  return e
}

/** The records applied before the refused one, from the error's record index and the call's first index. */
export function appliedBefore(e: unknown, first: number): number {
  return e instanceof MarketDataError && e.index !== undefined ? e.index - first : 0
}
