// The stream protocol's refusals over real ws connections: every bad upgrade is an HTTP answer with the
// service's JSON error; every bad client frame is an `error` frame with a documented code and close code;
// none costs a credit and the server keeps serving.
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startStreamHarness, type StreamHarness } from './stream-harness.js'
import type { Refused, StreamClient } from './stream-client.js'

let h: StreamHarness
beforeAll(async () => {
  h = await startStreamHarness({
    keys: [
      { key: 'k1', account: 'a' },
      { key: 'k0', account: 'a', access: false },
    ],
  })
})
afterAll(() => h.close())

const opened = (c: StreamClient | Refused): StreamClient => {
  if (c.refused) throw new Error(`refused: ${c.status} ${JSON.stringify(c.body)}`)
  return c
}
const refused = (c: StreamClient | Refused): Refused => {
  if (!c.refused) throw new Error('accepted')
  return c
}

/** Sends one frame on a new footprint (or candles) connection; resolves with the error frame and the close. */
async function answerTo(frame: string | Buffer, kind = 'footprint', binary = false) {
  const c = opened(await h.open(kind))
  c.ws.send(frame, { binary })
  const error = await c.next('error')
  return { error, close: await c.closed }
}

const ES = { type: 'subscribe', exchange: 'CME', symbol: 'ES', timeframe: '1m' }

describe('upgrade refusals', () => {
  it('401 without a key, 403 for a key without access, 404 for an unknown path or the order book, 400 for a query', async () => {
    const none = refused(await h.open('footprint', 'nope'))
    expect([none.status, none.body.error.code]).toEqual([401, 'unauthenticated'])
    const denied = refused(await h.open('footprint', 'k0'))
    expect([denied.status, denied.body.error.code]).toEqual([403, 'permission_denied'])
    const path = refused(await h.open('trades'))
    expect([path.status, path.body.error.code]).toEqual([404, 'not_found'])
    const book = refused(await h.open('orderbook'))
    expect(book.status).toBe(404)
    expect(book.body.error.message).toContain('order book')
    const q = refused(await h.open('candles?symbol=ES'))
    expect([q.status, q.body.error.code]).toEqual([400, 'invalid_argument'])
    expect(typeof q.headers['x-request-id']).toBe('string')
  })
})

describe('bad client frames', () => {
  it('an unknown field, a bad timeframe, a tick frame, a bad rowSize: invalid_argument and 1008', async () => {
    for (const [frame, kind, words] of [
      [{ ...ES, rowSize: 4, depth: 3 }, 'footprint', 'unknown field "depth"'],
      [{ ...ES, rowSize: 4 }, 'candles', 'unknown field "rowSize"'],
      [{ ...ES, timeframe: '60m' }, 'footprint', 'timeframe'],
      [{ ...ES, timeframe: '10t' }, 'candles', 'tick frames are not streamed'],
      [{ ...ES, rowSize: 0 }, 'footprint', 'rowSize'],
      [{ ...ES, symbol: 7 }, 'footprint', 'symbol'],
      [{ type: 'unsubscribe' }, 'footprint', 'type'],
      [[1, 2], 'candles', 'JSON object'],
    ] as const) {
      const r = await answerTo(JSON.stringify(frame), kind)
      expect(r.error.code, JSON.stringify(frame)).toBe('invalid_argument')
      expect(r.error.message).toContain(words)
      expect(r.close.code).toBe(1008)
    }
    const text = await answerTo('{"type": subscribe')
    expect([text.error.code, text.close.code]).toEqual(['invalid_argument', 1008])
  })

  it('an unknown exchange or security: not_found and 1008', async () => {
    const ex = await answerTo(JSON.stringify({ ...ES, exchange: 'NOPE' }))
    expect([ex.error.code, ex.error.message, ex.close.code]).toEqual(['not_found', 'exchange not found', 1008])
    const sec = await answerTo(JSON.stringify({ ...ES, symbol: 'NOPE' }))
    expect([sec.error.code, sec.error.message, sec.close.code]).toEqual(['not_found', 'security not found', 1008])
  })

  it('an oversized frame: too_much_data and 1009; past the transport bound ws closes 1009 itself; binary: 1003', async () => {
    const big = await answerTo(JSON.stringify({ ...ES, pad: 'x'.repeat(5000) }))
    expect([big.error.code, big.close.code]).toEqual(['too_much_data', 1009])
    expect(big.error.message).toContain('at most 4096')
    const huge = opened(await h.open('candles'))
    huge.ws.send('x'.repeat(2 << 20))
    expect((await huge.closed).code).toBe(1009)
    const bin = await answerTo(Buffer.from([1, 2, 3]), 'candles', true)
    expect([bin.error.code, bin.close.code]).toEqual(['invalid_argument', 1003])
  })

  it('ping is answered; a second subscribe on a subscribed connection ends it; bad frames cost nothing', async () => {
    const c = opened(await h.subscribe('candles', { exchange: 'CME', symbol: 'ES', timeframe: '1m' }))
    const sub = await c.next('subscribed')
    c.send({ type: 'ping', id: 7 })
    expect(await c.next('pong')).toEqual({ type: 'pong', id: 7 })
    c.send(ES)
    expect((await c.next('error')).message).toContain('one stream a connection')
    expect((await c.closed).code).toBe(1008)
    // only this stream's 10 credits were taken in this window: every refusal above cost nothing
    expect(sub.credits.remaining).toBe(990)
    await new Promise((r) => setTimeout(r, 50))
    expect(h.streams.credits.states().get('a')).toMatchObject({ used: 10, streams: [] })
    expect(h.streams.hub.stats().connections).toBe(0)
  })

  it('a connection that never subscribes is closed and costs nothing', async () => {
    const h2 = await startStreamHarness({ limits: { subscribeTimeoutMs: 200 } })
    try {
      const c = opened(await h2.open('footprint'))
      expect((await c.next('error')).message).toContain('no subscribe message within 200 ms')
      expect((await c.closed).code).toBe(1008)
      await new Promise((r) => setTimeout(r, 50))
      expect(h2.streams.credits.states().get('a')).toMatchObject({ used: 0, streams: [] })
    } finally {
      await h2.close()
    }
  })

  it('a client without the subprotocol still connects with x-api-key (any ws client)', async () => {
    const ws = new WebSocket(h.wsUrl('candles'), { headers: { 'x-api-key': 'k1' } })
    await new Promise((ok, fail) => {
      ws.once('open', ok)
      ws.once('error', fail)
    })
    ws.close()
  })
})
