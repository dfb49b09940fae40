// The reference server: node:http, both interfaces, an in-memory store. It does I/O only — authentication
// look-ups, the clock, request ids, reading bodies, writing answers — and asks the library for every decision.
import { randomBytes, randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  createRestLedger,
  invalidArgument,
  notFoundError,
  permissionDeniedError,
  toHttpResponse,
  unauthenticatedError,
  unavailableError,
  type ApiError,
  type LinkedSecurity,
  type RestLedger,
} from '../../src/service/index.js'
import { type Candle } from '../../src/index.js'
import { readBody, send, type Answer } from './http.js'
import { handlePartner, PARTNER_OPERATIONS, type PartnerContext, type PartnerOperation } from './partner.js'
import { handleRest, matchRestRoute, REST_PREFIX } from './rest.js'
import { StoreUnavailable, type MarketStore } from './store.js'
import { createTokenSigner } from './tokens.js'

/** An interface B API key: keys of one `account` share one credit ledger; `access: false` is answered 403. */
export interface ApiKeyConfig {
  key: string
  /** Account name (default `default`). */
  account?: string
  /** Whether the key may read data (default true). */
  access?: boolean
}

export interface ServerOptions {
  store: MarketStore
  /** Interface B keys. */
  apiKeys: readonly ApiKeyConfig[]
  /** Interface A api keys; each is its own partner (its links are its own). */
  partnerKeys: readonly string[]
  /** The clock, UTC epoch ms (default `Date.now`). Tests inject one to move time. */
  clock?: () => number
  /** HMAC secret of the JWTs (default 32 random bytes). */
  jwtSecret?: Uint8Array
  /** Refresh token lifetime (library default 30 days). */
  refreshLifetimeMs?: number
  /** Path prefix of interface A operations (default `/partner/`). */
  partnerPrefix?: string
}

export interface RunningServer {
  server: Server
  /** `http://127.0.0.1:PORT` */
  url: string
  port: number
  /** Credit ledgers by account (for inspection). */
  ledgers: ReadonlyMap<string, RestLedger>
  close(): Promise<void>
}

const MAX_BODY = 1 << 20

