import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseSecurityId, validateListCandlesRequest } from '../../src/rules/index.js'
import { LC_T0 as T0, LC_T0_MS as T0_MS, lcBody as body, lcInvalid as invalid, lcValid as valid } from './helpers.js'

describe('parseSecurityId', () => {
  it.each([
    [{ guid: 'a1b2' }, { guid: 'a1b2' }],
    [
      { ticker_code: { ticker: 'AAPL', exchange_code: 'XNAS' } },
      { ticker_code: { ticker: 'AAPL', exchange_code: 'XNAS' } },
    ],
    [{ guid: 'a', ticker_code: null }, { guid: 'a' }],
  ])('%j is valid', (x, out) => expect(parseSecurityId(x)).toEqual({ ok: true, value: out }))

  it.each([
    [{}, 'exactly one of guid or ticker_code'],
    [{ guid: 'a', ticker_code: { ticker: 'A', exchange_code: 'X' } }, 'exactly one'],
    [{ guid: '' }, 'security_id.guid: must not be empty'],
    [{ guid: 5 }, 'security_id.guid: must be a string'],
    [{ guid: 'x'.repeat(129) }, '128'],
    [{ ticker_code: { ticker: 'A' } }, 'security_id.ticker_code.exchange_code: is required'],
    [{ ticker_code: { exchange_code: 'X' } }, 'security_id.ticker_code.ticker: is required'],
    [{ ticker_code: 'AAPL' }, 'security_id.ticker_code: must be an object'],
    [{ ticker_code: { ticker: 'A', exchange_code: 'X', mic: 'XNAS' } }, 'security_id.ticker_code: unknown field "mic"'],
    [{ guid: 'a', isin: 'US0378331005' }, 'security_id: unknown field "isin"'],
    [null, 'must be an object'],
    [['a'], 'must be an object'],
    ['a', 'must be an object'],
  ])('%j is 3 INVALID_ARGUMENT mentioning %s', (x, mentions) => {
    const r = parseSecurityId(x)
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error.code).toBe(3)
      expect(r.error.message).toContain(mentions)
    }
  })

  it('prefixes messages with the given path', () => {
    const r = parseSecurityId({ guid: '' }, 'security_ids[2]')
    expect(!r.ok && r.error.message).toBe('security_ids[2].guid: must not be empty')
  })

  it('__proto__ is an unknown field, and the result is a fresh object', () => {
    const x = JSON.parse('{"guid":"g","__proto__":{"ticker_code":1}}')
    expect(parseSecurityId(x).ok).toBe(false)
    const y = { guid: 'g' }
    const r = parseSecurityId(y)
    expect(r.ok && r.value).not.toBe(y)
  })
})

describe('parseSecurityId: strings of exactly 128 characters are accepted', () => {
  it('guid, ticker and exchange_code at 128 pass, at 129 fail', () => {
    const s128 = 'g'.repeat(128)
    expect(parseSecurityId({ guid: s128 })).toEqual({ ok: true, value: { guid: s128 } })
    expect(parseSecurityId({ ticker_code: { ticker: s128, exchange_code: s128 } }).ok).toBe(true)
    expect(parseSecurityId({ guid: `${s128}x` }).ok).toBe(false)
    expect(parseSecurityId({ ticker_code: { ticker: 'A', exchange_code: `${s128}x` } }).ok).toBe(false)
  })
})

