import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import { createTpoAggregator, tpoProfiles } from '../../src/tpo/index.js'
import type { Trade } from '../../src/trades/index.js'

const T = (h: number, m = 0, day = 1) => Date.UTC(2026, 5, day, h, m)
const MIN = 60_000
const tr = (
  time: number,
  price: string | number,
  volume: string | number,
  side: 'buy' | 'sell',
  session?: Trade['session'],
): Trade => (session === undefined ? { time, price, volume, side } : { time, price, volume, side, session })

// Monday 2026-06-01, tick 1, 30m blocks (worked out by hand in the comments):
//   A 09:30  100 buy 1, 102 sell 2          rows 100..102
//   B 10:00  101 buy 1, 103 buy 1           rows 101..103
//   C 10:30  101 sell 3                      row 101
//   D 14:00  99 buy 0.5, 99.5 sell 0.25     row 99 (99.5 is off the tick grid: floored into row 99)
// rows 99..103 hold TPOs [D] [A] [A,B,C] [A,B] [B] -> counts 1,1,3,2,1 (8 TPOs)
const day: Trade[] = [
  tr(T(9, 30), '100', '1', 'buy'),
  tr(T(9, 40), '102', '2', 'sell'),
  tr(T(10, 5), 101, 1, 'buy'),
  tr(T(10, 20), '103', '1', 'buy'),
  tr(T(10, 45), '101', '3', 'sell'),
  tr(T(14, 10), '99', '0.5', 'buy'),
  tr(T(14, 20), '99.5', '0.25', 'sell'),
]

describe('a hand-built day', () => {
  const [p] = tpoProfiles(day, { timeframe: '1d', tickSize: '1' })
  it('blocks, rows, volumes', () => {
    expect(p!.time).toBe(T(0))
    expect(p!.end).toBe(T(0, 0, 2))
    expect(p!.blocks).toEqual([T(9, 30), T(10), T(10, 30), T(14)])
    expect(p!.rows).toEqual([
      ['99', [3], '0.5', '0.25'],
      ['100', [0], '1', '0'],
      ['101', [0, 1, 2], '1', '3'],
      ['102', [0, 1], '0', '2'],
      ['103', [1], '1', '0'],
    ])
    expect([p!.volumeBuy, p!.volumeSell]).toEqual(['3.5', '5.25'])
    expect([p!.blockHighs, p!.blockLows]).toEqual([
      ['102', '103', '101', '99.5'],
      ['100', '101', '101', '99'],
    ])
  })
  it('POC and value area: 101 (3 TPOs); 3 -> +3 (102, 103 over 100, 99: 3 > 2) = 6 of 8 >= 5.6', () => {
    expect(p!.poc).toBe('101')
    expect([p!.valueAreaLow, p!.valueAreaHigh]).toEqual(['101', '103'])
    expect([p!.tpoCount, p!.tpoAbovePoc, p!.tpoBelowPoc]).toEqual([8, 3, 2])
  })
  it('volume POC and volume value area: 101 (4); 4 -> +3 (102, 103 over 1.75) = 7 of 8.75 >= 6.125', () => {
    expect(p!.volumePoc).toBe('101')
    expect([p!.volumeValueAreaLow, p!.volumeValueAreaHigh]).toEqual(['101', '103'])
  })
  it('extremes are traded prices (99.5 keeps its decimal); open and close by time', () => {
    expect([p!.high, p!.low, p!.open, p!.close]).toEqual(['103', '99', '100', '99.5'])
    expect([p!.openTime, p!.closeTime]).toEqual([T(9, 30), T(14, 20)])
  })
  it('initial balance (1h): blocks A and B', () => {
    expect(p!.initialBalance).toEqual({ high: '103', low: '100' })
    expect(p!.initialBalanceStart).toBe(T(9, 30))
    expect(tpoProfiles(day, { timeframe: '1d', tickSize: '1', initialBalance: '90m' })[0]!.initialBalance).toEqual({
      high: '103',
      low: '100',
    })
    expect(tpoProfiles(day, { timeframe: '1d', tickSize: '1', initialBalance: '30m' })[0]!.initialBalance).toEqual({
      high: '102',
      low: '100',
    })
  })
  it('Dalton shape: a 2-row single-print tail at the low is excess; the high has a 1-row tail', () => {
    expect([p!.excessLow, p!.excessHigh, p!.poorLow, p!.poorHigh]).toEqual([2, 0, false, false])
    expect(p!.singlePrints).toEqual([])
  })
  it('settings are echoed', () => {
    expect([
      p!.blockSize,
      p!.rowSize,
      p!.rowSizeValue,
      p!.tickSize,
      p!.valueAreaPercent,
      p!.initialBalancePeriod,
    ]).toEqual(['30m', 1, '1', '1', 70, '1h'])
    expect(p!.sessionType).toBeUndefined()
  })
  it('prices print with the grid decimals', () => {
    const [q] = tpoProfiles(day, { timeframe: '1d', tickSize: '0.50' })
    expect(q!.rows.map((r) => r[0])).toEqual([
      '99.0',
      '99.5',
      '100.0',
      '100.5',
      '101.0',
      '101.5',
      '102.0',
      '102.5',
      '103.0',
    ])
    expect([q!.high, q!.low, q!.close]).toEqual(['103.0', '99.0', '99.5'])
    const [r] = tpoProfiles(day, { timeframe: '1d', tickSize: '1', rowSize: 2 })
    expect(r!.rows.map((x) => x[0])).toEqual(['98', '100', '102'])
    expect(r!.rowSizeValue).toBe('2')
  })
})

