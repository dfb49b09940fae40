// The reference server: node:http, both interfaces, an in-memory store. It does I/O only — authentication
// look-ups, the clock, request ids, reading bodies, writing answers — and asks the library for every decision.
import { createHash, randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import {
  createRestLedger,
  invalidArgument,
  notFoundError,
  permissionDeniedError,
  toHttpResponse,
  unauthenticatedError,
  unavailableError,
  type ApiError,
  type RestLedger,
  type RestLedgerState,
} from '../../src/service/index.js'
import type { Candle } from '../../src/index.js'
import { ClientAborted, declaredTooLarge, INTERNAL_ERROR_BODY, readBody, send, type Answer } from './http.js'
import { answerClientError, answerConnect, missingHost } from './http-edges.js'
import { parseJsonBody } from './json-body.js'
import { requestScope } from './process-guard.js'
import { handlePartner, PARTNER_OPERATIONS, type PartnerContext, type PartnerOperation } from './partner.js'
import { createReferencePages } from './reference.js'
import { matchRestRoute, REST_PREFIX, type RestResult } from './rest.js'
import { answerRest, HISTORY_ENDPOINTS } from './rest-answer.js'
import { createRestPool, type RestPool } from './rest-pool.js'
import { isPlainStore, StoreUnavailable, type MarketStore } from './store.js'
import { isViewerPath, serveViewer } from './viewer/serve.js'
import { BUSY_RETRY_AFTER_S, DEFAULT_LIMITS, LOGIN_WINDOW_MS, type ServerLimits } from './limits.js'
import { memoryState, type StateStore } from './state.js'
import { RESTORE_HINT, StateDamaged } from './state-schema.js'
import { createTokenSigner, newSigningKey } from './tokens.js'
import { createWindowCounter } from './window-counter.js'
import { createWorkQueue } from './work-queue.js'

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
  /** Where ledgers, links and signing keys live (default: in memory, lost on exit). */
  state?: StateStore
  /** Make a new signing key at start even when one is stored (older keys keep verifying their tokens). */
  rotateSigningKey?: boolean
  /** Refresh token lifetime (library default 30 days). */
  refreshLifetimeMs?: number
  /** Path prefix of interface A operations (default `/partner/`). */
  partnerPrefix?: string
  /** The viewer page at `/` calls the REST endpoints with this interface B key; without it there is no page. */
  viewerKey?: string
  /** Limits (defaults: DEFAULT_LIMITS in limits.ts). */
  limits?: Partial<ServerLimits>
  /** More routes, tried after the built-in ones (REST, partner) and before the 404. */
  routes?: readonly Route[]
}

export interface RunningServer {
  server: Server
  /** `http://127.0.0.1:PORT` */
  url: string
  port: number
  /** Credit ledgers by account (for inspection). */
  ledgers: ReadonlyMap<string, RestLedger>
  /** The REST worker pool, when history endpoints run in worker threads (for inspection). */
  restPool: RestPool | undefined
  /** Closes the server, then the state. */
  close(): Promise<void>
}

/** What a route's handler gets besides the request. */
export interface RequestContext {
  url: URL
  requestId: string
  /** `{ 'x-request-id': ... }`: the headers every answer carries. */
  base: Record<string, string>
}

/**
 * One entry of the routing table: the first route whose `match` accepts the path answers. The body of an
 * answer to HEAD is never written, so a route that serves GET should accept HEAD as GET (and list both in the
 * `allow` header of its 405). A body that is not JSON: `new RawBody(text)` with its own `content-type`.
 */
export interface Route {
  name: string
  match(pathname: string): boolean
  handle(req: IncomingMessage, ctx: RequestContext): Promise<Answer>
}

/** The stable partner id of an interface A api key (links are stored under it, tokens carry it). */
export const partnerIdOf = (apiKey: string): string =>
  `partner-${createHash('sha256').update(apiKey).digest('hex').slice(0, 16)}`

