// Interface A's bounds: ListCandles answers at most MAX_LIST_CANDLES candles per call (pages that follow the
// status message add up to the whole range), links per partner are capped, Login attempts are throttled,
// and the heavy queue refuses work beyond its bound with "retry after".
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { candlesFromTrades } from '../../src/index.js'
import { NOW, OPS, startHarness, testStore, type Harness } from './harness.js'
import { MAX_LIST_CANDLES } from './list-candles.js'
import { createWorkQueue } from './work-queue.js'

const P1 = 'limits-partner-one'
const P2 = 'limits-partner-two'
const DAY = 86_400_000

let h: Harness
beforeAll(async () => {
  h = await startHarness([], [P1, P2], NOW, (s) => s, { limits: { maxLinksPerPartner: 3, loginsPerWindow: 4 } })
})
afterAll(async () => {
  await h.close()
})

async function token(key = P1): Promise<string> {
  const r = await h.post(OPS.login, { api_key: key })
  expect(r.body.status.code).toBe(0)
  return r.body.access_token.token
}

const esRange = (from: number, to: number) => ({
  security_id: { ticker_code: { ticker: 'ES', exchange_code: 'CME' } },
  time_frame: { time_unit: 'MINUTE', count: 1 },
  range: { first_bound_time: new Date(from).toISOString(), second_bound_time: new Date(to).toISOString() },
})

describe('ListCandles answers at most MAX_LIST_CANDLES candles', () => {
  test('a 1-minute request over all 60 days comes in capped pages; following the message, the pages add up to the whole range', async () => {
    h.setNow(Date.UTC(2026, 7, 20, 15, 1, 10))
    const access = await token()
    const start = NOW - 61 * DAY
    const all = candlesFromTrades(testStore(NOW).security('CME', 'ES')!.trades, {
      timeframe: '1m',
      tickSize: '0.25',
    }).map((c) => c.time)
    expect(all.length).toBeGreaterThan(2 * MAX_LIST_CANDLES)
    const got: number[] = []
    let from = start
    for (let page = 0; page < 20; page++) {
      const r = await h.post(OPS.listCandles, esRange(from, NOW), access)
      expect(r.body.status.code).toBe(0)
      const times = r.body.candles.map((c: any) => Date.parse(c.time))
      got.push(...times)
      if (times.length < MAX_LIST_CANDLES) {
        expect(r.body.status.message).toBe('')
        break
      }
      expect(times).toHaveLength(MAX_LIST_CANDLES)
      const last = times.at(-1)!
      expect(r.body.status.message).toContain(`the first ${MAX_LIST_CANDLES} candles`)
      expect(r.body.status.message).toContain(`after ${new Date(last).toISOString()}`)
      from = last + 1
    }
    expect(got).toEqual(all)
  })

  test('a count above the cap is answered with the cap and the message; backward reads the last candles', async () => {
    const access = await token()
    const count = (n: number) => ({
      ...esRange(0, 0),
      range: { first_bound_time: new Date(NOW).toISOString(), count: n },
    })
    const back = await h.post(OPS.listCandles, count(-20_000), access)
    expect(back.body.candles).toHaveLength(MAX_LIST_CANDLES)
    expect(back.body.status.message).toContain('before')
    const small = await h.post(OPS.listCandles, count(-10), access)
    expect(small.body.candles.map((c: any) => c.time)).toEqual(back.body.candles.slice(-10).map((c: any) => c.time))
    expect(small.body.status.message).toBe('')
  })
})

