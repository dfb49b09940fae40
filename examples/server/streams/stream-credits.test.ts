// Stream credits over real WebSocket connections with a pinned clock: the footprint cap, renewals at the
// window reset paid in open order, the stream that cannot pay, and a reconnect that pays again.
import { afterEach, describe, expect, it } from 'vitest'
import { startStreamHarness, type StreamHarness } from './stream-harness.js'
import type { Refused, StreamClient } from './stream-client.js'

/** 10 s into the stream window [15:00:00, 15:05:00). */
const T0 = Date.UTC(2026, 7, 20, 15, 0, 10)
const W1 = Date.UTC(2026, 7, 20, 15, 5, 0)
const W2 = Date.UTC(2026, 7, 20, 15, 10, 0)
const FP = { exchange: 'CME', symbol: 'ES', timeframe: '1m', rowSize: 4 }

let h: StreamHarness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

function opened(c: StreamClient | Refused): StreamClient {
  if (c.refused) throw new Error(`refused: ${c.status} ${JSON.stringify(c.body)}`)
  return c
}

describe('stream credits', () => {
  it('40 footprint streams at the cap, the 41st refused; renewals in open order; the one that cannot pay closes; a reconnect pays', async () => {
    h = await startStreamHarness({ now: T0 })
    const streams: StreamClient[] = []
    for (let i = 0; i < 40; i++) {
      const c = opened(await h.subscribe('footprint', FP))
      const sub = await c.next('subscribed')
      expect(sub.charged).toBe(25)
      expect(sub.credits).toEqual({ limit: 1000, remaining: 1000 - 25 * (i + 1), reset: W1 / 1000 })
      expect(c.headers['x-ratelimit-remaining']).toBe(String(1000 - 25 * i))
      streams.push(c)
    }
    // the cap answers before the credits (both fail here): 429 too_many_streams, no Retry-After
    const over = await h.open('footprint')
    expect(over.refused).toBe(true)
    if (!over.refused) throw new Error('accepted')
    expect(over.status).toBe(429)
    expect(over.body.error.code).toBe('too_many_streams')
    expect(over.headers['retry-after']).toBeUndefined()
    expect(over.headers['x-ratelimit-limit']).toBe('1000')
    expect(over.headers['x-ratelimit-remaining']).toBe('0')
    expect(over.headers['x-ratelimit-reset']).toBe(String(W1 / 1000))
    // credits: a candles stream is refused with Retry-After until the window resets
    const poor = await h.open('candles')
    if (!poor.refused) throw new Error('accepted')
    expect(poor.status).toBe(429)
    expect(poor.body.error.code).toBe('rate_limited')
    expect(poor.headers['retry-after']).toBe(String((W1 - T0) / 1000))

    // new window: a candles stream takes 10 first, then the 40 renewals (due 15:05:10) meet 990 credits
    h.setNow(W1 + 5000)
    const candles = opened(await h.subscribe('candles', { exchange: 'CME', symbol: 'NQ', timeframe: '5m' }))
    expect((await candles.next('subscribed')).credits.remaining).toBe(990)
    h.setNow(W1 + 10_000)
    await h.streams.settle()
    for (let i = 0; i < 39; i++) {
      const f = await streams[i]!.next('charged')
      expect(f).toMatchObject({ reason: 'renewal', charged: 25 })
      // the figures as they stand once the instant's renewals are settled: 990 - 39 * 25
      expect(f.credits).toEqual({ limit: 1000, remaining: 15, reset: W2 / 1000 })
    }
    const last = streams[39]!
    const err = await last.next('error')
    expect(err.code).toBe('rate_limited')
    expect(await last.closed).toEqual({ code: 1000, reason: 'rate_limited' })
    // open order: the 39 opened first paid, the one opened last could not
    expect(last.frames.some((f) => f.type === 'charged')).toBe(false)

    // a reconnect is a new handshake: 15 credits left in this window, so 429 until the reset
    const again = await h.open('footprint')
    if (!again.refused) throw new Error('accepted')
    expect(again.status).toBe(429)
    expect(again.body.error.code).toBe('rate_limited')
    expect(again.headers['x-ratelimit-remaining']).toBe('15')
    h.setNow(W2)
    const back = opened(await h.subscribe('footprint', FP))
    const sub = await back.next('subscribed')
    expect(sub.charged).toBe(25)
    expect(sub.credits.remaining).toBe(975)
    for (const c of [...streams.slice(0, 39), candles, back]) c.ws.close()
  })

  it('a stream refused before its confirm costs nothing, and a client close frees its slot', async () => {
    h = await startStreamHarness({ now: T0 })
    const bad = opened(await h.subscribe('footprint', { ...FP, symbol: 'NOPE' }))
    expect((await bad.next('error')).code).toBe('not_found')
    expect((await bad.closed).code).toBe(1008)
    const ok = opened(await h.subscribe('candles', { exchange: 'CME', symbol: 'ES', timeframe: '1m' }))
    expect((await ok.next('subscribed')).credits.remaining).toBe(990)
    ok.ws.close()
    await ok.closed
    await new Promise((r) => setTimeout(r, 50))
    const state = h.streams.credits.states().get('a')
    expect(state?.used).toBe(10)
    expect(state?.streams).toEqual([])
  })
})
