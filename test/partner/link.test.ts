import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import {
  applyLinkOperation,
  validateLinkRequest,
  type LinkedSecurity,
  type LinkOperationName,
} from '../../src/partner/index.js'

const link = (guid: string, pid: string) => ({
  operation: 'LinkSecurity' as const,
  body: { security_guid: guid, partner_security_id: pid },
})
const unlink = (guid: string) => ({ operation: 'UnlinkSecurity' as const, body: { security_guid: guid } })
const get = (guid: string) => ({ operation: 'GetLinkedSecurity' as const, body: { security_guid: guid } })

describe('applyLinkOperation: the state table', () => {
  it('unlinked + LinkSecurity -> linked, status 0 with a success message', () => {
    const r = applyLinkOperation(undefined, link('g-1', 'P-1'))
    expect(r.next).toEqual({ security_guid: 'g-1', partner_security_id: 'P-1' })
    expect(r.response.status.code).toBe(0)
    expect(r.response.status.message).toBe('security linked')
  })

  it('linked + LinkSecurity (same guid) -> linked, partner_security_id overwritten', () => {
    const r = applyLinkOperation({ security_guid: 'g-1', partner_security_id: 'P-1' }, link('g-1', 'P-2'))
    expect(r.next).toEqual({ security_guid: 'g-1', partner_security_id: 'P-2' })
    expect(r.response.status.code).toBe(0)
  })

  it('linked + UnlinkSecurity -> unlinked, status 0 with a success message', () => {
    const r = applyLinkOperation({ security_guid: 'g-1', partner_security_id: 'P-1' }, unlink('g-1'))
    expect(r.next).toBeUndefined()
    expect(r.response.status).toEqual({ code: 0, message: 'security unlinked', details: [] })
  })

  it('linked + GetLinkedSecurity -> linked, returns linked_security', () => {
    const cur: LinkedSecurity = { security_guid: 'g-1', partner_security_id: 'P-1' }
    const r = applyLinkOperation(cur, get('g-1'))
    expect(r.next).toEqual(cur)
    expect(r.response).toEqual({ status: { code: 0, message: '', details: [] }, linked_security: cur })
    expect(r.response.linked_security).not.toBe(cur) // a fresh object, not the caller's
  })

  it('unlinked + UnlinkSecurity / GetLinkedSecurity -> 5 NOT_FOUND, still unlinked', () => {
    for (const op of [unlink('g-1'), get('g-1')]) {
      const r = applyLinkOperation(undefined, op)
      expect(r.next).toBeUndefined()
      expect(r.response).toEqual({ status: { code: 5, message: 'NOT_FOUND', details: [] } })
    }
  })

  it('an invalid body answers 3 naming the field and changes nothing', () => {
    const cur: LinkedSecurity = { security_guid: 'g-1', partner_security_id: 'P-1' }
    const cases: [LinkOperationName, unknown, string][] = [
      ['LinkSecurity', { security_guid: 'g-1' }, 'partner_security_id'],
      ['LinkSecurity', { security_guid: '', partner_security_id: 'x' }, 'security_guid'],
      ['LinkSecurity', { security_guid: 'g-1', partner_security_id: 'x'.repeat(129) }, 'partner_security_id'],
      ['LinkSecurity', { security_guid: 'g-1', partner_security_id: 7 }, 'partner_security_id'],
      ['LinkSecurity', { security_guid: 'g-1', partner_security_id: null }, 'partner_security_id'],
      ['LinkSecurity', { security_guid: 'g-1', partner_security_id: 'x', extra: 1 }, 'extra'],
      ['UnlinkSecurity', { security_guid: 'g-1', partner_security_id: 'x' }, 'partner_security_id'],
      ['UnlinkSecurity', {}, 'security_guid'],
      ['GetLinkedSecurity', null, 'body'],
      ['GetLinkedSecurity', [], 'body'],
      ['GetLinkedSecurity', 'g-1', 'body'],
    ]
    for (const [operation, body, field] of cases) {
      const r = applyLinkOperation(cur, { operation, body })
      expect(r.next).toBe(cur)
      expect(r.response.status.code).toBe(3)
      expect(r.response.status.message).toContain(field)
    }
  })

  it('link ids: non-empty strings of at most 128 characters', () => {
    expect(
      validateLinkRequest('LinkSecurity', { security_guid: 'g'.repeat(128), partner_security_id: 'p'.repeat(128) }).ok,
    ).toBe(true)
    expect(validateLinkRequest('LinkSecurity', { security_guid: 'g'.repeat(129), partner_security_id: 'p' }).ok).toBe(
      false,
    )
    expect(validateLinkRequest('UnlinkSecurity', { security_guid: ' ' }).ok).toBe(true)
  })

  it('an unknown operation is 3; `__proto__` keys are plain unknown fields', () => {
    const r = validateLinkRequest('DeleteEverything' as LinkOperationName, { security_guid: 'g' })
    expect(r.ok).toBe(false)
    const body = JSON.parse('{"security_guid":"g","__proto__":{"x":1}}') as unknown
    const v = validateLinkRequest('UnlinkSecurity', body)
    expect(v.ok ? 'ok' : v.error.message).toContain('__proto__')
  })

  it('a stored link of another guid is a caller error', () => {
    expect(() => applyLinkOperation({ security_guid: 'g-2', partner_security_id: 'P' }, get('g-1'))).toThrow(
      MarketDataError,
    )
  })

  it("never mutates the caller's link or body", () => {
    const cur = Object.freeze({ security_guid: 'g-1', partner_security_id: 'P-1' })
    const body = Object.freeze({ security_guid: 'g-1', partner_security_id: 'P-9' })
    const r = applyLinkOperation(cur, { operation: 'LinkSecurity', body })
    expect(cur.partner_security_id).toBe('P-1')
    expect(r.next).toEqual({ security_guid: 'g-1', partner_security_id: 'P-9' })
  })
})