describe('pre-market and sessions', () => {
  // a pre-market trade at 08:00 at 105: a block of its own, a gap row 104 with no TPO
  const withPre = [tr(T(8), '105', '1', 'buy', 'PRE_MARKET'), ...day]
  it('MERGE_ALL: the pre-market block is block 0; IB still starts at the first main-session block', () => {
    const [p] = tpoProfiles(withPre, { timeframe: '1d', tickSize: '1' })
    expect(p!.blocks).toEqual([T(8), T(9, 30), T(10), T(10, 30), T(14)])
    expect(p!.rows.at(-2)).toEqual(['104', [], '0', '0'])
    expect(p!.rows.at(-1)).toEqual(['105', [0], '1', '0'])
    expect(p!.initialBalance).toEqual({ high: '103', low: '100' })
    expect(p!.initialBalanceStart).toBe(T(9, 30))
    expect(p!.open).toBe('105')
  })
  it('a profile without main-session trades has no initial balance', () => {
    const [p] = tpoProfiles([tr(T(8), '105', '1', 'buy', 'PRE_MARKET')], { timeframe: '1d', tickSize: '1' })
    expect(p!.initialBalance).toBeNull()
    expect(p!.initialBalanceStart).toBeNull()
  })
  it('GROUP_BY_TYPE: per period PRE_MARKET, MAINSESSION, POST_MARKET, each with its own blocks', () => {
    const trades = [
      tr(T(20, 0, 2), '10', '1', 'sell', 'POST_MARKET'),
      tr(T(16, 30), '103', '1', 'sell', 'POST_MARKET'),
      ...withPre,
      tr(T(9, 30, 2), '11', '1', 'buy'),
      tr(T(7, 0, 2), '12', '1', 'buy', 'PRE_MARKET'),
    ]
    const ps = tpoProfiles(trades, { timeframe: '1d', tickSize: '1', mergeSessions: 'GROUP_BY_TYPE' })
    expect(ps.map((p) => [p.time, p.sessionType, p.blocks])).toEqual([
      [T(0), 'PRE_MARKET', [T(8)]],
      [T(0), 'MAINSESSION', [T(9, 30), T(10), T(10, 30), T(14)]],
      [T(0), 'POST_MARKET', [T(16, 30)]],
      [T(0, 0, 2), 'PRE_MARKET', [T(7, 0, 2)]],
      [T(0, 0, 2), 'MAINSESSION', [T(9, 30, 2)]],
      [T(0, 0, 2), 'POST_MARKET', [T(20, 0, 2)]],
    ])
    const main = ps[1]!
    const [merged] = tpoProfiles(day, { timeframe: '1d', tickSize: '1' })
    expect({ ...main, sessionType: undefined }).toEqual({ ...merged, sessionType: undefined })
    expect(ps[0]!.initialBalance).toBeNull()
    expect(ps[2]!.initialBalance).toBeNull()
  })
  it('a sessions filter drops trades before anything else', () => {
    const [p] = tpoProfiles(withPre, { timeframe: '1d', tickSize: '1', sessions: ['MAINSESSION'] })
    const [q] = tpoProfiles(day, { timeframe: '1d', tickSize: '1' })
    expect(p).toEqual(q)
    expect(tpoProfiles(withPre, { timeframe: '1d', tickSize: '1', sessions: ['POST_MARKET'] })).toEqual([])
  })
})

