// One service config object: the defaults are the service's numbers, and another deployment's object changes
// what priceOf, checkCap, trimToDepth, footprintDepthDays and the ledgers answer, without touching the defaults.
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import {
  checkCap,
  createRestLedger,
  createServiceConfig,
  createStreamLedger,
  DEFAULT_SERVICE_CONFIG,
  footprintDepthDays,
  footprintHistoryStart,
  parseHistoryQuery,
  priceOf,
  trimToDepth,
} from '../../src/service/index.js'
import { resolveTimeframe } from '../../src/index.js'

const now = Date.UTC(2026, 7, 15, 13)

describe('createServiceConfig', () => {
  it('with no overrides is the service itself', () => {
    expect(createServiceConfig()).toEqual(DEFAULT_SERVICE_CONFIG)
    expect(Object.isFrozen(DEFAULT_SERVICE_CONFIG.prices)).toBe(true)
  })

  test.prop([fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 20_000 })])(
    'priceOf follows the config price and bounds, the default is unchanged',
    (per, n) => {
      const config = createServiceConfig({ prices: { candle: per, min: 0, max: 10_000_000 } })
      expect(priceOf('candles', { candles: n }, config)).toBe(per * n)
      expect(priceOf('candles', { candles: n })).toBe(Math.min(10_000, Math.max(1000, n)))
    },
  )

  it('checkCap uses the config caps', () => {
    const r = parseHistoryQuery(
      'footprint',
      { exchange: 'X', symbol: 'S', timeframe: '1m', from: String(now / 1000), period: '36000' },
      { now },
    )
    if (!r.ok) throw new Error(r.error.message)
    expect(checkCap(r.value)).toBeUndefined() // 600 buckets <= 1000
    const e = checkCap(r.value, { config: createServiceConfig({ caps: { footprintProfiles: 599 } }) })
    expect(e?.code).toBe('too_much_data')
    expect(e?.message).toContain('599')
    expect(checkCap(r.value, { config: createServiceConfig({ caps: { footprintProfiles: 600 } }) })).toBeUndefined()
  })

  it('the depth table and the data floor are the config', () => {
    const config = createServiceConfig({
      footprintDepth: { rows: [{ shorterThanMs: 3_600_000, days: 7 }], longestDays: 2 },
      dataFloor: Date.UTC(2020, 0, 1),
    })
    expect(footprintDepthDays(resolveTimeframe('15m'))).toBe(90)
    expect(footprintDepthDays(resolveTimeframe('15m'), config)).toBe(7)
    expect(footprintDepthDays(resolveTimeframe('1h'), config)).toBe(2)
    expect(footprintHistoryStart(resolveTimeframe('1h'), now, config)).toBe(Date.UTC(2026, 7, 13))
    const r = parseHistoryQuery(
      'tpo',
      {
        exchange: 'X',
        symbol: 'S',
        timeframe: '1d',
        from: String(Date.UTC(2024, 0, 1) / 1000),
        to: String(Date.UTC(2024, 1, 1) / 1000),
      },
      { now },
    )
    if (!r.ok) throw new Error(r.error.message)
    expect(trimToDepth(r.value, { newestCandleTime: now }).empty).toBe(true) // before 2026-05-29
    expect(trimToDepth(r.value, { newestCandleTime: now, config })).toBe(r.value) // the floor moved to 2020
  })

  it('the ledgers take their limits, windows, prices and caps from the config', () => {
    const config = createServiceConfig({
      restCredits: { limit: 5000 },
      streamCredits: { prices: { footprint: 600 }, caps: { footprint: 1 } },
    })
    const rest = createRestLedger({ config })
    expect(rest.charge(now, 4000).ok).toBe(true)
    expect(rest.charge(now, 2000).ok).toBe(false)
    expect(createRestLedger().charge(now, 6000).headers['x-ratelimit-limit']).toBe('100000')
    const stream = createStreamLedger({ config })
    const h = stream.handshake(0, 'footprint')
    if (!h.ok) throw new Error('refused')
    expect(stream.confirm(1, h.streamId)).toMatchObject({ ok: true, charged: 600 })
    expect(stream.handshake(2, 'footprint')).toMatchObject({ ok: false, error: { code: 'too_many_streams' } })
  })

  it('refuses a value that breaks its rule or is not a setting, naming it', () => {
    expect(() => createServiceConfig({ prices: { candle: -1 } })).toThrow(
      expect.objectContaining({ code: 'invalid_option', field: 'prices.candle' }),
    )
    expect(() => createServiceConfig({ caps: { tpoProfiles: 0 } })).toThrow(
      expect.objectContaining({ field: 'caps.tpoProfiles' }),
    )
    expect(() => createServiceConfig({ prices: { min: 5, max: 4 } })).toThrow(
      expect.objectContaining({ field: 'prices.min' }),
    )
    expect(() => createServiceConfig({ price: {} } as never)).toThrow(expect.objectContaining({ field: 'price' }))
    expect(() =>
      createServiceConfig({
        footprintDepth: {
          rows: [
            { shorterThanMs: 10, days: 1 },
            { shorterThanMs: 5, days: 1 },
          ],
          longestDays: 1,
        },
      }),
    ).toThrow(expect.objectContaining({ field: 'footprintDepth.rows[1].shorterThanMs' }))
    expect(() => createServiceConfig({ dataFloor: Number.NaN })).toThrow(
      expect.objectContaining({ field: 'dataFloor' }),
    )
  })
})
