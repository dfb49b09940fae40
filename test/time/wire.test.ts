import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  addIsoDuration,
  listTimeframes,
  parseClockDuration,
  parseIsoDuration,
  parseRfc3339,
  parseTimeframe,
  parseUnixSeconds,
  resolveTimeframe,
  toUnixSeconds,
} from '../../src/time/index.js'
import { timeframeFromPartner } from '../../src/partner/index.js'
import type { TimeframeId } from '../../src/time/index.js'

const pad = (n: number, w = 2) => String(n).padStart(w, '0')
/** Anything, including objects whose toString/valueOf throw (null prototypes) and boxed values. */
const hostile = fc.anything({
  withNullPrototype: true,
  withObjectString: true,
  withBoxedValues: true,
  withBigInt: true,
  withMap: true,
  withSet: true,
  withDate: true,
  withTypedArray: true,
  withSparseArray: true,
})

describe('parseRfc3339', () => {
  it('agrees with Date.parse on generated valid date-times with Z or offsets', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2200, 0, 1) }),
        fc.integer({ min: -14 * 60, max: 14 * 60 }),
        fc.integer({ min: 0, max: 3 }),
        (t, offMin, fracDigits) => {
          const local = new Date(t + offMin * 60_000).toISOString().slice(0, 19)
          const ms = t % 1000
          const frac = fracDigits === 0 ? '' : `.${pad(ms, 3).slice(0, fracDigits)}`
          const off =
            offMin === 0
              ? 'Z'
              : `${offMin < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offMin) / 60))}:${pad(Math.abs(offMin) % 60)}`
          const s = `${local}${frac}${off}`
          const r = parseRfc3339(s)
          expect(r).toEqual({ ok: true, value: Date.parse(s) })
        },
      ),
    )
  })
  it.each([
    '2026-05-29T00:00:00',
    '2026-05-29 00:00:00Z',
    '2026-02-30T00:00:00Z',
    '2026-05-29T24:00:00Z',
    '2026-05-29T00:00:60Z',
    '2026-05-29T00:00:00.Z',
    '2026-05-29T00:00:00+5:00',
    '2026-05-29',
    '',
    ' 2026-05-29T00:00:00Z',
    '1969-12-31T23:59:59Z',
  ])('refuses %j', (s) => {
    const r = parseRfc3339(s)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error).toMatch(/RFC 3339/)
  })
  it('takes up to 64 characters (long fractions, with offsets), refuses 65', () => {
    for (let digits = 1; digits <= 38; digits++) {
      const frac = '1'.repeat(digits)
      for (const off of ['Z', '+05:30', '-00:00']) {
        const s = `2026-06-01T00:00:00.${frac}${off}`
        const r = parseRfc3339(s)
        if (s.length <= 64)
          expect([s, r]).toEqual([
            s,
            {
              ok: true,
              value: Date.parse(
                `2026-06-01T00:00:00.${frac.slice(0, 3).padEnd(3, '0')}${off === '-00:00' ? 'Z' : off}`,
              ),
            },
          ])
        else expect([s, r.ok]).toEqual([s, false])
      }
    }
  })
  it('floors fractions beyond milliseconds', () => {
    expect(parseRfc3339('2026-05-29T00:00:00.123999Z')).toEqual({ ok: true, value: Date.UTC(2026, 4, 29) + 123 })
  })
  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(hostile, (x) => {
        expect(typeof parseRfc3339(x as string).ok).toBe('boolean')
      }),
    )
    expect(parseRfc3339(Object.create(null) as string).ok).toBe(false)
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (x) => {
        expect(typeof parseRfc3339(x).ok).toBe('boolean')
      }),
    )
  })
})