describe('periods and blocks in time', () => {
  it('no trades -> no profiles; periods without trades produce none', () => {
    expect(tpoProfiles([], { timeframe: '1d', tickSize: '1' })).toEqual([])
    const ps = tpoProfiles([tr(T(10, 0, 1), 1, 1, 'buy'), tr(T(10, 0, 4), 1, 1, 'buy')], {
      timeframe: '1d',
      tickSize: '1',
    })
    expect(ps.map((p) => p.time)).toEqual([T(0, 0, 1), T(0, 0, 4)])
  })
  it('weekly periods start on Monday (Sunday 31 May belongs to the week of Monday 25 May)', () => {
    const ps = tpoProfiles([tr(Date.UTC(2026, 4, 31, 12), 1, 1, 'buy'), tr(Date.UTC(2026, 5, 1, 0), 2, 1, 'buy')], {
      timeframe: '1w',
      tickSize: '1',
    })
    expect(ps.map((p) => [new Date(p.time).toISOString(), new Date(p.end).toISOString()])).toEqual([
      ['2026-05-25T00:00:00.000Z', '2026-06-01T00:00:00.000Z'],
      ['2026-06-01T00:00:00.000Z', '2026-06-08T00:00:00.000Z'],
    ])
  })
  it('monthly periods are calendar months in the zone', () => {
    const ps = tpoProfiles([tr(Date.UTC(2026, 5, 1, 3), 1, 1, 'buy')], {
      timeframe: '1M',
      tickSize: '1',
      timeZone: 'America/New_York',
    })
    expect(new Date(ps[0]!.time).toISOString()).toBe('2026-05-01T04:00:00.000Z')
  })
  it.each([
    ['spring forward: 23-hour day', Date.UTC(2026, 2, 8, 5), 23, 46],
    ['fall back: 25-hour day', Date.UTC(2026, 10, 1, 4), 25, 50],
  ])('America/New_York %s', (_name, midnight, hours, blocks) => {
    const trades: Trade[] = []
    for (let t = midnight; t < midnight + hours * 3_600_000; t += 30 * MIN)
      trades.push(tr(t + 5 * MIN, '100', '1', 'buy'))
    const ps = tpoProfiles(trades, { timeframe: '1d', tickSize: '1', timeZone: 'America/New_York' })
    expect(ps).toHaveLength(1)
    expect(ps[0]!.time).toBe(midnight)
    expect(ps[0]!.end - ps[0]!.time).toBe(hours * 3_600_000)
    expect(ps[0]!.blocks).toHaveLength(blocks)
    expect(ps[0]!.rows).toEqual([['100', Array.from({ length: blocks }, (_, i) => i), String(blocks), '0']])
  })
  it('blocks are block-size buckets from local midnight (90m blocks: 00:00, 01:30, ...)', () => {
    const [p] = tpoProfiles([tr(T(1, 40), 1, 1, 'buy'), tr(T(3, 5), 1, 1, 'buy')], {
      timeframe: '1d',
      tickSize: '1',
      blockSize: { unit: 'MINUTE', count: 90 },
    })
    expect(p!.blocks).toEqual([T(1, 30), T(3)])
    expect(p!.blockSize).toBe('90m')
  })
  it('trades in any order give the same profiles', () => {
    const a = tpoProfiles(day, { timeframe: '1d', tickSize: '1' })
    const b = tpoProfiles([...day].reverse(), { timeframe: '1d', tickSize: '1' })
    expect(b).toEqual(a)
  })
  it('negative prices are floored, not truncated', () => {
    const [p] = tpoProfiles([tr(T(10), '-0.5', 1, 'buy'), tr(T(10, 1), '0.5', 1, 'sell')], {
      timeframe: '1d',
      tickSize: '1',
    })
    expect(p!.rows.map((r) => r[0])).toEqual(['-1', '0'])
    expect([p!.low, p!.high]).toEqual(['-0.5', '0.5'])
  })
  it('boundary prices land in the row they open (0.07 with tick 0.01, 0.3 with tick 0.1)', () => {
    const [p] = tpoProfiles([tr(T(10), 0.07, 1, 'buy')], { timeframe: '1d', tickSize: '0.01' })
    expect(p!.rows[0]![0]).toBe('0.07')
    const [q] = tpoProfiles([tr(T(10), 0.3, 1, 'buy')], { timeframe: '1d', tickSize: '0.1' })
    expect(q!.rows[0]![0]).toBe('0.3')
  })
  it('a volume of 0 counts as a trade', () => {
    const [p] = tpoProfiles([tr(T(10), 5, 0, 'buy')], { timeframe: '1d', tickSize: '1' })
    expect(p!.rows).toEqual([['5', [0], '0', '0']])
    expect(p!.volumePoc).toBe('5')
  })
})