describe('per-partner link cap and Login throttle', () => {
  test('a partner holds at most maxLinksPerPartner links: a new GUID beyond it is RESOURCE_EXHAUSTED, relinking and unlinking still work', async () => {
    h.setNow(Date.UTC(2026, 7, 20, 15, 2, 10))
    const a1 = await token(P1)
    const a2 = await token(P2)
    const link = (g: string, a = a1) => h.post(OPS.link, { security_guid: g, partner_security_id: `X-${g}` }, a)
    for (const g of ['g1', 'g2', 'g3']) expect((await link(g)).body.status.code).toBe(0)
    const over = await link('g4')
    expect(over.body.status.code).toBe(8)
    expect(over.body.status.message).toContain('3 links')
    expect((await h.post(OPS.getLinked, { security_guid: 'g4' }, a1)).body.status.code).toBe(5)
    expect((await link('g3')).body.status.code).toBe(0) // overwriting an existing link is not a new one
    expect((await h.post(OPS.unlink, { security_guid: 'g1' }, a1)).body.status.code).toBe(0)
    expect((await link('g4')).body.status.code).toBe(0)
    expect((await link('g1', a2)).body.status.code).toBe(0) // the cap is per partner
  })

  test('more than loginsPerWindow Login attempts in a 60 s window are RESOURCE_EXHAUSTED with Retry-After; the next window allows them again', async () => {
    h.setNow(Date.UTC(2026, 7, 20, 15, 3, 50))
    for (let i = 0; i < 4; i++) expect((await h.post(OPS.login, { api_key: P1 })).body.status.code).toBe(0)
    const over = await h.post(OPS.login, { api_key: P1 })
    expect(over.body.status.code).toBe(8)
    expect(over.headers.get('retry-after')).toBe('10')
    expect(over.body.access_token).toBeUndefined()
    // another partner has its own count; unknown keys count per client address
    expect((await h.post(OPS.login, { api_key: P2 })).body.status.code).toBe(0)
    for (let i = 0; i < 4; i++) expect((await h.post(OPS.login, { api_key: `guess-${i}` })).body.status.code).toBe(16)
    expect((await h.post(OPS.login, { api_key: 'guess-5' })).body.status.code).toBe(8)
    h.setNow(Date.UTC(2026, 7, 20, 15, 4, 0))
    expect((await h.post(OPS.login, { api_key: P1 })).body.status.code).toBe(0)
  })
})

describe('the heavy queue is bounded', () => {
  test('at most `concurrency` jobs run, `maxQueued` wait in order, one more is refused at once', async () => {
    const q = createWorkQueue({ concurrency: 1, maxQueued: 2 })
    const order: number[] = []
    const gates: Array<() => void> = []
    const job = (i: number) => () =>
      new Promise<number>((resolve) => {
        order.push(i)
        gates.push(() => resolve(i))
      })
    const p1 = q.run(job(1))
    const p2 = q.run(job(2))
    const p3 = q.run(job(3))
    expect(q.run(job(4))).toBeUndefined()
    expect(q.load).toEqual({ running: 1, queued: 2 })
    expect(order).toEqual([1])
    gates.shift()!()
    expect(await p1).toBe(1)
    await new Promise((r) => setImmediate(r))
    expect(order).toEqual([1, 2])
    const p5 = q.run(job(5))
    expect(p5).toBeDefined()
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setImmediate(r))
      gates.shift()!()
    }
    expect(await Promise.all([p2, p3, p5])).toEqual([2, 3, 5])
    expect(order).toEqual([1, 2, 3, 5])
    expect(q.load).toEqual({ running: 0, queued: 0 })
  })

  test('over HTTP, ListCandles beyond the queue is answered status 14 with Retry-After: 1, the others in full', async () => {
    const small = await startHarness([], [P1], NOW, (s) => s, { limits: { heavyConcurrency: 1, heavyQueue: 1 } })
    try {
      const r = await small.post(OPS.login, { api_key: P1 })
      const access = r.body.access_token.token
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => small.post(OPS.listCandles, esRange(NOW - 60 * DAY, NOW), access)),
      )
      const busy = answers.filter((a) => a.body.status.code === 14)
      const full = answers.filter((a) => a.body.status.code === 0)
      expect(busy.length + full.length).toBe(8)
      expect(full.length).toBeGreaterThanOrEqual(2)
      expect(busy.length).toBeGreaterThanOrEqual(1)
      for (const b of busy) {
        expect(b.headers.get('retry-after')).toBe('1')
        expect(b.body.status.message).toMatch(/busy/)
        expect(b.body.candles).toEqual([])
      }
      for (const f of full) expect(f.body.candles).toHaveLength(MAX_LIST_CANDLES)
    } finally {
      await small.close()
    }
  })
})
