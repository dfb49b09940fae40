import { test as fcTest } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { rangeExtension, rotationFactor } from '../../src/analytics/index.js'
import { tpoProfiles } from '../../src/tpo/index.js'
import { candleDay, day, mirrorTrades, randomDay, randomTrades, T, BLOCK } from './build.js'

describe('rotationFactor', () => {
  it('scores each period against the one before, highs and lows', () => {
    // B: higher high, higher low (+2); C: equal high, lower low (-1); D: lower high, lower low (-2)
    const p = day([
      [100, 104],
      [101, 106],
      [99, 106],
      [97, 103],
    ])
    expect(rotationFactor(p)).toEqual({
      periods: [
        { start: T(9) + BLOCK, high: 1, low: 1, factor: 2 },
        { start: T(9) + 2 * BLOCK, high: 0, low: -1, factor: -1 },
        { start: T(9) + 3 * BLOCK, high: -1, low: -1, factor: -2 },
      ],
      total: -1,
    })
  })
  it('a trend up scores +2 a period; equal periods score 0 (ties)', () => {
    const up = day([
      [100, 102],
      [101, 103],
      [102, 104],
    ])
    expect(rotationFactor(up).total).toBe(4)
    const flat = day([
      [100, 102],
      [100, 102],
      [100, 102],
    ])
    expect(rotationFactor(flat).periods.map((x) => x.factor)).toEqual([0, 0])
  })
  it('a one-block day has no periods', () => {
    expect(rotationFactor(day([[100, 104]]))).toEqual({ periods: [], total: 0 })
  })
  it('candle profiles of the same blocks give the same factor', () => {
    const b: [number, number][] = [
      [100, 104],
      [102, 107],
      [101, 103],
    ]
    expect(rotationFactor(candleDay(b))).toEqual(rotationFactor(day(b)))
  })
  fcTest.prop([randomTrades])('is antisymmetric under mirroring prices', (trades) => {
    const p = randomDay(trades)
    const m = tpoProfiles(mirrorTrades(trades, 10010), { timeframe: '1d', tickSize: '0.25' })[0]!
    const a = rotationFactor(p)
    const b = rotationFactor(m)
    expect(b.total).toBe(0 - a.total)
    expect(b.periods.map((x) => [x.start, 0 - x.low, 0 - x.high])).toEqual(
      a.periods.map((x) => [x.start, x.high, x.low]),
    )
  })
})

describe('rangeExtension', () => {
  it('up only: from the IB high, in IB multiples', () => {
    // IB 100-106 (6); high 115: 9 above = 1.5 IB
    const p = day([
      [100, 104],
      [101, 106],
      [105, 112],
      [110, 115],
    ])
    expect(rangeExtension(p)).toEqual({
      ibHigh: '106',
      ibLow: '100',
      ibRange: '6',
      sides: 'up',
      up: { distance: '9', multiple: '1.5' },
      down: { distance: '0', multiple: '0' },
    })
  })
  it('both sides, multiples floored to 2 decimals', () => {
    // IB 100-103 (3): low 98 is 2 below (0.66...), high 107 is 4 above (1.33...)
    const p = day([
      [100, 102],
      [101, 103],
      [98, 101],
      [102, 107],
    ])
    expect(rangeExtension(p)).toMatchObject({
      sides: 'both',
      up: { distance: '4', multiple: '1.33' },
      down: { distance: '2', multiple: '0.66' },
    })
  })
  it('an IB equal to the range has no extension; an IB of one price has no multiples', () => {
    const held = day([
      [100, 110],
      [102, 108],
      [101, 109],
    ])
    expect(rangeExtension(held)).toMatchObject({ sides: 'none', up: { distance: '0' }, down: { distance: '0' } })
    const onePrice = day([
      [100, 100],
      [100, 100],
      [100, 104],
    ])
    expect(rangeExtension(onePrice)).toMatchObject({
      ibRange: '0',
      sides: 'up',
      up: { distance: '4', multiple: null },
      down: { distance: '0', multiple: null },
    })
  })
  it('a one-block day is its own IB', () => {
    expect(rangeExtension(day([[100, 104]])).sides).toBe('none')
  })
  fcTest.prop([randomTrades])('mirroring prices swaps the sides', (trades) => {
    const a = rangeExtension(randomDay(trades))
    const b = rangeExtension(tpoProfiles(mirrorTrades(trades, 10010), { timeframe: '1d', tickSize: '0.25' })[0]!)
    expect([b.up, b.down, b.ibRange]).toEqual([a.down, a.up, a.ibRange])
    const swap = { up: 'down', down: 'up', both: 'both', none: 'none' } as const
    expect(b.sides).toBe(swap[a.sides])
  })
})