describe('parseUnixSeconds', () => {
  it('reads digits as seconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253402300799 }), (s) => {
        expect(parseUnixSeconds(String(s))).toEqual({ ok: true, value: s * 1000 })
      }),
    )
  })
  it.each(['-1', '+1', '1.5', '1e9', '', ' 1', '253402300800', '0x10'])('refuses %j', (s) => {
    expect(parseUnixSeconds(s).ok).toBe(false)
  })
})

describe('ISO 8601 durations', () => {
  it('parses every part', () => {
    expect(parseIsoDuration('P1Y2M3DT4H5M6.5S')).toEqual({
      ok: true,
      value: { years: 1, months: 2, weeks: 0, days: 3, hours: 4, minutes: 5, seconds: 6.5 },
    })
    expect(parseIsoDuration('PT4H')).toEqual({
      ok: true,
      value: { years: 0, months: 0, weeks: 0, days: 0, hours: 4, minutes: 0, seconds: 0 },
    })
    expect(parseIsoDuration('P1W').ok).toBe(true)
  })
  it.each(['P', 'PT', 'P0D', 'PT0S', '4H', 'P1H', 'PT1D', 'P1M1Y', 'P1.5D', 'PT1.5H', 'P-1D', 'P1DT', 'pt4h', 'P1DD'])(
    'refuses %j',
    (s) => {
      expect(parseIsoDuration(s).ok).toBe(false)
    },
  )
  it('adds calendar parts in the zone, keeping wall time across DST', () => {
    const ny = { timeZone: 'America/New_York' }
    const p1d = { years: 0, months: 0, weeks: 0, days: 1, hours: 0, minutes: 0, seconds: 0 }
    // 2026-03-07 09:30 EST + P1D = 2026-03-08 09:30 EDT: 23 hours later
    const t = Date.UTC(2026, 2, 7, 14, 30)
    expect(addIsoDuration(t, p1d, ny) - t).toBe(23 * 3_600_000)
    expect(addIsoDuration(t, { ...p1d, days: 0, hours: 24 }, ny) - t).toBe(24 * 3_600_000)
    const jan31 = Date.UTC(2026, 0, 31)
    expect(addIsoDuration(jan31, { ...p1d, days: 0, months: 1 })).toBe(Date.UTC(2026, 1, 28))
    expect(addIsoDuration(Date.UTC(2026, 2, 31), { ...p1d, days: 0, months: 1 }, { sign: -1 })).toBe(
      Date.UTC(2026, 1, 28),
    )
  })
  it('subtracting undoes adding for day and time parts', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2030, 0, 1) }),
        fc.record({
          years: fc.constant(0),
          months: fc.constant(0),
          weeks: fc.nat(3),
          days: fc.nat(40),
          hours: fc.nat(30),
          minutes: fc.nat(100),
          seconds: fc.nat(100),
        }),
        (t, d) => {
          expect(addIsoDuration(addIsoDuration(t, d), d, { sign: -1 })).toBe(t)
        },
      ),
    )
  })
  it('clock durations', () => {
    expect(parseClockDuration('90m')).toEqual({ ok: true, value: 5_400_000 })
    expect(parseClockDuration('1h')).toEqual({ ok: true, value: 3_600_000 })
    for (const s of ['0m', '1d', 'm', '1.5h', '-1h', '01h', '090m', '00m']) expect(parseClockDuration(s).ok).toBe(false)
  })
  it('clock durations: exactly <n>m / <n>h with n >= 1 in canonical digits, n * 1 min / 1 h', () => {
    const strs = fc.oneof(
      fc
        .tuple(fc.integer({ min: 0, max: 9_999_999 }), fc.constantFrom('m', 'h', 'd', 's', ''))
        .map(([n, u]) => `${n}${u}`),
      fc.tuple(fc.stringMatching(/^[0-9]{1,7}$/), fc.constantFrom('m', 'h')).map(([d, u]) => `${d}${u}`),
      fc.string({ maxLength: 9 }),
    )
    fc.assert(
      fc.property(strs, (s) => {
        const m = /^([1-9][0-9]{0,6})([mh])$/.exec(s)
        const r = parseClockDuration(s)
        if (m === null) expect(r.ok).toBe(false)
        else expect(r).toEqual({ ok: true, value: Number(m[1]) * (m[2] === 'm' ? 60_000 : 3_600_000) })
      }),
      { numRuns: 500 },
    )
  })
})

