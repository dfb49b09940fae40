// The stream server's bounds and their defaults (read by the server and by each connection's hub).

/** Bounds of the stream server. */
export interface StreamLimits {
  /** A connection whose unsent frames pass this many bytes is closed with 4000 (default 1 MiB). */
  maxBufferedBytes: number
  /** Largest client message (default 4096 bytes); larger ones get `too_much_data` and a 1009 close. */
  maxMessageBytes: number
  /** A connection that has not subscribed after this long is closed (default 10 s); it costs nothing. */
  subscribeTimeoutMs: number
  /** A slow consumer's close handshake waits this long before the socket is cut (default 2 s). */
  closeGraceMs: number
  /** Buckets close by the clock this long after their end (trades may arrive that late; default 2 s). */
  lateMs: number
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  maxBufferedBytes: 1 << 20,
  maxMessageBytes: 4096,
  subscribeTimeoutMs: 10_000,
  closeGraceMs: 2000,
  lateMs: 2000,
}
