import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { validateListCandlesRequest } from '../../src/rules/index.js'
import { readRangeDateTime } from '../../src/rules/range.js'
import { BASE, rejected } from './helpers.js'

describe('readRangeDateTime: 29 February outside 1970..9999 follows the Gregorian leap rule', () => {
  it.each([
    ['1900-02-29T00:00:00Z', 'format'], // 1900 is not a leap year (divisible by 100, not by 400)
    ['1800-02-29T12:00:00+01:00', 'format'],
    ['1600-02-29T00:00:00Z', 'before'], // divisible by 400: a leap year
    ['1968-02-29T00:00:00Z', 'before'],
    ['1969-02-29T00:00:00Z', 'format'],
  ] as const)('%s -> %s', (v, want) => {
    expect(readRangeDateTime(v)).toBe(want)
  })

  it('the history query names the format rule for a date that does not exist', () => {
    const e = rejected('candles', { ...BASE, timeframe: '1m', from: '1900-02-29T00:00:00Z' }, 'from')
    expect(e.message).not.toMatch(/1970/)
    expect(e.message).toContain('1900-02-29T00:00:00Z')
  })
})

describe('sessionType: an empty item says it is empty', () => {
  it.each(['MAINSESSION,', ',PRE_MARKET', 'MAINSESSION,,POST_MARKET', ''])('sessionType=%j', (v) => {
    const e = rejected('footprint', { ...BASE, timeframe: '1h', sessionType: v }, 'sessionType')
    expect(e.message).toMatch(/empty/)
  })
})

describe('numeric parameters are ASCII digits only', () => {
  // the characters around '0'..'9' in ASCII ('/' and ':') and a few look-alikes
  const notDigit = fc.constantFrom('/', ':', ';', ' ', '+', '-', '.', 'e', '\u0660', '\uff11')
  it('a non-digit character anywhere in limit, rowSize, period or from (Unix seconds) is 400 naming it', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{0,3}$/), notDigit, fc.stringMatching(/^[0-9]{0,3}$/), (a, c, b) => {
        const v = `${a}${c}${b}`
        rejected('candles', { ...BASE, timeframe: '1m', limit: v }, 'limit')
        rejected('footprint', { ...BASE, timeframe: '1m', rowSize: v }, 'rowSize')
        rejected('candles', { ...BASE, timeframe: '1m', period: v }, 'period')
        rejected('candles', { ...BASE, timeframe: '1m', from: v }, 'from')
      }),
      { numRuns: 100 },
    )
  })
})

describe('interface A: unknown fields are named, at most five, then a count', () => {
  it.each([
    [1, ['"a"'], ''],
    [5, ['"a"', '"b"', '"c"', '"d"', '"e"'], ''],
    [6, ['"a"', '"b"', '"c"', '"d"', '"e"'], 'and 1 more'],
    [8, ['"a"', '"b"', '"c"', '"d"', '"e"'], 'and 3 more'],
  ] as const)('%i unknown fields', (n, named, more) => {
    const extra: Record<string, number> = {}
    for (let i = 0; i < n; i++) extra['abcdefgh'[i]!] = i
    const r = validateListCandlesRequest({
      security_id: { guid: 'g' },
      time_frame: { time_unit: 'DAY' },
      range: { first_bound_time: '2026-06-01T00:00:00Z', count: 5 },
      ...extra,
    })
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.error.code).toBe(3)
    for (const name of named) expect(r.error.message).toContain(name)
    if (n > 5) expect(r.error.message).not.toContain('"f"')
    if (more) expect(r.error.message).toContain(more)
    else expect(r.error.message).not.toMatch(/more/)
  })
})

describe('query records: accessors are never run', () => {
  it('a getter-valued parameter is rejected as not a string, and its getter is not called', () => {
    let calls = 0
    const query = { ...BASE, from: '1780000000' }
    Object.defineProperty(query, 'timeframe', {
      enumerable: true,
      get() {
        calls++
        return '1m'
      },
    })
    rejected('candles', query as Record<string, string>, 'timeframe')
    expect(calls).toBe(0)
  })
})
