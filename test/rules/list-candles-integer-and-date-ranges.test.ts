import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { validateListCandlesRequest } from '../../src/rules/index.js'
import { TIME_MAX } from '../../src/rules/range.js'
import { LC_T0 as T0, LC_T0_MS as T0_MS, lcBody as body, lcInvalid as invalid, lcValid as valid } from './helpers.js'

const INT32_MAX = 2 ** 31 - 1
const INT32_MIN = -(2 ** 31)

describe('ListCandles integers are int32 (the proto field types), both ends included', () => {
  it('time_frame.count: 1..2147483647', () => {
    expect(valid(body({ time_frame: { time_unit: 'MINUTE', count: INT32_MAX } })).timeframe.count).toBe(INT32_MAX)
    invalid(body({ time_frame: { time_unit: 'MINUTE', count: INT32_MAX + 1 } }), 'time_frame.count')
  })

  it('every bad time_frame.count gets the same rule, naming the whole range 1..2147483647', () => {
    for (const count of [0, -1, 1.5, INT32_MAX + 1, '5']) {
      invalid(
        body({ time_frame: { time_unit: 'HOUR', count } }),
        `time_frame.count: must be an integer 1..${INT32_MAX}`,
      )
    }
  })

  it('range.count: -2147483648..2147483647 except 0', () => {
    const up = valid(body({ range: { first_bound_time: T0, count: INT32_MAX } }))
    expect(up).toMatchObject({ rangeForm: 'count', from: T0_MS, to: TIME_MAX, direction: 'forward', limit: INT32_MAX })
    const down = valid(body({ range: { first_bound_time: T0, count: INT32_MIN } }))
    expect(down).toMatchObject({ rangeForm: 'count', from: 0, to: T0_MS, direction: 'backward', limit: 2 ** 31 })
    invalid(body({ range: { first_bound_time: T0, count: INT32_MAX + 1 } }), 'range.count')
    invalid(body({ range: { first_bound_time: T0, count: INT32_MIN - 1 } }), 'range.count')
  })
})

describe('ListCandles duration ranges end by 10000-01-01', () => {
  it('a duration reaching past year 9999 is invalid', () => {
    invalid(body({ range: { first_bound_time: '9999-12-31T00:00:00Z', duration: 'P2D' } }), 'range.duration')
    invalid(body({ range: { first_bound_time: '9999-12-31T23:00:00Z', duration: 'PT1H1S' } }), 'range.duration')
    expect(valid(body({ range: { first_bound_time: '9999-12-31T23:00:00Z', duration: 'PT1H' } })).to).toBe(TIME_MAX)
  })

  it('every accepted duration range lies within 1970..10000-01-01 and is not empty', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(9990, 0, 1), max: TIME_MAX - 1 }),
        fc.integer({ min: 1, max: 4000 }),
        fc.constantFrom('D', 'W', 'M', 'Y', 'H'),
        (t, n, unit) => {
          const duration = unit === 'H' ? `PT${n}H` : `P${n}${unit}`
          const r = validateListCandlesRequest(
            body({ range: { first_bound_time: new Date(t).toISOString(), duration } }),
          )
          if (r.ok) {
            expect(r.value.from).toBe(t)
            expect(r.value.to).toBeGreaterThan(t)
            expect(r.value.to).toBeLessThanOrEqual(TIME_MAX)
          } else expect(r.error.message).toContain('range.duration')
        },
      ),
      { numRuns: 200 },
    )
  })
})
