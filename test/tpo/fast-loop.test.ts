// The columnar fast loop (fastRun in src/tpo/fast-loop.ts) takes records four at a time and sums four that
// repeat the last price as a run of one price; these tests feed it long price runs and every way out of those paths.
import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect, test } from 'vitest'
import { createTpoAggregator, tpoProfiles } from '../../src/tpo/index.js'
import type { SessionType, Trade } from '../../src/trades/index.js'
import { pick, referenceProfiles, toColumns, type RefOptions } from './reference.js'

const T0 = Date.UTC(2026, 5, 1, 13)

const optsArb: fc.Arbitrary<RefOptions> = fc.record(
  {
    timeframe: fc.constant('1d'),
    tickSize: fc.constantFrom('0.25', '1', '0.01'),
    blockSize: fc.constantFrom<RefOptions['blockSize']>('15m', '30m'),
    mergeSessions: fc.constantFrom('MERGE_ALL' as const, 'GROUP_BY_TYPE' as const),
    timeZone: fc.constantFrom(undefined, 'America/New_York'),
  },
  { requiredKeys: ['timeframe', 'tickSize'] },
)

/** Volumes: mostly small whole lots (the runs of 4), and the edges of the fast paths. */
const volumeArb = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0, max: 50 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      -0,
      2 ** 32 - 1,
      2 ** 32,
      2 ** 40 - 1,
      2 ** 40,
      2 ** 52 - 3,
      2 ** 52,
      4503599627370000,
      9007199254740991,
      0.5,
      1.25,
      0.00000001,
    ),
  },
)

/**
 * Trades in runs of one price (long runs: the fast loop's case), time steps mostly >= 0 with equal times,
 * some back in time, some across blocks; sessions mostly the run's.
 */
function runsArb(tick: string): fc.Arbitrary<Trade[]> {
  const t = Number(tick)
  const run = fc.record({
    k: fc.integer({ min: -3, max: 6 }),
    session: fc.constantFrom<SessionType | undefined>(undefined, undefined, undefined, 'PRE_MARKET', 'POST_MARKET'),
    trades: fc.array(
      fc.record({
        step: fc.oneof(
          { weight: 8, arbitrary: fc.integer({ min: 0, max: 3_000 }) },
          { weight: 1, arbitrary: fc.integer({ min: -3_000, max: -1 }) },
          { weight: 1, arbitrary: fc.integer({ min: -90_000, max: 1_800_000 }) },
        ),
        volume: volumeArb,
        side: fc.constantFrom('buy' as const, 'sell' as const),
        other: fc.oneof({ weight: 12, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      }),
      { minLength: 1, maxLength: 14 },
    ),
  })
  return fc.array(run, { minLength: 1, maxLength: 12 }).map((runs) => {
    const out: Trade[] = []
    let time = T0
    for (const r of runs) {
      // whole ticks around zero: negative prices too
      const price = Number((r.k * 2 * t).toFixed(2))
      for (const x of r.trades) {
        time += x.step
        const tr: Trade = { time, price, volume: x.volume, side: x.side }
        const s = x.other ? 'PRE_MARKET' : r.session
        if (s !== undefined) tr.session = s
        out.push(tr)
      }
    }
    return out
  })
}

const caseArb = optsArb.chain((o) => fc.tuple(fc.constant(o), runsArb(o.tickSize)))

/** Volumes with up to 3 decimals (the runs of 4 scale them to units), and their edges. */
const decimalVolumeArb = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0, max: 50_000 }).map((x) => x / 1000) },
  { weight: 1, arbitrary: fc.constantFrom(-0, 17179869.183, 17179869.184, 1099511627.775, 2 ** 32, 0.0001, 1e-7, 2.5) },
)
const decimalCaseArb = optsArb.chain((o) =>
  fc
    .tuple(fc.constant(o), runsArb(o.tickSize), fc.array(decimalVolumeArb, { minLength: 200, maxLength: 200 }))
    .map(([opts, trades, vols]) => [opts, trades.map((t, i) => ({ ...t, volume: vols[i % vols.length]! }))] as const),
)

