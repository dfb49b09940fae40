import { MarketDataError } from '../errors.js'
import {
  DEFAULT_SERVICE_CONFIG,
  invalidArgumentError,
  rateLimitedError,
  tooManyStreamsError,
  type ApiError,
  type ServiceConfig,
} from '../rules/index.js'
import { valueOrThrow } from '../result.js'
import { ledgerOptions, validateStreamLedgerState } from './ledger-state.js'
import { nextStreamDue } from './next-stream-due.js'
import { CREDIT_MSG } from './messages.js'
import type { LedgerTransition, RateLimitHeaders, StreamKind, StreamLedgerState, StreamRecord } from './ledger-types.js'
import { assertNow, retryAfterSeconds, windowStartOf } from './window.js'

/** Stream credits per window (shared by all keys of an account and all stream kinds). */
export const STREAM_CREDIT_LIMIT = DEFAULT_SERVICE_CONFIG.streamCredits.limit
/** Stream window length in ms: fixed 300 s windows aligned to the Unix epoch; also the renewal period. */
export const STREAM_WINDOW_MS = DEFAULT_SERVICE_CONFIG.streamCredits.windowMs

/** Credits per window of each stream kind. */
export const STREAM_PRICES: Readonly<Record<StreamKind, number>> = DEFAULT_SERVICE_CONFIG.streamCredits.prices
/** Most streams of one kind open (or pending) at once. */
export const STREAM_CAPS: Readonly<Record<StreamKind, number>> = DEFAULT_SERVICE_CONFIG.streamCredits.caps

/** The `error` frame a stream gets when it cannot pay (followed by a normal close). */
export interface StreamErrorFrame {
  type: 'error'
  code: 'rate_limited'
  message: string
}

/** A stream to end: send `frame`, then close the WebSocket with `close.code` (1000, normal closure). */
export interface StreamNotice {
  streamId: string
  kind: StreamKind
  /** The instant the charge failed (the renewal's due time, or the confirm's `now`). */
  at: number
  frame: StreamErrorFrame
  close: { code: 1000; reason: 'rate_limited' }
}

/** Answer to a handshake: accepted (the stream is pending) or a 429 / 400. Headers on every answer. */
export type HandshakeOutcome =
  | { ok: true; streamId: string; headers: RateLimitHeaders; notices: StreamNotice[] }
  | { ok: false; error: ApiError; retryAfter?: number; headers: RateLimitHeaders; notices: StreamNotice[] }

/** Answer to a confirm: charged (the stream is open) or refused (its notice is in `notices` too). */
export type ConfirmOutcome =
  | { ok: true; charged: number; notices: StreamNotice[] }
  | { ok: false; reason: 'rate_limited'; charged: 0; notice: StreamNotice; notices: StreamNotice[] }
  | { ok: false; reason: 'unknown_stream' | 'not_pending'; charged: 0; notices: StreamNotice[] }

/** Answer to a close or an upstream error: whether the stream was known, and the settled notices. */
export interface EndOutcome {
  removed: boolean
  notices: StreamNotice[]
}

/** Answer to a renew: the notices of streams that could not pay. */
export interface RenewOutcome {
  notices: StreamNotice[]
}

interface Mutable {
  cfg: ServiceConfig['streamCredits']
  windowStart: number
  used: number
  clock: number
  nextId: number
  streams: StreamRecord[]
}

const KINDS: readonly StreamKind[] = ['candles', 'footprint', 'orderbook']
const isKind = (k: unknown): k is StreamKind => typeof k === 'string' && (KINDS as readonly string[]).includes(k)

function load(
  state: StreamLedgerState | undefined,
  now: number,
  fn: string,
  config: ServiceConfig,
): { s: Mutable; now: number } {
  assertNow(now, fn)
  const cfg = config.streamCredits
  if (state === undefined || state === null) {
    return {
      s: { cfg, windowStart: windowStartOf(now, cfg.windowMs), used: 0, clock: now, nextId: 1, streams: [] },
      now,
    }
  }
  state = valueOrThrow(validateStreamLedgerState(state, fn, config))
  const s: Mutable = {
    cfg,
    windowStart: state.windowStart,
    used: state.used,
    clock: state.clock,
    nextId: state.nextId,
    streams: state.streams.slice(),
  }
  // The clock never goes back: an earlier `now` is read as the latest one seen.
  return { s, now: now < s.clock ? s.clock : now }
}

function freeze(s: Mutable): StreamLedgerState {
  return { windowStart: s.windowStart, used: s.used, clock: s.clock, nextId: s.nextId, streams: s.streams }
}

