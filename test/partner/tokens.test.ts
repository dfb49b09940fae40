import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import {
  ACCESS_TOKEN_LIFETIME_MS,
  DEFAULT_REFRESH_TOKEN_LIFETIME_MS,
  accessTokenValidity,
  checkAccessToken,
  tokenValidity,
} from '../../src/partner/index.js'

const NOW = Date.UTC(2026, 5, 1, 12, 0, 0, 250)

describe('token expiry at the end of ISO 8601', () => {
  it('an expiry after 9999-12-31T23:59:59.999Z is refused (MarketDataError naming the field); up to it, it reads back', () => {
    const last = Date.UTC(9999, 11, 31, 23, 59, 59, 999)
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (life) => {
        if (NOW + life <= last) {
          const v = tokenValidity(NOW, { refreshLifetimeMs: life }).refresh_token.valid_to_time
          expect(Date.parse(v)).toBe(NOW + life)
          expect(checkAccessToken(v, NOW).code).toBe(0)
        } else
          expect(() => tokenValidity(NOW, { refreshLifetimeMs: life })).toThrow(
            expect.objectContaining({ field: 'refreshLifetimeMs' }),
          )
      }),
    )
    expect(() => tokenValidity(NOW, { refreshLifetimeMs: last - NOW + 1 })).toThrow(MarketDataError)
    expect(tokenValidity(NOW, { refreshLifetimeMs: last - NOW }).refresh_token.valid_to_time).toBe(
      '9999-12-31T23:59:59.999Z',
    )
    expect(() => accessTokenValidity(last - ACCESS_TOKEN_LIFETIME_MS + 1)).toThrow(
      expect.objectContaining({ field: 'now' }),
    )
    expect(accessTokenValidity(last - ACCESS_TOKEN_LIFETIME_MS).access_token.valid_to_time).toBe(
      '9999-12-31T23:59:59.999Z',
    )
  })
})

describe('token lifetimes', () => {
  it('Login: access token 30 minutes, refresh token 30 days by default, ISO 8601 UTC', () => {
    expect(tokenValidity(NOW)).toEqual({
      access_token: { valid_to_time: '2026-06-01T12:30:00.250Z' },
      refresh_token: { valid_to_time: '2026-07-01T12:00:00.250Z' },
    })
    expect(ACCESS_TOKEN_LIFETIME_MS).toBe(1_800_000)
    expect(DEFAULT_REFRESH_TOKEN_LIFETIME_MS).toBe(30 * 86_400_000)
  })

  it('the refresh lifetime is a setting', () => {
    expect(tokenValidity(NOW, { refreshLifetimeMs: 3_600_000 }).refresh_token.valid_to_time).toBe(
      '2026-06-01T13:00:00.250Z',
    )
    for (const bad of [0, -1, 1.5, Number.NaN])
      expect(() => tokenValidity(NOW, { refreshLifetimeMs: bad })).toThrow(MarketDataError)
  })

  it('Refresh answers only access_token', () => {
    const r = accessTokenValidity(NOW)
    expect(r).toEqual({ access_token: { valid_to_time: '2026-06-01T12:30:00.250Z' } })
    expect(Object.keys(r)).toEqual(['access_token'])
  })
})

describe('checkAccessToken', () => {
  const validTo = tokenValidity(NOW).access_token.valid_to_time
  it('valid until valid_to_time; from then on 16 UNAUTHENTICATED', () => {
    expect(checkAccessToken(validTo, NOW)).toEqual({ code: 0, message: '', details: [] })
    expect(checkAccessToken(validTo, NOW + ACCESS_TOKEN_LIFETIME_MS - 1).code).toBe(0)
    expect(checkAccessToken(validTo, NOW + ACCESS_TOKEN_LIFETIME_MS).code).toBe(16)
    expect(checkAccessToken(validTo, NOW + ACCESS_TOKEN_LIFETIME_MS + 1).code).toBe(16)
  })

  it('takes epoch ms (a JWT exp times 1000) and offsets', () => {
    expect(checkAccessToken(NOW + 1, NOW).code).toBe(0)
    expect(checkAccessToken(NOW, NOW).code).toBe(16)
    expect(checkAccessToken('2026-06-01T09:30:00-03:00', Date.UTC(2026, 5, 1, 12, 29)).code).toBe(0)
    expect(checkAccessToken('2026-06-01T09:30:00-03:00', Date.UTC(2026, 5, 1, 12, 30)).code).toBe(16)
  })

  it('an unreadable valid_to_time is 16, never a throw', () => {
    for (const bad of [
      '',
      'tomorrow',
      '2026-06-01T12:30:00',
      '2026-13-01T00:00:00Z',
      Number.NaN,
      Infinity,
      null as unknown as string,
    ]) {
      expect(checkAccessToken(bad, NOW).code).toBe(16)
    }
  })

  it('property: a freshly issued access token is valid exactly for 30 minutes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        fc.integer({ min: -10_000_000, max: 10_000_000 }),
        (issued, dt) => {
          const v = tokenValidity(issued).access_token.valid_to_time
          expect(checkAccessToken(v, issued + dt).code).toBe(dt < ACCESS_TOKEN_LIFETIME_MS ? 0 : 16)
        },
      ),
      { numRuns: 200 },
    )
  })
})

describe('token times: a non-finite now is a caller error (invalid_time)', () => {
  it('tokenValidity, accessTokenValidity and checkAccessToken throw for NaN and ±Infinity', () => {
    for (const now of [Number.NaN, Infinity, -Infinity]) {
      for (const call of [
        () => tokenValidity(now),
        () => accessTokenValidity(now),
        () => checkAccessToken('2026-06-01T12:30:00.000Z', now),
        () => checkAccessToken(Date.UTC(2026, 5, 1), now),
      ]) {
        let thrown: unknown
        try {
          call()
        } catch (e) {
          thrown = e
        }
        expect(thrown).toBeInstanceOf(MarketDataError)
        expect((thrown as MarketDataError).code).toBe('invalid_time')
      }
    }
  })
})
