import { describe, expect, it } from 'vitest'
import {
  StatusCode,
  invalidArgument,
  notFound,
  resourceExhausted,
  statusOk,
  unauthenticated,
} from '../../src/partner/index.js'

describe('Status helpers (gRPC codes)', () => {
  it('build {code, message, details} with the spec codes', () => {
    expect(StatusCode).toEqual({ OK: 0, INVALID_ARGUMENT: 3, NOT_FOUND: 5, RESOURCE_EXHAUSTED: 8, UNAUTHENTICATED: 16 })
    expect(statusOk()).toEqual({ code: 0, message: '', details: [] })
    expect(statusOk('security linked').message).toBe('security linked')
    expect(invalidArgument('security_ids: must hold at least one SecurityId')).toEqual({
      code: 3,
      message: 'security_ids: must hold at least one SecurityId',
      details: [],
    })
    expect(notFound()).toEqual({ code: 5, message: 'NOT_FOUND', details: [] })
    expect(unauthenticated().code).toBe(16)
    expect(resourceExhausted().code).toBe(8)
  })

  it('every call returns a fresh object (details never shared)', () => {
    const a = notFound()
    a.details.push('x')
    expect(notFound().details).toEqual([])
  })
})
