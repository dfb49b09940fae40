// A bounded load test: 2,000 requests over 8 concurrent connections on 127.0.0.1, in 20 REST windows of
// 100 requests (the injected clock moves to a new window between rounds, so the outcome is deterministic).
// Every answer is checked, and within each window the credits add up exactly.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { NOW, remaining, startHarness, windowStart, type Harness, type Reply } from './harness.js'

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

const cheap = ['/exchanges', '/timeframes', '/exchanges/CME/securities', '/exchanges/NASDAQ/securities/AAPL', '/search?q=apple', '/exchanges/TSE/securities/7203']
const hourly = ['NASDAQ/AAPL', 'NASDAQ/MSFT', 'CME/ES', 'CME/NQ', 'XETRA/SAP', 'TSE/7203']

/** One window's 100 requests: 90 billed (at least 90,000 credits, at most 99,000), 10 unbilled errors. */
function round(): Job[] {
  const jobs: Job[] = []
  for (let i = 0; i < 79; i++) jobs.push({ path: cheap[i % cheap.length]!, status: 200, price: 1000 })
  for (let i = 0; i < 4; i++) {
    const [exchange, symbol] = hourly[i % hourly.length]!.split('/')
    jobs.push({ path: `/candles?exchange=${exchange}&symbol=${symbol}&timeframe=1h&limit=24`, status: 200, price: 1000, check: (b) => expect(b.candles).toHaveLength(24) })
  }
  jobs.push({ path: '/candles?exchange=CME&symbol=ES&timeframe=1h&limit=1000', status: 200, price: 1000, check: (b) => expect(b.candles.length).toBeGreaterThan(900) })
  jobs.push({
    path: '/footprint?exchange=CME&symbol=ES&timeframe=1m&period=36000',
    status: 200,
    price: (b) => clampPrice(10 * b.profiles.length),
    check: (b) => expect(b.profiles.length).toBeGreaterThan(100),
  })
  for (let i = 0; i < 4; i++) {
    jobs.push({ path: '/footprint?exchange=CME&symbol=NQ&timeframe=1h&rowSize=8&period=7200', status: 200, price: 1000, check: (b) => expect(b.profiles.length).toBeGreaterThan(0) })
  }
  for (let i = 0; i < 1; i++) {
    jobs.push({ path: '/tpo?exchange=XETRA&symbol=SAP&timeframe=1d&period=86400', status: 200, price: 1000, check: (b) => expect(b.profiles.length).toBeGreaterThan(0) })
  }
  for (let i = 0; i < 5; i++) jobs.push({ path: `/candles?exchange=CME&symbol=ES&timeframe=1m&limit=${10_001 + i}`, status: 400, price: 0 })
  for (let i = 0; i < 5; i++) jobs.push({ path: '/exchanges/NOPE/securities', status: 404, price: 0 })
  // interleave the kinds deterministically
  return jobs.map((j, i) => ({ j, k: (i * 37) % jobs.length })).sort((a, b) => a.k - b.k).map((x) => x.j)
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
        seen.push({ remaining: remaining(reply), price: typeof job.price === 'number' ? job.price : job.price(reply.body) })
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
  expect(h.server.ledgers.get('load')!.state()).toEqual({ windowStart: windowStart(NOW) + ROUNDS * 60_000, used: lastBilled, locked: false })
})
