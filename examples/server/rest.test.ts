// Interface B end to end: real HTTP against the reference server (port 0, injected clock).
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { EARLY_NOW, NOW, remaining, startHarness, windowStart, type Harness, type Reply } from './harness.js'
import { defaultCatalog } from './catalog.js'
import { handleRest } from './rest.js'
import { createStore, StoreUnavailable } from './store.js'

const MAIN = 'main-key'
const MAIN2 = 'main-key-2'
const BLOCKED = 'blocked-key'
const LIMIT = 'limit-key'

let h: Harness
let early: Harness
let flaky: Harness

beforeAll(async () => {
  h = await startHarness(
    [
      { key: MAIN, account: 'main' },
      { key: MAIN2, account: 'main' },
      { key: BLOCKED, account: 'blocked', access: false },
      { key: LIMIT, account: 'limit' },
    ],
    [],
  )
  early = await startHarness([{ key: MAIN, account: 'main' }], [], EARLY_NOW)
  // storage that fails for one security, as a real database or upstream might
  flaky = await startHarness([{ key: MAIN, account: 'main' }], [], NOW, (store) => ({
    ...store,
    tradesIn(s, from, to) {
      if (s.security.symbol === 'SAP') throw new StoreUnavailable('trade storage timed out')
      return store.tradesIn(s, from, to)
    },
  }))
})
afterAll(async () => {
  await h.close()
  await early.close()
  await flaky.close()
})

/** Moves the clock to a REST window of its own (10 s into it), so each test starts with 100,000 credits. */
function freshWindow(t: Harness = h): number {
  const now = windowStart(t.now()) + 60_000 + 10_000
  t.setNow(now)
  return now
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** Every answer: an x-request-id and a JSON content type. */
function common(r: Reply): void {
  expect(r.headers.get('x-request-id')).toMatch(UUID)
  expect(r.headers.get('content-type')).toMatch(/^application\/json/)
}

function rateHeaders(r: Reply, t: Harness = h): void {
  expect(r.headers.get('x-ratelimit-limit')).toBe('100000')
  expect(r.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/)
  expect(r.headers.get('x-ratelimit-reset')).toBe(String((windowStart(t.now()) + 60_000) / 1000))
}

function expectError(r: Reply, status: number, code: string, message?: string | RegExp): void {
  common(r)
  expect(r.status).toBe(status)
  expect(Object.keys(r.body)).toEqual(['error'])
  expect(r.body.error.code).toBe(code)
  expect(typeof r.body.error.message).toBe('string')
  if (message !== undefined) expect(r.body.error.message).toMatch(message)
}

/** Remaining credits of an account right now, read with an unbilled request (a 400). */
async function probe(key = MAIN, t: Harness = h): Promise<number> {
  const r = await t.get('/timeframes?probe=1', key)
  expect(r.status).toBe(400)
  return remaining(r)
}

/** Runs a request and returns it with the credits it cost (read from the remaining-credit headers). */
async function billed(path: string, key = MAIN, t: Harness = h): Promise<{ r: Reply; cost: number }> {
  const before = await probe(key, t)
  const r = await t.get(path, key)
  common(r)
  const after = await probe(key, t)
  if (r.status === 200) {
    rateHeaders(r, t)
    expect(remaining(r)).toBe(after)
  }
  return { r, cost: before - after }
}

/** Sends a raw HTTP/1.1 request (any request target, even one `fetch` would refuse to send) and parses the answer. */
function raw(request: string, t: Harness = h): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const socket = connect(t.server.port, '127.0.0.1', () => socket.end(request))
    const chunks: Buffer[] = []
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('error', reject)
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const cut = text.indexOf('\r\n\r\n')
      const [statusLine = '', ...fields] = text.slice(0, cut).split('\r\n')
      const headers = new Headers()
      for (const f of fields) headers.append(f.slice(0, f.indexOf(':')), f.slice(f.indexOf(':') + 1).trim())
      const body = text.slice(cut + 4)
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: body === '' ? undefined : JSON.parse(body) })
    })
  })
}

const clampPrice = (credits: number): number => Math.min(10_000, Math.max(1_000, credits))
const iso = (t: number): string => new Date(t).toISOString()