function notice(r: StreamRecord, at: number, message: string): StreamNotice {
  return {
    streamId: r.id,
    kind: r.kind,
    at,
    frame: { type: 'error', code: 'rate_limited', message },
    close: { code: 1000, reason: 'rate_limited' },
  }
}

function enterWindow(s: Mutable, time: number): void {
  const w = windowStartOf(time, s.cfg.windowMs)
  if (w > s.windowStart) {
    s.windowStart = w
    s.used = 0
  }
}

/**
 * Settles every renewal due at or before `now`, earliest first; renewals due at the same instant go in
 * open order. Each renewal is charged to the window holding its due time; one that cannot be covered
 * ends its stream with a notice. Then moves to the window of `now`.
 *
 * Exact fast path for long gaps: every stream open at the end of a window paid in it exactly once (its
 * confirm or its one renewal there), so their prices fit in 1,000; with no confirm in between (none
 * happens inside a settlement) every later window charges the same streams in the same order and all pay.
 * So once a settlement leaves a window, the whole windows up to the one holding `now` are skipped by
 * shifting every due time.
 */
function settle(s: Mutable, now: number): StreamNotice[] {
  const notices: StreamNotice[] = []
  for (;;) {
    let pick = -1
    let due = Infinity
    for (let i = 0; i < s.streams.length; i++) {
      const r = s.streams[i]!
      if (r.status === 'open' && r.dueAt! < due) {
        due = r.dueAt!
        pick = i
      }
    }
    if (pick < 0 || due > now) break
    const w = windowStartOf(due, s.cfg.windowMs)
    if (w > s.windowStart) {
      if (w === s.windowStart + s.cfg.windowMs) {
        const skip = windowStartOf(now, s.cfg.windowMs) - w
        if (skip > 0) {
          for (let i = 0; i < s.streams.length; i++) {
            const r = s.streams[i]!
            if (r.status === 'open') s.streams[i] = { ...r, dueAt: r.dueAt! + skip }
          }
          due += skip
          if (due > now) {
            s.windowStart = w + skip
            s.used = 0
            break
          }
        }
      }
      enterWindow(s, due)
    }
    const r = s.streams[pick]!
    const price = s.cfg.prices[r.kind]
    if (s.cfg.limit - s.used >= price) {
      s.used += price
      s.streams[pick] = { ...r, dueAt: due + s.cfg.windowMs }
    } else {
      s.streams.splice(pick, 1)
      notices.push(notice(r, due, CREDIT_MSG.renewRefused(r.kind, price)))
    }
  }
  enterWindow(s, now)
  s.clock = now
  return notices
}

function headers(s: Mutable): RateLimitHeaders {
  return {
    'x-ratelimit-limit': String(s.cfg.limit),
    'x-ratelimit-remaining': String(s.cfg.limit - s.used),
    'x-ratelimit-reset': String((s.windowStart + s.cfg.windowMs) / 1000),
  }
}

/**
 * Pure: a WebSocket handshake for a stream of `kind` at `now`. First settles what is due. Over the kind's
 * cap (pending handshakes count) -> 429 `too_many_streams` without Retry-After (the cap answers even when
 * credits fail too); the window's remaining credits below the price -> 429 `rate_limited` with Retry-After;
 * else the stream is pending (nothing charged until {@link streamConfirm}). Every answer carries
 * `x-ratelimit-limit` 1000, `remaining` before any charge and `reset` = the window end. An unknown kind is a
 * 400 `invalid_argument`. `id` is the caller's stream id (default `s<n>`).
 *
 * @param state - the stored state, or `undefined` for an account or connection never seen
 * @param now - the current time, epoch milliseconds (the library never reads the clock)
 * @param kind - the stream kind
 * @param id - the id to read (optional)
 * @param config - a `ServiceConfig` (optional)
 * @returns the `LedgerTransition<StreamLedgerState, HandshakeOutcome>`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * const r = streamHandshake(undefined, Date.UTC(2026, 5, 1), 'footprint')
 * r.outcome.ok // true; r.outcome.headers['x-ratelimit-remaining'] === '1000'
 */
