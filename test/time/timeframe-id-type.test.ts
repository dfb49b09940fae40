// TimeframeInput is checked while compiling: canonical ids and { unit, count } objects compile, anything else
// does not (`npx tsc --noEmit` fails if a @ts-expect-error below stops being an error); run time still checks.
import { describe, expect, it } from 'vitest'
import {
  candlesFromTrades,
  parseTimeframe,
  resolveTimeframe,
  type TimeframeId,
  type TimeframeInput,
} from '../../src/index.js'

describe('TimeframeId', () => {
  it('accepts the canonical ids and objects, and refuses others at compile time', () => {
    const good: TimeframeInput[] = [
      '1m',
      '15m',
      '59m',
      '1h',
      '23h',
      '1d',
      '6d',
      '1w',
      '3w',
      '1M',
      '11M',
      '1y',
      '100t',
      { unit: 'MINUTE', count: 90 },
    ]
    for (const tf of good) expect(resolveTimeframe(tf).count).toBeGreaterThan(0)
    // @ts-expect-error not an id
    const five: TimeframeInput = '5min'
    // @ts-expect-error not canonical (60 minutes is 1h)
    const sixty: TimeframeId = '60m'
    // @ts-expect-error no 7-day id (weeks are 1w)
    const seven: TimeframeId = '7d'
    // the run-time check stays for values that bypass the type
    for (const bad of [five, sixty, seven])
      expect(() => candlesFromTrades([], { timeframe: bad })).toThrow(expect.objectContaining({ field: 'timeframe' }))
  })

  it('a string read at run time goes through parseTimeframe', () => {
    const fromUser: string = '4h'
    const r = parseTimeframe(fromUser)
    expect(r.ok && candlesFromTrades([], { timeframe: r.value })).toEqual([])
  })
})
