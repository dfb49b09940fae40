// The live stream protocol on the wire (asyncapi.json describes the same): one stream a connection, chosen by
// the upgrade path (`.../stream/candles`, `.../stream/footprint`) and the client's first message,
// `subscribe`; then JSON text frames from the server. Every refusal is an `error` frame with a stable code,
// then a close with a documented close code.
import { parseHistoryQuery, type ApiErrorCode } from '../../../src/service/index.js'
import type { Timeframe } from '../../../src/index.js'
import { REST_PREFIX } from '../rest.js'

/** Upgrade path of a stream of `kind`. */
export const STREAM_PATH = `${REST_PREFIX}/stream`
/** The stream kinds this server serves (the ledger also prices `orderbook`; there is no order book data here). */
export const SERVED_KINDS = ['candles', 'footprint'] as const
export type ServedKind = (typeof SERVED_KINDS)[number]
/** The subprotocol the server speaks; browsers (which cannot set `x-api-key`) also offer `x-api-key.<KEY>`. */
export const SUBPROTOCOL = 'svc-marketdata.v1'
export const KEY_PROTOCOL_PREFIX = 'x-api-key.'

/** Close codes (RFC 6455 and this protocol's 4000). */
export const CLOSE = {
  /** The stream ended normally: a renewal or confirm that could not be paid (after an `error` frame `rate_limited`), or the client closed. */
  normal: 1000,
  /** The server is shutting down. */
  goingAway: 1001,
  /** A binary frame: the protocol is JSON text. */
  unsupportedData: 1003,
  /** A client message that is not part of the protocol, or a subscription refused (after an `error` frame). */
  policy: 1008,
  /** A client message larger than `maxMessageBytes` (after an `error` frame `too_much_data`). */
  tooBig: 1009,
  /** Upstream (the live feed) or the server's state failed (after an `error` frame `unavailable`). */
  internal: 1011,
  /** The client did not read its frames: its send buffer passed the bound. No `error` frame (it could not be read). */
  slowConsumer: 4000,
} as const

/** Error frame codes: the interface B codes plus nothing else. */
export interface ErrorFrame {
  type: 'error'
  code: ApiErrorCode
  message: string
}

/** A valid `subscribe` message, resolved. */
export interface Subscription {
  kind: ServedKind
  exchange: string
  symbol: string
  timeframe: Timeframe
  /** Footprint: row height in ticks (1..1000, default 1). */
  rowSize?: number
}

const FIELDS: Readonly<Record<ServedKind, readonly string[]>> = {
  candles: ['type', 'exchange', 'symbol', 'timeframe'],
  footprint: ['type', 'exchange', 'symbol', 'timeframe', 'rowSize'],
}

/** A client message read: a subscription, a ping, or the error to answer (then close with `close`). */
export type ClientMessage =
  | { type: 'subscribe'; subscription: Subscription }
  | { type: 'ping'; id?: string | number }
  | { type: 'invalid'; error: ErrorFrame; close: number }

const invalid = (message: string, code: ApiErrorCode = 'invalid_argument', close: number = CLOSE.policy) =>
  ({ type: 'invalid', error: { type: 'error', code, message }, close }) as const

/**
 * Reads one client frame: text only, at most `maxBytes` bytes of UTF-8 JSON, an object with a known `type` and
 * only the fields of that type. `subscribe` is checked with the library's interface B rules (`timeframe`,
 * `rowSize` as the history endpoints take them); tick frames are not streamed. Never throws.
 */
export function readClientMessage(
  data: Buffer | ArrayBuffer | Buffer[],
  isBinary: boolean,
  kind: ServedKind,
  maxBytes: number,
  now: number,
): ClientMessage {
  if (isBinary)
    return invalid(
      'frame: binary frames are not part of the protocol (send JSON text)',
      'invalid_argument',
      CLOSE.unsupportedData,
    )
  const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer)
  if (buf.byteLength > maxBytes)
    return invalid(`frame: ${buf.byteLength} bytes, at most ${maxBytes}`, 'too_much_data', CLOSE.tooBig)
  let v: unknown
  try {
    v = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(buf))
  } catch {
    return invalid('frame: not UTF-8 JSON text')
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return invalid('frame: must be a JSON object')
  const o = v as Record<string, unknown>
  if (o.type === 'ping') {
    for (const k of Object.keys(o))
      if (k !== 'type' && k !== 'id') return invalid(`ping: unknown field ${JSON.stringify(k)} (fields: type, id)`)
    if (o.id !== undefined && typeof o.id !== 'string' && typeof o.id !== 'number')
      return invalid('ping: id must be a string or a number')
    return o.id === undefined ? { type: 'ping' } : { type: 'ping', id: o.id as string | number }
  }
  if (o.type !== 'subscribe')
    return invalid(`type: must be subscribe or ping, got ${JSON.stringify(o.type ?? null).slice(0, 40)}`)
  const allowed = FIELDS[kind]
  for (const k of Object.keys(o))
    if (!allowed.includes(k))
      return invalid(
        `subscribe: unknown field ${JSON.stringify(k).slice(0, 60)} for a ${kind} stream (fields: ${allowed.join(', ')})`,
      )
  const query: Record<string, string> = {}
  for (const k of ['exchange', 'symbol', 'timeframe'] as const) {
    if (typeof o[k] !== 'string') return invalid(`${k}: required, a string`)
    query[k] = o[k] as string
  }
  if (o.rowSize !== undefined) {
    if (typeof o.rowSize !== 'number' && typeof o.rowSize !== 'string')
      return invalid('rowSize: must be an integer 1..1000')
    query.rowSize = String(o.rowSize)
  }
  const parsed = parseHistoryQuery(kind, query, { now })
  if (!parsed.ok) return invalid(parsed.error.message, parsed.error.code)
  const q = parsed.value
  if (q.timeframe.unit === 'TICK') return invalid('timeframe: tick frames are not streamed (use a time frame, e.g. 1m)')
  const subscription: Subscription = { kind, exchange: q.exchange, symbol: q.symbol, timeframe: q.timeframe }
  if (q.endpoint === 'footprint') subscription.rowSize = q.rowSize ?? 1
  return { type: 'subscribe', subscription }
}
