import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { balancedTarget, openRange } from '../../src/analytics/index.js'
import { MarketDataError } from '../../src/errors.js'
import { footprintProfiles } from '../../src/footprint/index.js'
import { tpoProfiles } from '../../src/tpo/index.js'
import type { Trade } from '../../src/trades/index.js'
import { BLOCK, candleDay, day, dayTrades, randomDay, randomTrades, T } from './build.js'

describe('openRange', () => {
  const blocks: [number, number][] = [
    [100, 103],
    [99, 102],
    [101, 106],
  ]
  it('the first block by default; blocks starting in the first N minutes otherwise', () => {
    expect(openRange(day(blocks))).toEqual({ start: T(9), end: T(9, 30), high: '103', low: '100', starts: [T(9)] })
    expect(openRange(day(blocks), { minutes: 60 })).toEqual({
      start: T(9),
      end: T(10),
      high: '103',
      low: '99',
      starts: [T(9), T(9, 30)],
    })
    // a window shorter than a block still takes the block: profiles know prices per block
    expect(openRange(day(blocks), { minutes: 10 })).toMatchObject({ high: '103', low: '100', end: T(9, 10) })
    expect(openRange(candleDay(blocks), { minutes: 61 })).toMatchObject({
      high: '106',
      low: '99',
      starts: [T(9), T(9, 30), T(10)],
    })
  })
  it('starts at the main session: a pre-market block before it is left out', () => {
    const trades: Trade[] = [
      { time: T(8), price: 90, volume: 1, side: 'buy', session: 'PRE_MARKET' },
      ...dayTrades(blocks),
    ]
    const [p] = tpoProfiles(trades, { timeframe: '1d', tickSize: 1 })
    expect(openRange(p!)).toMatchObject({ start: T(9), high: '103', low: '100' })
  })
  it('over footprints: the first profile, or those starting in the first N minutes', () => {
    const trades: Trade[] = [100, 102, 97, 105].map((price, i) => ({
      time: T(9, i * 2),
      price,
      volume: 1,
      side: 'buy',
    }))
    const fps = footprintProfiles(trades, { timeframe: '1m', tickSize: 1 })
    expect(openRange(fps)).toEqual({ start: T(9), end: T(9, 1), high: '100', low: '100', starts: [T(9)] })
    expect(openRange([...fps].reverse(), { minutes: 5 })).toEqual({
      start: T(9),
      end: T(9, 5),
      high: '102',
      low: '97',
      starts: [T(9), T(9, 2), T(9, 4)],
    })
  })
  it('refuses bad options and a single footprint', () => {
    expect(() => openRange(day(blocks), { minutes: 0 })).toThrow(/options.minutes: 0 must be an integer/)
    expect(() => openRange(day(blocks), { minutes: 1.5 })).toThrow(MarketDataError)
    expect(() => openRange(day(blocks), { mins: 5 } as never)).toThrow(/options.mins is not an option of openRange/)
    expect(() => openRange([])).toThrow(/non-empty/)
    expect(() => openRange([day(blocks)] as never)).toThrow(
      /openRange: profiles\[0\] is a TPO profile; give a TPO profile alone/,
    )
    const [fp] = footprintProfiles(dayTrades(blocks), { timeframe: '1d', tickSize: 1 })
    expect(() => openRange(fp as never)).toThrow(/give a TPO profile or a list of footprint profiles/)
  })
  fcTest.prop([randomTrades])('N minutes = the IB length gives the initial balance', (trades) => {
    const p = randomDay(trades)
    const r = openRange(p, { minutes: 60 })
    expect({ high: r.high, low: r.low }).toEqual(p.initialBalance)
  })
})

describe('balancedTarget', () => {
  it("py-market-profile's rule: the longer side from the POC reflected; the IB projected from the open", () => {
    // counts 100..106: 1 2 3 4 2 1 1 -> POC 103; the open 100, the IB (A + B) 100-104
    const p = day([
      [100, 104],
      [101, 103],
      [102, 106],
      [103, 103],
    ])
    expect(p.poc).toBe('103')
    // above: 106 - 103 = 3, below: 103 - 100 = 3 -> equal: the upper side reflected down
    expect(balancedTarget(p)).toEqual({
      basis: 'tpo',
      poc: '103',
      target: '100',
      direction: 'down',
      ibProjection: { high: '104', low: '96' },
    })
    const q = day([
      [100, 101],
      [100, 101],
      [100, 108],
    ])
    // counts 3 3 1 1 1 1 1 1 1 on 100..108: the tie 100 / 101 goes to 101, nearer the middle 104; the long side (up 7) reflected: 94
    expect(q.poc).toBe('101')
    expect(balancedTarget(q)).toMatchObject({ target: '94', direction: 'down' })
  })
  it('footprints reflect their volume POC and have no IB projection; candles have no volume POC', () => {
    const trades: Trade[] = [
      { time: T(10), price: 100, volume: 1, side: 'buy' },
      { time: T(10), price: 108, volume: 9, side: 'buy' },
    ]
    const [fp] = footprintProfiles(trades, { timeframe: '1d', tickSize: 1 })
    expect(balancedTarget(fp!)).toEqual({
      basis: 'volume',
      poc: '108',
      target: '116',
      direction: 'up',
      ibProjection: null,
    })
    expect(() => balancedTarget(fp!, { basis: 'tpo' })).toThrow(/no TPO counts; use \{ basis: 'volume' \}/)
    expect(() => balancedTarget(candleDay([[1, 3]]), { basis: 'volume' })).toThrow(/built from candles/)
    expect(
      balancedTarget(
        candleDay([
          [100, 104],
          [101, 103],
        ]),
      ),
    ).toEqual(
      balancedTarget(
        day([
          [100, 104],
          [101, 103],
        ]),
      ),
    )
  })
  fcTest.prop([randomTrades, fc.constantFrom<'tpo' | 'volume'>('tpo', 'volume')])(
    'the target mirrors the farther extreme about the POC and lies at or beyond the nearer one',
    (trades, basis) => {
      const p = randomDay(trades)
      const r = balancedTarget(p, { basis })
      const poc = Number(r.poc)
      const hi = Number(p.rows.at(-1)![0])
      const lo = Number(p.rows[0]![0])
      expect(Math.abs(Number(r.target) - poc)).toBe(Math.max(hi - poc, poc - lo))
      if (r.direction === 'down') expect(Number(r.target)).toBeLessThanOrEqual(lo)
      else expect(Number(r.target)).toBeGreaterThan(hi)
      const ib = Number(p.initialBalance!.high) - Number(p.initialBalance!.low)
      expect(Number(r.ibProjection!.high) - Number(p.open)).toBe(ib)
      expect(Number(p.open) - Number(r.ibProjection!.low)).toBe(ib)
      expect(r.target).toMatch(/\.\d\d$/) // grid decimals of tick 0.25
    },
  )
})

it('block length of the builder', () => {
  expect(BLOCK).toBe(30 * 60_000)
})
