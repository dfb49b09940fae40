// The plain-JSON states the credit ledgers keep and the shapes their transitions answer: apart from the
// ledgers, so that the ledgers and their state validators read them without importing each other.

/**
 * The whole REST credit state of one account: plain JSON (numbers and a boolean), so a server can keep
 * it in Redis or a database and apply {@link restCharge} atomically (a Lua script, a transaction).
 * `undefined` stands for an account that has never been charged.
 */
export interface RestLedgerState {
  /** Start of the window the counters belong to (epoch ms, a multiple of 60,000). */
  readonly windowStart: number
  /** Credits charged in that window. */
  readonly used: number
  /** A request of that window could not be covered: every request is 429 until the window ends. */
  readonly locked: boolean
}

/** The `x-ratelimit-*` headers (and `retry-after` on a 429), values as strings ready to write. */
export type RateLimitHeaders = {
  'x-ratelimit-limit': string
  'x-ratelimit-remaining': string
  /** The window end, Unix seconds. */
  'x-ratelimit-reset': string
  'retry-after'?: string
}

/** A pure transition: the state to store and what to answer. */
export interface LedgerTransition<S, O> {
  state: S
  outcome: O
}

/** Live stream kinds. */
export type StreamKind = 'candles' | 'footprint' | 'orderbook'

/** One stream the ledger knows: pending (handshake accepted, upstream not confirmed yet) or open (charged). */
export interface StreamRecord {
  readonly id: string
  readonly kind: StreamKind
  readonly status: 'pending' | 'open'
  /** When the handshake was accepted (epoch ms). */
  readonly openedAt: number
  /** Open streams: when the next renewal is due (last charge + 300 s). */
  readonly dueAt?: number
}

/**
 * The whole stream credit state of one account: plain JSON, so a server can store it and apply the pure
 * transitions ({@link streamHandshake}, ...) atomically. `streams` is in open (handshake) order.
 * `undefined` stands for an account without history.
 */
export interface StreamLedgerState {
  readonly windowStart: number
  readonly used: number
  /** The latest `now` seen: everything due at or before it is settled. */
  readonly clock: number
  /** Counter for ledger-assigned stream ids (`s1`, `s2`, ...). */
  readonly nextId: number
  readonly streams: readonly StreamRecord[]
}
