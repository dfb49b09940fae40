import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import { sessionMask, validateTrade, validateTradeColumns, validateTrades } from '../../src/trades/index.js'
import { tradeColumnsArb, tradesArb } from '../../src/testing/arbitraries.js'

const good = { time: Date.UTC(2026, 4, 29), price: '5000.25', volume: '1.5', side: 'buy', session: 'PRE_MARKET' }

describe('validateTrade', () => {
  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.anything(), fc.nat(), (x, i) => {
        const r = validateTrade(x, i)
        if (!r.ok) expect(r.error).toBeInstanceOf(MarketDataError)
      }),
      { numRuns: 300 },
    )
    fc.assert(
      fc.property(fc.anything(), (x) => {
        validateTrades(x)
        validateTradeColumns(x)
      }),
      { numRuns: 300 },
    )
  })

  it('accepts generated trades, off-grid and negative prices included', () => {
    fc.assert(
      fc.property(tradesArb({ offGrid: true, negativePrices: true }), (ts) => {
        expect(validateTrades(ts).ok).toBe(true)
      }),
      { numRuns: 50 },
    )
  })

  it.each([
    ['time', { time: Number.NaN }, 'invalid_time'],
    ['time', { time: 1.5 }, 'invalid_time'],
    ['time', { time: '0' }, 'invalid_time'],
    ['time', { time: 9e15 }, 'invalid_time'],
    ['price', { price: 'abc' }, 'invalid_decimal'],
    ['price', { price: Number.POSITIVE_INFINITY }, 'invalid_decimal'],
    ['price', { price: '1e5.0' }, 'invalid_decimal'],
    ['price', { price: undefined }, 'invalid_decimal'],
    ['volume', { volume: Number.NaN }, 'invalid_volume'],
    ['volume', { volume: '-1' }, 'invalid_volume'],
    ['volume', { volume: -0.5 }, 'invalid_volume'],
    ['side', { side: 'BUY' }, 'invalid_side'],
    ['side', { side: undefined }, 'invalid_side'],
    ['session', { session: 'LUNCH' }, 'invalid_session'],
  ] as const)('names the field %s (%j)', (field, patch, code) => {
    const trades = [good, good, { ...good, ...patch }]
    const r = validateTrades(trades)
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.error.field).toBe(field)
    expect(r.error.index).toBe(2)
    expect(r.error.code).toBe(code)
    expect(r.error.message).toContain(field)
  })

  it('accepts volume 0 and -0, price off grid, negative price', () => {
    for (const patch of [
      { volume: 0 },
      { volume: -0 },
      { volume: '0.000' },
      { price: '-3.5' },
      { price: 5000.123456 },
      { session: undefined },
    ]) {
      expect(validateTrade({ ...good, ...patch }).ok).toBe(true)
    }
  })
})

describe('validateTradeColumns', () => {
  it('accepts generated columns', () => {
    fc.assert(
      fc.property(tradeColumnsArb(), (c) => {
        expect(validateTradeColumns(c).ok).toBe(true)
      }),
      { numRuns: 30 },
    )
  })

  it('names index and field of bad records and bad shapes', () => {
    const mk = () => ({
      time: new Float64Array([0, 1, 2]),
      price: new Float64Array([1, 2, 3]),
      volume: new Float64Array([1, 1, 1]),
      side: new Uint8Array([1, 2, 1]),
      session: new Uint8Array([0, 1, 2]),
    })
    const cases: [(c: ReturnType<typeof mk>) => void, string, number | undefined][] = [
      [
        (c) => {
          c.time[1] = Number.NaN
        },
        'time',
        1,
      ],
      [
        (c) => {
          c.price[2] = Number.POSITIVE_INFINITY
        },
        'price',
        2,
      ],
      [
        (c) => {
          c.volume[0] = -1
        },
        'volume',
        0,
      ],
      [
        (c) => {
          c.volume[1] = Number.NaN
        },
        'volume',
        1,
      ],
      [
        (c) => {
          c.side[2] = 0
        },
        'side',
        2,
      ],
      [
        (c) => {
          c.session[1] = 3
        },
        'session',
        1,
      ],
      [
        (c) => {
          ;(c as { price: unknown }).price = [1, 2, 3]
        },
        'price',
        undefined,
      ],
      [
        (c) => {
          c.side = new Uint8Array(2)
        },
        'side',
        undefined,
      ],
    ]
    for (const [patch, field, index] of cases) {
      const c = mk()
      patch(c)
      const r = validateTradeColumns(c)
      expect(r.ok).toBe(false)
      if (r.ok) continue
      expect(r.error.field).toBe(field)
      expect(r.error.index).toBe(index)
    }
  })
})

describe('sessionMask', () => {
  it('builds bit masks and rejects unknown sessions', () => {
    expect(sessionMask(undefined)).toBe(7)
    expect(sessionMask(['MAINSESSION', 'POST_MARKET'])).toBe(5)
    expect(sessionMask([])).toBe(0)
    expect(() => sessionMask(['X' as never])).toThrow(MarketDataError)
    expect(() => sessionMask('MAINSESSION' as never)).toThrow(/sessions/)
  })
})

describe('validateTradeColumnsShape', () => {
  it('checks types and lengths only, never throws', async () => {
    const { validateTradeColumnsShape } = await import('../../src/trades/index.js')
    fc.assert(
      fc.property(fc.anything(), (x) => {
        validateTradeColumnsShape(x)
      }),
      { numRuns: 200 },
    )
    const c = {
      time: new Float64Array([Number.NaN]),
      price: new Float64Array(1),
      volume: new Float64Array(1),
      side: new Uint8Array(1),
    }
    expect(validateTradeColumnsShape(c).ok).toBe(true)
    const r = validateTradeColumnsShape({ ...c, volume: new Float64Array(2) })
    expect(r.ok ? undefined : r.error.field).toBe('volume')
  })
})