describe('validateListCandlesRequest: the request table', () => {
  it('a full valid body', () => {
    const v = valid(body({ properties: ['OPEN', 'CLOSE', 'OPEN'], session_types: ['POST_MARKET', 'MAINSESSION'] }))
    expect(v).toEqual({
      securityId: { guid: 'g-1' },
      timeframe: { id: '15m', unit: 'MINUTE', count: 15 },
      rangeForm: 'duration',
      from: T0_MS,
      to: T0_MS + 4 * 3_600_000,
      direction: 'forward',
      properties: ['OPEN', 'CLOSE'],
      sessionTypes: ['MAINSESSION', 'POST_MARKET'],
    })
  })
  it('security_id is required and validated', () => {
    invalid(body({ security_id: undefined }), 'security_id: is required')
    invalid(body({ security_id: { guid: 'a', ticker_code: { ticker: 'A', exchange_code: 'X' } } }), 'exactly one')
  })
  it.each(['MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR'])('time_frame.time_unit %s is accepted', (u) => {
    expect(valid(body({ time_frame: { time_unit: u } })).timeframe).toMatchObject({ unit: u, count: 1 })
  })
  it('time_frame.count: default 1, custom counts allowed, minimum 1', () => {
    expect(valid(body({ time_frame: { time_unit: 'MINUTE', count: 90 } })).timeframe).toMatchObject({
      unit: 'MINUTE',
      count: 90,
    })
    for (const c of [0, -1, 1.5, '5', true])
      invalid(body({ time_frame: { time_unit: 'MINUTE', count: c } }), 'time_frame.count')
  })
  it('time_frame errors', () => {
    invalid(body({ time_frame: undefined }), 'time_frame: is required')
    invalid(body({ time_frame: { count: 5 } }), 'time_frame.time_unit: is required')
    invalid(body({ time_frame: { time_unit: 'SECOND' } }), 'time_frame.time_unit')
    invalid(body({ time_frame: { time_unit: 'minute' } }), 'time_frame.time_unit')
    invalid(body({ time_frame: { time_unit: 'MINUTE', unit: 'x' } }), 'time_frame: unknown field "unit"')
    invalid(body({ time_frame: 'PT1M' }), 'time_frame: must be an object')
  })
  it.each(['OPEN', 'HIGH', 'LOW', 'CLOSE', 'VALUE', 'VOLUME', 'SESSION_TYPE'])('properties %s is accepted', (p) => {
    expect(valid(body({ properties: [p] })).properties).toEqual([p])
  })
  it('properties: default (omitted or empty) is all seven; unknown values are rejected by index', () => {
    expect(valid(body()).properties).toHaveLength(7)
    expect(valid(body({ properties: [] })).properties).toHaveLength(7)
    invalid(body({ properties: ['OPEN', 'open'] }), 'properties[1]')
    invalid(body({ properties: 'OPEN' }), 'properties: must be an array')
  })
  it.each(['MAINSESSION', 'PRE_MARKET', 'POST_MARKET'])('session_types %s is accepted', (st) => {
    expect(valid(body({ session_types: [st] })).sessionTypes).toEqual([st])
  })
  it('session_types: default all three; unknown values are rejected', () => {
    expect(valid(body()).sessionTypes).toEqual(['MAINSESSION', 'PRE_MARKET', 'POST_MARKET'])
    invalid(body({ session_types: ['REGULAR'] }), 'session_types[0]')
    invalid(body({ session_types: [0] }), 'session_types[0]')
  })
  it('unknown fields at the top level are rejected naming them', () => {
    invalid(body({ limit: 5, page: 2 }), 'unknown fields "limit", "page"')
    invalid({ ...body(), __proto__x: 1 }, '"__proto__x"')
    invalid(Object.assign(JSON.parse('{"__proto__": 1}'), body()), '"__proto__"')
  })
  it('the body must be an object', () => {
    for (const b of [null, undefined, 'x', 5, [body()]]) invalid(b, 'JSON object')
  })
})

describe('validateListCandlesRequest: range forms', () => {
  it('bounds: candles between the two times, in either order', () => {
    const a = valid(body({ range: { first_bound_time: T0, second_bound_time: '2026-06-02T00:00:00Z' } }))
    const b = valid(body({ range: { first_bound_time: '2026-06-02T00:00:00Z', second_bound_time: T0 } }))
    expect([a.from, a.to, a.direction, a.rangeForm]).toEqual([T0_MS, T0_MS + 86_400_000, 'forward', 'bounds'])
    expect([b.from, b.to, b.direction]).toEqual([a.from, a.to, a.direction])
    expect(a.limit).toBeUndefined()
  })
  it('bounds: equal bounds are invalid; offsets are read', () => {
    invalid(body({ range: { first_bound_time: T0, second_bound_time: '2026-06-01T02:00:00+02:00' } }), 'must differ')
  })
  it.each([
    ['PT4H', 4 * 3_600_000],
    ['PT90M', 90 * 60_000],
    ['P1D', 86_400_000],
    ['P1W', 7 * 86_400_000],
    ['P1M', 30 * 86_400_000],
    ['PT0.5S', 500],
  ])('duration %s is counted forward', (d, ms) => {
    const v = valid(body({ range: { first_bound_time: T0, duration: d } }))
    expect([v.from, v.to, v.direction, v.rangeForm]).toEqual([T0_MS, T0_MS + ms, 'forward', 'duration'])
  })
  it.each(['4h', 'PT0S', 'P', 'PT', '-PT1H', 'PT1.5H', '', 'P'.repeat(100)])('duration %j is invalid', (d) => {
    invalid(body({ range: { first_bound_time: T0, duration: d } }), 'range.duration')
  })
  it('count > 0: the first count candles from first_bound_time', () => {
    const v = valid(body({ range: { first_bound_time: T0, count: 100 } }))
    expect([v.from, v.direction, v.limit, v.rangeForm]).toEqual([T0_MS, 'forward', 100, 'count'])
    expect(v.to).toBeGreaterThan(v.from)
  })
  it('count < 0: the last -count candles before first_bound_time', () => {
    const v = valid(body({ range: { first_bound_time: T0, count: -50 } }))
    expect([v.from, v.to, v.direction, v.limit]).toEqual([0, T0_MS, 'backward', 50])
  })
  it.each([0, 1.5, '10', 2 ** 31, Number.MAX_SAFE_INTEGER])('count %j is invalid', (c) => {
    invalid(body({ range: { first_bound_time: T0, count: c } }), 'range.count')
  })
  it('exactly one range form', () => {
    invalid(body({ range: { first_bound_time: T0 } }), 'exactly one of second_bound_time, duration, count (none given)')
    invalid(body({ range: { first_bound_time: T0, count: 5, duration: 'PT1H' } }), '(2 given)')
    invalid(body({ range: { first_bound_time: T0, count: 5, duration: 'PT1H', second_bound_time: T0 } }), '(3 given)')
  })
  it('range fields are checked', () => {
    invalid(body({ range: undefined }), 'range: is required')
    invalid(body({ range: { count: 5 } }), 'range.first_bound_time: is required')
    invalid(body({ range: { first_bound_time: T0, count: 5, step: 1 } }), 'range: unknown field "step"')
    for (const t of ['2026-06-01T00:00:00', '2026-06-01', '1780272000', 1780272000, 'now', '1969-12-31T23:59:59Z']) {
      invalid(body({ range: { first_bound_time: t, count: 5 } }), 'range.first_bound_time')
      invalid(body({ range: { first_bound_time: T0, second_bound_time: t } }), 'range.second_bound_time')
    }
  })
  it.each([
    ['9999-12-31T23:59:59-01:00', 'must be before 10000-01-01T00:00:00Z'],
    ['1970-01-01T00:30:00+01:00', 'must not be before 1970-01-01T00:00:00Z'],
    ['1969-12-31T23:59:59Z', 'must not be before 1970-01-01T00:00:00Z'],
    ['1969-02-29T00:00:00Z', 'is not an ISO 8601 date-time'],
    ['1x69-12-31T23:59:59Z', 'is not an ISO 8601 date-time'],
  ])(
    'first_bound_time %s: a well-formed date-time past a limit names the range rule, a malformed one the format',
    (t, rule) => {
      invalid(
        body({ range: { first_bound_time: t, count: 5 } }),
        `range.first_bound_time: ${rule.startsWith('is') ? `"${t}" ${rule}` : rule}`,
      )
    },
  )
})

