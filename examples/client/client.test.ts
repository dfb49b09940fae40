// Clients nobody on this project wrote, end to end against the reference server on 127.0.0.1: types generated
// from openapi.json by openapi-typescript (openapi-types.ts), every interface B endpoint and interface A
// operation called through openapi-fetch, and every answer (successes and errors) checked against the document.
// Each endpoint's bill (the drop in x-ratelimit-remaining) must equal what the document's `x-credits` says.
import createClient from 'openapi-fetch'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { listTimeframes } from '../../src/index.js'
import { PARTNER_OPERATION_PATHS } from '../../src/partner/index.js'
import type { JsonObject } from '../../src/service/index.js'
import { createContract } from '../server/contract.js'
import { NOW, startHarness, windowStart, type Harness } from '../server/harness.js'
import { StoreUnavailable } from '../server/store.js'
import type { paths } from './openapi-types.js'

const KEY = 'client-key'
const BLOCKED = 'client-blocked'
const PARTNER_KEY = 'client-partner'
const AAPL_GUID = '6f1c2a10-0001-4a5e-9c1d-0000000000a1'

let h: Harness
let flaky: Harness
const contract = createContract()
const doc = contract.document as { paths: Record<string, Record<string, JsonObject>> }

beforeAll(async () => {
  h = await startHarness(
    [
      { key: KEY, account: 'client' },
      { key: BLOCKED, account: 'blocked', access: false },
    ],
    [PARTNER_KEY],
  )
  flaky = await startHarness([{ key: KEY }], [PARTNER_KEY], NOW, (store) => ({
    ...store,
    tradesIn() {
      throw new StoreUnavailable('trade storage timed out')
    },
  }))
})
afterAll(async () => {
  await h.close()
  await flaky.close()
})

const rest = (key: string | null = KEY, t: Harness = h) =>
  createClient<paths>({ baseUrl: t.rest, headers: key === null ? {} : { 'x-api-key': key } })
const partner = () => createClient<paths>({ baseUrl: h.partner.replace(/\/$/, '') })

/** Checks an openapi-fetch answer against the document; returns it for the test's own assertions. */
async function seen<R extends { response: Response; data?: unknown; error?: unknown }>(
  method: 'GET' | 'POST',
  call: Promise<R>,
): Promise<R> {
  const r = await call
  const problems = contract.check({
    method,
    path: new URL(r.response.url).pathname,
    status: r.response.status,
    headers: r.response.headers,
    body: r.data ?? r.error,
  })
  expect(problems).toEqual([])
  return r
}

/** Moves the clock to a fresh REST window (100,000 credits). */
function freshWindow(t: Harness = h): void {
  t.setNow(windowStart(t.now()) + 70_000)
}

const remaining = (r: { response: Response }): number => Number(r.response.headers.get('x-ratelimit-remaining'))

/** The credits the document's `x-credits` gives for an answer of `template` returning `count` items. */
function documentedPrice(template: string, count: number): number {
  const c = doc.paths[template]!.get!['x-credits'] as {
    flat?: number
    perItem?: number
    minimum?: number
    maximum?: number
  }
  if (c.flat !== undefined) return c.flat
  return Math.min(c.maximum!, Math.max(c.minimum!, count * c.perItem!))
}

