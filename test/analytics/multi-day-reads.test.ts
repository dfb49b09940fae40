import { describe, expect, it } from 'vitest'
import { balanceBrackets, repairs, valueAreaTrend } from '../../src/analytics/index.js'
import { tpoProfiles, type TpoProfile } from '../../src/tpo/index.js'
import { BLOCK, candleDay, day, dayTrades, sessionTrades, T, type BlockSpec } from './build.js'

/** A day over 70..130 with its value area (and volume POC) set by hand, and its range. */
const valueDay = (lo: number, hi: number, d: number, poc = lo): TpoProfile => ({
  ...day(
    [
      [70, 130],
      [70, 130],
    ],
    d,
  ),
  valueAreaLow: String(lo),
  valueAreaHigh: String(hi),
  volumePoc: String(poc),
  high: String(hi + 3),
  low: String(lo - 3),
})

describe('balanceBrackets', () => {
  const days = [
    valueDay(100, 104, 1),
    valueDay(102, 106, 2),
    valueDay(103, 105, 3),
    valueDay(110, 115, 4),
    valueDay(111, 116, 5),
    valueDay(112, 114, 6),
    valueDay(120, 125, 7),
  ]
  it('runs of three days or more whose value areas share rows, with the bracket high and low', () => {
    expect(balanceBrackets(days)).toEqual([
      {
        start: days[0]!.time,
        last: days[2]!.time,
        days: 3,
        high: '109',
        low: '97',
        value: { low: '103', high: '104', rows: 2 },
      },
      {
        start: days[3]!.time,
        last: days[5]!.time,
        days: 3,
        high: '119',
        low: '107',
        value: { low: '112', high: '114', rows: 3 },
      },
    ])
  })
  it('minDays; a staircase of pairwise overlaps is no bracket', () => {
    expect(balanceBrackets(days, { minDays: 4 })).toEqual([])
    const stairs = [valueDay(100, 104, 1), valueDay(103, 107, 2), valueDay(106, 110, 3)]
    expect(balanceBrackets(stairs)).toEqual([])
    expect(balanceBrackets(stairs, { minDays: 2 }).map((b) => b.days)).toEqual([2])
    expect(() => balanceBrackets(days, { minDays: 1 })).toThrow(/options.minDays/)
  })
  it('a grouped list reads its MAINSESSION profiles', () => {
    const trades = [1, 2, 3].flatMap((d) => [
      ...sessionTrades([[150, 160]], T(8, 0, d), 'PRE_MARKET'),
      ...sessionTrades(
        [
          [100, 104],
          [101, 105],
        ],
        T(9, 0, d),
        'MAINSESSION',
      ),
    ])
    const grouped = tpoProfiles(trades, { timeframe: '1d', tickSize: 1, mergeSessions: 'GROUP_BY_TYPE' })
    const main = tpoProfiles(trades, { timeframe: '1d', tickSize: 1, sessions: ['MAINSESSION'] })
    expect(grouped).toHaveLength(6)
    expect(balanceBrackets(grouped)).toEqual(balanceBrackets(main))
    expect(balanceBrackets(main)).toMatchObject([{ days: 3, high: '105', low: '100' }])
  })
})

describe('repairs', () => {
  // day 1: poor low 100-102, single prints 104-106 (C alone), poor high 109-110
  const d1: BlockSpec[] = [
    [100, 103],
    [100, 103],
    [103, 108],
    [107, 110],
    [107, 110],
  ]
  // day 2: A touches the single prints, B fills them, C trades above the poor high
  const d2: BlockSpec[] = [
    [105, 108],
    [103, 104],
    [108, 111],
  ]
  const at = (k: number) => T(9, 0, 2) + k * BLOCK
  it('tracks each poor extreme and single-print zone through later blocks', () => {
    const days = tpoProfiles([...dayTrades(d1, 1), ...dayTrades(d2, 2)], { timeframe: '1d', tickSize: 1 })
    expect(repairs(days)).toEqual([
      {
        time: days[0]!.time,
        kind: 'poor-low',
        low: '100',
        high: '102',
        rows: 3,
        touchedAt: null,
        repairedAt: null,
        repaired: false,
      },
      {
        time: days[0]!.time,
        kind: 'single-prints',
        low: '104',
        high: '106',
        rows: 3,
        touchedAt: at(0),
        repairedAt: at(1),
        repaired: true,
      },
      {
        time: days[0]!.time,
        kind: 'poor-high',
        low: '109',
        high: '110',
        rows: 2,
        touchedAt: at(2),
        repairedAt: at(2),
        repaired: true,
      },
    ])
    // candle profiles of the same blocks
    expect(repairs([candleDay(d1, 1), candleDay(d2, 2)])).toEqual(repairs(days))
  })
  it('touched is not repaired: a later block reaching the poor high without trading above it', () => {
    const days = [day(d1, 1), day([[108, 110]], 2)]
    const high = repairs(days).find((r) => r.kind === 'poor-high')!
    expect([high.touchedAt, high.repairedAt, high.repaired]).toEqual([T(9, 0, 2), null, false])
    // the last profile's own features have no later blocks
    expect(repairs([day(d1, 1)]).every((r) => r.touchedAt === null && !r.repaired)).toBe(true)
  })
})

describe('valueAreaTrend', () => {
  it('width and volume POC against the day before', () => {
    const days = [
      valueDay(100, 104, 1, 102),
      valueDay(101, 103, 2, 103),
      valueDay(101, 103, 3, 103),
      valueDay(99, 104, 4, 100),
    ]
    expect(
      valueAreaTrend(days).map((e) => [
        e.width,
        e.rows,
        e.widthChange,
        e.volumePoc,
        e.volumePocShift,
        e.volumePocDirection,
      ]),
    ).toEqual([
      ['5', 5, null, '102', null, null],
      ['3', 3, 'narrower', '103', '1', 'up'],
      ['3', 3, 'same', '103', '0', 'unchanged'],
      ['6', 6, 'wider', '100', '-3', 'down'],
    ])
  })
  it('candle profiles have no volume POC; the width still compares', () => {
    const a = candleDay([
      [100, 104],
      [101, 103],
    ])
    // value 100-104 (5 rows), then 103-109 (7 rows)
    const b = candleDay(
      [
        [100, 110],
        [101, 109],
      ],
      2,
    )
    const [x, y] = valueAreaTrend([a, b])
    expect([x!.volumePoc, y!.volumePoc, y!.volumePocShift]).toEqual([null, null, null])
    expect([x!.rows, y!.rows, y!.widthChange]).toEqual([5, 7, 'wider'])
  })
})