describe('fast loop: runs of one price', () => {
  fcTest.prop([caseArb], { numRuns: 150 })('equals the big.js reference; columns = objects', ([o, trades]) => {
    const cols = tpoProfiles(toColumns(trades), o)
    expect(cols.map(pick)).toEqual(referenceProfiles(trades, o))
    expect(cols).toEqual(tpoProfiles(trades, o))
  })

  fcTest.prop([decimalCaseArb], { numRuns: 100 })(
    'volumes with decimals: equals the big.js reference; columns = objects',
    ([o, trades]) => {
      const cols = tpoProfiles(toColumns(trades), o)
      expect(cols.map(pick)).toEqual(referenceProfiles(trades, o))
      expect(cols).toEqual(tpoProfiles(trades, o))
    },
  )

  fcTest.prop([caseArb, fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 5 })], { numRuns: 60 })(
    'any split into column batches gives the same profiles',
    ([o, trades], sizes) => {
      const agg = createTpoAggregator(o)
      for (let i = 0, c = 0; i < trades.length; c++) {
        const n = sizes[c % sizes.length]!
        agg.addColumns(toColumns(trades.slice(i, i + n)))
        i += n
      }
      expect(agg.flush()).toEqual(tpoProfiles(toColumns(trades), o))
    },
  )

  test('row sums crossing 2^52 inside runs of 4 (and past a fast-loop chunk) stay exact', () => {
    const n = 5_000
    const trades: Trade[] = [{ time: T0, price: 100, volume: 2 ** 52 - 2 ** 34, side: 'buy' }]
    for (let i = 0; i < n; i++)
      trades.push({
        time: T0 + i,
        price: i < 3_000 ? 100 : 101,
        volume: 2 ** 32 - 1 - (i % 3),
        side: i % 5 === 0 ? 'sell' : 'buy',
      })
    trades.push({ time: T0 + n, price: 100, volume: 2 ** 52, side: 'sell' })
    const o: RefOptions = { timeframe: '1d' as const, tickSize: '1' }
    const got = tpoProfiles(toColumns(trades), o)
    expect(got.map(pick)).toEqual(referenceProfiles(trades, o))
    let buy = 0n
    for (const t of trades) if (t.side === 'buy') buy += BigInt(t.volume)
    expect(got[0]!.volumeBuy).toBe(buy.toString())
  })

  test('row sums passing 2^52 and 2^53 where a run of one price ends (the flush in the loop) stay exact', () => {
    // runs of 4 at 2^40 - 1 units: each flush into row 100 adds ~2^42, 1400 of them pass 2^53
    const trades: Trade[] = [{ time: T0, price: 100, volume: 2 ** 52 - 5, side: 'buy' }]
    for (let r = 0; r < 2_800; r++) {
      for (let q = 0; q < 4; q++)
        trades.push({
          time: T0 + trades.length,
          price: 100 + (r % 2),
          volume: 2 ** 40 - 1,
          side: r % 2 === 0 ? 'buy' : 'sell',
        })
    }
    const o: RefOptions = { timeframe: '1d' as const, tickSize: '1' }
    expect(tpoProfiles(toColumns(trades), o).map(pick)).toEqual(referenceProfiles(trades, o))
  })

  fcTest.prop(
    [
      fc.array(
        fc.tuple(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 0, max: 2 }), fc.integer({ min: 1, max: 9 })),
        { minLength: 4, maxLength: 80 },
      ),
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: -5_000, max: 5_000 })), { minLength: 1, maxLength: 4 }),
      fc.integer({ min: -60_000, max: 0 }),
    ],
    { numRuns: 150 },
  )(
    'a spike (a new latest time) or a dip (a new earliest) inside a run of one price moves the close / open and the block',
    (steps, moves, offset) => {
      // ascending times from just before a block boundary, prices in runs of 8
      let time = Date.UTC(2026, 5, 1, 14) + offset
      const trades: Trade[] = steps.map(([dt, , v], i) => ({
        time: (time += dt),
        price: 100 + ((i >> 3) % 3),
        volume: v,
        side: i % 3 === 0 ? 'sell' : 'buy',
      }))
      for (const [at, d] of moves) {
        const ts = trades.map((t) => t.time)
        trades[at % trades.length]!.time = d >= 0 ? Math.max(...ts) + 1 + d : Math.min(...ts) - 1 + d
      }
      const o: RefOptions = { timeframe: '1d' as const, tickSize: '1', blockSize: '15m' }
      expect(tpoProfiles(toColumns(trades), o).map(pick)).toEqual(referenceProfiles(trades, o))
    },
  )

  test('-0 volumes and zero-volume runs', () => {
    const trades: Trade[] = []
    for (let i = 0; i < 20; i++)
      trades.push({ time: T0 + i, price: 5, volume: i % 2 === 0 ? -0 : 0, side: i % 3 === 0 ? 'sell' : 'buy' })
    const [p] = tpoProfiles(toColumns(trades), { timeframe: '1d', tickSize: '1' })
    expect(p!.rows).toEqual([['5', [0], '0', '0']])
    expect([p!.volumeBuy, p!.volumeSell]).toEqual(['0', '0'])
  })
})

