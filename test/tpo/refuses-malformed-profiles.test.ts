// Functions that read TPO profiles (or candles) given by the caller: malformed input is refused with a
// MarketDataError naming the field, never a raw TypeError or a silently wrong profile.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toPartnerCandle } from '../../src/partner/index.js'
import { MarketDataError } from '../../src/errors.js'
import { renderTpo, renderTpoSvg } from '../../src/render/index.js'
import {
  compositeTpoProfile,
  developingTpo,
  mergeTpoProfiles,
  nakedPocs,
  tpoFromCandles,
  tpoProfiles,
  type TpoProfile,
} from '../../src/tpo/index.js'

const T = (h: number, m = 0) => Date.UTC(2026, 5, 1, h, m)
const opts = { timeframe: '1d' as const, tickSize: '0.25' }
const day = (): TpoProfile =>
  tpoProfiles(
    [
      { time: T(14), price: '100', volume: '2', side: 'buy' },
      { time: T(14, 40), price: '101.5', volume: '1', side: 'sell' },
      { time: T(15, 10), price: '100.75', volume: '3', side: 'buy' },
    ],
    opts,
  )[0] as TpoProfile

/** f either returns or throws a MarketDataError; returns the error or undefined. */
function refusedOrFine(f: () => unknown): MarketDataError | undefined {
  try {
    f()
    return undefined
  } catch (e) {
    expect(e).toBeInstanceOf(MarketDataError)
    return e as MarketDataError
  }
}

const hostile = fc.oneof(
  fc.anything(),
  fc.constant(Object.create(null) as unknown),
  fc.bigInt(),
  fc.constant([null]),
  fc.constant([[null]]),
  fc.constant(['x']),
  fc.constant(Number.NaN),
)
const FIELDS = [
  'time',
  'end',
  'blocks',
  'rows',
  'blockSize',
  'sessionType',
  'openTime',
  'closeTime',
  'initialBalanceStart',
  'initialBalance',
  'singlePrints',
  'rowSizeValue',
  'tickSize',
  'open',
  'close',
  'poc',
  'blockHighs',
  'blockLows',
] as const

describe('malformed TPO profiles', () => {
  it('any field replaced by any value: merge, composite, developing, naked POCs and the renderings refuse or answer, never crash', () => {
    const base = day()
    fc.assert(
      fc.property(fc.constantFrom(...FIELDS), hostile, (field, x) => {
        const bad = { ...base, [field]: x } as TpoProfile
        refusedOrFine(() => mergeTpoProfiles(base, bad))
        refusedOrFine(() => compositeTpoProfile([bad, base]))
        refusedOrFine(() => developingTpo(bad))
        refusedOrFine(() => nakedPocs([base, bad]))
        refusedOrFine(() => renderTpo(bad))
        refusedOrFine(() => renderTpoSvg(bad))
      }),
      { numRuns: 400 },
    )
  })

  it('merge refuses what it would otherwise carry over wrongly', () => {
    const p = day()
    const cases: [Partial<Record<keyof TpoProfile, unknown>>, string][] = [
      [{ time: 'x' }, 'time'],
      [{ time: 1n }, 'time'],
      [{ end: p.time }, 'time'],
      [{ blocks: ['x', ...p.blocks.slice(1)] }, 'blocks'],
      [{ blocks: [Number.NaN, ...p.blocks.slice(1)] }, 'blocks'],
      [{ blocks: [...p.blocks].reverse() }, 'blocks'],
      [{ sessionType: 'BOGUS' }, 'sessionType'],
      [{ blockSize: Object.create(null) }, 'blockSize'],
      [{ openTime: p.closeTime + 1 }, 'openTime'],
      [{ rows: p.rows.map((r, i) => (i === 1 ? [r[0], r[1], '-1', r[3]] : r)) }, 'rows'],
      [{ rows: p.rows.map((r, i) => (i === 1 ? [p.rows[2]?.[0], r[1], r[2], r[3]] : r)) }, 'rows'],
    ]
    for (const [patch, field] of cases) {
      const e = refusedOrFine(() => mergeTpoProfiles(p, { ...p, ...patch } as TpoProfile))
      expect([JSON.stringify(Object.keys(patch)), e?.field]).toEqual([JSON.stringify(Object.keys(patch)), field])
    }
  })

  it('tickSize and rowSizeValue are read as decimals: other spellings of the same grid merge alike, another value is refused', () => {
    const p = day()
    const q = tpoProfiles([{ time: T(16), price: '99.5', volume: '4', side: 'sell' }], opts)[0] as TpoProfile
    const want = mergeTpoProfiles(p, q)
    fc.assert(
      fc.property(fc.nat({ max: 12 }), fc.nat({ max: 12 }), fc.boolean(), (zt, zr, which) => {
        const spelled = { ...p, tickSize: `0.25${'0'.repeat(zt)}`, rowSizeValue: `0.25${'0'.repeat(zr)}` }
        // the result carries the canonical spellings, whichever side had the long ones
        expect(which ? mergeTpoProfiles(spelled, q) : mergeTpoProfiles(q, spelled)).toEqual(want)
      }),
      { numRuns: 60 },
    )
    for (const rowSizeValue of ['0.5', '0.2500001', '0.24', '1/4', ' 0.25', '']) {
      const e = refusedOrFine(() => mergeTpoProfiles(p, { ...p, rowSizeValue }))
      expect([rowSizeValue, e?.field]).toEqual([rowSizeValue, 'rowSizeValue'])
    }
    expect(refusedOrFine(() => mergeTpoProfiles(p, { ...p, rowSizeValue: 0.25 as unknown as string }))?.field).toBe(
      'rowSizeValue',
    )
  })

  it('the other readers name what is wrong', () => {
    const p = day()
    expect(() => developingTpo({ ...p, rows: [null] } as unknown as TpoProfile)).toThrow(
      expect.objectContaining({ field: 'rows' }),
    )
    expect(() => developingTpo({ ...p, rows: [[p.rows[0]?.[0], null]] } as unknown as TpoProfile)).toThrow(
      expect.objectContaining({ field: 'rows' }),
    )
    expect(() => nakedPocs([p, null as unknown as TpoProfile])).toThrow(
      expect.objectContaining({ index: 1, field: 'profile' }),
    )
    expect(() => tpoFromCandles(5 as unknown as [], opts)).toThrow(expect.objectContaining({ field: 'candles' }))
    expect(() => renderTpo(null as unknown as TpoProfile)).toThrow(expect.objectContaining({ field: 'profile' }))
    expect(() => renderTpo(p, { timeZone: 5n as unknown as string })).toThrow(
      expect.objectContaining({ field: 'timeZone' }),
    )
    // session names are compared, not looked up as properties: 'toString' or '__proto__' is no session
    for (const s of ['toString', '__proto__', 'constructor']) {
      expect(() =>
        tpoFromCandles([{ time: T(14), open: '1', high: '1', low: '1', close: '1', session: s as 'PRE_MARKET' }], opts),
      ).toThrow(expect.objectContaining({ field: 'session' }))
      expect(() => tpoProfiles([], { ...opts, sessions: [s as 'PRE_MARKET'] })).toThrow(
        expect.objectContaining({ field: 'sessions' }),
      )
      expect(() =>
        toPartnerCandle({
          time: T(14),
          open: '1',
          high: '1',
          low: '1',
          close: '1',
          volume: '1',
          session: s as 'PRE_MARKET',
        }),
      ).toThrow(expect.objectContaining({ field: 'session' }))
    }
    // and the well-formed profile still merges with itself as before
    expect(mergeTpoProfiles(p, p).rows.length).toBe(p.rows.length)
  })
})
