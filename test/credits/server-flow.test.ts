import { describe, expect, it } from 'vitest'
import { createRestLedger, createStreamLedger } from '../../src/credits/index.js'
import { priceOf, toHttpResponse } from '../../src/rules/index.js'

const T0 = Date.UTC(2026, 5, 1, 12, 0, 0)

describe('a server following the order of docs/service.md with the REST ledger', () => {
  /** auth -> 429 when locked -> (400/404 ...) -> read -> price -> charge. */
  function serve(ledger: ReturnType<typeof createRestLedger>, now: number, status: number, candles = 0) {
    const gate = ledger.check(now)
    if (gate.locked) return toHttpResponse(gate.error, gate.headers)
    const price = priceOf('candles', { status, candles })
    if (status !== 200) return { status, headers: gate.headers }
    const c = ledger.charge(now, price)
    if (!c.ok) return toHttpResponse(c.error, c.headers)
    return { status: 200, headers: c.headers }
  }

  it('unbilled 400/404 leave the balance untouched; a 200 is charged its price; the first uncovered one locks out', () => {
    const l = createRestLedger()
    expect(serve(l, T0, 400).headers['x-ratelimit-remaining']).toBe('100000')
    expect(serve(l, T0, 404).headers['x-ratelimit-remaining']).toBe('100000')
    for (let i = 0; i < 9; i++) expect(serve(l, T0 + i, 200, 10_000).status).toBe(200)
    expect(serve(l, T0 + 10, 200, 2500).headers['x-ratelimit-remaining']).toBe('7500')
    const refused = serve(l, T0 + 20_000, 200, 9000)
    expect(refused.status).toBe(429)
    expect(refused.headers).toMatchObject({
      'retry-after': '40',
      'x-ratelimit-remaining': '7500',
      'x-ratelimit-limit': '100000',
    })
    const locked = serve(l, T0 + 30_000, 400) // even a bad request is 429 during the lock-out
    expect(locked.status).toBe(429)
    expect(locked.headers['retry-after']).toBe('30')
    expect(serve(l, T0 + 60_000, 200, 100).headers['x-ratelimit-remaining']).toBe('99000') // minimum price 1,000
  })

  it('a handshake 429 carries limit 1000, remaining before the charge, reset and Retry-After', () => {
    const l = createStreamLedger()
    for (let i = 0; i < 20; i++) {
      const h = l.handshake(T0, 'orderbook')
      if (h.ok) l.confirm(T0, h.streamId)
    }
    const h = l.handshake(T0 + 1000, 'candles')
    if (h.ok) throw new Error('expected 429')
    const res = toHttpResponse(h.error, h.headers)
    expect(res.status).toBe(429)
    expect(res.body.error.code).toBe('rate_limited')
    expect(res.headers).toMatchObject({
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(T0 / 1000 + 300),
      'retry-after': '299',
    })
  })
})