describe('columns and objects', () => {
  it('TradeColumns give the same profiles as trade objects', () => {
    const n = day.length
    const cols = {
      time: Float64Array.from(day, (t) => t.time),
      price: Float64Array.from(day, (t) => Number(t.price)),
      volume: Float64Array.from(day, (t) => Number(t.volume)),
      side: Uint8Array.from(day, (t) => (t.side === 'buy' ? 1 : 2)),
    }
    expect(cols.time.length).toBe(n)
    expect(tpoProfiles(cols, { timeframe: '1d', tickSize: '1' })).toEqual(
      tpoProfiles(day, { timeframe: '1d', tickSize: '1' }),
    )
    // an iterable, and an array, mixing objects and column batches
    expect(tpoProfiles(new Set<Trade | typeof cols>([cols]), { timeframe: '1d', tickSize: '1' })).toEqual(
      tpoProfiles(day, { timeframe: '1d', tickSize: '1' }),
    )
    const tail = {
      time: cols.time.subarray(2, 5),
      price: cols.price.subarray(2, 5),
      volume: cols.volume.subarray(2, 5),
      side: cols.side.subarray(2, 5),
    }
    const mixed: (Trade | typeof cols)[] = [day[0]!, day[1]!, tail, day[5]!, day[6]!]
    expect(tpoProfiles(mixed, { timeframe: '1d', tickSize: '1' })).toEqual(
      tpoProfiles(day, { timeframe: '1d', tickSize: '1' }),
    )
    expect(tpoProfiles(new Set(mixed), { timeframe: '1d', tickSize: '1' })).toEqual(
      tpoProfiles(day, { timeframe: '1d', tickSize: '1' }),
    )
  })
})

