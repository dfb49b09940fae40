// The reference server's limits, in one place (docs/server.md lists them; decision 0202 says why these).

/** Limits of one server; every field can be set through `ServerOptions.limits`. */
export interface ServerLimits {
  /** Heavy jobs (partner ListCandles) computing at once. */
  heavyConcurrency: number
  /** Heavy jobs waiting for a slot; one more is answered "busy" with `Retry-After`. */
  heavyQueue: number
  /** Links one partner may hold; LinkSecurity of a new GUID beyond it is RESOURCE_EXHAUSTED. */
  maxLinksPerPartner: number
  /** Login attempts per api key (or per client address for unknown keys) per 60 s window. */
  loginsPerWindow: number
  /** Largest request body (bytes); larger is refused with 413 from `Content-Length` or while streaming. */
  maxBodyBytes: number
  /** Open connections; more are closed at once by Node (`server.maxConnections`). */
  maxConnections: number
  /** Time to receive a request's headers (ms). */
  headersTimeoutMs: number
  /** Time to receive a whole request, body included (ms). */
  requestTimeoutMs: number
  /** Idle time a kept-alive connection waits for its next request (ms). */
  keepAliveTimeoutMs: number
  /** Largest request header section (bytes); larger is 431. */
  maxHeaderBytes: number
}

export const DEFAULT_LIMITS: Readonly<ServerLimits> = Object.freeze({
  heavyConcurrency: 1,
  heavyQueue: 64,
  maxLinksPerPartner: 1000,
  loginsPerWindow: 30,
  maxBodyBytes: 1 << 20,
  maxConnections: 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxHeaderBytes: 16 * 1024,
})

/** Length of a Login throttle window (ms). */
export const LOGIN_WINDOW_MS = 60_000
/** `Retry-After` (s) of a "busy" answer when the heavy queue is full. */
export const BUSY_RETRY_AFTER_S = 1
