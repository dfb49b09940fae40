// The merge functions take back whatever the aggregators wrote: volumes longer than an input decimal may be
// (a sum of 1e308 and 1e-300 has 610 characters) and periods of the last days before 8.64e15, whose end lies
// past what a Date holds. Merging two parts equals the profile of the concatenated trades.
import { describe, expect, it } from 'vitest'
import { footprintProfiles, mergeFootprintProfiles } from '../../src/footprint/index.js'
import { mergeTpoProfiles, tpoProfiles } from '../../src/tpo/index.js'
import type { Trade } from '../../src/trades/index.js'

const FOOTPRINT = { timeframe: '1h', tickSize: '0.25' } as const
const TPO = { timeframe: '1w', tickSize: '0.25', blockSize: '30m' } as const

describe('merging what the aggregators wrote', () => {
  it.each([
    ['extreme volumes', Date.UTC(2026, 5, 1, 10)],
    ['the last week a Date holds', 8.64e15 - 3_600_000],
  ])('%s: footprint and TPO parts merge to the whole', (_, t) => {
    const first: Trade[] = [
      { time: t, price: 5000, volume: 1e308, side: 'buy' },
      { time: t + 1, price: 5000, volume: '1e-300', side: 'buy' },
    ]
    const second: Trade[] = [{ time: t + 2, price: 5000, volume: '1e-300', side: 'buy' }]
    const whole = [...first, ...second]
    const fp = (x: Trade[]) => footprintProfiles(x, FOOTPRINT)[0]!
    expect(mergeFootprintProfiles(fp(first), fp(second))).toEqual(fp(whole))
    expect(fp(first).rows[0]![1].length).toBeGreaterThan(400)
    const tp = (x: Trade[]) => tpoProfiles(x, TPO)[0]!
    if (t > 8e15) expect(tp(first).end).toBeGreaterThan(8.64e15)
    expect(mergeTpoProfiles(tp(first), tp(second))).toEqual(tp(whole))
  })
})