describe('fast loop: a bad record inside a run of one price', () => {
  const BAD = ['side', 'volume', 'time', 'price', 'session'] as const
  fcTest.prop(
    [
      fc.oneof(caseArb, decimalCaseArb),
      fc.boolean(),
      fc.nat(),
      fc.constantFrom(...BAD),
      fc.integer({ min: 0, max: 3 }),
    ],
    { numRuns: 200 },
  )(
    'throws naming its index and field; the records before it count, it and those after do not',
    ([o, trades], sort, at, field, how) => {
      // dense times in one block when sorted: runs of 4 are taken together there
      const xs = sort ? trades.map((t, i) => ({ ...t, time: T0 + i * 100 })) : trades
      const k = at % xs.length
      const cols = toColumns(xs)
      if (field === 'side') cols.side[k] = [0, 3, 255, 0][how]!
      else if (field === 'volume') cols.volume[k] = [-1, -0.5, Number.NaN, Infinity][how]!
      else if (field === 'time') cols.time[k] = (cols.time[k] as number) + [0.5, Number.NaN, 1e16, -0.25][how]!
      else if (field === 'price') cols.price[k] = [Number.NaN, Infinity, -Infinity, Number.NaN][how]!
      else (cols.session as Uint8Array)[k] = [3, 4, 200, 3][how]!
      const agg = createTpoAggregator(o)
      let thrown: unknown
      try {
        agg.addColumns(cols)
      } catch (e) {
        thrown = e
      }
      expect(thrown).toMatchObject({ index: k, field })
      expect(agg.flush()).toEqual(tpoProfiles(xs.slice(0, k), o))
    },
  )
})

describe('trade objects: a bad trade inside an array (the reader stops at it)', () => {
  const BAD: [keyof Trade, unknown, string][] = [
    ['price', 'x', 'price'],
    // exact, but its row is past 2^53 on any grid here (a price a double cannot hold whose row fits is taken)
    ['price', `1${'0'.repeat(40)}.123456789012345678`, 'price'],
    ['volume', '-1', 'volume'],
    ['volume', Number.NaN, 'volume'],
    ['side', 'hold', 'side'],
    ['session', 'NIGHT', 'session'],
    ['time', 0.5, 'time'],
  ]
  fcTest.prop([caseArb, fc.nat(), fc.integer({ min: 0, max: BAD.length - 1 }), fc.boolean()], { numRuns: 100 })(
    'throws naming its index and field; the records before it count, it and those after do not',
    ([o, trades], at, which, strings) => {
      // decimal strings (no exponent: 1e-8 is written out)
      const str = (x: Trade['price']) =>
        typeof x === 'number' && x !== 0 && Math.abs(x) < 1e-6 ? x.toFixed(8) : String(x)
      const xs: Trade[] = trades.map((t) => (strings ? { ...t, price: str(t.price), volume: str(t.volume) } : t))
      const k = at % xs.length
      const [field, value, named] = BAD[which]!
      const bad = { ...xs[k]!, [field]: value } as Trade
      const input = [...xs.slice(0, k), bad, ...xs.slice(k + 1)]
      const agg = createTpoAggregator(o)
      let thrown: unknown
      try {
        agg.addTrades(input)
      } catch (e) {
        thrown = e
      }
      expect(thrown).toMatchObject({ index: k, field: named })
      expect(agg.flush()).toEqual(tpoProfiles(xs.slice(0, k), o))
    },
  )
})