describe('interface B through openapi-fetch', () => {
  test('every endpoint answers 200 as documented, and bills what its x-credits says', async () => {
    freshWindow()
    const c = rest()
    const billed: [string, number, number][] = []
    let before = 100_000
    const bill = (template: string, r: { response: Response }, count: number) => {
      billed.push([template, before - remaining(r), documentedPrice(template, count)])
      before = remaining(r)
    }

    const candles = await seen(
      'GET',
      c.GET('/candles', {
        params: {
          query: {
            exchange: 'NASDAQ',
            symbol: 'AAPL',
            timeframe: '1h',
            limit: 24,
            sessionType: ['MAINSESSION', 'PRE_MARKET'],
          },
        },
      }),
    )
    expect(candles.data?.candles).toHaveLength(24)
    expect(candles.data?.candles.every((k) => k.session === 'MAINSESSION' || k.session === 'PRE_MARKET')).toBe(true)
    bill('/candles', candles, candles.data!.candles.length)

    const big = await seen(
      'GET',
      c.GET('/candles', { params: { query: { exchange: 'CME', symbol: 'ES', timeframe: '1m', limit: 2500 } } }),
    )
    expect(big.data?.candles).toHaveLength(2500)
    bill('/candles', big, 2500)

    const timeframes = await seen('GET', c.GET('/timeframes'))
    expect(timeframes.data?.timeframes).toEqual(listTimeframes())
    bill('/timeframes', timeframes, 0)

    const footprint = await seen(
      'GET',
      c.GET('/footprint', {
        params: { query: { exchange: 'CME', symbol: 'ES', timeframe: '5m', rowSize: 4, period: 86_400 * 3 } },
      }),
    )
    const profiles = footprint.data!.profiles
    expect(profiles.length).toBeGreaterThan(100)
    expect(profiles[0]!.rowSizeValue).toBe('1')
    bill('/footprint', footprint, profiles.length)

    const pinned = await seen(
      'GET',
      c.GET('/footprint', {
        params: {
          query: {
            exchange: 'CME',
            symbol: 'ES',
            timeframe: '1h',
            rowSizeValue: profiles[0]!.rowSizeValue,
            period: 7200,
          },
        },
      }),
    )
    expect(pinned.data!.profiles.every((p) => p.rowSizeValue === '1')).toBe(true)
    bill('/footprint', pinned, pinned.data!.profiles.length)

    const scale = await seen(
      'GET',
      c.GET('/footprint/row-size-scale', { params: { query: { exchange: 'CME', symbol: 'ES', timeframe: '15m' } } }),
    )
    expect(scale.data!.min).toBeLessThanOrEqual(scale.data!.default)
    bill('/footprint/row-size-scale', scale, 0)

    const tpo = await seen(
      'GET',
      c.GET('/tpo', {
        params: {
          query: {
            exchange: 'CME',
            symbol: 'ES',
            timeframe: '1d',
            blockSize: '1h',
            mergeSessions: 'GROUP_BY_TYPE',
            period: 86_400 * 30,
          },
        },
      }),
    )
    const periods = new Set(tpo.data!.profiles.map((p) => p.time)).size
    expect(tpo.data!.profiles.length).toBeGreaterThan(periods) // one profile per session type and period
    expect(tpo.data!.profiles.every((p) => p.sessionType !== undefined && p.blockSize === '1h')).toBe(true)
    bill('/tpo', tpo, periods)

    const search = await seen('GET', c.GET('/search', { params: { query: { q: 'US0378331005' } } }))
    expect(search.data!.results.map((x) => x.symbol)).toEqual(['AAPL'])
    bill('/search', search, 0)

    const exchanges = await seen('GET', c.GET('/exchanges'))
    expect(exchanges.data!.exchanges.map((e) => e.code)).toContain('CME')
    bill('/exchanges', exchanges, 0)

    const securities = await seen(
      'GET',
      c.GET('/exchanges/{exchange}/securities', { params: { path: { exchange: 'NASDAQ' } } }),
    )
    expect(securities.data!.securities.map((s) => s.symbol)).toContain('AAPL')
    bill('/exchanges/{exchange}/securities', securities, 0)

    const security = await seen(
      'GET',
      c.GET('/exchanges/{exchange}/securities/{symbol}', { params: { path: { exchange: 'TSE', symbol: '7203' } } }),
    )
    expect(security.data!.tickSize).toBe('1')
    bill('/exchanges/{exchange}/securities/{symbol}', security, 0)

    // every documented GET was called, and each bill is the documented price
    const called = new Set(billed.map(([t]) => t))
    expect([...called].sort()).toEqual(
      Object.keys(doc.paths)
        .filter((p) => doc.paths[p]!.get !== undefined)
        .sort(),
    )
    for (const [template, cost, price] of billed) expect({ template, cost }).toEqual({ template, cost: price })
  })

  test('error answers are the documented ones: 400 (both codes), 401, 403, 404, 429 with Retry-After, 503', async () => {
    freshWindow()
    const c = rest()
    const limit = await seen(
      'GET',
      c.GET('/candles', { params: { query: { exchange: 'CME', symbol: 'ES', timeframe: '1h', limit: 10_001 } } }),
    )
    expect([limit.response.status, limit.error?.error.code]).toEqual([400, 'invalid_argument'])
    const cap = await seen(
      'GET',
      c.GET('/footprint', { params: { query: { exchange: 'CME', symbol: 'ES', timeframe: '1m', period: 86_400 } } }),
    )
    expect([cap.response.status, cap.error?.error.code]).toEqual([400, 'too_much_data'])
    expect(cap.error?.error.message).toContain('1000')
    const missing = await seen('GET', rest(null).GET('/exchanges'))
    expect([missing.response.status, missing.error?.error.code]).toEqual([401, 'unauthenticated'])
    const blocked = await seen('GET', rest(BLOCKED).GET('/timeframes'))
    expect([blocked.response.status, blocked.error?.error.code]).toEqual([403, 'permission_denied'])
    const unknown = await seen(
      'GET',
      c.GET('/exchanges/{exchange}/securities', { params: { path: { exchange: 'NOPE' } } }),
    )
    expect([unknown.response.status, unknown.error?.error.code, unknown.error?.error.message]).toEqual([
      404,
      'not_found',
      'exchange not found',
    ])

    // spend the window: 100 answers of 1,000 credits, then 429 until the reset
    for (let i = 0; i < 100; i++) {
      const r = await seen('GET', c.GET('/exchanges'))
      expect(r.response.status).toBe(200)
    }
    const limited = await seen('GET', c.GET('/exchanges'))
    expect([limited.response.status, limited.error?.error.code]).toEqual([429, 'rate_limited'])
    expect(Number(limited.response.headers.get('retry-after'))).toBe(
      Math.ceil((windowStart(h.now()) + 60_000 - h.now()) / 1000),
    )

    freshWindow(flaky)
    const down = await seen(
      'GET',
      rest(KEY, flaky).GET('/candles', { params: { query: { exchange: 'CME', symbol: 'ES', timeframe: '1h' } } }),
    )
    expect([down.response.status, down.error?.error.code]).toEqual([503, 'unavailable'])
  })
})