describe('authentication, request ids, routing', () => {
  test('a missing or unknown key is 401 unauthenticated, with an x-request-id and no credit headers', async () => {
    freshWindow()
    for (const key of [undefined, 'nope', '']) {
      const r = await h.get('/exchanges', key)
      expectError(r, 401, 'unauthenticated')
      expect(r.headers.get('x-ratelimit-remaining')).toBeNull()
    }
  })

  test('a key without data access is 403 permission_denied before anything else, and is not billed', async () => {
    freshWindow()
    for (const path of [
      '/exchanges',
      '/candles?exchange=NOPE&symbol=X&timeframe=1m',
      '/candles?bogus=1',
      '/footprint/row-size-scale',
    ]) {
      const r = await h.get(path, BLOCKED)
      expectError(r, 403, 'permission_denied')
      rateHeaders(r)
      expect(remaining(r)).toBe(100_000)
    }
  })

  test('every answer has its own request id', async () => {
    freshWindow()
    const answers = await Promise.all([
      h.get('/exchanges', MAIN),
      h.get('/exchanges'),
      h.get('/nowhere', MAIN),
      h.get('/candles?limit=0', MAIN),
      h.get('/exchanges/NOPE/securities', MAIN),
      h.post('svc.partner.external.auth.v1.AuthApi.Login', { api_key: 'x' }),
    ])
    const ids = answers.map((r) => r.headers.get('x-request-id'))
    for (const id of ids) expect(id).toMatch(UUID)
    expect(new Set(ids).size).toBe(ids.length)
  })

  test('unknown paths are 404 and other methods than GET and HEAD are 405, unbilled', async () => {
    freshWindow()
    expectError(await h.get('/nowhere', MAIN), 404, 'not_found')
    const r = await h.get('/exchanges', MAIN, { method: 'POST' })
    common(r)
    expect(r.status).toBe(405)
    expect(r.headers.get('allow')).toBe('GET, HEAD')
    expect(await probe()).toBe(100_000)
  })

  test('a request target that is not a valid URL is 400 invalid_argument (not a 500), unbilled and not logged', async () => {
    freshWindow()
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      for (const target of [
        'http://[::1/api/v1/marketdata/exchanges',
        'http://a:b:c/',
        'http://[x]/api/v1/marketdata/timeframes',
      ]) {
        const r = await raw(`GET ${target} HTTP/1.1\r\nHost: x\r\nx-api-key: ${MAIN}\r\nConnection: close\r\n\r\n`)
        expectError(r, 400, 'invalid_argument', /request target/)
      }
      expect(logged).not.toHaveBeenCalled()
    } finally {
      logged.mockRestore()
    }
    expect(await probe()).toBe(100_000)
    // a valid absolute-form target still routes by its path
    const ok = await raw(
      `GET http://x/api/v1/marketdata/timeframes HTTP/1.1\r\nHost: x\r\nx-api-key: ${MAIN}\r\nConnection: close\r\n\r\n`,
    )
    expect(ok.status).toBe(200)
  })
})

describe('catalog endpoints', () => {
  test('GET /exchanges lists exchanges with codes, MICs and IANA zones; 1,000 credits', async () => {
    freshWindow()
    const { r, cost } = await billed('/exchanges')
    expect(r.status).toBe(200)
    expect(cost).toBe(1000)
    const zones = new Set<string>()
    for (const e of r.body.exchanges) {
      expect(typeof e.code).toBe('string')
      expect(typeof e.name).toBe('string')
      expect(Array.isArray(e.sourceCodes)).toBe(true)
      expect(typeof e.acronym).toBe('string')
      expect(e.timezone).toMatch(/^[A-Za-z_]+\/[A-Za-z_]+$/)
      expect(e.code).not.toBe(e.mic)
      zones.add(e.timezone)
    }
    expect(zones.size).toBeGreaterThanOrEqual(2)
  })

  test('securities of an exchange and one security specification', async () => {
    freshWindow()
    const list = await billed('/exchanges/CME/securities')
    expect(list.r.status).toBe(200)
    expect(list.cost).toBe(1000)
    expect(list.r.body.securities.map((s: { symbol: string }) => s.symbol)).toEqual(['ES', 'NQ'])
    const one = await billed('/exchanges/NASDAQ/securities/AAPL')
    expect(one.r.status).toBe(200)
    expect(one.cost).toBe(1000)
    expect(one.r.body).toMatchObject({
      symbol: 'AAPL',
      exchange: 'NASDAQ',
      type: 'stock',
      tickSize: '0.01',
      pricePrecision: 2,
      isin: 'US0378331005',
    })
    expect(one.r.body.baseAsset.code).toBe('AAPL')
    expect(one.r.body.quoteAsset.code).toBe('USD')
  })

  test('404 messages: exchange not found, security not found; unbilled', async () => {
    freshWindow()
    const a = await billed('/exchanges/NOPE/securities')
    expectError(a.r, 404, 'not_found', /^exchange not found$/)
    expect(a.cost).toBe(0)
    const b = await billed('/exchanges/CME/securities/AAPL')
    expectError(b.r, 404, 'not_found', /^security not found$/)
    expect(b.cost).toBe(0)
    const c = await billed('/exchanges/NOPE/securities/AAPL')
    expectError(c.r, 404, 'not_found', /^exchange not found$/)
  })

  test('GET /search ranks text matches and matches an exact ISIN', async () => {
    freshWindow()
    const text = await billed('/search?q=apple')
    expect(text.r.status).toBe(200)
    expect(text.cost).toBe(1000)
    expect(text.r.body.results[0]).toMatchObject({ exchange: 'NASDAQ', symbol: 'AAPL' })
    const sym = await h.get('/search?q=ES', MAIN)
    expect(sym.body.results[0]).toMatchObject({ exchange: 'CME', symbol: 'ES', match: 'symbol' })
    const isin = await h.get('/search?q=DE0007164600', MAIN)
    expect(isin.body.results).toHaveLength(1)
    expect(isin.body.results[0]).toMatchObject({ exchange: 'XETRA', symbol: 'SAP', match: 'isin' })
    const miss = await h.get('/search?q=DE0007164601', MAIN)
    expect(miss.status).toBe(200)
    expect(miss.body.results).toEqual([])
    expectError(await h.get('/search', MAIN), 400, 'invalid_argument', /q/)
    expectError(await h.get('/search?q=a&limit=0', MAIN), 400, 'invalid_argument', /limit/)
    expectError(await h.get('/search?q=a&exchange=NOPE', MAIN), 404, 'not_found', /^exchange not found$/)
  })

  test('GET /timeframes gives the id count rules; unknown parameters are 400 and unbilled', async () => {
    freshWindow()
    const { r, cost } = await billed('/timeframes')
    expect(r.status).toBe(200)
    expect(cost).toBe(1000)
    expect(r.body.timeframes).toContainEqual(expect.objectContaining({ unit: 'MINUTE', min: 1, max: 59 }))
    const bad = await billed('/exchanges?x=1')
    expectError(bad.r, 400, 'invalid_argument', /x/)
    expect(bad.cost).toBe(0)
  })
})