type Op = { operation: LinkOperationName; guid: string; pid: string; valid: boolean }
const opArb: fc.Arbitrary<Op> = fc.record({
  operation: fc.constantFrom<LinkOperationName>('LinkSecurity', 'UnlinkSecurity', 'GetLinkedSecurity'),
  guid: fc.constantFrom('g-1', 'g-2', 'g-3'),
  pid: fc.string({ minLength: 1, maxLength: 8 }),
  valid: fc.integer({ min: 0, max: 9 }).map((n) => n < 8),
})

describe('property: a link always matches the last valid Link/Unlink for its guid', () => {
  it('over random operation sequences (one partner, a store keyed by guid)', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 120 }), (ops) => {
        const store = new Map<string, LinkedSecurity>()
        const last = new Map<string, { op: 'LinkSecurity' | 'UnlinkSecurity'; pid: string }>()
        for (const op of ops) {
          const body = op.valid
            ? op.operation === 'LinkSecurity'
              ? { security_guid: op.guid, partner_security_id: op.pid }
              : { security_guid: op.guid }
            : { security_guid: op.guid, partner_security_id: op.pid, bogus: true }
          const before = store.get(op.guid)
          const r = applyLinkOperation(before, { operation: op.operation, body })
          if (r.next === undefined) store.delete(op.guid)
          else store.set(op.guid, r.next)
          if (!op.valid) {
            expect(r.response.status.code).toBe(3)
            expect(r.next).toBe(before)
          } else if (op.operation === 'LinkSecurity') {
            expect(r.response.status.code).toBe(0)
            last.set(op.guid, { op: 'LinkSecurity', pid: op.pid })
          } else {
            expect(r.response.status.code).toBe(before === undefined ? 5 : 0)
            if (op.operation === 'UnlinkSecurity') last.set(op.guid, { op: 'UnlinkSecurity', pid: '' })
            else if (before !== undefined)
              expect((r.response as { linked_security?: LinkedSecurity }).linked_security).toEqual(before)
          }
          for (const g of ['g-1', 'g-2', 'g-3']) {
            const l = last.get(g)
            if (l === undefined || l.op === 'UnlinkSecurity') expect(store.has(g)).toBe(false)
            else expect(store.get(g)).toEqual({ security_guid: g, partner_security_id: l.pid })
          }
        }
      }),
      { numRuns: 200 },
    )
  })
})

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
