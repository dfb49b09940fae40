// The day session: reads defined on it use the main session wherever the profile holds others.
import { describe, expect, it } from 'vitest'
import { balancedTarget, dayType, profileAnalytics, rangeExtension } from '../../src/analytics/index.js'
import { MarketDataError } from '../../src/errors.js'
import { footprintProfiles } from '../../src/footprint/index.js'
import { tpoProfiles, type TpoProfile } from '../../src/tpo/index.js'
import type { Trade } from '../../src/trades/index.js'
import { day, sessionTrades, T, type BlockSpec } from './build.js'

const OPTS = { timeframe: '1d', tickSize: 1 } as const
const merged = (trades: Trade[]) => tpoProfiles(trades, OPTS)[0] as TpoProfile
const grouped = (trades: Trade[]) => tpoProfiles(trades, { ...OPTS, mergeSessions: 'GROUP_BY_TYPE' })
const mainOnly = (trades: Trade[]) => tpoProfiles(trades, { ...OPTS, sessions: ['MAINSESSION'] })[0] as TpoProfile

// a Normal day of the main session from 09:00, all inside its IB 100-110
const NORMAL: BlockSpec[] = [
  [100, 110],
  [101, 109],
  [102, 108],
  [103, 109, 105],
]
// a trend day up: IB 100-103, range 100-112, close 112
const TREND: BlockSpec[] = [
  [100, 102],
  [101, 103],
  [103, 106],
  [105, 108],
  [107, 110],
  [109, 112, 112],
]

describe('pre-market trades above a Normal day', () => {
  // one pre-market block at 08:30 trading 112..115
  const trades = [...sessionTrades([[112, 115]], T(8, 30), 'PRE_MARKET'), ...sessionTrades(NORMAL, T(9), 'MAINSESSION')]
  const all = merged(trades)
  const main = mainOnly(trades)
  it('the merged profile reads as normal-variation up (what it read before); the main session is normal', () => {
    expect(all.high).toBe('115')
    expect(dayType(main)).toMatchObject({ type: 'normal', range: '10', ibRange: '10' })
    expect(profileAnalytics(all, { mainSession: main }).dayType?.type).toBe('normal')
    expect(profileAnalytics(all, { mainSession: main }).daySession).toBe('main-session')
  })
  it('dayType refuses the merged profile: its first block lies before the main session', () => {
    expect(() => dayType(all)).toThrow(/holds blocks before its main session .*give the period's main-session profile/)
    expect(() => rangeExtension(all)).toThrow(MarketDataError)
  })
  it('profileAnalytics without the main session gives no day-session reads rather than wrong ones', () => {
    const a = profileAnalytics(all)
    expect(a.daySession).toBeNull()
    expect([a.dayType, a.rangeExtension, a.openType, a.rotationFactor, a.spike]).toEqual([null, null, null, null, null])
    expect(a.balancedTarget.ibProjection).toBeNull()
  })
  it('the grouped MAINSESSION profile is a day session of its own; PRE_MARKET has none', () => {
    const [pre, mainGrouped] = grouped(trades)
    expect(pre?.sessionType).toBe('PRE_MARKET')
    expect(profileAnalytics(mainGrouped!).dayType?.type).toBe('normal')
    expect(profileAnalytics(mainGrouped!).daySession).toBe('main-session')
    expect(profileAnalytics(pre!).daySession).toBeNull()
    expect(() => dayType(pre!)).toThrow(/profile is a PRE_MARKET profile; this rule reads the day session/)
  })
})

describe('a post-market block after a trend day', () => {
  const trades = [
    ...sessionTrades(TREND, T(9), 'MAINSESSION'),
    ...sessionTrades([[106, 112, 106]], T(13), 'POST_MARKET'),
  ]
  const all = merged(trades)
  const main = mainOnly(trades)
  it('the merged close is the post-market 106; the main session is a trend', () => {
    expect(all.close).toBe('106')
    // a merged profile cannot show post-market blocks: read as it stands it is a normal variation
    expect(dayType(all).type).toBe('normal-variation')
    expect(profileAnalytics(all).daySession).toBe('profile')
    expect(profileAnalytics(all, { mainSession: main }).dayType?.type).toBe('trend')
    expect(profileAnalytics(all, { mainSession: main }).rangeExtension).toMatchObject({
      sides: 'up',
      up: { distance: '9', multiple: '3' },
    })
  })
})

describe("balancedTarget's IB projection starts from the day session's open", () => {
  // pre-market opens at 95; the main session opens at 100 with an IB of 100-108
  const trades = [
    ...sessionTrades([[95, 99, 99]], T(8, 30), 'PRE_MARKET').map((t, i) => (i === 0 ? t : { ...t, price: 95 + i })),
    ...sessionTrades(
      [
        [100, 104],
        [101, 108],
        [102, 107],
      ],
      T(9),
      'MAINSESSION',
    ),
  ]
  const all = merged(trades)
  const main = mainOnly(trades)
  it('100 +- 8 from the main session, not 95 +- 8', () => {
    expect(all.open).toBe('95')
    expect(main.open).toBe('100')
    expect(balancedTarget(all, { mainSession: main }).ibProjection).toEqual({ low: '92', high: '108' })
    expect(profileAnalytics(all, { mainSession: main }).balancedTarget.ibProjection).toEqual({ low: '92', high: '108' })
    // the target itself reads the whole profile
    expect(balancedTarget(all, { mainSession: main }).target).toBe(balancedTarget(all).target)
  })
  it('without the main session the merged profile has no projection (its open is a pre-market price)', () => {
    expect(balancedTarget(all).ibProjection).toBeNull()
    expect(balancedTarget(main).ibProjection).toEqual({ low: '92', high: '108' })
  })
  it('a mainSession of another period, a footprint or a PRE_MARKET profile is refused', () => {
    const other = day(NORMAL, 2)
    expect(() => balancedTarget(all, { mainSession: other })).toThrow(/options.mainSession must be a TPO main-session/)
    const [fp] = footprintProfiles(trades, OPTS)
    expect(() => profileAnalytics(all, { mainSession: fp as never })).toThrow(/mainSession/)
    const [pre] = grouped(trades)
    expect(() => profileAnalytics(all, { mainSession: pre! })).toThrow(/PRE_MARKET profile/)
  })
})

it('data without sessions is all main session: the merged profile is its own day session', () => {
  const p = day(NORMAL)
  const a = profileAnalytics(p)
  expect(a.daySession).toBe('profile')
  expect(a.dayType).toEqual(dayType(p))
  expect(a.balancedTarget.ibProjection).toEqual({ low: '90', high: '110' })
})
