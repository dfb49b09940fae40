// Arguments a server passes (not query or JSON text) that are hostile values: the functions answer with
// their documented error (a 400 ApiError or a MarketDataError naming the argument), never a TypeError
// from building the message (null prototypes, BigInt, symbols).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { restCharge, streamHandshake } from '../../src/credits/index.js'
import { MarketDataError } from '../../src/errors.js'
import { parseHistoryQuery, priceOf } from '../../src/rules/index.js'

const hostile = fc.oneof(
  fc.anything(),
  fc.constant(Object.create(null) as unknown),
  fc.constant({ toString: false } as unknown),
  fc.constant({
    valueOf: () => {
      throw new Error('no')
    },
  } as unknown),
  fc.bigInt(),
  fc.constant(Symbol('s') as unknown),
)

/** Calls f; a throw must be a MarketDataError naming `field`. Returns f's result otherwise. */
function answered(f: () => unknown, field: string): unknown {
  try {
    return f()
  } catch (e) {
    expect(e).toBeInstanceOf(MarketDataError)
    expect((e as MarketDataError).field).toBe(field)
    return undefined
  }
}

describe('hostile caller arguments', () => {
  it('parseHistoryQuery(endpoint): a 400 naming endpoint', () => {
    fc.assert(
      fc.property(hostile, (x) => {
        fc.pre(x !== 'candles' && x !== 'footprint' && x !== 'tpo')
        const r = parseHistoryQuery(x as 'candles', {}, { now: 0 })
        expect(r.ok).toBe(false)
        if (!r.ok) expect([r.error.status, r.error.parameter]).toEqual([400, 'endpoint'])
      }),
    )
  })

  it('priceOf(endpoint) and restCharge(credits): MarketDataError naming the argument', () => {
    fc.assert(
      fc.property(hostile, (x) => {
        answered(() => priceOf(x as 'candles'), 'endpoint')
        answered(() => restCharge(undefined, 0, x as number), 'credits')
      }),
    )
  })

  it('streamHandshake(kind): a 400 naming kind', () => {
    fc.assert(
      fc.property(hostile, (x) => {
        fc.pre(x !== 'candles' && x !== 'footprint' && x !== 'orderbook')
        const t = answered(() => streamHandshake(undefined, 0, x as 'candles', 'id'), 'kind') as
          | { outcome: { error?: { status: number; parameter?: string } } }
          | undefined
        if (t !== undefined) expect([t.outcome.error?.status, t.outcome.error?.parameter]).toEqual([400, 'kind'])
      }),
    )
  })
})