describe('GET /candles', () => {
  test('most recent candles by default, priced 1 per candle with a 1,000 minimum', async () => {
    const now = freshWindow()
    const small = await billed('/candles?exchange=NASDAQ&symbol=AAPL&timeframe=1h&limit=5')
    expect(small.r.status).toBe(200)
    const c = small.r.body.candles
    expect(c).toHaveLength(5)
    for (const k of c) {
      for (const f of ['open', 'high', 'low', 'close', 'volume']) expect(k[f]).toMatch(/^\d+(\.\d+)?$/)
      expect(Date.parse(k.time)).toBeLessThan(now)
    }
    for (let i = 1; i < c.length; i++) expect(Date.parse(c[i].time)).toBeGreaterThan(Date.parse(c[i - 1].time))
    expect(small.cost).toBe(1000)
    const big = await billed('/candles?exchange=CME&symbol=ES&timeframe=1m&limit=2500')
    expect(big.r.body.candles).toHaveLength(2500)
    expect(big.cost).toBe(2500)
    const max = await billed('/candles?exchange=CME&symbol=ES&timeframe=1m&limit=10000')
    expect(max.r.body.candles).toHaveLength(10000)
    expect(max.cost).toBe(10000)
  })

  test('from and to pin both ends; whole buckets; sessionType filters', async () => {
    freshWindow()
    const from = Date.UTC(2026, 7, 19, 14)
    const { r } = await billed(
      `/candles?exchange=NASDAQ&symbol=AAPL&timeframe=1h&from=${from / 1000}&to=${iso(from + 2 * 3_600_000)}`,
    )
    expect(r.status).toBe(200)
    expect(r.body.candles.map((k: { time: string }) => k.time)).toEqual([iso(from), iso(from + 3_600_000)])
    const main = await h.get(
      `/candles?exchange=NASDAQ&symbol=AAPL&timeframe=15m&period=86400&sessionType=MAINSESSION`,
      MAIN,
    )
    expect(main.status).toBe(200)
    expect(main.body.candles.length).toBeGreaterThan(0)
    for (const k of main.body.candles) expect(k.session).toBe('MAINSESSION')
    const two = await h.get(
      `/candles?exchange=NASDAQ&symbol=AAPL&timeframe=15m&period=86400&sessionType=PRE_MARKET,POST_MARKET`,
      MAIN,
    )
    const sessions = new Set(two.body.candles.map((k: { session: string }) => k.session))
    expect([...sessions].sort()).toEqual(['POST_MARKET', 'PRE_MARKET'])
  })

  test('tick timeframes: N trades a candle, limit only', async () => {
    freshWindow()
    const r = await h.get('/candles?exchange=CME&symbol=ES&timeframe=100t&limit=3', MAIN)
    expect(r.status).toBe(200)
    expect(r.body.candles).toHaveLength(3)
    // grouped from the first trade held: whole candles of 100, the newest one still forming
    const [a, b, c] = r.body.candles
    expect([a.trades, b.trades]).toEqual([100, 100])
    expect(c.trades).toBeGreaterThan(0)
    expect(c.trades).toBeLessThanOrEqual(100)
    // the grouping does not depend on how much is read
    const more = await h.get('/candles?exchange=CME&symbol=ES&timeframe=100t&limit=40', MAIN)
    expect(more.body.candles).toHaveLength(40)
    expect(more.body.candles.slice(-3)).toEqual(r.body.candles)
    const single = await h.get('/candles?exchange=CME&symbol=ES&timeframe=1t&limit=5&sessionType=MAINSESSION', MAIN)
    expect(single.body.candles).toHaveLength(5)
    for (const k of single.body.candles) expect([k.trades, k.session, k.open]).toEqual([1, 'MAINSESSION', k.close])
    expectError(
      await h.get('/candles?exchange=CME&symbol=ES&timeframe=100t&period=3600', MAIN),
      400,
      'invalid_argument',
      /period/,
    )
  })

  test('400 invalid_argument for every bad parameter, unbilled', async () => {
    freshWindow()
    const base = 'exchange=CME&symbol=ES'
    const cases: Array<[string, RegExp]> = [
      [`${base}&timeframe=1m&limit=10001`, /limit/],
      [`${base}&timeframe=1m&limit=0`, /limit/],
      [`${base}&timeframe=1m&bogus=1`, /bogus/],
      [`${base}&timeframe=1m&rowSize=2`, /rowSize/],
      [`${base}`, /timeframe/],
      [`symbol=ES&timeframe=1m`, /exchange/],
      [`${base}&timeframe=60m`, /timeframe/],
      [`${base}&timeframe=1m&from=yesterday`, /from/],
      [`${base}&timeframe=1m&from=1790000000&to=1780000000`, /to/],
      [`${base}&timeframe=1m&from=1780000000&to=1790000000&period=60`, /period/],
      [`${base}&timeframe=1m&sessionType=LUNCH`, /sessionType/],
    ]
    const before = await probe()
    for (const [q, msg] of cases) expectError(await h.get(`/candles?${q}`, MAIN), 400, 'invalid_argument', msg)
    expect(await probe()).toBe(before)
  })

  test('404: exchange not found, security not found, data not found; unbilled', async () => {
    freshWindow()
    const before = await probe()
    expectError(
      await h.get('/candles?exchange=NOPE&symbol=ES&timeframe=1m', MAIN),
      404,
      'not_found',
      /^exchange not found$/,
    )
    expectError(
      await h.get('/candles?exchange=CME&symbol=AAPL&timeframe=1m', MAIN),
      404,
      'not_found',
      /^security not found$/,
    )
    expectError(
      await h.get('/candles?exchange=NASDAQ&symbol=NEWCO&timeframe=1m', MAIN),
      404,
      'not_found',
      /^data not found$/,
    )
    expectError(
      await h.get('/footprint?exchange=NASDAQ&symbol=NEWCO&timeframe=1h', MAIN),
      404,
      'not_found',
      /^data not found$/,
    )
    expectError(
      await h.get('/tpo?exchange=NASDAQ&symbol=NEWCO&timeframe=1d', MAIN),
      404,
      'not_found',
      /^data not found$/,
    )
    expect(await probe()).toBe(before)
  })

  test('an empty range of existing data is a 200 with no candles and costs 1,000', async () => {
    const now = freshWindow()
    const { r, cost } = await billed(
      `/candles?exchange=CME&symbol=ES&timeframe=1m&from=${Math.floor(now / 1000) + 3600}`,
    )
    expect(r.status).toBe(200)
    expect(r.body.candles).toEqual([])
    expect(cost).toBe(1000)
  })
})

