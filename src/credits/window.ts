import { MarketDataError } from '../errors.js'
import { floorDiv } from '../decimal/index.js'
import { CREDIT_MSG } from './messages.js'

/** Start (epoch ms) of the fixed window of length `windowMs`, aligned to the Unix epoch, that holds `time`. */
export function windowStartOf(time: number, windowMs: number): number {
  return floorDiv(time, windowMs) * windowMs
}

/** `Retry-After` in whole seconds: ceil((reset - now) / 1 s), at least 1. */
export function retryAfterSeconds(resetMs: number, now: number): number {
  const s = Math.ceil((resetMs - now) / 1000)
  return s < 1 ? 1 : s
}

/** Throws unless `now` is a finite number of epoch milliseconds (a caller error, not user input). */
export function assertNow(now: number, fn: string): void {
  if (typeof now !== 'number' || !Number.isFinite(now))
    throw new MarketDataError('invalid_time', CREDIT_MSG.badNow(fn, now), { field: 'now' })
}
