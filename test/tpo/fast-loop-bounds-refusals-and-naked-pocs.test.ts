// Gaps found by mutation testing of the TPO engine (src/tpo/aggregator.ts fast loop and its exits).
import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect, test } from 'vitest'
import { createTpoAggregator, nakedPocs, tpoProfiles } from '../../src/tpo/index.js'
import type { SessionType, Trade } from '../../src/trades/index.js'
import { pick, referenceProfiles, toColumns, type RefOptions } from './reference.js'

const T0 = Date.UTC(2026, 5, 1, 13)

describe('fast loop: prices at the edges of the allocated rows', () => {
  test('a price exactly one past the allocated rows (64 rows from 32 below the first) keeps its volume', () => {
    // the first trade allocates rows 68..131; 132 is the first row outside, reached inside the fast loop
    const trades: Trade[] = [
      { time: T0, price: 100, volume: 1, side: 'buy' },
      { time: T0 + 1, price: 132, volume: 2, side: 'buy' },
      { time: T0 + 2, price: 132, volume: 3, side: 'sell' },
      { time: T0 + 3, price: 100, volume: 4, side: 'buy' },
      { time: T0 + 4, price: 67, volume: 5, side: 'sell' },
      { time: T0 + 5, price: 100, volume: 6, side: 'buy' },
    ]
    const o: RefOptions = { timeframe: '1d' as const, tickSize: '1' }
    const got = tpoProfiles(toColumns(trades), o)
    expect(got.map(pick)).toEqual(referenceProfiles(trades, o))
    const traded = got[0]!.rows.filter((r) => r[2] !== '0' || r[3] !== '0').map((r) => [r[0], r[2], r[3]])
    expect(traded).toEqual([
      ['67', '0', '5'],
      ['100', '11', '0'],
      ['132', '2', '3'],
    ])
  })

  /** One block, runs of one price anywhere in +-80 rows: rows move past both ends of the allocation. */
  const wideRuns = fc.array(
    fc.record({
      k: fc.integer({ min: -80, max: 80 }),
      trades: fc.array(
        fc.record({
          step: fc.integer({ min: 0, max: 20 }),
          volume: fc.integer({ min: 0, max: 9 }),
          side: fc.constantFrom('buy' as const, 'sell' as const),
        }),
        { minLength: 1, maxLength: 6 },
      ),
    }),
    { minLength: 2, maxLength: 16 },
  )
  fcTest.prop([wideRuns, fc.constantFrom('1', '0.25')], { numRuns: 60 })(
    'runs of one price over a wide range of rows equal the big.js reference',
    (runs, tick) => {
      const trades: Trade[] = []
      let time = T0
      for (const r of runs)
        for (const x of r.trades)
          trades.push({ time: (time += x.step), price: 1000 + r.k * Number(tick), volume: x.volume, side: x.side })
      const o: RefOptions = { timeframe: '1d' as const, tickSize: tick, blockSize: '2h' }
      expect(tpoProfiles(toColumns(trades), o).map(pick)).toEqual(referenceProfiles(trades, o))
    },
  )
})

describe('fast loop: row sums past 2^53 built from flushes of price runs', () => {
  test('the sells of one row pass 2^53 where runs of one price end, exactly', () => {
    // record 0 puts 2^52 - 5 units in the sells of row 101; then 101 / 100 alternate, one record each,
    // so every 101 record is flushed into the row when the price changes (inside the fast loop)
    const n = 40_000
    const time = new Float64Array(n)
    const price = new Float64Array(n)
    const volume = new Float64Array(n)
    const side = new Uint8Array(n)
    let sells = 0n
    let buys = 0n
    for (let i = 0; i < n; i++) {
      const at101 = i === 0 || i % 2 === 0
      time[i] = T0 + i
      price[i] = at101 ? 101 : 100
      volume[i] = i === 0 ? 2 ** 52 - 5 : at101 ? 2 ** 40 - 1 : 1
      side[i] = at101 ? 2 : 1
      if (at101) sells += BigInt(volume[i]!)
      else buys += BigInt(volume[i]!)
    }
    const [p] = tpoProfiles({ time, price, volume, side }, { timeframe: '1d', tickSize: '1' })
    expect(sells > 2n ** 53n).toBe(true)
    expect(p!.rows).toEqual([
      ['100', [0], buys.toString(), '0'],
      ['101', [0], '0', sells.toString()],
    ])
    expect(p!.volumeSell).toBe(sells.toString())
  })
})