describe('GET /footprint', () => {
  test('profiles with positional rows; 10 credits per profile', async () => {
    freshWindow()
    const to = Date.UTC(2026, 7, 19, 18)
    const { r, cost } = await billed(
      `/footprint?exchange=CME&symbol=ES&timeframe=1h&rowSize=4&from=${iso(to - 3 * 3_600_000)}&to=${iso(to)}`,
    )
    expect(r.status).toBe(200)
    expect(r.body.profiles).toHaveLength(3)
    for (const p of r.body.profiles) {
      expect(p.rowSizeValue).toBe('1')
      expect(p.rows.length).toBeGreaterThan(0)
      for (const row of p.rows) {
        expect(row).toHaveLength(5)
        expect(row[0]).toMatch(/^\d+\.\d\d$/)
        expect(typeof row[1]).toBe('string')
        expect(typeof row[2]).toBe('string')
        expect(Number.isInteger(row[3])).toBe(true)
        expect(Number.isInteger(row[4])).toBe(true)
      }
      expect(p.profileStart).toBeUndefined()
    }
    expect(cost).toBe(1000)
    // rowSizeValue echoed back pins the same grid
    const again = await h.get(
      `/footprint?exchange=CME&symbol=ES&timeframe=1h&rowSizeValue=1&from=${iso(to - 3 * 3_600_000)}&to=${iso(to)}`,
      MAIN,
    )
    expect(again.body.profiles.map((p: { rows: unknown }) => p.rows)).toEqual(
      r.body.profiles.map((p: { rows: unknown }) => p.rows),
    )
    const many = await billed(
      `/footprint?exchange=CME&symbol=ES&timeframe=1m&from=${iso(to - 900 * 60_000)}&to=${iso(to)}`,
    )
    expect(many.r.status).toBe(200)
    const n = many.r.body.profiles.length
    expect(n).toBeGreaterThan(100)
    expect(many.cost).toBe(clampPrice(10 * n))
  })

  test('over the cap is 400 too_much_data naming 1000, unbilled; limit is rejected', async () => {
    freshWindow()
    const { r, cost } = await billed('/footprint?exchange=CME&symbol=ES&timeframe=1m&period=172800')
    expectError(r, 400, 'too_much_data', /1000/)
    expect(cost).toBe(0)
    expectError(
      await h.get('/footprint?exchange=CME&symbol=ES&timeframe=1h&limit=5', MAIN),
      400,
      'invalid_argument',
      /limit/,
    )
    expectError(
      await h.get('/footprint?exchange=CME&symbol=ES&timeframe=1t', MAIN),
      400,
      'invalid_argument',
      /timeframe/,
    )
    expectError(
      await h.get('/footprint?exchange=CME&symbol=ES&timeframe=1h&rowSize=2&rowSizeValue=1', MAIN),
      400,
      'invalid_argument',
    )
  })

  test('depth: a from older than 30 days (1m) is trimmed and the first profileStart shows the real start', async () => {
    freshWindow()
    const depthStart = Date.UTC(2026, 6, 21) // 2026-08-20 minus 30 days, UTC midnight
    const { r, cost } = await billed(
      `/footprint?exchange=CME&symbol=ES&timeframe=1m&from=${iso(Date.UTC(2026, 6, 10))}&to=${iso(depthStart + 8 * 3_600_000)}`,
    )
    expect(r.status).toBe(200)
    expect(r.body.from).toBe(iso(depthStart))
    expect(r.body.profiles.length).toBeGreaterThan(0)
    for (const p of r.body.profiles) expect(Date.parse(p.time)).toBeGreaterThanOrEqual(depthStart)
    // ES has no trade in the minute holding the depth start (19:00 in Chicago): no returned profile was cut
    expect(Date.parse(r.body.profiles[0].time)).toBeGreaterThan(depthStart)
    for (const p of r.body.profiles) expect(p.profileStart).toBeUndefined()
    expect(cost).toBe(clampPrice(10 * r.body.profiles.length))
    const gone = await billed(
      `/footprint?exchange=CME&symbol=ES&timeframe=1m&from=${iso(Date.UTC(2026, 6, 10))}&to=${iso(Date.UTC(2026, 6, 10, 12))}`,
    )
    expect(gone.r.status).toBe(200)
    expect(gone.r.body.profiles).toEqual([])
    expect(gone.cost).toBe(1000)
  })

  test('data floor: when the bucket holding the floor had no trades after it, no TPO profile claims profileStart', async () => {
    freshWindow(early)
    // AAPL daily TPO in New York: the floor 2026-05-29T00:00Z is 20:00 on 28 May there, after the post-market
    const floor = Date.UTC(2026, 4, 29)
    const { r } = await billed(
      `/tpo?exchange=NASDAQ&symbol=AAPL&timeframe=1d&from=${iso(Date.UTC(2026, 4, 20))}&to=${iso(Date.UTC(2026, 4, 31))}`,
      MAIN,
      early,
    )
    expect(r.status).toBe(200)
    expect(r.body.profiles.length).toBeGreaterThan(0)
    expect(Date.parse(r.body.profiles[0].time)).toBeGreaterThan(floor)
    for (const p of r.body.profiles) expect(p.profileStart).toBeUndefined()
  })

  test('data floor 2026-05-29: footprint and weekly TPO start there, the week from Monday 25 May', async () => {
    freshWindow(early)
    const floor = Date.UTC(2026, 4, 29)
    const fp = await billed(
      `/footprint?exchange=CME&symbol=ES&timeframe=1d&from=${iso(Date.UTC(2026, 4, 1))}&to=${iso(Date.UTC(2026, 5, 3))}`,
      MAIN,
      early,
    )
    expect(fp.r.status).toBe(200)
    const first = fp.r.body.profiles[0]
    expect(first.profileStart).toBe(iso(floor))
    expect(Date.parse(first.end)).toBeGreaterThan(floor)
    expect(Date.parse(first.time)).toBeLessThanOrEqual(floor)
    const week = await billed(
      `/tpo?exchange=CME&symbol=ES&timeframe=1w&from=${iso(Date.UTC(2026, 4, 1))}&to=${iso(Date.UTC(2026, 5, 15))}`,
      MAIN,
      early,
    )
    expect(week.r.status).toBe(200)
    expect(week.r.body.profiles[0].time.slice(0, 10)).toBe('2026-05-25')
    expect(week.r.body.profiles[0].profileStart).toBe(iso(floor))
    expect(week.cost).toBe(1000)
  })

  test('data floor: a from after 29 May inside the week of 25 May reads the whole week from the floor, never before it', async () => {
    freshWindow(early)
    const floor = Date.UTC(2026, 4, 29)
    const from = Date.UTC(2026, 4, 30, 12) // Saturday: not older than the floor, but its week began Monday 25 May
    const week = await billed(
      `/tpo?exchange=CME&symbol=ES&timeframe=1w&from=${iso(from)}&to=${iso(Date.UTC(2026, 5, 8))}`,
      MAIN,
      early,
    )
    expect(week.r.status).toBe(200)
    const first = week.r.body.profiles[0]
    expect(first.time.slice(0, 10)).toBe('2026-05-25')
    expect(first.profileStart).toBe(iso(floor))
    const blocks = (first.blocks as string[]).map((b) => Date.parse(b))
    expect(Math.min(...blocks)).toBeGreaterThanOrEqual(floor) // no data before the floor (the sample store holds some)
    expect(Math.min(...blocks)).toBeLessThan(from) // the bucket is returned whole from the floor, not cut at from
    expect(week.r.body.profiles.slice(1).every((p: { profileStart?: string }) => p.profileStart === undefined)).toBe(
      true,
    )
    const fp = await billed(
      `/footprint?exchange=CME&symbol=ES&timeframe=1w&from=${iso(from)}&to=${iso(Date.UTC(2026, 5, 8))}`,
      MAIN,
      early,
    )
    expect(fp.r.status).toBe(200)
    expect(fp.r.body.profiles[0].time.slice(0, 10)).toBe('2026-05-25')
    expect(fp.r.body.profiles[0].profileStart).toBe(iso(floor))
    // the same profile as when from is older than the floor (trimmed): the data of that week is the same
    const trimmed = await billed(
      `/footprint?exchange=CME&symbol=ES&timeframe=1w&from=${iso(Date.UTC(2026, 4, 1))}&to=${iso(Date.UTC(2026, 5, 8))}`,
      MAIN,
      early,
    )
    expect(fp.r.body.profiles[0]).toEqual(trimmed.r.body.profiles[0])
  })
})