describe('timeframes', () => {
  it('accepts exactly the canonical ids of listTimeframes()', () => {
    for (const rule of listTimeframes()) {
      for (let n = 0; n <= rule.max + 2; n++) {
        const r = parseTimeframe(`${n}${rule.suffix}`)
        expect(r.ok).toBe(n >= rule.min && n <= rule.max)
        if (r.ok) expect(r.value).toEqual({ id: `${n}${rule.suffix}`, unit: rule.unit, count: n })
      }
    }
    for (const bad of ['05m', '60m', '24h', '7d', '4w', '12M', '2y', '1001t', '1Q', '', 'm', '1 m', '1min'])
      expect(parseTimeframe(bad).ok).toBe(false)
  })
  it('errors are 400 invalid_argument naming timeframe', () => {
    const r = parseTimeframe('60m')
    expect(r.ok).toBe(false)
    if (!r.ok)
      expect(r.error).toMatchObject({
        status: 400,
        code: 'invalid_argument',
        message: expect.stringMatching(/^timeframe/),
      })
  })
  it('partner time_frame takes any count >= 1 of MINUTE..YEAR', () => {
    expect(timeframeFromPartner({ time_unit: 'MINUTE', count: 90 })).toEqual({
      ok: true,
      value: { id: '90m', unit: 'MINUTE', count: 90 },
    })
    expect(timeframeFromPartner({ time_unit: 'QUARTER' })).toEqual({
      ok: true,
      value: { id: '1Q', unit: 'QUARTER', count: 1 },
    })
    for (const bad of [
      { time_unit: 'TICK' },
      { time_unit: 'MINUTE', count: 0 },
      { time_unit: 'MINUTE', count: 1.5 },
      { time_unit: 'MINUTE', extra: 1 },
      null,
      'MINUTE',
    ])
      expect(timeframeFromPartner(bad)).toMatchObject({ ok: false, error: { code: 3 } })
  })
  it('validators never throw on arbitrary input', () => {
    for (const x of [
      Object.create(null),
      { toString: false },
      {
        valueOf: () => {
          throw new Error('x')
        },
      },
    ]) {
      expect(parseTimeframe(x).ok).toBe(false)
      expect(parseIsoDuration(x).ok).toBe(false)
      expect(parseClockDuration(x).ok).toBe(false)
      expect(parseUnixSeconds(x).ok).toBe(false)
    }
    fc.assert(
      fc.property(hostile, (x) => {
        expect(typeof parseTimeframe(x as string).ok).toBe('boolean')
        expect(typeof timeframeFromPartner(x).ok).toBe('boolean')
        expect(typeof parseIsoDuration(x as string).ok).toBe('boolean')
        expect(typeof parseClockDuration(x as string).ok).toBe('boolean')
        expect(typeof parseUnixSeconds(x as string).ok).toBe('boolean')
      }),
    )
  })
  it('resolveTimeframe throws MarketDataError on bad counts', () => {
    expect(() => resolveTimeframe({ unit: 'MINUTE', count: 0 })).toThrow(/count/)
    expect(() => resolveTimeframe('61m' as TimeframeId)).toThrow(/timeframe/)
  })
  it('resolveTimeframe: an id given with an object must name the same frame; the id is always the canonical one', () => {
    const units = ['MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR', 'TICK'] as const
    fc.assert(
      fc.property(
        fc.constantFrom(...units),
        fc.integer({ min: 1, max: 500 }),
        fc.option(fc.string({ maxLength: 6 }), { nil: undefined }),
        (unit, count, id) => {
          const canonical = resolveTimeframe({ unit, count }).id
          expect(resolveTimeframe({ unit, count, id: canonical })).toEqual({ id: canonical, unit, count })
          if (id === undefined || id === canonical) return
          expect(() => resolveTimeframe({ unit, count, id }, 'blockSize')).toThrow(/blockSize\.id: .* does not name/)
        },
      ),
    )
    expect(resolveTimeframe({ unit: 'MINUTE', count: 90 }).id).toBe('90m')
    expect(() => resolveTimeframe({ unit: 'HOUR', count: 1, id: '30m' })).toThrow(
      /timeframe\.id: "30m" does not name HOUR x 1 \(its id is 1h\)/,
    )
  })
})

