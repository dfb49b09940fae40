// The wire contract of the live trade stream, shared by the publisher, the workers and the server's live
// streams: one JetStream stream of trades, subjects partitioned by security, one message a trade with an id
// that makes a publisher's retry a duplicate the stream drops.
//
//   subject   trades.<partition>.<exchange>.<symbol>      (tokens escaped, see subjectToken)
//   msg id    <exchange>:<symbol>:<seq>                     (seq: the trade's position in its source, per security)
//   payload   {"exchange","symbol","seq","time","price","volume","side","session"?}   (JSON, decimals as strings)
//
// A worker that owns partition p consumes `trades.p.>`; a live stream of one security consumes
// `trades.*.<exchange>.<symbol>`.

/** The JetStream stream that holds every trade. */
export const TRADES_STREAM = 'TRADES'
/** First token of every trade subject. */
export const TRADES_SUBJECT_PREFIX = 'trades'
/** Partitions when nothing else is configured. */
export const DEFAULT_PARTITIONS = 16
/** A trade message larger than this is not a trade: refused before parsing. */
export const MAX_TRADE_MESSAGE_BYTES = 4096

const utf8 = new TextEncoder()
/** Refuses bytes that are not UTF-8 (made once: a decoder a message costs more than the JSON parse). */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true })
const lenientUtf8 = new TextDecoder()

/** FNV-1a, 32 bits, over UTF-8 bytes: stable across processes, machines and releases. */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5
  for (const b of utf8.encode(text)) {
    h ^= b
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h >>> 0
}

/** The partition of a security: a stable hash of exchange and symbol modulo `partitions`. */
export function partitionOf(exchange: string, symbol: string, partitions: number): number {
  if (!Number.isInteger(partitions) || partitions < 1)
    throw new RangeError(`partitions: a whole number >= 1, got ${partitions}`)
  return fnv1a32(`${exchange}\u0000${symbol}`) % partitions
}

/**
 * A subject token for any exchange code or symbol: letters, digits, `-` and `_` stay; every other byte
 * (`.`, `*`, `>`, spaces, `~` itself, non-ASCII) becomes `~` and two hex digits, so tokens never split a
 * subject and decode back exactly.
 */
export function subjectToken(text: string): string {
  let out = ''
  for (const b of utf8.encode(text)) {
    const c = String.fromCharCode(b)
    out += /[A-Za-z0-9_-]/.test(c) ? c : `~${b.toString(16).padStart(2, '0')}`
  }
  return out
}

/** Inverse of `subjectToken`. */
export function fromSubjectToken(token: string): string {
  const bytes: number[] = []
  for (let i = 0; i < token.length; i++) {
    if (token[i] === '~') {
      bytes.push(Number.parseInt(token.slice(i + 1, i + 3), 16))
      i += 2
    } else bytes.push(token.charCodeAt(i))
  }
  return lenientUtf8.decode(Uint8Array.from(bytes))
}

/** The subject of one security's trades. */
export function tradeSubject(exchange: string, symbol: string, partitions: number): string {
  return `${TRADES_SUBJECT_PREFIX}.${partitionOf(exchange, symbol, partitions)}.${subjectToken(exchange)}.${subjectToken(symbol)}`
}

/** Filter subject of every trade of one partition (what its owner consumes). */
export const partitionFilter = (partition: number): string => `${TRADES_SUBJECT_PREFIX}.${partition}.>`

/** Filter subject of one security's trades, whatever the partition count. */
export const securityFilter = (exchange: string, symbol: string): string =>
  `${TRADES_SUBJECT_PREFIX}.*.${subjectToken(exchange)}.${subjectToken(symbol)}`

/** The JetStream message id of a trade: a retried publish of the same trade is a duplicate. */
export const tradeMessageId = (exchange: string, symbol: string, seq: number): string => `${exchange}:${symbol}:${seq}`

/** One trade on the wire. Fields are not validated here: the library's aggregators refuse bad records. */
export interface TradeMessage {
  exchange: string
  symbol: string
  /** Position of the trade in its source, per security (0, 1, 2, ...). */
  seq: number
  /** UTC epoch milliseconds. */
  time: number
  price: string
  volume: string
  side: string
  session?: string
}

