import { describe, expect, it } from 'vitest'
import { parseSecurityId, toHttpResponse, unavailableError, type ApiError } from '../../src/rules/index.js'

describe('unavailableError: one message per status', () => {
  it('502, 503 (the default) and 504 each have their own message', () => {
    expect(unavailableError(502)).toEqual({ status: 502, code: 'unavailable', message: 'bad upstream response; retry later' })
    expect(unavailableError(503)).toEqual({ status: 503, code: 'unavailable', message: 'service temporarily unavailable; retry later' })
    expect(unavailableError(504)).toEqual({ status: 504, code: 'unavailable', message: 'upstream timed out; retry later' })
    expect(unavailableError()).toEqual(unavailableError(503))
    expect(unavailableError(504, 'x')).toEqual({ status: 504, code: 'unavailable', message: 'x' })
  })
})

describe('toHttpResponse: retry-after only on a 429', () => {
  it('an error of another status that happens to carry retryAfter gets no retry-after header', () => {
    for (const status of [400, 503, 504]) {
      const e: ApiError = { status, code: status === 400 ? 'invalid_argument' : 'unavailable', message: 'm', retryAfter: 7 }
      const r = toHttpResponse(e, { 'x-request-id': 'r1', 'Retry-After': '3' })
      expect(r.headers['retry-after']).toBeUndefined()
      expect(r.headers['Retry-After']).toBe('3') // the caller's own header is kept as given
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8')
    }
    expect(toHttpResponse({ status: 429, code: 'rate_limited', message: 'm', retryAfter: 7 }).headers['retry-after']).toBe('7')
  })
})

describe('parseSecurityId: strings of exactly 128 characters are accepted', () => {
  it('guid, ticker and exchange_code at 128 pass, at 129 fail', () => {
    const s128 = 'g'.repeat(128)
    expect(parseSecurityId({ guid: s128 })).toEqual({ ok: true, value: { guid: s128 } })
    expect(parseSecurityId({ ticker_code: { ticker: s128, exchange_code: s128 } }).ok).toBe(true)
    expect(parseSecurityId({ guid: `${s128}x` }).ok).toBe(false)
    expect(parseSecurityId({ ticker_code: { ticker: 'A', exchange_code: `${s128}x` } }).ok).toBe(false)
  })
})