describe('validateListCandlesRequest properties', () => {
  const keys = fc.constantFrom(
    'security_id',
    'time_frame',
    'range',
    'properties',
    'session_types',
    'guid',
    'count',
    '__proto__',
    'x',
  )
  it('never throws on anything, answers 3 INVALID_ARGUMENT with a message otherwise', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.anything({ withNullPrototype: true, withObjectString: true }), fc.dictionary(keys, fc.anything())),
        (x) => {
          const r = validateListCandlesRequest(x)
          if (!r.ok) {
            expect(r.error.code).toBe(3)
            expect(r.error.message.length).toBeGreaterThan(0)
          }
        },
      ),
      { numRuns: 500 },
    )
  })

  it('an unknown field at any level is rejected naming it', () => {
    const where = fc.constantFrom('', 'security_id', 'security_id.ticker_code', 'time_frame', 'range')
    const name = fc
      .string({ minLength: 1, maxLength: 10 })
      .filter(
        (n) =>
          ![
            'security_id',
            'time_frame',
            'range',
            'properties',
            'session_types',
            'guid',
            'ticker_code',
            'ticker',
            'exchange_code',
            'time_unit',
            'count',
            'first_bound_time',
            'second_bound_time',
            'duration',
          ].includes(n),
      )
    fc.assert(
      fc.property(where, name, (path, n) => {
        const b: Record<string, unknown> = {
          security_id: { ticker_code: { ticker: 'A', exchange_code: 'X' } },
          time_frame: { time_unit: 'DAY' },
          range: { first_bound_time: T0, count: -3 },
        }
        let target: Record<string, unknown> = b
        for (const part of path === '' ? [] : path.split('.')) target = target[part] as Record<string, unknown>
        Object.defineProperty(target, n, { value: 1, enumerable: true })
        const r = validateListCandlesRequest(b)
        expect(r.ok).toBe(false)
        if (!r.ok) expect(r.error.message).toContain(JSON.stringify(n))
      }),
      { numRuns: 200 },
    )
  })

  it('resolved ranges are non-empty and forward unless a negative count reads backwards', () => {
    const t = fc
      .integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2090, 0, 1) })
      .map((ms) => new Date(ms).toISOString())
    fc.assert(
      fc.property(
        t,
        fc.oneof(
          t.map((x) => ({ second_bound_time: x })),
          fc
            .integer({ min: -100000, max: 100000 })
            .filter((c) => c !== 0)
            .map((count) => ({ count })),
        ),
        (first, form) => {
          const r = validateListCandlesRequest(body({ range: { first_bound_time: first, ...form } }))
          if (!r.ok) {
            expect('second_bound_time' in form && form.second_bound_time === first).toBe(true)
            return
          }
          expect(r.value.from).toBeLessThan(r.value.to)
          expect(r.value.direction).toBe('count' in form && form.count < 0 ? 'backward' : 'forward')
          if ('count' in form) expect(r.value.limit).toBe(Math.abs(form.count))
        },
      ),
      { numRuns: 300 },
    )
  })
})
