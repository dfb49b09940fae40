import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import {
  countTpoPeriods,
  PRICE_MAX,
  PRICE_MIN,
  priceOf,
  REST_ENDPOINTS,
  type RestEndpoint,
} from '../../src/rules/index.js'

describe('REST prices (spec table)', () => {
  it.each([
    // [endpoint, returned, credits]
    ['candles', { candles: 1 }, 1000],
    ['candles', { candles: 1000 }, 1000],
    ['candles', { candles: 1001 }, 1001],
    ['candles', { candles: 2500 }, 2500],
    ['candles', { candles: 10_000 }, 10_000],
    ['footprint', { profiles: 99 }, 1000],
    ['footprint', { profiles: 100 }, 1000],
    ['footprint', { profiles: 101 }, 1010],
    ['footprint', { profiles: 1000 }, 10_000],
    ['tpo', { periods: 39 }, 1000],
    ['tpo', { periods: 40 }, 1000],
    ['tpo', { periods: 41 }, 1025],
    ['tpo', { periods: 400 }, 10_000],
  ] as [RestEndpoint, object, number][])('%s %j -> %i', (endpoint, returned, credits) => {
    expect(priceOf(endpoint, returned)).toBe(credits)
  })

  it.each(['row-size-scale', 'search', 'exchanges', 'securities', 'security', 'timeframes'] as RestEndpoint[])(
    '%s costs 1,000',
    (e) => {
      expect(priceOf(e)).toBe(1000)
      expect(priceOf(e, {})).toBe(1000)
    },
  )

  it('a range with no data costs 1,000', () => {
    expect(priceOf('candles', { candles: 0 })).toBe(1000)
    expect(priceOf('footprint', { profiles: 0 })).toBe(1000)
    expect(priceOf('tpo', { periods: 0 })).toBe(1000)
    expect(priceOf('tpo')).toBe(1000)
  })

  it('GROUP_BY_TYPE profiles of one period cost no extra: TPO bills periods', () => {
    const grouped = [0, 0, 0, 86_400_000, 86_400_000, 86_400_000].map((time) => ({ time }))
    expect(countTpoPeriods(grouped)).toBe(2)
    expect(priceOf('tpo', { periods: countTpoPeriods(grouped) })).toBe(1000)
    const many = Array.from({ length: 3 * 120 }, (_, i) => ({ time: Math.floor(i / 3) }))
    expect(priceOf('tpo', { periods: countTpoPeriods(many) })).toBe(3000)
  })

  it('countTpoPeriods refuses what it cannot count: MarketDataError naming profiles or the time', () => {
    for (const x of [undefined, null, 5, {}, 'ab']) {
      expect(() => countTpoPeriods(x as never)).toThrow(
        expect.objectContaining({ code: 'invalid_option', field: 'profiles' }),
      )
    }
    for (const bad of [{}, { time: '0' }, { time: Number.NaN }, null]) {
      expect(() => countTpoPeriods([{ time: 0 }, bad as never])).toThrow(
        expect.objectContaining({ code: 'invalid_option', field: 'time', index: 1 }),
      )
    }
    expect(countTpoPeriods(new Set([{ time: 0 }, { time: 60_000 }]))).toBe(2)
  })

  it.each([400, 401, 403, 404, 429, 500, 502, 503, 504])('status %i is never billed', (status) => {
    for (const e of REST_ENDPOINTS) expect(priceOf(e, { status })).toBe(0)
    expect(priceOf('candles', { status, candles: 5000 })).toBe(0)
  })

  it('throws for programming errors: unknown endpoint, bad or foreign counts', () => {
    expect(() => priceOf('nope' as RestEndpoint)).toThrow(MarketDataError)
    expect(() => priceOf('candles', { candles: -1 })).toThrow(MarketDataError)
    expect(() => priceOf('candles', { candles: 1.5 })).toThrow(MarketDataError)
    expect(() => priceOf('tpo', { profiles: 3 })).toThrow(/periods/)
    expect(() => priceOf('search', { candles: 3 })).toThrow(MarketDataError)
  })

  it('names every endpoint the service prices (docs/service.md)', () => {
    expect([...REST_ENDPOINTS].sort()).toEqual(
      [
        'candles',
        'exchanges',
        'footprint',
        'row-size-scale',
        'search',
        'securities',
        'security',
        'timeframes',
        'tpo',
      ].sort(),
    )
  })
})

describe('price properties', () => {
  const counted = fc.oneof(
    fc
      .record({ endpoint: fc.constant<RestEndpoint>('candles'), n: fc.nat({ max: 50_000 }) })
      .map(({ endpoint, n }) => ({ endpoint, returned: { candles: n }, per: 1, n })),
    fc
      .record({ endpoint: fc.constant<RestEndpoint>('footprint'), n: fc.nat({ max: 5000 }) })
      .map(({ endpoint, n }) => ({ endpoint, returned: { profiles: n }, per: 10, n })),
    fc
      .record({ endpoint: fc.constant<RestEndpoint>('tpo'), n: fc.nat({ max: 2000 }) })
      .map(({ endpoint, n }) => ({ endpoint, returned: { periods: n }, per: 25, n })),
  )

  it('a billed (200) answer costs within [1,000, 10,000] and equals clamp(per x count)', () => {
    fc.assert(
      fc.property(counted, ({ endpoint, returned, per, n }) => {
        const p = priceOf(endpoint, returned)
        expect(p).toBeGreaterThanOrEqual(PRICE_MIN)
        expect(p).toBeLessThanOrEqual(PRICE_MAX)
        expect(Number.isInteger(p)).toBe(true)
        expect(p).toBe(Math.min(10_000, Math.max(1000, per * n)))
      }),
      { numRuns: 300 },
    )
  })

  it('the price never decreases with more returned items', () => {
    fc.assert(
      fc.property(counted, fc.nat({ max: 100 }), ({ endpoint, returned }, extra) => {
        const key = Object.keys(returned)[0] as 'candles' | 'profiles' | 'periods'
        const more = { [key]: (returned as Record<string, number>)[key]! + extra }
        expect(priceOf(endpoint, more)).toBeGreaterThanOrEqual(priceOf(endpoint, returned))
      }),
      { numRuns: 200 },
    )
  })

  it('any non-200 status costs 0', () => {
    fc.assert(
      fc.property(
        counted,
        fc.integer({ min: 100, max: 599 }).filter((s) => s !== 200),
        ({ endpoint, returned }, status) => {
          expect(priceOf(endpoint, { ...returned, status })).toBe(0)
        },
      ),
      { numRuns: 200 },
    )
  })
})

describe('priceOf: the status must be an integer HTTP status', () => {
  it('a fractional or NaN status is a programming error, not an unbilled answer', () => {
    for (const status of [200.5, Number.NaN, 399.9]) {
      expect(() => priceOf('candles', { status, candles: 5 })).toThrow(MarketDataError)
      expect(() => priceOf('exchanges', { status })).toThrow(/status/)
    }
    expect(priceOf('exchanges', { status: 404 })).toBe(0)
  })
})