export function streamHandshake(
  state: StreamLedgerState | undefined,
  now: number,
  kind: StreamKind,
  id?: string,
  config: ServiceConfig = DEFAULT_SERVICE_CONFIG,
): LedgerTransition<StreamLedgerState, HandshakeOutcome> {
  const l = load(state, now, 'streamHandshake', config)
  const s = l.s
  const notices = settle(s, l.now)
  const h = headers(s)
  if (!isKind(kind)) {
    return {
      state: freeze(s),
      outcome: { ok: false, error: invalidArgumentError(CREDIT_MSG.badKind(kind), 'kind'), headers: h, notices },
    }
  }
  let count = 0
  for (const r of s.streams) if (r.kind === kind) count++
  if (count >= s.cfg.caps[kind]) {
    const error = tooManyStreamsError(kind, s.cfg.caps[kind])
    return { state: freeze(s), outcome: { ok: false, error, headers: h, notices } }
  }
  const price = s.cfg.prices[kind]
  const remaining = s.cfg.limit - s.used
  if (remaining < price) {
    const retryAfter = retryAfterSeconds(s.windowStart + s.cfg.windowMs, l.now)
    h['retry-after'] = String(retryAfter)
    const error: ApiError = {
      ...rateLimitedError(retryAfter),
      message: CREDIT_MSG.streamLimited(kind, price, remaining, retryAfter),
    }
    return { state: freeze(s), outcome: { ok: false, error, retryAfter, headers: h, notices } }
  }
  let streamId = id
  if (streamId === undefined) {
    do streamId = `s${s.nextId++}`
    while (s.streams.some((r) => r.id === streamId))
  } else if (s.streams.some((r) => r.id === streamId)) {
    throw new MarketDataError('invalid_option', CREDIT_MSG.duplicateId(streamId), { field: 'id' })
  }
  s.streams.push({ id: streamId, kind, status: 'pending', openedAt: l.now })
  return { state: freeze(s), outcome: { ok: true, streamId, headers: h, notices } }
}

/**
 * Pure: upstream confirmed the subscription of a pending stream: its price is charged to the window of
 * `now` and its renewal falls due 300 s later. If the window can no longer cover the price, the stream
 * ends (a `rate_limited` notice, also in `notices`) and costs nothing.
 *
 * @param state - the stored state, or `undefined` for an account or connection never seen
 * @param now - the current time, epoch milliseconds (the library never reads the clock)
 * @param id - the id to read
 * @param config - a `ServiceConfig` (optional)
 * @returns the `LedgerTransition<StreamLedgerState, ConfirmOutcome>`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * const h = streamHandshake(undefined, 0, 'candles')
 * const c = streamConfirm(h.state, 1000, 's1')
 * c.outcome.ok // true; c.outcome.charged === 10
 */
export function streamConfirm(
  state: StreamLedgerState | undefined,
  now: number,
  id: string,
  config: ServiceConfig = DEFAULT_SERVICE_CONFIG,
): LedgerTransition<StreamLedgerState, ConfirmOutcome> {
  const l = load(state, now, 'streamConfirm', config)
  const s = l.s
  const notices = settle(s, l.now)
  const i = s.streams.findIndex((r) => r.id === id)
  if (i < 0) return { state: freeze(s), outcome: { ok: false, reason: 'unknown_stream', charged: 0, notices } }
  const r = s.streams[i]!
  if (r.status !== 'pending')
    return { state: freeze(s), outcome: { ok: false, reason: 'not_pending', charged: 0, notices } }
  const price = s.cfg.prices[r.kind]
  if (s.cfg.limit - s.used < price) {
    s.streams.splice(i, 1)
    const n = notice(r, l.now, CREDIT_MSG.confirmRefused(r.kind, price))
    notices.push(n)
    return { state: freeze(s), outcome: { ok: false, reason: 'rate_limited', charged: 0, notice: n, notices } }
  }
  s.used += price
  s.streams[i] = { ...r, status: 'open', dueAt: l.now + s.cfg.windowMs }
  return { state: freeze(s), outcome: { ok: true, charged: price, notices } }
}

function end(
  state: StreamLedgerState | undefined,
  now: number,
  id: string,
  fn: string,
  config: ServiceConfig,
): LedgerTransition<StreamLedgerState, EndOutcome> {
  const l = load(state, now, fn, config)
  const s = l.s
  const notices = settle(s, l.now)
  const i = s.streams.findIndex((r) => r.id === id)
  if (i >= 0) s.streams.splice(i, 1)
  return { state: freeze(s), outcome: { removed: i >= 0, notices } }
}

/**
 * Pure: the client or the server closed a stream (pending or open); its slot is freed. Charges already
 * taken stay taken. Closing an unknown (e.g. already ended) stream changes nothing.
 *
 * @param state - the stored state, or `undefined` for an account or connection never seen
 * @param now - the current time, epoch milliseconds (the library never reads the clock)
 * @param id - the id to read
 * @param config - a `ServiceConfig` (optional)
 * @returns the `LedgerTransition<StreamLedgerState, EndOutcome>`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * const r = streamHandshake(undefined, 0, 'orderbook')
 * streamClose(r.state, 5, 's1').outcome.removed // true
 */
