import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import { accessTokenValidity, applyLinkOperation, checkAccessToken, tokenValidity, validateLinkRequest, type LinkOperationName } from '../../src/partner/index.js'

describe('validateLinkRequest: only own fields and the three operations', () => {
  it('fields inherited through the prototype are not fields of the body', () => {
    const body = Object.create({ security_guid: 'g-1', partner_security_id: 'P-1' }) as object
    for (const op of ['LinkSecurity', 'UnlinkSecurity', 'GetLinkedSecurity'] as const) {
      const r = validateLinkRequest(op, body)
      expect(r.ok).toBe(false)
      if (!r.ok) {
        expect(r.error.code).toBe(3)
        expect(r.error.message).toContain('security_guid')
      }
    }
    const r = applyLinkOperation(undefined, { operation: 'LinkSecurity', body })
    expect(r.next).toBeUndefined()
    expect(r.response.status.code).toBe(3)
  })

  it('names of Object.prototype members are unknown operations (3), never a crash', () => {
    for (const op of ['toString', 'constructor', 'hasOwnProperty', '__proto__', 'valueOf']) {
      const r = validateLinkRequest(op as LinkOperationName, { security_guid: 'g-1' })
      expect(r.ok).toBe(false)
      if (!r.ok) expect(r.error.code).toBe(3)
    }
  })
})

describe('token times: a non-finite now is a caller error (invalid_time)', () => {
  it('tokenValidity, accessTokenValidity and checkAccessToken throw for NaN and ±Infinity', () => {
    for (const now of [Number.NaN, Infinity, -Infinity]) {
      for (const call of [() => tokenValidity(now), () => accessTokenValidity(now), () => checkAccessToken('2026-06-01T12:30:00.000Z', now), () => checkAccessToken(Date.UTC(2026, 5, 1), now)]) {
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