/** The payload of a trade message. */
export function encodeTrade(m: TradeMessage): Uint8Array {
  return utf8.encode(JSON.stringify(m))
}

/** A payload read back: the envelope (exchange, symbol, seq) checked, the trade's fields passed on as found. */
export type DecodedTrade = { ok: true; message: TradeMessage } | { ok: false; reason: string }

/**
 * Reads a payload. Only what routing needs is checked here (size, JSON, an object, exchange and symbol
 * strings, seq a whole number); time, price, volume, side and session go to the aggregators as they are, which
 * refuse what is not a trade, with the field and the rule.
 */
export function decodeTrade(data: Uint8Array): DecodedTrade {
  if (data.byteLength > MAX_TRADE_MESSAGE_BYTES)
    return { ok: false, reason: `message: ${data.byteLength} bytes, at most ${MAX_TRADE_MESSAGE_BYTES}` }
  let v: unknown
  try {
    v = JSON.parse(strictUtf8.decode(data))
  } catch (e) {
    return { ok: false, reason: `message: not JSON text (${e instanceof Error ? e.message : String(e)})` }
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return { ok: false, reason: 'message: not a JSON object' }
  const o = v as Record<string, unknown>
  if (typeof o.exchange !== 'string' || o.exchange === '')
    return { ok: false, reason: 'exchange: must be a non-empty string' }
  if (typeof o.symbol !== 'string' || o.symbol === '')
    return { ok: false, reason: 'symbol: must be a non-empty string' }
  if (typeof o.seq !== 'number' || !Number.isSafeInteger(o.seq) || o.seq < 0)
    return { ok: false, reason: 'seq: must be a whole number >= 0' }
  return { ok: true, message: o as unknown as TradeMessage }
}

/**
 * Subject of a partition's clock: `trades.<partition>.clock`, three tokens, so no security filter
 * (`trades.*.<exchange>.<symbol>`, four tokens) ever matches it, while the partition's owner (`trades.<p>.>`)
 * reads it in stream order with the trades. A clock message says the source has reached a time: every minute
 * of the partition that ends at or before it is closed (and a later trade for one of them is late).
 */
export const clockSubject = (partition: number): string => `${TRADES_SUBJECT_PREFIX}.${partition}.clock`

/** The payload of a clock message: `{"clock": <UTC epoch ms>}`. */
export function encodeClock(time: number): Uint8Array {
  return utf8.encode(JSON.stringify({ clock: time }))
}

/** A subject read back: a security's trade subject, a partition clock, or neither. */
export type ParsedSubject =
  | { kind: 'trade'; partition: number; exchange: string; symbol: string }
  | { kind: 'clock'; partition: number }
  | { kind: 'other' }

/** Splits a subject of the trade stream into what it names. */
export function parseSubject(subject: string): ParsedSubject {
  const t = subject.split('.')
  if (t[0] !== TRADES_SUBJECT_PREFIX || t[1] === undefined || !/^[0-9]+$/.test(t[1])) return { kind: 'other' }
  const partition = Number(t[1])
  if (t.length === 3 && t[2] === 'clock') return { kind: 'clock', partition }
  if (t.length === 4)
    return { kind: 'trade', partition, exchange: fromSubjectToken(t[2]!), symbol: fromSubjectToken(t[3]!) }
  return { kind: 'other' }
}

/** Reads a clock payload: a whole number of epoch ms, or why not. */
export function decodeClock(data: Uint8Array): { ok: true; time: number } | { ok: false; reason: string } {
  let v: unknown
  try {
    v = JSON.parse(strictUtf8.decode(data))
  } catch {
    return { ok: false, reason: 'clock: not JSON text' }
  }
  const t = typeof v === 'object' && v !== null ? (v as { clock?: unknown }).clock : undefined
  if (typeof t !== 'number' || !Number.isSafeInteger(t)) return { ok: false, reason: 'clock: must be whole epoch ms' }
  return { ok: true, time: t }
}
