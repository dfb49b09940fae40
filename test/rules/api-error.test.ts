import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  invalidArgumentError,
  notFoundError,
  permissionDeniedError,
  rateLimitedError,
  toHttpResponse,
  tooManyStreamsError,
  tooMuchDataError,
  unauthenticatedError,
  unavailableError,
  type ApiError,
} from '../../src/rules/index.js'

describe('one constructor per row of the spec error table', () => {
  const rows: [string, ApiError, number, string][] = [
    ['400 invalid argument', invalidArgumentError('limit: must be at most 10000', 'limit'), 400, 'invalid_argument'],
    ['400 too much data', tooMuchDataError(1000, 'footprint profiles'), 400, 'too_much_data'],
    ['401 missing or invalid key', unauthenticatedError(), 401, 'unauthenticated'],
    ['403 no access', permissionDeniedError(), 403, 'permission_denied'],
    ['404 unknown exchange', notFoundError('exchange'), 404, 'not_found'],
    ['404 symbol not listed', notFoundError('security'), 404, 'not_found'],
    ['404 no data', notFoundError('data'), 404, 'not_found'],
    ['429 quota exhausted', rateLimitedError(30), 429, 'rate_limited'],
    ['502 upstream', unavailableError(502), 502, 'unavailable'],
    ['503 upstream', unavailableError(503), 503, 'unavailable'],
    ['504 upstream', unavailableError(504), 504, 'unavailable'],
  ]
  it.each(rows)('%s', (_name, e, status, code) => {
    expect(e.status).toBe(status)
    expect(e.code).toBe(code)
    expect(e.message.length).toBeGreaterThan(0)
  })

  it('404 messages are the spec words', () => {
    expect(notFoundError('exchange').message).toBe('exchange not found')
    expect(notFoundError('security').message).toBe('security not found')
    expect(notFoundError('data').message).toBe('data not found')
  })

  it('too_much_data names the cap in digits', () => {
    expect(tooMuchDataError(1000, 'footprint profiles').message).toContain('1000')
    expect(tooMuchDataError(400, 'TPO profiles').message).toContain('400')
  })

  it('invalid_argument keeps the parameter it names', () => {
    expect(invalidArgumentError('from: bad', 'from').parameter).toBe('from')
    expect(invalidArgumentError('bad')).toEqual({ status: 400, code: 'invalid_argument', message: 'bad' })
  })

  it('429 retryAfter is whole seconds, rounded up, at least 1', () => {
    expect(rateLimitedError(12.2).retryAfter).toBe(13)
    expect(rateLimitedError(0).retryAfter).toBe(1)
    expect(rateLimitedError(-5).retryAfter).toBe(1)
    expect(rateLimitedError(Number.NaN).retryAfter).toBe(1)
    expect(rateLimitedError(60).retryAfter).toBe(60)
  })

  it('too_many_streams is a 429 without Retry-After', () => {
    const e = tooManyStreamsError('orderbook', 20)
    expect(e).toMatchObject({ status: 429, code: 'too_many_streams' })
    expect(e.retryAfter).toBeUndefined()
    expect(e.message).toContain('20')
    expect(toHttpResponse(e).headers['retry-after']).toBeUndefined()
  })

  it('unavailable defaults to 503 and keeps a given message', () => {
    expect(unavailableError().status).toBe(503)
    expect(unavailableError(502, 'upstream reset').message).toBe('upstream reset')
  })
})

describe('toHttpResponse', () => {
  it('answers the spec body {error: {code, message}} and the status', () => {
    const r = toHttpResponse(notFoundError('exchange'), { 'x-request-id': 'req-1' })
    expect(r.status).toBe(404)
    expect(r.body).toEqual({ error: { code: 'not_found', message: 'exchange not found' } })
    expect(r.headers['x-request-id']).toBe('req-1')
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(r.headers['retry-after']).toBeUndefined()
  })

  it('429 adds Retry-After in seconds, replacing a caller header of any case', () => {
    const r = toHttpResponse(rateLimitedError(29.5), { 'Retry-After': '999', 'x-ratelimit-remaining': 0 })
    expect(r.status).toBe(429)
    expect(r.headers['retry-after']).toBe('30')
    expect(r.headers['Retry-After']).toBeUndefined()
    expect(r.headers['x-ratelimit-remaining']).toBe('0')
  })

  it('the body carries only code and message (no retryAfter, no parameter)', () => {
    const r = toHttpResponse(invalidArgumentError('from: bad', 'from'))
    expect(Object.keys(r.body.error).sort()).toEqual(['code', 'message'])
  })

  it('never mutates its inputs and keeps odd header names as plain keys', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.oneof(fc.string(), fc.constant('__proto__')), fc.string()),
        fc.integer({ min: 1, max: 600 }),
        (headers, s) => {
          const copy = JSON.stringify(headers)
          const e = rateLimitedError(s)
          const r = toHttpResponse(e, headers)
          expect(JSON.stringify(headers)).toBe(copy)
          expect(Object.getPrototypeOf(r.headers)).toBe(Object.prototype)
          expect(r.headers['retry-after']).toBe(String(s))
          for (const k of Object.keys(headers)) {
            const lower = k.toLowerCase()
            if (lower !== 'retry-after' && lower !== 'content-type')
              expect(Object.getOwnPropertyDescriptor(r.headers, k)?.value).toBe(headers[k])
          }
        },
      ),
      { numRuns: 200 },
    )
  })
})

describe('unavailableError: one message per status', () => {
  it('502, 503 (the default) and 504 each have their own message', () => {
    expect(unavailableError(502)).toEqual({
      status: 502,
      code: 'unavailable',
      message: 'bad upstream response; retry later',
    })
    expect(unavailableError(503)).toEqual({
      status: 503,
      code: 'unavailable',
      message: 'service temporarily unavailable; retry later',
    })
    expect(unavailableError(504)).toEqual({
      status: 504,
      code: 'unavailable',
      message: 'upstream timed out; retry later',
    })
    expect(unavailableError()).toEqual(unavailableError(503))
    expect(unavailableError(504, 'x')).toEqual({ status: 504, code: 'unavailable', message: 'x' })
  })
})

describe('toHttpResponse: retry-after only on a 429', () => {
  it('an error of another status that happens to carry retryAfter gets no retry-after header', () => {
    for (const status of [400, 503, 504]) {
      const e: ApiError = {
        status,
        code: status === 400 ? 'invalid_argument' : 'unavailable',
        message: 'm',
        retryAfter: 7,
      }
      const r = toHttpResponse(e, { 'x-request-id': 'r1', 'Retry-After': '3' })
      expect(r.headers['retry-after']).toBeUndefined()
      expect(r.headers['Retry-After']).toBe('3') // the caller's own header is kept as given
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8')
    }
    expect(
      toHttpResponse({ status: 429, code: 'rate_limited', message: 'm', retryAfter: 7 }).headers['retry-after'],
    ).toBe('7')
  })
})
