// A bounded load test: 2,000 requests over 8 concurrent connections on 127.0.0.1, in 20 REST windows of
// 100 requests (the injected clock moves to a new window between rounds, so the outcome is deterministic).
// Every answer is checked, and within each window the credits add up exactly. Then the isolation figure:
// GET /exchanges latency while 32 of the heaviest partner ListCandles requests are in flight (printed).
import { afterAll, beforeAll, expect, test } from 'vitest'
import { NOW, OPS, remaining, startHarness, windowStart, type Harness, type Reply } from './harness.js'
import { MAX_LIST_CANDLES } from './list-candles.js'

const KEY = 'load-key'
const ROUNDS = 20
const WORKERS = 8

interface Job {
  path: string
  status: number
  /** Credits the answer must cost: a constant, or per returned body (profiles are priced by count). */
  price: number | ((body: any) => number)
  check?: (body: any) => void
}

const clampPrice = (credits: number): number => Math.min(10_000, Math.max(1_000, credits))

const cheap = [
  '/exchanges',
  '/timeframes',
  '/exchanges/CME/securities',
  '/exchanges/NASDAQ/securities/AAPL',
  '/search?q=apple',
  '/exchanges/TSE/securities/7203',
]
const hourly = ['NASDAQ/AAPL', 'NASDAQ/MSFT', 'CME/ES', 'CME/NQ', 'XETRA/SAP', 'TSE/7203']

/** One window's 100 requests: 90 billed (at least 90,000 credits, at most 99,000), 10 unbilled errors. */
function round(): Job[] {
  const jobs: Job[] = []
  for (let i = 0; i < 79; i++) jobs.push({ path: cheap[i % cheap.length]!, status: 200, price: 1000 })
  for (let i = 0; i < 4; i++) {
    const [exchange, symbol] = hourly[i % hourly.length]!.split('/')
    jobs.push({
      path: `/candles?exchange=${exchange}&symbol=${symbol}&timeframe=1h&limit=24`,
      status: 200,
      price: 1000,
      check: (b) => expect(b.candles).toHaveLength(24),
    })
  }
  jobs.push({
    path: '/candles?exchange=CME&symbol=ES&timeframe=1h&limit=1000',
    status: 200,
    price: 1000,
    check: (b) => expect(b.candles.length).toBeGreaterThan(900),
  })
  jobs.push({
    path: '/footprint?exchange=CME&symbol=ES&timeframe=1m&period=36000',
    status: 200,
    price: (b) => clampPrice(10 * b.profiles.length),
    check: (b) => expect(b.profiles.length).toBeGreaterThan(100),
  })
  for (let i = 0; i < 4; i++) {
    jobs.push({
      path: '/footprint?exchange=CME&symbol=NQ&timeframe=1h&rowSize=8&period=7200',
      status: 200,
      price: 1000,
      check: (b) => expect(b.profiles.length).toBeGreaterThan(0),
    })
  }
  for (let i = 0; i < 1; i++) {
    jobs.push({
      path: '/tpo?exchange=XETRA&symbol=SAP&timeframe=1d&period=86400',
      status: 200,
      price: 1000,
      check: (b) => expect(b.profiles.length).toBeGreaterThan(0),
    })
  }
  for (let i = 0; i < 5; i++)
    jobs.push({ path: `/candles?exchange=CME&symbol=ES&timeframe=1m&limit=${10_001 + i}`, status: 400, price: 0 })
  for (let i = 0; i < 5; i++) jobs.push({ path: '/exchanges/NOPE/securities', status: 404, price: 0 })
  // interleave the kinds deterministically
  return jobs
    .map((j, i) => ({ j, k: (i * 37) % jobs.length }))
    .sort((a, b) => a.k - b.k)
    .map((x) => x.j)
}

let h: Harness
beforeAll(async () => {
  h = await startHarness([{ key: KEY, account: 'load' }], [])
})
afterAll(async () => {
  await h.close()
})