describe('interface A through openapi-fetch', () => {
  const P = PARTNER_OPERATION_PATHS
  const path = <K extends keyof typeof P>(k: K) => `/${P[k]}` as const

  test('every operation answers as documented: tokens, securities, candles in three range forms, links', async () => {
    h.setNow(NOW)
    const c = partner()
    const login = await seen('POST', c.POST(path('Login'), { body: { api_key: PARTNER_KEY } }))
    expect(login.data?.status.code).toBe(0)
    const access = login.data!.access_token!.token
    const refresh = await seen(
      'POST',
      c.POST(path('Refresh'), { body: { refresh_token: login.data!.refresh_token!.token } }),
    )
    expect(refresh.data?.status.code).toBe(0)
    expect(refresh.data?.access_token?.valid_to_time).toBe(new Date(NOW + 30 * 60_000).toISOString())
    const headers = { accesstoken: refresh.data!.access_token!.token }

    const list = await seen(
      'POST',
      c.POST(path('ListSecurities'), {
        body: {
          security_ids: [
            { guid: AAPL_GUID },
            { ticker_code: { ticker: 'ES', exchange_code: 'CME' } },
            { guid: 'nope' },
          ],
        },
        headers,
      }),
    )
    expect(list.data?.securities?.map((s) => s.status.code)).toEqual([0, 0, 5])
    expect(list.data?.securities?.[0]?.security_info?.ticker).toBe('AAPL')

    const first = new Date(NOW - 2 * 86_400_000).toISOString()
    const ranges = [
      { first_bound_time: first, second_bound_time: new Date(NOW - 86_400_000).toISOString() },
      { first_bound_time: first, duration: 'PT6H' },
      { first_bound_time: first, count: -5 },
    ]
    for (const range of ranges) {
      const r = await seen(
        'POST',
        c.POST(path('ListCandles'), {
          body: {
            security_id: { guid: AAPL_GUID },
            time_frame: { time_unit: 'MINUTE', count: 90 },
            range,
            properties: ['CLOSE', 'SESSION_TYPE'],
          },
          headers: { accesstoken: access },
        }),
      )
      expect(r.data?.status?.code).toBe(0)
      expect(r.data?.candles?.length).toBeGreaterThan(0)
      expect(Object.keys(r.data!.candles![0]!).sort()).toEqual(['close', 'session_type', 'time'])
    }

    const link = await seen(
      'POST',
      c.POST(path('LinkSecurity'), { body: { security_guid: AAPL_GUID, partner_security_id: 'P-AAPL' }, headers }),
    )
    expect(link.data?.status.code).toBe(0)
    const got = await seen('POST', c.POST(path('GetLinkedSecurity'), { body: { security_guid: AAPL_GUID }, headers }))
    expect(got.data?.linked_security).toEqual({ security_guid: AAPL_GUID, partner_security_id: 'P-AAPL' })
    const unlink = await seen('POST', c.POST(path('UnlinkSecurity'), { body: { security_guid: AAPL_GUID }, headers }))
    expect(unlink.data?.status.code).toBe(0)
    const again = await seen('POST', c.POST(path('UnlinkSecurity'), { body: { security_guid: AAPL_GUID }, headers }))
    expect(again.data?.status.code).toBe(5)
    const gone = await seen('POST', c.POST(path('GetLinkedSecurity'), { body: { security_guid: AAPL_GUID }, headers }))
    expect([gone.data?.status.code, gone.data?.linked_security]).toEqual([5, undefined])

    // every documented POST was called
    const posts = Object.keys(doc.paths).filter((p) => doc.paths[p]!.post !== undefined)
    expect(posts.sort()).toEqual(
      Object.values(P)
        .map((p) => `/${p}`)
        .sort(),
    )
  })

  test('failures are HTTP 200 with a status: 16 without a valid accesstoken, 3 for an invalid body, 16 for a wrong api_key', async () => {
    h.setNow(NOW)
    const c = partner()
    const bad = await seen('POST', c.POST(path('Login'), { body: { api_key: 'wrong' } }))
    expect([bad.response.status, bad.data?.status.code, bad.data?.access_token]).toEqual([200, 16, undefined])
    const noToken = await seen(
      'POST',
      c.POST(path('ListSecurities'), { body: { security_ids: [{ guid: AAPL_GUID }] } }),
    )
    expect([noToken.response.status, noToken.data?.status?.code]).toEqual([200, 16])
    const login = await seen('POST', c.POST(path('Login'), { body: { api_key: PARTNER_KEY } }))
    const headers = { accesstoken: login.data!.access_token!.token }
    const invalid = await seen(
      'POST',
      c.POST(path('ListCandles'), {
        // a body the document refuses (no range), sent anyway: the server answers 3 naming the field
        body: { security_id: { guid: AAPL_GUID }, time_frame: { time_unit: 'DAY' } } as never,
        headers,
      }),
    )
    expect([invalid.data?.status?.code, invalid.data?.status?.message]).toEqual([3, 'range: is required'])
    // the token expires when the clock reaches valid_to_time
    h.setNow(Date.parse(login.data!.access_token!.valid_to_time))
    const expired = await seen(
      'POST',
      c.POST(path('GetLinkedSecurity'), { body: { security_guid: AAPL_GUID }, headers }),
    )
    expect(expired.data?.status.code).toBe(16)
  })
})
