// The REST history endpoints in worker threads: the same answers as on the event loop (bodies, statuses,
// prices, the library's 400s), and cheap requests answered while 32 heavy history requests are in flight.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { NOW, startHarness, type Harness } from './harness.js'

const accounts = Array.from({ length: 40 }, (_, i) => ({ key: `pool-${i}`, account: `pool-${i}` }))
let pooled: Harness
let inline: Harness
beforeAll(async () => {
  pooled = await startHarness(accounts, [], NOW, (s) => s, { limits: { restWorkers: 2 } })
  inline = await startHarness(accounts, [], NOW, (s) => s, { limits: { restWorkers: 0 } })
})
afterAll(async () => {
  await pooled.close()
  await inline.close()
})

const DAY_S = 86_400
const history = [
  '/footprint?exchange=CME&symbol=ES&timeframe=1h&rowSize=4&period=172800',
  `/footprint?exchange=CME&symbol=NQ&timeframe=1d&period=${30 * DAY_S}`,
  `/tpo?exchange=XETRA&symbol=SAP&timeframe=1d&period=${10 * DAY_S}&mergeSessions=GROUP_BY_TYPE`,
  '/candles?exchange=NASDAQ&symbol=AAPL&timeframe=1h&limit=500',
  '/candles?exchange=CME&symbol=ES&timeframe=100t&limit=50',
  '/footprint/row-size-scale?exchange=CME&symbol=ES&timeframe=15m',
  '/footprint?exchange=CME&symbol=ES&timeframe=1h&rowSizeValue=9007199254740993&period=7200',
  '/footprint?exchange=CME&symbol=ES&timeframe=7m&period=7200',
  '/tpo?exchange=NOPE&symbol=ES&timeframe=1d',
]

test('worker answers equal event-loop answers: bodies, statuses, prices and errors', async () => {
  const before = pooled.server.restPool!.load.done
  for (const [i, path] of history.entries()) {
    const key = accounts[i]!.key
    const a = await pooled.get(path, key)
    const b = await inline.get(path, key)
    expect(a.status, path).toBe(b.status)
    expect(a.body, path).toEqual(b.body)
    expect(a.headers.get('x-ratelimit-remaining'), path).toBe(b.headers.get('x-ratelimit-remaining'))
  }
  expect(pooled.server.restPool!.load.done - before).toBe(history.length)
  expect(inline.server.restPool).toBeUndefined()
})

const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!

test('32 heavy history requests in flight: cheap requests are answered meanwhile (bound generous for a shared machine)', async () => {
  pooled.setNow(NOW + 60_000)
  const heavyPaths = [
    `/footprint?exchange=CME&symbol=ES&timeframe=1h&period=${40 * DAY_S}`,
    `/tpo?exchange=CME&symbol=NQ&timeframe=1d&period=${59 * DAY_S}`,
    '/candles?exchange=NASDAQ&symbol=AAPL&timeframe=1m&limit=10000',
    `/footprint?exchange=XETRA&symbol=SAP&timeframe=1m&period=59940`,
  ]
  let heavyDone = 0
  const heavy = Promise.all(
    Array.from({ length: 32 }, async (_, i) => {
      const r = await fetch(`${pooled.rest}${heavyPaths[i % 4]}`, { headers: { 'x-api-key': accounts[i]!.key } })
      const text = await r.text()
      heavyDone++
      return r.status === 200 ? 200 : text
    }),
  )
  const latencies: number[] = []
  let answeredDuringHeavy = 0
  for (let i = 0; i < 300 && (heavyDone < 32 || latencies.length < 20); i++) {
    const t0 = performance.now()
    const r = await pooled.get('/timeframes', accounts[32 + Math.floor(i / 90)]!.key)
    latencies.push(performance.now() - t0)
    expect(r.status).toBe(200)
    if (heavyDone < 32) answeredDuringHeavy++
  }
  expect(await heavy).toEqual(Array(32).fill(200))
  const sorted = latencies.slice().sort((a, b) => a - b)
  console.log(
    `REST pool: GET /timeframes with 32 heavy history requests in flight: ${answeredDuringHeavy} answered while they ran, p50 ${quantile(sorted, 0.5).toFixed(1)} ms, p99 ${quantile(sorted, 0.99).toFixed(1)} ms`,
  )
  expect(answeredDuringHeavy).toBeGreaterThan(5)
  expect(quantile(sorted, 0.99)).toBeLessThan(1000)
})