test('2,000 requests over 8 connections: every answer right, credits exact in every window', async () => {
  const ids = new Set<string>()
  let total = 0
  let lastBilled = 0
  for (let r = 0; r < ROUNDS; r++) {
    const now = windowStart(NOW) + (r + 1) * 60_000 + 5_000
    h.setNow(now)
    const jobs = round()
    const answers: Array<{ job: Job; reply: Reply }> = []
    let next = 0
    const worker = async (): Promise<void> => {
      while (next < jobs.length) {
        const job = jobs[next++]!
        answers.push({ job, reply: await h.get(job.path, KEY) })
      }
    }
    await Promise.all(Array.from({ length: WORKERS }, worker))
    expect(answers).toHaveLength(100)
    const seen: Array<{ remaining: number; price: number }> = []
    const errorRemaining: number[] = []
    for (const { job, reply } of answers) {
      expect(reply.status, job.path).toBe(job.status)
      const id = reply.headers.get('x-request-id')!
      expect(ids.has(id)).toBe(false)
      ids.add(id)
      expect(reply.headers.get('x-ratelimit-limit')).toBe('100000')
      expect(reply.headers.get('x-ratelimit-reset')).toBe(String((windowStart(now) + 60_000) / 1000))
      if (job.status === 200) {
        job.check?.(reply.body)
        seen.push({
          remaining: remaining(reply),
          price: typeof job.price === 'number' ? job.price : job.price(reply.body),
        })
      } else {
        expect(reply.body.error.code).toBe(job.status === 400 ? 'invalid_argument' : 'not_found')
        errorRemaining.push(remaining(reply))
      }
    }
    // Each billed answer's remaining is the previous one minus exactly its own price: no credit lost or doubled.
    seen.sort((a, b) => b.remaining - a.remaining)
    let expected = 100_000
    for (const s of seen) {
      expected -= s.price
      expect(s.remaining).toBe(expected)
    }
    const billed = seen.reduce((sum, x) => sum + x.price, 0)
    expect(seen).toHaveLength(90)
    expect(billed).toBeGreaterThan(90_000)
    expect(expected).toBe(100_000 - billed)
    lastBilled = billed
    // An unbilled answer shows the balance as it stood: one of the values the billed answers produced.
    const states = new Set([100_000, ...seen.map((s) => s.remaining)])
    for (const e of errorRemaining) expect(states.has(e)).toBe(true)
    total += answers.length
  }
  expect(total).toBe(2_000)
  expect(ids.size).toBe(2_000)
  // The ledger agrees: the last window holds exactly the credits of its round.
  expect(h.server.ledgers.get('load')!.state()).toEqual({
    windowStart: windowStart(NOW) + ROUNDS * 60_000,
    used: lastBilled,
    locked: false,
  })
})

/** The q-quantile (nearest rank) of sorted values. */
const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!

test('32 of the heaviest ListCandles in flight: GET /exchanges stays fast (p99 printed; bound generous for a shared machine)', async () => {
  const accounts = Array.from({ length: 4 }, (_, i) => ({ key: `iso-${i}`, account: `iso-${i}` }))
  const iso = await startHarness(accounts, ['iso-partner'])
  try {
    const access = (await iso.post(OPS.login, { api_key: 'iso-partner' })).body.access_token.token
    const DAY = 86_400_000
    // the heaviest allowed: 1-minute candles over the whole data (capped), and daily candles over it (reads every minute)
    const heavy = (i: number) => ({
      security_id: {
        ticker_code: {
          ticker: ['ES', 'NQ', 'AAPL', 'SAP'][i % 4]!,
          exchange_code: ['CME', 'CME', 'NASDAQ', 'XETRA'][i % 4]!,
        },
      },
      time_frame: i % 2 === 0 ? { time_unit: 'MINUTE', count: 1 } : { time_unit: 'DAY', count: 1 },
      range: {
        first_bound_time: new Date(NOW - 70 * DAY).toISOString(),
        second_bound_time: new Date(NOW).toISOString(),
      },
    })
    let heavyDone = 0
    const started = performance.now()
    // heavy answers are read as text and parsed after the timing: the client shares this process's event loop
    const heavyAll = Promise.all(
      Array.from({ length: 32 }, async (_, i) => {
        const r = await fetch(`${iso.partner}${OPS.listCandles}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accesstoken: access },
          body: JSON.stringify(heavy(i)),
        })
        const text = await r.text()
        heavyDone++
        return text
      }),
    )
    const latencies: number[] = []
    for (let i = 0; i < 360 && (heavyDone < 32 || latencies.length < 50); i++) {
      const t0 = performance.now()
      const r = await iso.get('/exchanges', accounts[Math.floor(i / 90)]!.key)
      latencies.push(performance.now() - t0)
      expect(r.status).toBe(200)
    }
    const answers = (await heavyAll).map((t) => JSON.parse(t) as { status: { code: number }; candles: unknown[] })
    const heavyMs = performance.now() - started
    for (const [i, a] of answers.entries()) {
      expect(a.status.code).toBe(0)
      if (i % 2 === 0) expect(a.candles).toHaveLength(MAX_LIST_CANDLES)
      else expect(a.candles.length).toBeGreaterThan(40)
    }
    const sorted = latencies.slice().sort((a, b) => a - b)
    const p50 = quantile(sorted, 0.5)
    const p99 = quantile(sorted, 0.99)
    console.log(
      `isolation: 32 heavy ListCandles in flight (done in ${(heavyMs / 1000).toFixed(1)} s): GET /exchanges over ${latencies.length} requests p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`,
    )
    // target p99 < 100 ms on an idle machine; the bound here is generous (2 cores shared by other work)
    expect(p99).toBeLessThan(1000)
  } finally {
    await iso.close()
  }
})
