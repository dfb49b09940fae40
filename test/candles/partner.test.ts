import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { CandleInput } from '../../src/candles/index.js'
import { toPartnerCandle, toPartnerCandles } from '../../src/partner/index.js'
import { parseDecimal } from '../../src/decimal/index.js'
import { fromPartnerDecimal } from '../../src/partner/index.js'
import { candleSeriesArb } from '../../src/testing/index.js'

const c: CandleInput = {
  time: Date.UTC(2026, 4, 29, 13, 30),
  open: '123.45',
  high: '124',
  low: '-0.5',
  close: 123.5,
  volume: '10.00',
  value: '1234.5',
  trades: 3,
  session: 'POST_MARKET',
}

describe('interface A candles', () => {
  it('converts every field to Decimal {value, scale} and the session to its code', () => {
    expect(toPartnerCandle(c)).toEqual({
      time: '2026-05-29T13:30:00.000Z',
      open: { value: '12345', scale: '100' },
      high: { value: '124', scale: '1' },
      low: { value: '-5', scale: '10' },
      close: { value: '1235', scale: '10' },
      value: { value: '12345', scale: '10' },
      volume: { value: '10', scale: '1' },
      session_type: 2,
    })
  })

  it('projects by properties and filters by session_types', () => {
    expect(toPartnerCandle(c, { properties: ['CLOSE', 'SESSION_TYPE'] })).toEqual({
      time: '2026-05-29T13:30:00.000Z',
      close: { value: '1235', scale: '10' },
      session_type: 2,
    })
    expect(toPartnerCandle({ ...c, session: undefined }, { properties: ['SESSION_TYPE'] })).toEqual({
      time: '2026-05-29T13:30:00.000Z',
      session_type: 0,
    })
    const list = [c, { ...c, session: undefined }, { ...c, session: 'PRE_MARKET' as const }]
    expect(
      toPartnerCandles(list, { session_types: ['MAINSESSION', 'PRE_MARKET'], properties: ['SESSION_TYPE'] }).map(
        (x) => x.session_type,
      ),
    ).toEqual([0, 1])
    expect(toPartnerCandles(list, { session_types: [] })).toEqual([])
    expect(() => toPartnerCandles(list, { properties: ['OPEN', 'BID' as never] })).toThrow(/properties/)
    expect(() => toPartnerCandles([{ ...c, open: 'x' }])).toThrow(expect.objectContaining({ index: 0, field: 'open' }))
  })

  it('round-trips every decimal exactly (fromPartnerDecimal)', () => {
    fc.assert(
      fc.property(candleSeriesArb({ maxLength: 10 }), (cs) => {
        const out = toPartnerCandles(cs)
        out.forEach((p, i) => {
          const src = cs[i] as CandleInput
          for (const f of ['open', 'high', 'low', 'close', 'volume', 'value'] as const) {
            const back = fromPartnerDecimal(p[f])
            expect(back.ok).toBe(true)
            if (back.ok) expect(parseDecimal(back.value)).toEqual(parseDecimal(src[f]))
          }
          expect(new Date(p.time).getTime()).toBe(src.time)
        })
      }),
      { numRuns: 30 },
    )
  })
})

describe('validateCandle(s)', () => {
  it('never throws on arbitrary input', async () => {
    const { validateCandle, validateCandles } = await import('../../src/candles/index.js')
    fc.assert(
      fc.property(fc.anything(), (x) => {
        validateCandle(x)
        validateCandles(x)
        validateCandles([x])
      }),
      { numRuns: 300 },
    )
  })
  it('accepts generated series and names index and field of bad candles', async () => {
    const { validateCandles } = await import('../../src/candles/index.js')
    fc.assert(
      fc.property(candleSeriesArb(), (cs) => {
        expect(validateCandles(cs).ok).toBe(true)
      }),
      { numRuns: 20 },
    )
    const good = { time: 0, open: '1', high: '2', low: '1', close: '2', volume: '1' }
    for (const [patch, field] of [
      [{ high: '0.5' }, 'low'],
      [{ high: '1.5' }, 'high'],
      [{ volume: '-1' }, 'volume'],
      [{ value: 'x' }, 'value'],
      [{ trades: -1 }, 'trades'],
      [{ session: 'y' }, 'session'],
      [{ time: -1 }, 'time'],
      [{ close: Number.NaN }, 'close'],
    ] as const) {
      const r = validateCandles([good, { ...good, ...patch }])
      expect(r.ok).toBe(false)
      if (!r.ok) expect([r.error.index, r.error.field]).toEqual([1, field])
    }
  })
})