describe('errors', () => {
  const opts = { timeframe: '1d' as const, tickSize: '1' }
  const code = (f: () => unknown) => {
    try {
      f()
    } catch (e) {
      expect(e).toBeInstanceOf(MarketDataError)
      const m = e as MarketDataError
      return [m.code, m.field, m.index]
    }
    return undefined
  }
  it('bad records name the index and field', () => {
    const good = tr(T(10), 1, 1, 'buy')
    expect(code(() => tpoProfiles([good, { ...good, time: Number.NaN }], opts))).toEqual(['invalid_time', 'time', 1])
    expect(code(() => tpoProfiles([good, { ...good, time: 1.5 }], opts))).toEqual(['invalid_time', 'time', 1])
    expect(code(() => tpoProfiles([good, good, { ...good, price: 'abc' }], opts))).toEqual([
      'invalid_decimal',
      'price',
      2,
    ])
    expect(code(() => tpoProfiles([{ ...good, volume: '-1' }], opts))).toEqual(['invalid_volume', 'volume', 0])
    expect(code(() => tpoProfiles([{ ...good, side: 'x' as 'buy' }], opts))).toEqual(['invalid_side', 'side', 0])
    expect(code(() => tpoProfiles([{ ...good, session: 'LUNCH' as 'PRE_MARKET' }], opts))).toEqual([
      'invalid_session',
      'session',
      0,
    ])
    const cols = {
      time: new Float64Array([T(10), T(10)]),
      price: new Float64Array([1, Infinity]),
      volume: new Float64Array([1, 1]),
      side: new Uint8Array([1, 1]),
    }
    expect(code(() => tpoProfiles(cols, opts))).toEqual(['invalid_decimal', 'price', 1])
    expect(
      code(() => tpoProfiles({ ...cols, price: new Float64Array([1, 1]), side: new Uint8Array([1, 0]) }, opts)),
    ).toEqual(['invalid_side', 'side', 1])
    expect(
      code(() => tpoProfiles({ ...cols, price: new Float64Array([1, 1]), session: new Uint8Array([0, 3]) }, opts)),
    ).toEqual(['invalid_session', 'session', 1])
    expect(code(() => tpoProfiles({ ...cols, side: new Uint8Array([1]) }, opts))).toEqual([
      'invalid_option',
      'side',
      undefined,
    ])
  })
  it('bad options name the option', () => {
    expect(code(() => tpoProfiles([], { timeframe: '1h', tickSize: '1' }))).toEqual([
      'invalid_option',
      'timeframe',
      undefined,
    ])
    expect(code(() => tpoProfiles([], { timeframe: '1d', tickSize: '0' }))).toEqual([
      'invalid_option',
      'tickSize',
      undefined,
    ])
    expect(code(() => tpoProfiles([], { timeframe: '1d', tickSize: '1', blockSize: '1d' }))).toEqual([
      'invalid_option',
      'blockSize',
      undefined,
    ])
    expect(code(() => tpoProfiles([], { timeframe: '1d', tickSize: '1', rowSize: 1.5 }))).toEqual([
      'invalid_option',
      'rowSize',
      undefined,
    ])
    expect(code(() => tpoProfiles([], { timeframe: '1d', tickSize: '1', valueAreaPercent: 0 }))).toEqual([
      'invalid_option',
      'valueAreaPercent',
      undefined,
    ])
    expect(code(() => tpoProfiles([], { timeframe: '1d', tickSize: '1', initialBalance: '1d' }))).toEqual([
      'invalid_option',
      'initialBalance',
      undefined,
    ])
    expect(code(() => tpoProfiles([], { timeframe: '1d', tickSize: '1', mergeSessions: 'X' as 'MERGE_ALL' }))).toEqual([
      'invalid_option',
      'mergeSessions',
      undefined,
    ])
    expect(code(() => tpoProfiles([], { timeframe: '1d', tickSize: '1', sessions: ['X' as 'MAINSESSION'] }))).toEqual([
      'invalid_option',
      'sessions',
      undefined,
    ])
    expect(code(() => tpoProfiles([], { timeframe: '1d', tickSize: '1', timeZone: 'Mars/Base' }))).toEqual([
      'invalid_option',
      'timeZone',
      undefined,
    ])
  })
  it('streaming: a trade for a closed period is late; the aggregator stays usable', () => {
    const agg = createTpoAggregator(opts)
    agg.add(tr(T(10), 1, 1, 'buy'))
    expect(agg.advance(T(0, 0, 2)).map((p) => p.time)).toEqual([T(0)])
    expect(code(() => agg.add(tr(T(11), 1, 1, 'buy')))).toEqual(['late_record', 'time', 1])
    agg.add(tr(T(10, 0, 2), 2, 1, 'sell'))
    expect(agg.flush().map((p) => p.time)).toEqual([T(0, 0, 2)])
  })
  it('a rejected record changes nothing', () => {
    const agg = createTpoAggregator(opts)
    agg.addTrades(day.slice(0, 3))
    expect(code(() => agg.addTrades([day[3]!, { ...day[4]!, side: 'x' as 'buy' }]))).toEqual([
      'invalid_side',
      'side',
      1,
    ])
    expect(code(() => agg.add({ ...day[4]!, price: '1e5.0' }))).toEqual(['invalid_decimal', 'price', 0])
    // a bad record that opens a new period and block leaves neither behind
    const bad = {
      time: new Float64Array([T(10, 0, 3)]),
      price: new Float64Array([Number.NaN]),
      volume: new Float64Array([1]),
      side: new Uint8Array([1]),
    }
    expect(code(() => agg.addColumns(bad))).toEqual(['invalid_decimal', 'price', 0])
    agg.addTrades(day.slice(4))
    expect(agg.snapshot()).toEqual(tpoProfiles(day, opts))
    expect(agg.flush()).toEqual(tpoProfiles(day, opts))
  })
})