/** Builds the request handler. */
export function createHandler(opts: ServerOptions): { handle: (req: IncomingMessage, res: ServerResponse) => void; ledgers: Map<string, RestLedger> } {
  const clock = opts.clock ?? Date.now
  const keys = new Map(opts.apiKeys.map((k) => [k.key, { account: k.account ?? 'default', access: k.access ?? true }]))
  const ledgers = new Map<string, RestLedger>()
  for (const k of keys.values()) if (!ledgers.has(k.account)) ledgers.set(k.account, createRestLedger())
  const partnerPrefix = opts.partnerPrefix ?? '/partner/'
  const partnerKeys = new Map(opts.partnerKeys.map((k, i) => [k, `partner-${i + 1}`]))
  const signer = createTokenSigner(opts.jwtSecret ?? new Uint8Array(randomBytes(32)))
  const links = new Map<string, Map<string, LinkedSecurity>>()
  const minuteCandles = new Map<string, Candle[]>()

  function restError(error: ApiError, headers: Record<string, string>): Answer {
    const r = toHttpResponse(error, headers)
    return { status: r.status, headers: r.headers, body: r.body }
  }

  /** Interface B: route -> auth (401/403) -> lock-out (429) -> handler (400, 404, trim, cap, read, price) -> charge. */
  function rest(req: IncomingMessage, url: URL, requestId: string): Answer {
    const base = { 'x-request-id': requestId }
    const route = matchRestRoute(url.pathname.slice(REST_PREFIX.length))
    if (route === undefined) return restError({ ...notFoundError('data'), message: `no endpoint ${url.pathname}` }, base)
    if (route === null) return restError({ status: 400, code: 'invalid_argument', message: 'path: invalid percent-encoding' }, base)
    if (req.method !== 'GET') {
      return restError({ status: 405, code: 'invalid_argument', message: `method ${req.method ?? ''}: use GET` }, { ...base, allow: 'GET' })
    }
    const header = req.headers['x-api-key']
    const key = typeof header === 'string' ? keys.get(header) : undefined
    if (key === undefined) return restError(unauthenticatedError(), base)
    const ledger = ledgers.get(key.account)!
    const now = clock()
    const check = ledger.check(now)
    if (!key.access) return restError(permissionDeniedError(), { ...base, ...rateHeaders(check.headers) })
    if (check.locked) return restError(check.error, { ...base, ...check.headers })
    let result: ReturnType<typeof handleRest>
    try {
      result = handleRest(route, url.searchParams, { store: opts.store, now })
    } catch (e) {
      if (!(e instanceof StoreUnavailable)) throw e
      return restError(unavailableError(503, e.message), { ...base, ...rateHeaders(check.headers) })
    }
    if (!result.ok) return restError(result.error, { ...base, ...rateHeaders(check.headers) })
    const charge = ledger.charge(now, result.price)
    if (!charge.ok) return restError(charge.error, { ...base, ...charge.headers })
    return { status: 200, headers: { ...base, ...rateHeaders(charge.headers) }, body: result.body }
  }

  /** Interface A: POST JSON -> operation -> HTTP 200 with a `status`. */
  async function partner(req: IncomingMessage, url: URL, requestId: string): Promise<Answer> {
    const base = { 'x-request-id': requestId }
    const path = url.pathname.slice(partnerPrefix.length)
    const op: PartnerOperation | undefined = Object.prototype.hasOwnProperty.call(PARTNER_OPERATIONS, path)
      ? PARTNER_OPERATIONS[path as keyof typeof PARTNER_OPERATIONS]
      : undefined
    if (op === undefined) return { status: 404, headers: base, body: { status: { code: 5, message: `no operation ${path}`, details: [] } } }
    if (req.method !== 'POST') return { status: 405, headers: { ...base, allow: 'POST' }, body: { status: invalidArgument('use POST') } }
    const type = req.headers['content-type'] ?? ''
    // the media type (before any parameters), case-insensitive: exactly application/json (not application/json-seq)
    if ((type.split(';')[0] ?? '').trim().toLowerCase() !== 'application/json') {
      return { status: 200, headers: base, body: { status: invalidArgument('Content-Type must be application/json') } }
    }
    const text = await readBody(req, MAX_BODY)
    if (text === undefined) return { status: 200, headers: base, body: { status: invalidArgument(`request body: larger than ${MAX_BODY} bytes`) } }
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return { status: 200, headers: base, body: { status: invalidArgument('request body: not valid JSON') } }
    }
    const tokenHeader = req.headers.accesstoken
    const ctx: PartnerContext = {
      store: opts.store,
      signer,
      partnerKeys,
      links,
      minuteCandles,
      now: clock(),
      ...(opts.refreshLifetimeMs === undefined ? {} : { refreshLifetimeMs: opts.refreshLifetimeMs }),
    }
    const answer = await handlePartner(ctx, op, body, typeof tokenHeader === 'string' ? tokenHeader : undefined)
    return { status: 200, headers: base, body: answer }
  }

  async function route(req: IncomingMessage, requestId: string): Promise<Answer> {
    let url: URL
    try {
      url = new URL(req.url ?? '/', 'http://localhost')
    } catch {
      // a request target URL rejects (e.g. `GET http://[::1/x`): the client's fault, not a 500
      return restError({ status: 400, code: 'invalid_argument', message: 'request target: not a valid URL' }, { 'x-request-id': requestId })
    }
    const isRest = url.pathname === REST_PREFIX || url.pathname.startsWith(`${REST_PREFIX}/`)
    try {
      if (isRest) return rest(req, url, requestId)
      if (url.pathname.startsWith(partnerPrefix)) return await partner(req, url, requestId)
      return restError({ ...notFoundError('data'), message: `no endpoint ${url.pathname}` }, { 'x-request-id': requestId })
    } catch (e) {
      if (e instanceof StoreUnavailable) {
        // interface A answers HTTP 200 with a status: 14 UNAVAILABLE (gRPC's code for a transient failure)
        return isRest
          ? restError(unavailableError(503, e.message), { 'x-request-id': requestId })
          : { status: 200, headers: { 'x-request-id': requestId }, body: { status: { code: 14, message: `UNAVAILABLE: ${e.message}`, details: [] } } }
      }
      console.error(`[${requestId}]`, e)
      return { status: 500, headers: { 'x-request-id': requestId }, body: { error: { code: 'internal', message: 'internal error' } } }
    }
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const requestId = randomUUID()
    route(req, requestId).then(
      (a) => send(res, a),
      (e: unknown) => {
        console.error(`[${requestId}]`, e)
        send(res, { status: 500, headers: { 'x-request-id': requestId }, body: { error: { code: 'internal', message: 'internal error' } } })
      },
    )
  }

  return { handle, ledgers }
}

/** The `x-ratelimit-*` headers only (a check's or charge's headers without `retry-after`). */
function rateHeaders(h: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return {
    'x-ratelimit-limit': h['x-ratelimit-limit'] ?? '',
    'x-ratelimit-remaining': h['x-ratelimit-remaining'] ?? '',
    'x-ratelimit-reset': h['x-ratelimit-reset'] ?? '',
  }
}

/** Starts the server on 127.0.0.1 (port 0 picks a free port). */
export async function startServer(opts: ServerOptions & { port?: number; host?: string }): Promise<RunningServer> {
  const { handle, ledgers } = createHandler(opts)
  const server = createServer(handle)
  server.keepAliveTimeout = 5_000
  const host = opts.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  return {
    server,
    url: `http://${host}:${port}`,
    port,
    ledgers,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()))
        server.closeAllConnections()
      }),
  }
}