describe('GET /tpo', () => {
  test('daily profiles with POC, value area, initial balance, blocks; 25 credits per period', async () => {
    freshWindow()
    const { r, cost } = await billed(
      `/tpo?exchange=CME&symbol=ES&timeframe=1d&from=${iso(Date.UTC(2026, 7, 17))}&to=${iso(Date.UTC(2026, 7, 19))}`,
    )
    expect(r.status).toBe(200)
    expect(r.body.profiles.length).toBeGreaterThanOrEqual(2)
    for (const p of r.body.profiles) {
      expect(p.poc).toMatch(/^\d+\.\d\d$/)
      expect(typeof p.valueAreaHigh).toBe('string')
      expect(typeof p.valueAreaLow).toBe('string')
      expect(p.initialBalance).not.toBeNull()
      expect(p.blocks.length).toBeGreaterThan(0)
      for (const row of p.rows) {
        expect(row).toHaveLength(4)
        expect(Array.isArray(row[1])).toBe(true)
        for (const i of row[1]) expect(i).toBeLessThan(p.blocks.length)
      }
    }
    expect(cost).toBe(1000)
    const all = await billed(
      `/tpo?exchange=CME&symbol=ES&timeframe=1d&from=${iso(Date.UTC(2026, 5, 22))}&to=${iso(Date.UTC(2026, 7, 20))}`,
    )
    const periods = all.r.body.profiles.length
    expect(periods).toBeGreaterThan(40)
    expect(all.cost).toBe(clampPrice(25 * periods))
    const grouped = await billed(
      `/tpo?exchange=CME&symbol=ES&timeframe=1d&mergeSessions=GROUP_BY_TYPE&from=${iso(Date.UTC(2026, 5, 22))}&to=${iso(Date.UTC(2026, 7, 20))}`,
    )
    expect(grouped.r.status).toBe(200)
    const times = new Set(grouped.r.body.profiles.map((p: { time: string }) => p.time))
    expect(grouped.r.body.profiles.length).toBeGreaterThan(times.size)
    for (const p of grouped.r.body.profiles)
      expect(['PRE_MARKET', 'MAINSESSION', 'POST_MARKET']).toContain(p.sessionType)
    expect(grouped.cost).toBe(clampPrice(25 * times.size))
  })

  test('over 400 profiles is 400 too_much_data naming 400; GROUP_BY_TYPE counts each session type', async () => {
    freshWindow()
    const long = await billed(
      `/tpo?exchange=CME&symbol=ES&timeframe=1d&from=${iso(Date.UTC(2026, 6, 1))}&to=${iso(Date.UTC(2027, 11, 31))}`,
    )
    expectError(long.r, 400, 'too_much_data', /400/)
    expect(long.cost).toBe(0)
    const range = `from=${iso(Date.UTC(2026, 6, 1))}&to=${iso(Date.UTC(2026, 11, 1))}` // 153 days
    expectError(
      await h.get(`/tpo?exchange=CME&symbol=ES&timeframe=1d&mergeSessions=GROUP_BY_TYPE&${range}`, MAIN),
      400,
      'too_much_data',
      /400/,
    )
    expect((await h.get(`/tpo?exchange=CME&symbol=ES&timeframe=1d&${range}`, MAIN)).status).toBe(200)
    expect(
      (
        await h.get(
          `/tpo?exchange=CME&symbol=ES&timeframe=1d&mergeSessions=GROUP_BY_TYPE&sessionType=MAINSESSION&${range}`,
          MAIN,
        )
      ).status,
    ).toBe(200)
    expectError(await h.get('/tpo?exchange=CME&symbol=ES&timeframe=1h', MAIN), 400, 'invalid_argument', /timeframe/)
    expectError(await h.get('/tpo?exchange=CME&symbol=ES&timeframe=1d&limit=3', MAIN), 400, 'invalid_argument', /limit/)
  })
})

