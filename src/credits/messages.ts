import { describeValue } from '../_lib/describe.js'

/** Error messages of the credits folder: each names the function or parameter and the rule. */
export const CREDIT_MSG = {
  badNow: (fn: string, now: unknown) => `${fn}: now must be a finite epoch millisecond time, got ${describeValue(now)}`,
  badCredits: (credits: unknown) => `charge: credits must be an integer >= 0, got ${describeValue(credits)}`,
  restUncovered: (price: number, remaining: number, retryAfter: number) =>
    `rate_limited: this request costs ${price} credits and ${remaining} of the account's 100000 credits of this 60 s window remain; every request is refused until the reset; retry after ${retryAfter} s`,
  restLocked: (retryAfter: number) =>
    `rate_limited: the account is locked out until this 60 s window resets (a request could not be covered); retry after ${retryAfter} s`,
  streamLimited: (kind: string, price: number, remaining: number, retryAfter: number) =>
    `rate_limited: a ${kind} stream needs ${price} credits and ${remaining} of the account's 1000 credits of this 300 s window remain; retry after ${retryAfter} s`,
  badKind: (kind: unknown) => `kind: must be one of candles, footprint, orderbook, got ${describeValue(kind)}`,
  duplicateId: (id: string) => `handshake: stream id ${JSON.stringify(id)} is already in use`,
  renewRefused: (kind: string, price: number) =>
    `rate_limited: the ${kind} stream's renewal of ${price} credits cannot be covered by this 300 s window's remaining credits`,
  confirmRefused: (kind: string, price: number) =>
    `rate_limited: the ${kind} stream's ${price} credits can no longer be covered by this 300 s window's remaining credits`,
} as const