/** Builds the request handler over the state's stored contents (read once; every change is written through). */
export async function createHandler(opts: ServerOptions): Promise<{
  handle: (req: IncomingMessage, res: ServerResponse) => void
  /** The REST worker pool (undefined: history endpoints run on the event loop). */
  restPool: RestPool | undefined
  /** Stops what the handler started (the REST worker threads). */
  dispose: () => Promise<void>
  ledgers: Map<string, RestLedger>
  routes: Route[]
  limits: ServerLimits
}> {
  const clock = opts.clock ?? Date.now
  const limits: ServerLimits = { ...DEFAULT_LIMITS, ...opts.limits }
  const heavy = createWorkQueue({ concurrency: limits.heavyConcurrency, maxQueued: limits.heavyQueue })
  // history endpoints in worker threads; a store that is not plain columns (a wrapper) is served on the loop
  const pool =
    limits.restWorkers > 0 && isPlainStore(opts.store)
      ? createRestPool(opts.store, { size: limits.restWorkers, maxQueued: limits.restQueue })
      : undefined
  const logins = createWindowCounter(LOGIN_WINDOW_MS, limits.loginsPerWindow)
  const state = opts.state ?? memoryState()
  const snap = await state.load()
  const keys = new Map(opts.apiKeys.map((k) => [k.key, { account: k.account ?? 'default', access: k.access ?? true }]))
  const ledgers = new Map<string, RestLedger>()
  for (const k of keys.values()) {
    if (!ledgers.has(k.account)) {
      const stored = snap.rest.get(k.account)
      ledgers.set(k.account, createRestLedger(stored === undefined ? {} : { state: stored }))
    }
  }
  const partnerPrefix = opts.partnerPrefix ?? '/partner/'
  const partnerKeys = new Map(opts.partnerKeys.map((k) => [k, partnerIdOf(k)]))
  const signingKeys = snap.keys.slice()
  if (signingKeys.length === 0 && snap.initialised === true && opts.rotateSigningKey !== true) {
    // the first start stores a key before it listens: none in a store made before means they were lost
    throw new StateDamaged(
      `${state.where}: table signing_keys is empty, but this store was initialised before: every token issued is gone with the keys; ${RESTORE_HINT} (or start with --rotate-signing-key to go on with a new key, every issued token refused)`,
    )
  }
  if (signingKeys.length === 0 || opts.rotateSigningKey === true) {
    const key = newSigningKey(Math.max(clock(), ...signingKeys.map((k) => k.createdAt + 1)))
    await state.addKey(key)
    signingKeys.push(key)
  }
  const signer = createTokenSigner(signingKeys)
  const links = snap.links
  const minuteCandles = new Map<string, Promise<Candle[]>>()

  function restError(error: ApiError, headers: Record<string, string>): Answer {
    const r = toHttpResponse(error, headers)
    return { status: r.status, headers: r.headers, body: r.body }
  }

  /** A state write: when it fails the answer is 503 / status 14 (the in-memory change stays: over-count, never under-count). */
  async function durable(write: Promise<void>): Promise<void> {
    try {
      await write
    } catch (e) {
      console.error('state write failed:', e)
      throw new StoreUnavailable('the server could not save its state; try again')
    }
  }

  /** Commits a ledger's state when it changed since `before` (a lock-out, a charge), before the answer goes out. */
  async function saveLedger(account: string, ledger: RestLedger, before: RestLedgerState | undefined): Promise<void> {
    const after = ledger.state()
    if (
      after === undefined ||
      (before !== undefined &&
        before.windowStart === after.windowStart &&
        before.used === after.used &&
        before.locked === after.locked)
    )
      return
    await durable(state.saveRest(account, after))
  }

  /** Interface B: route -> auth (401/403) -> lock-out (429) -> handler (400, 404, trim, cap, read, price) -> charge. */
  async function rest(req: IncomingMessage, { url, base }: RequestContext): Promise<Answer> {
    const route = matchRestRoute(url.pathname.slice(REST_PREFIX.length))
    if (route === undefined)
      return restError({ ...notFoundError('data'), message: `no endpoint ${url.pathname}` }, base)
    if (route === null)
      return restError({ status: 400, code: 'invalid_argument', message: 'path: invalid percent-encoding' }, base)
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return restError(
        { status: 405, code: 'invalid_argument', message: `method ${req.method ?? ''}: use GET` },
        { ...base, allow: 'GET, HEAD' },
      )
    }
    const header = req.headers['x-api-key']
    const key = typeof header === 'string' ? keys.get(header) : undefined
    if (key === undefined) return restError(unauthenticatedError(), base)
    const ledger = ledgers.get(key.account)!
    const now = clock()
    const check = ledger.check(now)
    if (!key.access) return restError(permissionDeniedError(), { ...base, ...rateHeaders(check.headers) })
    if (check.locked) return restError(check.error, { ...base, ...check.headers })
    let result: RestResult
    try {
      const pooled = pool !== undefined && HISTORY_ENDPOINTS.has(route.endpoint)
      const job = pooled
        ? pool.run(route, url.search, now)
        : Promise.resolve(answerRest(route, url.searchParams, { store: opts.store, now }))
      if (job === undefined) {
        const message = `the server is busy with ${limits.restQueue} history requests waiting; retry after ${BUSY_RETRY_AFTER_S} s`
        return restError(unavailableError(503, message), {
          ...base,
          ...rateHeaders(check.headers),
          'retry-after': String(BUSY_RETRY_AFTER_S),
        })
      }
      result = await job
    } catch (e) {
      if (!(e instanceof StoreUnavailable)) throw e
      return restError(unavailableError(503, e.message), { ...base, ...rateHeaders(check.headers) })
    }
    if (!result.ok) return restError(result.error, { ...base, ...rateHeaders(check.headers) })
    const before = ledger.state()
    const charge = ledger.charge(now, result.price)
    await saveLedger(key.account, ledger, before)
    if (!charge.ok) return restError(charge.error, { ...base, ...charge.headers })
    return { status: 200, headers: { ...base, ...rateHeaders(charge.headers) }, body: result.body }
  }

  /** Interface A: POST JSON -> operation -> HTTP 200 with a `status`. */
  async function partner(req: IncomingMessage, { url, base }: RequestContext): Promise<Answer> {
    const path = url.pathname.slice(partnerPrefix.length)
    const op: PartnerOperation | undefined = Object.hasOwn(PARTNER_OPERATIONS, path)
      ? PARTNER_OPERATIONS[path]
      : undefined
    if (op === undefined)
      return { status: 404, headers: base, body: { status: { code: 5, message: `no operation ${path}`, details: [] } } }
    if (req.method !== 'POST')
      return { status: 405, headers: { ...base, allow: 'POST' }, body: { status: invalidArgument('use POST') } }
    const type = req.headers['content-type'] ?? ''
    // the media type (before any parameters), case-insensitive: exactly application/json (not application/json-seq)
    if ((type.split(';')[0] ?? '').trim().toLowerCase() !== 'application/json') {
      return { status: 200, headers: base, body: { status: invalidArgument('Content-Type must be application/json') } }
    }
    // over the cap: 413 from Content-Length before reading, or as soon as the streamed body passes it; the
    // connection is closed after the answer (the rest of the body is never read)
    const tooLarge: Answer = {
      status: 413,
      headers: { ...base, connection: 'close' },
      body: { status: invalidArgument(`request body: larger than ${limits.maxBodyBytes} bytes`) },
    }
    if (declaredTooLarge(req, limits.maxBodyBytes)) return tooLarge
    const text = await readBody(req, limits.maxBodyBytes)
    if (text === undefined) return tooLarge
    const parsed = parseJsonBody(text, limits.maxBodyDepth)
    if (!parsed.ok) return { status: 200, headers: base, body: { status: invalidArgument(parsed.message) } }
    const body = parsed.value
    const tokenHeader = req.headers.accesstoken
    const now = clock()
    let wait = 0
    const ctx: PartnerContext = {
      store: opts.store,
      signer,
      partnerKeys,
      links,
      maxLinks: limits.maxLinksPerPartner,
      loginThrottle: (who) => (wait = logins.hit(who, now)),
      client: req.socket.remoteAddress ?? '',
      saveLink: (p, guid, link) => durable(state.saveLink(p, guid, link)),
      minuteCandles,
      now,
      ...(opts.refreshLifetimeMs === undefined ? {} : { refreshLifetimeMs: opts.refreshLifetimeMs }),
    }
    const token = typeof tokenHeader === 'string' ? tokenHeader : undefined
    const job = (): Promise<unknown> => handlePartner(ctx, op, body, token)
    // ListCandles is the heavy operation: it waits for a slot of the bounded queue, or is told to come back
    const answer = op === 'ListCandles' ? heavy.run(job) : job()
    if (answer === undefined) {
      const message = `UNAVAILABLE: the server is busy with ${limits.heavyQueue} ListCandles requests waiting; retry after ${BUSY_RETRY_AFTER_S} s`
      return {
        status: 200,
        headers: { ...base, 'retry-after': String(BUSY_RETRY_AFTER_S) },
        body: { status: { code: 14, message, details: [] }, candles: [] },
      }
    }
    const out = await answer
    return { status: 200, headers: wait > 0 ? { ...base, 'retry-after': String(wait) } : base, body: out }
  }

  // The routing table, tried in order: the built-in interfaces, then `opts.routes` (a new page or document).
  const routes: Route[] = [
    { name: 'rest', match: (p) => p === REST_PREFIX || p.startsWith(`${REST_PREFIX}/`), handle: rest },
    { name: 'partner', match: (p) => p.startsWith(partnerPrefix), handle: partner },
    ...(opts.routes ?? []),
  ]

  /** The answer of a request, or undefined when the client went away before it was read (nobody to answer). */
  async function route(req: IncomingMessage, requestId: string): Promise<Answer | undefined> {
    const base = { 'x-request-id': requestId }
    let url: URL
    try {
      url = new URL(req.url ?? '/', 'http://localhost')
    } catch {
      // a request target URL rejects (e.g. `GET http://[::1/x`): the client's fault, not a 500
      return restError({ status: 400, code: 'invalid_argument', message: 'request target: not a valid URL' }, base)
    }
    const hit = routes.find((r) => r.match(url.pathname))
    try {
      if (hit !== undefined) return await hit.handle(req, { url, requestId, base })
      return restError({ ...notFoundError('data'), message: `no endpoint ${url.pathname}` }, base)
    } catch (e) {
      if (e instanceof ClientAborted) return undefined
      if (e instanceof StoreUnavailable) {
        // interface A answers HTTP 200 with a status: 14 UNAVAILABLE (gRPC's code for a transient failure)
        return hit?.name !== 'partner'
          ? restError(unavailableError(503, e.message), base)
          : {
              status: 200,
              headers: base,
              body: { status: { code: 14, message: `UNAVAILABLE: ${e.message}`, details: [] } },
            }
      }
      console.error(`[${requestId}]`, e)
      return { status: 500, headers: base, body: INTERNAL_ERROR_BODY }
    }
  }

  const referencePages = createReferencePages(partnerPrefix)

  /** Every request runs in its own scope, so that the process guard can answer the one that failed. */
  function handle(req: IncomingMessage, res: ServerResponse): void {
    const requestId = randomUUID()
    requestScope.run({ requestId, res }, () => handleIn(req, res, requestId))
  }

  function handleIn(req: IncomingMessage, res: ServerResponse, requestId: string): void {
    const noHost = missingHost(req)
    if (noHost !== undefined) {
      const r = toHttpResponse(noHost, { 'x-request-id': requestId, connection: 'close' })
      send(res, { status: r.status, headers: r.headers, body: r.body })
      return
    }
    const path = (req.url ?? '').split('?')[0] ?? ''
    if (opts.viewerKey !== undefined && isViewerPath(path)) {
      serveViewer(req, res, path, opts.viewerKey).catch((e: unknown) => {
        console.error(`[${requestId}] viewer:`, e)
        if (!res.headersSent)
          send(res, { status: 500, headers: { 'x-request-id': requestId }, body: INTERNAL_ERROR_BODY })
      })
      return
    }
    if (referencePages(req, res, requestId)) return // GET /openapi.json and the rendered /reference
    route(req, requestId).then(
      (a) => {
        if (a === undefined) res.destroy()
        else send(res, a, req.method === 'HEAD')
      },
      (e: unknown) => {
        console.error(`[${requestId}]`, e)
        if (!res.headersSent)
          send(res, { status: 500, headers: { 'x-request-id': requestId }, body: INTERNAL_ERROR_BODY })
      },
    )
  }

  return { handle, ledgers, routes, limits, restPool: pool, dispose: async () => pool?.close() }
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
  const { handle, ledgers, limits, restPool, dispose } = await createHandler(opts)
  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderBytes,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // how often Node checks the two timeouts above (its default, 30 s, would let them run 30 s late)
      connectionsCheckingInterval: Math.max(100, Math.min(1000, limits.headersTimeoutMs / 2)),
      // a request without Host is answered by the handler, as the service's JSON error (Node's own is bare)
      requireHostHeader: false,
    },
    handle,
  )
  server.maxConnections = limits.maxConnections
  server.on('clientError', (e: NodeJS.ErrnoException, socket: Duplex) => answerClientError(e, socket, limits))
  server.on('connect', answerConnect)
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
    restPool,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()))
        server.closeAllConnections()
      })
        .finally(dispose)
        .finally(() => opts.state?.close()),
  }
}