describe('GET /footprint/row-size-scale', () => {
  test('row sizes in ticks for a security and timeframe; 1,000 credits', async () => {
    freshWindow()
    const { r, cost } = await billed('/footprint/row-size-scale?exchange=NASDAQ&symbol=AAPL&timeframe=1h')
    expect(r.status).toBe(200)
    expect(cost).toBe(1000)
    for (const f of ['min', 'max', 'step', 'default']) expect(Number.isInteger(r.body[f])).toBe(true)
    expect(r.body.min).toBeLessThanOrEqual(r.body.default)
    expect(r.body.default).toBeLessThanOrEqual(r.body.max)
    expect(r.body.tickSize).toBe('0.01')
    expectError(
      await h.get('/footprint/row-size-scale?exchange=NASDAQ&symbol=AAPL&timeframe=1h&from=1', MAIN),
      400,
      'invalid_argument',
      /from/,
    )
    expectError(
      await h.get('/footprint/row-size-scale?exchange=NASDAQ&symbol=AAPL&timeframe=5t', MAIN),
      400,
      'invalid_argument',
      /timeframe/,
    )
    expectError(
      await h.get('/footprint/row-size-scale?exchange=NASDAQ&symbol=NEWCO&timeframe=1h', MAIN),
      404,
      'not_found',
      /^data not found$/,
    )
  })
})

