import { test as fcTest } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { openLocation, openType } from '../../src/analytics/index.js'
import { tpoProfiles, type TpoProfile } from '../../src/tpo/index.js'
import type { Trade } from '../../src/trades/index.js'
import { BLOCK, day, dayTrades, mirrorTrades, randomDay, randomTrades, T, type BlockSpec } from './build.js'

/** A day (tick 1, 30-minute blocks from 09:00, IB = A + B) whose first trade, at 09:00, is `open`. */
function opened(open: number, blocks: BlockSpec[], d = 1): TpoProfile {
  const trades: Trade[] = [{ time: T(9, 0, d), price: open, volume: 1, side: 'buy' }, ...dayTrades(blocks, d)]
  return tpoProfiles(trades, { timeframe: '1d', tickSize: 1 })[0]!
}

describe('openType', () => {
  it.each<[string, number, BlockSpec[], string, string | null]>([
    [
      'drive up: opens at the IB low, B stays above the open',
      100,
      [
        [100, 104],
        [103, 108],
      ],
      'open-drive',
      'up',
    ],
    [
      'drive down: the mirror',
      108,
      [
        [104, 108],
        [100, 105],
      ],
      'open-drive',
      'down',
    ],
    [
      'test drive up: A tests 3 below, B drives 7 above, never back',
      103,
      [
        [100, 104],
        [104, 110],
      ],
      'open-test-drive',
      'up',
    ],
    [
      'test drive down',
      107,
      [
        [106, 110],
        [100, 106],
      ],
      'open-test-drive',
      'down',
    ],
    [
      'rejection reverse up: A trades down, B reverses above A and back to the open',
      103,
      [
        [100, 104],
        [102, 108],
      ],
      'open-rejection-reverse',
      'up',
    ],
    [
      'rejection reverse up: a test longer than the drive',
      106,
      [
        [100, 107],
        [107, 109],
      ],
      'open-rejection-reverse',
      'up',
    ],
    [
      'auction: both extremes in A',
      104,
      [
        [100, 108],
        [101, 107],
      ],
      'open-auction',
      null,
    ],
    [
      'auction: an IB of one price',
      100,
      [
        [100, 100],
        [100, 100],
        [100, 104],
      ],
      'open-auction',
      null,
    ],
    ['one-block day opening at its low is a drive', 100, [[100, 104]], 'open-drive', 'up'],
    ['one-block day opening inside is an auction (no later period to tell)', 102, [[100, 104]], 'open-auction', null],
  ])('%s', (_, open, blocks, type, direction) => {
    const r = openType(opened(open, blocks))
    expect([r.type, r.direction, r.auction, r.open]).toEqual([type, direction, null, String(open)])
  })
  it('an open auction in or out of the previous day range', () => {
    const p = opened(
      104,
      [
        [100, 108],
        [101, 107],
      ],
      2,
    )
    expect(openType(p, { previous: day([[95, 110]]) }).auction).toBe('in-range')
    expect(openType(p, { previous: day([[104, 120]]) }).auction).toBe('in-range') // the previous low itself
    expect(openType(p, { previous: day([[105, 120]]) }).auction).toBe('out-of-range')
    // drives carry no auction reading
    expect(
      openType(
        opened(
          100,
          [
            [100, 104],
            [103, 108],
          ],
          2,
        ),
        { previous: day([[95, 110]]) },
      ).auction,
    ).toBeNull()
  })
  it('the tolerance widens "at the IB low"', () => {
    // opens 1 above the IB low of a 10-point IB: a drive at 0.1, not at 0.05
    const p = opened(101, [
      [100, 104],
      [103, 110],
    ])
    expect(openType(p).type).toBe('open-drive')
    expect(openType(p, { tolerance: '0.05' }).type).not.toBe('open-drive')
    expect(() => openType(p, { tolerance: '0.6' })).toThrow(/options.tolerance/)
  })
  fcTest.prop([randomTrades])('mirroring prices keeps the type and swaps the direction', (trades) => {
    const a = openType(randomDay(trades))
    const b = openType(tpoProfiles(mirrorTrades(trades, 10010), { timeframe: '1d', tickSize: '0.25' })[0]!)
    const swap = { up: 'down', down: 'up' } as const
    expect([b.type, b.direction]).toEqual([a.type, a.direction === null ? null : swap[a.direction]])
  })
})

describe('openLocation', () => {
  // previous day: range 100-110, value area 103-109 (rows), so value is [103, 110)
  const prev = day([
    [100, 110],
    [101, 109],
    [102, 108],
    [103, 109, 105],
  ])
  it('the previous value area and range (sanity of the hand count)', () => {
    expect([prev.valueAreaLow, prev.valueAreaHigh, prev.low, prev.high]).toEqual(['103', '109', '100', '110'])
  })
  it.each<[number, string]>([
    [111, 'above-range'],
    [95, 'below-range'],
    [110, 'above-value'], // at the previous high, above the value's top
    [102, 'below-value'],
    [105, 'in-value'],
    [109, 'in-value'], // the value area's top row
    [103, 'in-value'],
  ])('open %i: %s', (open, location) => {
    const r = openLocation(opened(open, [[Math.min(open, 104), Math.max(open, 106)]], 2), prev)
    expect(r.location).toBe(location)
    expect(r.previousValueArea).toEqual({ low: '103', high: '109' })
    expect(r.previousRange).toEqual({ low: '100', high: '110' })
  })
  it('reentry: the second of two consecutive periods back in value (the 80% rule setup)', () => {
    // opens 112 above the range; A stays above value, B and C trade into it
    const today = opened(
      112,
      [
        [111, 114],
        [108, 112],
        [104, 109],
      ],
      2,
    )
    expect(openLocation(today, prev)).toMatchObject({ location: 'above-range', reentry: T(9, 0, 2) + 2 * BLOCK })
    // one period back in value is not enough
    const once = opened(
      112,
      [
        [111, 114],
        [108, 112],
        [111, 113],
      ],
      2,
    )
    expect(openLocation(once, prev).reentry).toBeNull()
    // an open in value has no reentry
    expect(
      openLocation(
        opened(
          105,
          [
            [104, 106],
            [104, 106],
          ],
          2,
        ),
        prev,
      ).reentry,
    ).toBeNull()
  })
})