export function streamClose(
  state: StreamLedgerState | undefined,
  now: number,
  id: string,
  config: ServiceConfig = DEFAULT_SERVICE_CONFIG,
): LedgerTransition<StreamLedgerState, EndOutcome> {
  return end(state, now, id, 'streamClose', config)
}

/**
 * Pure: a terminal upstream error ended a stream. Before its confirm it costs nothing (nothing was
 * charged); after, its charges stay. Either way its slot is freed.
 *
 * @param state - the stored state, or `undefined` for an account or connection never seen
 * @param now - the current time, epoch milliseconds (the library never reads the clock)
 * @param id - the id to read
 * @param config - a `ServiceConfig` (optional)
 * @returns the `LedgerTransition<StreamLedgerState, EndOutcome>`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * const r = streamHandshake(undefined, 0, 'footprint')
 * streamUpstreamError(r.state, 5, 's1').state.used // 0
 */
export function streamUpstreamError(
  state: StreamLedgerState | undefined,
  now: number,
  id: string,
  config: ServiceConfig = DEFAULT_SERVICE_CONFIG,
): LedgerTransition<StreamLedgerState, EndOutcome> {
  return end(state, now, id, 'streamUpstreamError', config)
}

/**
 * Pure: settles every renewal due at or before `now` (call it at {@link nextStreamDue}, or any time).
 * Streams that cannot pay come back as notices: send the `error` frame, then a normal close.
 *
 * @param state - the stored state, or `undefined` for an account or connection never seen
 * @param now - the current time, epoch milliseconds (the library never reads the clock)
 * @param config - a `ServiceConfig` (optional)
 * @returns the `LedgerTransition<StreamLedgerState, RenewOutcome>`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * let st = streamConfirm(streamHandshake(undefined, 0, 'candles').state, 0, 's1').state
 * st = streamRenew(st, 300_000).state // charged 10 again in the window [300 s, 600 s)
 */
export function streamRenew(
  state: StreamLedgerState | undefined,
  now: number,
  config: ServiceConfig = DEFAULT_SERVICE_CONFIG,
): LedgerTransition<StreamLedgerState, RenewOutcome> {
  const l = load(state, now, 'streamRenew', config)
  const notices = settle(l.s, l.now)
  return { state: freeze(l.s), outcome: { notices } }
}

/** An in-memory stream ledger for one account (a thin wrapper over the pure transitions). */
export interface StreamLedger {
  /** A client asks for a stream: see {@link streamHandshake}. */
  handshake(now: number, kind: StreamKind, id?: string): HandshakeOutcome
  /** Upstream confirmed the stream: it is charged (see {@link streamConfirm}). */
  confirm(now: number, id: string): ConfirmOutcome
  /** Settles the renewals due at or before `now` (see {@link streamRenew}). */
  renew(now: number): RenewOutcome
  /** The client closed the stream (see {@link streamClose}). */
  close(now: number, id: string): EndOutcome
  /** Upstream ended the stream with an error (see {@link streamUpstreamError}). */
  upstreamError(now: number, id: string): EndOutcome
  /** When renew should run next, or undefined. */
  nextDue(): number | undefined
  /** The serializable state (undefined before the first call). */
  state(): StreamLedgerState | undefined
}

/**
 * Creates an in-memory WebSocket credit ledger for one account, optionally from a stored state (checked field
 * by field: windows, clock, ids, kinds, due times and caps as the transitions keep them).
 *
 * @param opts - `state`: a state stored earlier (`ledger.state()`), or none for a fresh account.
 * @returns The ledger.
 * @throws {MarketDataError} `invalid_option` naming the field (`state.streams[0].kind`) when the stored state is not a valid one.
 * @example
 * const ledger = createStreamLedger()
 * const h = ledger.handshake(0, 'footprint')      // pending; remaining header '1000'
 * if (h.ok) ledger.confirm(2_000, h.streamId)     // charged 25
 * ledger.renew(302_000).notices                   // [] (charged 25 again)
 */
export function createStreamLedger(opts: { state?: StreamLedgerState; config?: ServiceConfig } = {}): StreamLedger {
  const { config, state } = ledgerOptions(opts, 'createStreamLedger', validateStreamLedgerState)
  let s = state
  const run = <O>(t: LedgerTransition<StreamLedgerState, O>): O => {
    s = t.state
    return t.outcome
  }
  return {
    handshake: (now, kind, id) => run(streamHandshake(s, now, kind, id, config)),
    confirm: (now, id) => run(streamConfirm(s, now, id, config)),
    renew: (now) => run(streamRenew(s, now, config)),
    close: (now, id) => run(streamClose(s, now, id, config)),
    upstreamError: (now, id) => run(streamUpstreamError(s, now, id, config)),
    nextDue: () => nextStreamDue(s),
    state: () => s,
  }
}