describe('upstream failures', () => {
  test('a storage failure is 503 unavailable with the credit headers, and is not billed', async () => {
    freshWindow(flaky)
    for (const path of [
      '/candles?exchange=XETRA&symbol=SAP&timeframe=1h',
      '/footprint?exchange=XETRA&symbol=SAP&timeframe=1h',
      '/tpo?exchange=XETRA&symbol=SAP&timeframe=1d',
    ]) {
      const { r, cost } = await billed(path, MAIN, flaky)
      expectError(r, 503, 'unavailable', /retry|timed out/)
      rateHeaders(r, flaky)
      expect(cost).toBe(0)
    }
    expect((await flaky.get('/candles?exchange=XETRA&symbol=SAP&timeframe=1h&from=yesterday', MAIN)).status).toBe(400)
    expect((await flaky.get('/candles?exchange=CME&symbol=ES&timeframe=1h&limit=3', MAIN)).status).toBe(200)
  })
})

describe('credits', () => {
  test('the keys of one account share one balance', async () => {
    freshWindow()
    const a = await h.get('/exchanges', MAIN)
    const b = await h.get('/exchanges', MAIN2)
    expect(remaining(a)).toBe(99_000)
    expect(remaining(b)).toBe(98_000)
  })

  test('429 when the window is spent, Retry-After to the reset, every attempt 429 until then, then a full quota', async () => {
    const now = freshWindow()
    const reset = windowStart(now) + 60_000
    const big = '/candles?exchange=CME&symbol=ES&timeframe=1m&limit=10000'
    for (let i = 1; i <= 10; i++) {
      const r = await h.get(big, LIMIT)
      expect(r.status).toBe(200)
      expect(remaining(r)).toBe(100_000 - i * 10_000)
    }
    const spent = await h.get('/exchanges', LIMIT)
    expectError(spent, 429, 'rate_limited')
    expect(spent.headers.get('retry-after')).toBe(String((reset - now) / 1000))
    expect(spent.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(spent.headers.get('x-ratelimit-reset')).toBe(String(reset / 1000))
    // locked out: cheap, invalid and unknown-route requests alike (after auth)
    h.setNow(now + 20_500)
    for (const path of ['/timeframes', '/candles?bogus=1', '/exchanges/NOPE/securities']) {
      const r = await h.get(path, LIMIT)
      expectError(r, 429, 'rate_limited')
      expect(r.headers.get('retry-after')).toBe(String(Math.ceil((reset - (now + 20_500)) / 1000)))
    }
    expectError(await h.get('/timeframes', 'not-a-key'), 401, 'unauthenticated')
    // the window resets: the whole quota is back
    h.setNow(reset)
    const back = await h.get('/exchanges', LIMIT)
    expect(back.status).toBe(200)
    expect(remaining(back)).toBe(99_000)
    expect(back.headers.get('x-ratelimit-reset')).toBe(String(reset / 1000 + 60))
  })

  test('a request the remaining credits cannot cover is 429 and locks the account out; nothing is charged', async () => {
    const now = freshWindow()
    for (let i = 0; i < 9; i++)
      expect((await h.get('/candles?exchange=CME&symbol=ES&timeframe=1m&limit=10000', LIMIT)).status).toBe(200)
    const r = await h.get('/candles?exchange=CME&symbol=ES&timeframe=1m&limit=2000', LIMIT)
    expect(remaining(r)).toBe(8_000)
    const refused = await h.get('/candles?exchange=CME&symbol=ES&timeframe=1m&limit=9000', LIMIT)
    expectError(refused, 429, 'rate_limited')
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('8000')
    expect(refused.headers.get('retry-after')).toBe(String((windowStart(now) + 60_000 - now) / 1000))
    const cheap = await h.get('/exchanges', LIMIT)
    expectError(cheap, 429, 'rate_limited')
    expect(cheap.headers.get('x-ratelimit-remaining')).toBe('8000')
  })
})

describe('query parameter rules, paths and bodies (README: decisions of the example)', () => {
  test('/search: a repeated parameter is 400 naming it, unbilled', async () => {
    freshWindow()
    const before = await probe()
    expectError(await h.get('/search?q=apple&q=sap', MAIN), 400, 'invalid_argument', /\bq\b/)
    expectError(await h.get('/search?q=apple&limit=1&limit=2', MAIN), 400, 'invalid_argument', /limit/)
    expectError(await h.get('/search?q=apple&exchange=NASDAQ&exchange=CME', MAIN), 400, 'invalid_argument', /exchange/)
    expect(await probe()).toBe(before)
  })

  test('/search: q holds 1..128 characters, limit is an integer 1..50', async () => {
    freshWindow()
    expect((await h.get(`/search?q=${'a'.repeat(128)}`, MAIN)).status).toBe(200)
    expectError(await h.get(`/search?q=${'a'.repeat(129)}`, MAIN), 400, 'invalid_argument', /\bq\b/)
    // characters are code points: 128 emoji (256 UTF-16 units) fit, 129 do not
    expect((await h.get(`/search?q=${encodeURIComponent('😀'.repeat(128))}`, MAIN)).status).toBe(200)
    expectError(
      await h.get(`/search?q=${encodeURIComponent('😀'.repeat(129))}`, MAIN),
      400,
      'invalid_argument',
      /\bq\b/,
    )
    expect((await h.get('/search?q=a&limit=50', MAIN)).status).toBe(200)
    expect((await h.get('/search?q=a&limit=1', MAIN)).status).toBe(200)
    for (const limit of ['51', '100', '5x', '1.5', '-1', '', ' 5']) {
      expectError(await h.get(`/search?q=a&limit=${encodeURIComponent(limit)}`, MAIN), 400, 'invalid_argument', /limit/)
    }
  })

  test('/search: exchange restricts the results to that exchange', async () => {
    freshWindow()
    // "E-mini" futures are on CME; with exchange=NASDAQ none of them may come back
    const all = await h.get('/search?q=e', MAIN)
    expect(all.status).toBe(200)
    expect(all.body.results.some((r: { exchange: string }) => r.exchange === 'CME')).toBe(true)
    const nasdaq = await h.get('/search?q=e&exchange=NASDAQ', MAIN)
    expect(nasdaq.status).toBe(200)
    expect(nasdaq.body.results.length).toBeGreaterThan(0)
    for (const r of nasdaq.body.results) expect(r.exchange).toBe('NASDAQ')
  })

  test('/search: limit defaults to 10 (a catalog with more matches than that)', () => {
    const catalog = defaultCatalog()
    const { isin: _isin, ...template } = catalog.securities.find((s) => s.symbol === 'AAPL')!
    for (let i = 0; i < 15; i++) {
      catalog.securities.push({
        ...template,
        guid: `6f1c2a10-0099-4a5e-9c1d-${String(i).padStart(12, '0')}`,
        symbol: `ZZ${i}`,
        name: `Zeta ${i}`,
      })
    }
    const store = createStore(catalog, new Map())
    const r = handleRest({ endpoint: 'search' }, new URLSearchParams('q=zz'), { store, now: NOW })
    expect(r.ok).toBe(true)
    if (r.ok) expect((r.body as { results: unknown[] }).results).toHaveLength(10)
    const r50 = handleRest({ endpoint: 'search' }, new URLSearchParams('q=zz&limit=50'), { store, now: NOW })
    if (r50.ok) expect((r50.body as { results: unknown[] }).results).toHaveLength(15)
  })

  test('a bad percent-encoding in the path is 400 invalid_argument, unbilled', async () => {
    freshWindow()
    const before = await probe()
    expectError(await h.get('/exchanges/%E0/securities', MAIN), 400, 'invalid_argument')
    expectError(await h.get('/exchanges/NASDAQ/securities/%ZZ', MAIN), 400, 'invalid_argument')
    expect(await probe()).toBe(before)
    // a good encoding is decoded
    expect((await h.get('/exchanges/%4E%41SDAQ/securities/%41APL', MAIN)).body).toMatchObject({ symbol: 'AAPL' })
  })

  test('a path with more segments than /exchanges/{e}/securities/{s} is 404, unbilled', async () => {
    freshWindow()
    const before = await probe()
    expectError(await h.get('/exchanges/NASDAQ/securities/AAPL/extra', MAIN), 404, 'not_found', /no endpoint/)
    expectError(await h.get('/exchanges/NASDAQ/securities/AAPL/', MAIN), 404, 'not_found', /no endpoint/)
    expect(await probe()).toBe(before)
  })

  test('non-ASCII text in an answer: content-length counts bytes, the JSON arrives whole', async () => {
    freshWindow()
    const q = 'Zürich € 東京'
    const r = await h.get(`/search?q=${encodeURIComponent(q)}`, MAIN)
    expect(r.status).toBe(200)
    expect(r.body.query).toBe(q)
    expect(Number(r.headers.get('content-length'))).toBe(Buffer.byteLength(JSON.stringify(r.body)))
  })

  test('a 403 key of an account that is locked out is 403 without retry-after (only credit refusals carry it)', async () => {
    const t = await startHarness(
      [
        { key: 'open', account: 's' },
        { key: 'shut', account: 's', access: false },
      ],
      [],
    )
    try {
      const now = freshWindow(t)
      for (let i = 0; i < 10; i++)
        expect((await t.get('/candles?exchange=CME&symbol=ES&timeframe=1m&limit=10000', 'open')).status).toBe(200)
      const spent = await t.get('/exchanges', 'open')
      expectError(spent, 429, 'rate_limited')
      expect(spent.headers.get('retry-after')).toBe(String((windowStart(now) + 60_000 - now) / 1000))
      const r = await t.get('/exchanges', 'shut')
      expectError(r, 403, 'permission_denied')
      expect(r.headers.get('retry-after')).toBeNull()
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0')
    } finally {
      await t.close()
    }
  })
})
