// The live streams of the reference server: WebSocket upgrades under the interface B base path, one stream a
// connection. The upgrade is the credit handshake (401 / 403 / 404 / 429 as HTTP answers with the
// `x-ratelimit-*` headers); the first message subscribes; upstream's confirm charges the stream, and the
// `subscribed` frame that tells the charge goes out only after the ledger state is committed.
import { randomUUID } from 'node:crypto'
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import {
  notFoundError,
  permissionDeniedError,
  toHttpResponse,
  unauthenticatedError,
  type ApiError,
} from '../../../src/service/index.js'
import { rawAnswer } from '../http.js'
import type { ApiKeyConfig } from '../server.js'
import type { StateStore } from '../state.js'
import type { MarketStore } from '../store.js'
import { createStreamHub, type StreamHub } from './hub.js'
import type { LiveFeed } from './live-feed.js'
import { KEY_PROTOCOL_PREFIX, SERVED_KINDS, STREAM_PATH, SUBPROTOCOL, type ServedKind } from './protocol.js'
import { DEFAULT_STREAM_LIMITS, type StreamLimits } from './limits.js'
import { loadStreamCredits, type StreamCredits } from './stream-credits.js'

export type { StreamLimits } from './limits.js'

export interface StreamServerOptions {
  store: MarketStore
  feed: LiveFeed
  apiKeys: readonly ApiKeyConfig[]
  /** The server's state store (the same one `startServer` got): stream ledgers are written through it. */
  state: StateStore
  /** UTC epoch ms (default `Date.now`); tests pin it and call `settle()` after moving it. */
  clock?: () => number
  limits?: Partial<StreamLimits>
}

export interface StreamServer {
  /** Settles what is due at the clock's time: renewals (paid ones get `charged`, the others `rate_limited`), bucket closes. */
  settle(): Promise<void>
  credits: StreamCredits
  hub: StreamHub
  /** Ends every stream (1001), stops the feed's subscriptions. */
  close(): Promise<void>
}

/** The stream kind of an upgrade path, `orderbook` (priced, not served here), or undefined. */
function kindOf(pathname: string): ServedKind | 'orderbook' | undefined {
  if (!pathname.startsWith(`${STREAM_PATH}/`)) return undefined
  const k = pathname.slice(STREAM_PATH.length + 1)
  return k === 'orderbook' || (SERVED_KINDS as readonly string[]).includes(k)
    ? (k as ServedKind | 'orderbook')
    : undefined
}

/** The API key of an upgrade: `x-api-key`, or a `x-api-key.<KEY>` subprotocol (browsers cannot set headers). */
function apiKeyOf(req: IncomingMessage): string | undefined {
  const h = req.headers['x-api-key']
  if (typeof h === 'string') return h
  for (const p of (req.headers['sec-websocket-protocol'] ?? '').split(',')) {
    const t = p.trim()
    if (t.startsWith(KEY_PROTOCOL_PREFIX)) return t.slice(KEY_PROTOCOL_PREFIX.length)
  }
  return undefined
}

function refuse(socket: Duplex, error: ApiError, headers: Record<string, string>): void {
  const r = toHttpResponse(error, { ...headers, 'x-request-id': randomUUID() })
  const { 'content-type': _type, ...rest } = r.headers
  if (socket.writable) socket.end(rawAnswer(r.status, STATUS_CODES[r.status] ?? 'Error', rest, r.body))
  else socket.destroy()
}

/** Serves the live streams on `server`'s upgrades. */
export async function attachStreams(server: Server, opts: StreamServerOptions): Promise<StreamServer> {
  const clock = opts.clock ?? Date.now
  const limits: StreamLimits = { ...DEFAULT_STREAM_LIMITS, ...opts.limits }
  const credits = await loadStreamCredits(opts.state, clock())
  const keys = new Map(opts.apiKeys.map((k) => [k.key, { account: k.account ?? 'default', access: k.access ?? true }]))
  const wss = new WebSocketServer({
    noServer: true,
    // frames past our own bound (up to this) get an `error` frame; past this, ws closes with 1009 itself
    maxPayload: Math.max(limits.maxMessageBytes * 16, 64 * 1024),
    perMessageDeflate: false,
    handleProtocols: (offered) => (offered.has(SUBPROTOCOL) ? SUBPROTOCOL : false),
  })
  const hub = createStreamHub({ store: opts.store, feed: opts.feed, credits, clock, limits })

  /** The account and kind of an upgrade, or the HTTP refusal (checked in the service's order: 404, 401, 403). */
  const admit = (req: IncomingMessage): { error: ApiError } | { account: string; kind: ServedKind } => {
    let url: URL
    try {
      url = new URL(req.url ?? '/', 'http://localhost')
    } catch {
      return { error: { status: 400, code: 'invalid_argument', message: 'request target: not a valid URL' } }
    }
    const kind = kindOf(url.pathname)
    if (kind === undefined)
      return { error: { ...notFoundError('data'), message: `no stream endpoint ${url.pathname}` } }
    const key = keys.get(apiKeyOf(req) ?? '')
    if (key === undefined) return { error: unauthenticatedError() }
    if (!key.access) return { error: permissionDeniedError() }
    if (kind === 'orderbook')
      return { error: { ...notFoundError('data'), message: 'orderbook: this server has no order book data' } }
    if ([...url.searchParams.keys()].length > 0) {
      const message = 'the stream is chosen by the subscribe message: no query parameters'
      return { error: { status: 400, code: 'invalid_argument', message } }
    }
    return { account: key.account, kind }
  }

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy())
    const a = admit(req)
    if ('error' in a) {
      refuse(socket, a.error, {})
      return
    }
    const { kind } = a
    const key = { account: a.account }
    const account = credits.account(key.account)
    account.handshake(clock(), kind).then(
      async (h) => {
        await hub.deliver(key.account, h.notices)
        if (!h.ok) return refuse(socket, h.error, h.headers as Record<string, string>)
        const streamId = h.streamId
        if (!socket.writable) {
          await account.close(clock(), streamId)
          return
        }
        const headers = Object.entries(h.headers).map(([k, v]) => `${k}: ${v}`)
        const addHeaders = (hs: string[]): void => void hs.push(...headers)
        // ws emits `headers` and calls back in this same turn (no async verifyClient)
        let upgraded = false
        wss.once('headers', addHeaders)
        wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
          upgraded = true
          hub.accept(ws, key.account, kind, streamId)
        })
        wss.off('headers', addHeaders)
        if (!upgraded) await account.close(clock(), streamId)
      },
      (e: unknown) => {
        console.error('[streams] handshake:', e)
        refuse(
          socket,
          { status: 503, code: 'unavailable', message: 'the server could not save its state; try again' },
          {},
        )
      },
    )
  }
  server.on('upgrade', onUpgrade)
  return {
    settle: () => hub.settle(),
    credits,
    hub,
    async close() {
      server.off('upgrade', onUpgrade)
      await hub.close()
      wss.close()
    },
  }
}
