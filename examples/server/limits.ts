// The reference server's limits, in one place (docs/server.md lists them; decisions 0202, 0204 and 0208 say
// why these).
import { availableParallelism } from 'node:os'

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
  /** Deepest nesting of arrays and objects in a JSON request body; deeper is status 3 INVALID_ARGUMENT. */
  maxBodyDepth: number
  /** Worker threads that compute the REST history endpoints (0: on the event loop, as a plain server would). */
  restWorkers: number
  /** History requests waiting for a worker; one more is 503 `unavailable` with `Retry-After`. */
  restQueue: number
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
  maxBodyDepth: 32,
  // one core stays with the event loop
  restWorkers: Math.max(1, Math.min(4, availableParallelism() - 1)),
  restQueue: 256,
})

/** Longest echoed value (JSON characters) an answer repeats from a request, e.g. ListSecurities' `security_id`. */
export const MAX_ECHO_CHARS = 1024

/** Length of a Login throttle window (ms). */
export const LOGIN_WINDOW_MS = 60_000
/** `Retry-After` (s) of a "busy" answer when the heavy queue is full. */
export const BUSY_RETRY_AFTER_S = 1
