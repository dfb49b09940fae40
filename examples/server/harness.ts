// End-to-end test harness: the server in-process on 127.0.0.1, port 0, an injected clock, real HTTP via fetch.
import { assertContract } from './contract.js'
import { startServer, type ApiKeyConfig, type RunningServer, type ServerOptions } from './server.js'
import { sampleStore, type MarketStore } from './store.js'

/** 2026-08-20T15:00:10Z: 10 s into a REST window; the 60 sample days start 2026-06-22 (after the 2026-05-29 floor). */
export const NOW = Date.UTC(2026, 7, 20, 15, 0, 10)
/** 2026-06-20T15:00:10Z: the 60 sample days start 2026-04-22, before the 2026-05-29 profile data floor. */
export const EARLY_NOW = Date.UTC(2026, 5, 20, 15, 0, 10)
export const WINDOW_MS = 60_000
/** Start of the REST window holding `t`. */
export const windowStart = (t: number): number => Math.floor(t / WINDOW_MS) * WINDOW_MS

const stores = new Map<number, MarketStore>()
/** The sample store of the 60 days ending at `now` (built once per `now` and worker: well under 1 s). */
export function testStore(now: number): MarketStore {
  let s = stores.get(now)
  if (s === undefined) {
    s = sampleStore({ now, days: 60, tradesPerDay: 1500 })
    stores.set(now, s)
  }
  return s
}

export interface Harness {
  server: RunningServer
  base: string
  rest: string
  partner: string
  /** Sets the server clock. */
  setNow(t: number): void
  now(): number
  get(path: string, key?: string, init?: RequestInit): Promise<Reply>
  post(operation: string, body: unknown, token?: string): Promise<Reply>
  close(): Promise<void>
}

export interface Reply {
  status: number
  headers: Headers
  body: any
}

export const OPS = {
  login: 'svc.partner.external.auth.v1.AuthApi.Login',
  refresh: 'svc.partner.external.auth.v1.AuthApi.Refresh',
  listSecurities: 'svc.reference.external.security.v1.SecurityInfoApi.ListSecurities',
  listCandles: 'svc.marketdata.external.candle.v1.CandleHistoryApi.ListCandles',
  link: 'svc.partner.external.security.v1.LinkApi.LinkSecurity',
  unlink: 'svc.partner.external.security.v1.LinkApi.UnlinkSecurity',
  getLinked: 'svc.partner.external.security.v1.LinkApi.GetLinkedSecurity',
} as const

/** Starts a server with the given keys on a free port. */
export async function startHarness(
  apiKeys: ApiKeyConfig[],
  partnerKeys: string[],
  start = NOW,
  wrap: (store: MarketStore) => MarketStore = (s) => s,
  extra: Partial<ServerOptions> = {},
): Promise<Harness> {
  let now = start
  const server = await startServer({
    ...extra,
    store: wrap(testStore(start)),
    apiKeys,
    partnerKeys,
    clock: () => now,
    port: 0,
  })
  const base = server.url
  const rest = `${base}/api/v1/marketdata`
  const partner = `${base}/partner/`
  // every answer a test reads is checked against the OpenAPI document: one it does not allow fails the test
  const read = async (r: Response, method: string): Promise<Reply> => {
    const text = await r.text()
    const reply: Reply = { status: r.status, headers: r.headers, body: text === '' ? undefined : JSON.parse(text) }
    assertContract({ method, path: new URL(r.url).pathname, ...reply })
    return reply
  }
  return {
    server,
    base,
    rest,
    partner,
    setNow: (t) => {
      now = t
    },
    now: () => now,
    async get(path, key, init) {
      const headers: Record<string, string> = key === undefined ? {} : { 'x-api-key': key }
      return read(
        await fetch(`${rest}${path}`, {
          ...init,
          headers: { ...headers, ...(init?.headers as Record<string, string> | undefined) },
        }),
        init?.method ?? 'GET',
      )
    },
    async post(operation, body, token) {
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      if (token !== undefined) headers.accesstoken = token
      return read(
        await fetch(`${partner}${operation}`, {
          method: 'POST',
          headers,
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
        'POST',
      )
    },
    close: () => server.close(),
  }
}

/** Remaining credits from an answer's headers. */
export const remaining = (r: Reply): number => Number(r.headers.get('x-ratelimit-remaining'))