describe('row span limit', () => {
  it('a price that would make a profile span more than 1,000,000 rows is rejected, naming the record; the profile is unchanged', () => {
    const agg = createTpoAggregator({ timeframe: '1d', tickSize: '0.01' })
    agg.add(tr(T(10), '100', 1, 'buy'))
    let err: unknown
    try {
      agg.add(tr(T(10, 1), '1000000', 1, 'buy'))
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(MarketDataError)
    expect([(err as MarketDataError).index, (err as MarketDataError).field]).toEqual([1, 'price'])
    agg.add(tr(T(10, 2), '100.01', 1, 'sell'))
    expect(agg.flush()[0]!.rows.map((r) => r[0])).toEqual(['100.00', '100.01'])
  })
})

describe('row span limit: the rows spanned, in any order of the trades', () => {
  const o = { timeframe: '1d' as const, tickSize: '1' }
  const at = (ps: number[]) => ps.map((p, i) => tr(T(10, i), p, 1, 'buy'))
  it('exactly 1,000,000 rows are taken and 1,000,001 refused, whichever trade comes first', () => {
    // (building a million-row profile takes a second or two: two orders only)
    for (const ps of [
      [500_000, 0, 999_999],
      [999_999, 500_000, 0],
    ]) {
      expect(tpoProfiles(at(ps), o)[0]?.rows.length).toBe(1_000_000)
    }
    for (const ps of [
      [0, 1_000_000],
      [1_000_000, 0],
      [300_000, 0, 1_000_000],
      [300_000, 1_000_000, 0],
    ]) {
      expect(() => tpoProfiles(at(ps), o)).toThrow(
        expect.objectContaining({
          code: 'invalid_option',
          field: 'price',
          message: expect.stringContaining('1000001 rows'),
        }),
      )
    }
  })
  it('all the profiles of one call hold at most 4,000,000 rows (a few trades far apart cannot ask for gigabytes)', () => {
    // five days of 900,001 rows each: 4,500,005 rows from ten trades
    const days = [0, 1, 2, 3, 4].flatMap((d) => [
      tr(T(10) + d * 86_400_000, 0, 1, 'buy'),
      tr(T(11) + d * 86_400_000, 900_000, 1, 'sell'),
    ])
    expect(() => tpoProfiles(days, o)).toThrow(
      expect.objectContaining({
        code: 'invalid_option',
        field: 'rowSize',
        message: expect.stringContaining('4500005 rows in all'),
      }),
    )
    // the same five days with 11 rows each are fine
    const small = days.map((t) => ({ ...t, price: Number(t.price) === 0 ? 0 : 10 }))
    expect(tpoProfiles(small, o).map((p) => p.rows.length)).toEqual([11, 11, 11, 11, 11])
  })
})

describe('profiles with 1, 2 and 3 rows (from trades)', () => {
  const o = { timeframe: '1d' as const, tickSize: '1' }
  it('1 row: POC, value area and IB are that row', () => {
    const [p] = tpoProfiles([tr(T(10), 100, 2, 'buy')], o)
    expect([p!.poc, p!.valueAreaLow, p!.valueAreaHigh, p!.volumePoc, p!.tpoCount]).toEqual([
      '100',
      '100',
      '100',
      '100',
      1,
    ])
    expect(p!.initialBalance).toEqual({ high: '100', low: '100' })
    expect([p!.excessHigh, p!.excessLow, p!.poorHigh, p!.poorLow, p!.singlePrints]).toEqual([0, 0, false, false, []])
  })
  it('2 rows [2, 1]: POC 100; 2 of 3 TPOs < 70% so the value area takes 101', () => {
    const [p] = tpoProfiles([tr(T(10), 100, 1, 'buy'), tr(T(10, 5), 101, 1, 'buy'), tr(T(10, 40), 100, 1, 'sell')], o)
    expect(p!.rows.map((r) => r[1])).toEqual([[0, 1], [0]])
    expect([p!.poc, p!.valueAreaLow, p!.valueAreaHigh]).toEqual(['100', '100', '101'])
    expect([p!.poorLow, p!.poorHigh]).toEqual([true, false])
  })
  it('3 rows [1, 2, 1]: POC 101; equal single rows -> the upper one; 3 of 4 >= 70%', () => {
    const [p] = tpoProfiles([tr(T(10), 100, 1, 'buy'), tr(T(10, 5), 102, 1, 'buy'), tr(T(10, 40), 101, 1, 'sell')], o)
    expect(p!.rows.map((r) => r[1].length)).toEqual([1, 2, 1])
    expect([p!.poc, p!.valueAreaLow, p!.valueAreaHigh]).toEqual(['101', '101', '102'])
    expect([p!.tpoAbovePoc, p!.tpoBelowPoc]).toEqual([1, 1])
  })
})