describe('wire formats at their edges', () => {
  it('RFC 3339: the shortest form, the last instant, lower-case t and z', () => {
    expect(parseRfc3339('2026-05-29T13:30:00Z')).toEqual({ ok: true, value: Date.UTC(2026, 4, 29, 13, 30) })
    expect(parseRfc3339('2026-05-29t13:30:00z')).toEqual({ ok: true, value: Date.UTC(2026, 4, 29, 13, 30) })
    expect(parseRfc3339('9999-12-31T23:59:59.999Z')).toEqual({ ok: true, value: 253402300799999 })
    expect(parseRfc3339('9999-12-31T23:59:59.9999Z')).toEqual({ ok: true, value: 253402300799999 })
    expect(parseRfc3339('9999-12-31T23:00:00.000-00:59')).toEqual({ ok: true, value: Date.UTC(9999, 11, 31, 23, 59) })
    expect(parseRfc3339('9999-12-31T23:59:59.999-00:01').ok).toBe(false)
  })

  it('RFC 3339: nothing may follow the Z or the offset', () => {
    for (const v of [
      '2026-05-29T13:30:00Zx',
      '2026-05-29T13:30:00ZZ',
      '2026-05-29T13:30:00+01:00x',
      '2026-05-29T13:30:00+01:000',
      '2026-05-29T13:30:00-05:00Z',
    ]) {
      expect(parseRfc3339(v).ok).toBe(false)
    }
  })

  it('Unix seconds: up to 253402300799 (the last second of 9999)', () => {
    expect(parseUnixSeconds('253402300799')).toEqual({ ok: true, value: 253402300799000 })
    expect(parseUnixSeconds('253402300800').ok).toBe(false)
  })

  it('toUnixSeconds floors, also before 1970', () => {
    expect(toUnixSeconds(1999)).toBe(1)
    expect(toUnixSeconds(-1)).toBe(-1)
    expect(toUnixSeconds(-1500)).toBe(-2)
    expect(toUnixSeconds(-2000)).toBe(-2)
  })

  it('ISO 8601 durations: a designator may not repeat', () => {
    for (const v of ['P1D2D', 'P1Y1Y', 'PT1H2H', 'PT1M1M', 'PT1S1S', 'P1W1W'])
      expect(parseIsoDuration(v).ok).toBe(false)
  })

  it('ISO 8601 durations: a fraction of seconds has 1 to 3 digits', () => {
    expect(parseIsoDuration('PT1.234S')).toMatchObject({ ok: true, value: { seconds: 1.234 } })
    expect(parseIsoDuration('PT1,5S')).toMatchObject({ ok: true, value: { seconds: 1.5 } })
    for (const v of ['PT1.2345S', 'PT1.S', 'PT0.0000S']) expect(parseIsoDuration(v).ok).toBe(false)
  })

  it('ISO 8601 durations: each part has 1 to 9 digits', () => {
    expect(parseIsoDuration('PT999999999S').ok).toBe(true)
    expect(parseIsoDuration('PT000000001S').ok).toBe(true)
    for (const v of ['PT1000000000S', 'P0000000001D', 'P1234567890Y']) expect(parseIsoDuration(v).ok).toBe(false)
  })
})