describe('a rejected record changes nothing (continuing after it)', () => {
  test('a rejected main-session record does not make its block a main-session block', () => {
    const T = Date.UTC(2026, 5, 1, 14)
    const agg = createTpoAggregator({ timeframe: '1d', tickSize: '1' })
    expect(() => agg.add({ time: T, price: 100, volume: -1, side: 'buy' })).toThrow(
      expect.objectContaining({ field: 'volume' }),
    )
    agg.add({ time: T + 1000, price: 101, volume: 1, side: 'buy', session: 'PRE_MARKET' })
    const want = tpoProfiles([{ time: T + 1000, price: 101, volume: 1, side: 'buy', session: 'PRE_MARKET' }], {
      timeframe: '1d',
      tickSize: '1',
    })
    const got = agg.flush()
    expect(got).toEqual(want)
    expect(got[0]!.initialBalance).toBeNull()
  })

  const tradeArb = fc.record({
    dt: fc.integer({ min: 0, max: 400_000 }),
    k: fc.integer({ min: -4, max: 4 }),
    volume: fc.integer({ min: 0, max: 20 }),
    side: fc.constantFrom('buy' as const, 'sell' as const),
    session: fc.constantFrom<SessionType | undefined>(undefined, undefined, 'PRE_MARKET', 'POST_MARKET'),
  })
  fcTest.prop(
    [
      fc.array(tradeArb, { minLength: 1, maxLength: 30 }),
      fc.nat(),
      fc.constantFrom('volume', 'side', 'price'),
      fc.constantFrom('MERGE_ALL' as const, 'GROUP_BY_TYPE' as const),
    ],
    { numRuns: 150 },
  )('feeding the records after a rejected one gives the profiles of all the others', (xs, at, field, mergeSessions) => {
    let time = T0
    const trades: Trade[] = xs.map((x) => {
      const t: Trade = { time: (time += x.dt), price: 100 + x.k, volume: x.volume, side: x.side }
      if (x.session !== undefined) t.session = x.session
      return t
    })
    const k = at % trades.length
    const cols = toColumns(trades)
    if (field === 'volume') cols.volume[k] = -1
    else if (field === 'side') cols.side[k] = 0
    else cols.price[k] = Number.NaN
    const o = { timeframe: '1d' as const, tickSize: '1', blockSize: '30m' as const, mergeSessions }
    const agg = createTpoAggregator(o)
    expect(() => agg.addColumns(cols)).toThrow(expect.objectContaining({ index: k, field }))
    const rest = toColumns(trades.slice(k + 1))
    agg.addColumns(rest)
    const others = [...trades.slice(0, k), ...trades.slice(k + 1)]
    expect(agg.flush()).toEqual(tpoProfiles(others, o))
  })
})

describe('naked POCs: a later block must overlap the POC row, touching is not enough', () => {
  const T = (h: number, m = 0, day = 1) => Date.UTC(2026, 5, day, h, m)
  const tr = (time: number, price: number): Trade => ({ time, price, volume: 1, side: 'buy' })
  test('a block just above the POC row does not revisit it; a block whose highest row is the POC row does', () => {
    // day 1: POC 101 (row [101, 102)); day 2: block 10:00 only at 102 (row above), block 10:30 spans 99..101.9
    const ps = tpoProfiles([tr(T(10), 101), tr(T(10, 0, 2), 102), tr(T(10, 30, 2), 99), tr(T(10, 40, 2), 101.9)], {
      timeframe: '1d',
      tickSize: '1',
    })
    expect(ps[0]!.poc).toBe('101')
    expect(nakedPocs(ps)[0]).toEqual({ time: T(0), poc: '101', naked: false, revisitedAt: T(10, 30, 2) })
    // only the touching block: still naked
    const qs = tpoProfiles([tr(T(10), 101), tr(T(10, 0, 2), 102)], { timeframe: '1d', tickSize: '1' })
    expect(nakedPocs(qs)[0]).toEqual({ time: T(0), poc: '101', naked: true, revisitedAt: null })
  })

  const tradesArb = fc.array(
    fc.record({ dt: fc.integer({ min: 0, max: 3 * 1440 - 1 }), k: fc.integer({ min: 0, max: 12 }) }),
    { minLength: 1, maxLength: 40 },
  )
  fcTest.prop([tradesArb], { numRuns: 100 })(
    'revisitedAt is the first later block whose rows (floor of its low .. floor of its high) hold the POC row',
    (xs) => {
      const trades = xs.map((x, i) => tr(T(0) + x.dt * 60_000 + i, 100 + x.k / 2))
      const ps = tpoProfiles(trades, { timeframe: '1d', tickSize: '1', blockSize: '1h' })
      const blocks = ps
        .flatMap((p) =>
          p.blocks.map((start, b) => ({
            start,
            lo: Math.floor(Number(p.blockLows[b])),
            hi: Math.floor(Number(p.blockHighs[b])),
          })),
        )
        .sort((a, b) => a.start - b.start)
      const want = ps.map((p) => {
        const row = Number(p.poc)
        const last = Math.max(...p.blocks)
        const hit = blocks.find((b) => b.start > last && b.lo <= row && row <= b.hi)
        return { time: p.time, poc: p.poc, naked: hit === undefined, revisitedAt: hit?.start ?? null }
      })
      expect(nakedPocs(ps)).toEqual(want)
    },
  )
})
