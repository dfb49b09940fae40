import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import {
  createTpoAggregator,
  mergeTpoProfiles,
  tpoProfiles,
  type TpoOptions,
  type TpoProfile,
} from '../../src/tpo/index.js'
import type { Trade } from '../../src/trades/index.js'
import { pick, referenceProfiles, toColumns, type RefOptions } from './reference.js'

const TICKS = ['0.25', '0.01', '1', '0.5', '0.001', '5'] as const
const decimalsOf = (s: string) => (s.includes('.') ? s.split('.')[1]!.length : 0)

/** A decimal string of integer units at a scale. */
function fmt(units: bigint, scale: number): string {
  const neg = units < 0n
  let d = (neg ? -units : units).toString()
  if (scale > 0) {
    d = d.padStart(scale + 1, '0')
    d = `${d.slice(0, -scale)}.${d.slice(-scale)}`.replace(/\.?0+$/, '')
  }
  return neg && d !== '0' ? `-${d}` : d
}

const optsArb: fc.Arbitrary<RefOptions> = fc.record(
  {
    timeframe: fc.constantFrom('1d', '1w', '1d'),
    tickSize: fc.constantFrom(...TICKS),
    rowSize: fc.integer({ min: 1, max: 3 }),
    blockSize: fc.constantFrom<RefOptions['blockSize']>('15m', '30m', '1h', '2h', { unit: 'MINUTE', count: 90 }),
    mergeSessions: fc.constantFrom('MERGE_ALL' as const, 'GROUP_BY_TYPE' as const),
    initialBalance: fc.constantFrom('1h', '45m', '2h'),
    timeZone: fc.constantFrom(undefined, 'America/New_York', 'Europe/Berlin'),
  },
  { requiredKeys: ['timeframe', 'tickSize'] },
)

const BASES = [Date.UTC(2026, 5, 1), Date.UTC(2026, 2, 7, 12), Date.UTC(2026, 9, 31, 12), Date.UTC(2026, 4, 29)]

/** Trades around a base time (DST weekends among them), prices mostly on the tick grid, some finer. */
function tradesArb(tick: string, opts: { unique?: boolean; minLength?: number } = {}): fc.Arbitrary<Trade[]> {
  const s = decimalsOf(tick)
  const tickUnits = BigInt(tick.replace('.', '').replace(/^0+/, '') || '0')
  const trade = fc
    .record({
      dt: fc.integer({ min: 0, max: 3 * 86_400 }),
      k: fc.integer({ min: -10, max: 60 }),
      extra: fc.oneof(
        { weight: 5, arbitrary: fc.constant(0) },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 99 }) },
      ),
      vu: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 10 ** 9 })),
      vs: fc.integer({ min: 0, max: 8 }),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      session: fc.constantFrom(
        undefined,
        undefined,
        'MAINSESSION' as const,
        'PRE_MARKET' as const,
        'POST_MARKET' as const,
      ),
      asNumber: fc.boolean(),
    })
    .map((r) => {
      const units = BigInt(r.k + 4000) * tickUnits * 100n + BigInt(r.extra)
      const price = fmt(units, s + 2)
      const volume = fmt(BigInt(r.vu), r.vs)
      return { r, price, volume }
    })
  return fc
    .tuple(fc.constantFrom(...BASES), fc.array(trade, { minLength: opts.minLength ?? 1, maxLength: 60 }))
    .map(([base, xs]) =>
      xs.map(({ r, price, volume }, i) => {
        const t: Trade = {
          time: base + (opts.unique === true ? r.dt * 1000 + i : r.dt * 60_000 - (r.dt % 7) * 1000),
          price: r.asNumber ? Number(price) : price,
          volume: r.asNumber ? Number(volume) : volume,
          side: r.side,
        }
        if (r.session !== undefined) t.session = r.session
        return t
      }),
    )
}

const caseArb = optsArb.chain((o) => fc.tuple(fc.constant(o), tradesArb(o.tickSize)))

const asOpts = (o: RefOptions): TpoOptions => ({ ...o })

const key = (p: TpoProfile) => `${p.time}|${p.sessionType ?? ''}`

describe('TPO contract', () => {
  fcTest.prop([caseArb], { numRuns: 120 })(
    'equals a slow big.js reference (rows, blocks, volumes, extremes, IB)',
    ([o, trades]) => {
      const got = tpoProfiles(trades, asOpts(o)).map(pick)
      expect(got).toEqual(referenceProfiles(trades, o))
    },
  )

  fcTest.prop([caseArb, fc.integer({ min: 1, max: 97 })], { numRuns: 100 })(
    'equals the reference on dense trades (many per block, any order, equal times)',
    ([o, trades], spread) => {
      const dense = trades.map((t) => ({ ...t, time: BASES[0]! + 9 * 3_600_000 + (t.time % spread) * 60_000 }))
      expect(tpoProfiles(dense, asOpts(o)).map(pick)).toEqual(referenceProfiles(dense, o))
      expect(tpoProfiles(toColumns(dense), asOpts(o)).map(pick)).toEqual(referenceProfiles(dense, o))
    },
  )

  fcTest.prop([caseArb], { numRuns: 60 })('columns = objects; input untouched', ([o, trades]) => {
    const copy = structuredClone(trades)
    const cols = toColumns(trades)
    const colsCopy = structuredClone(cols)
    const a = tpoProfiles(trades, asOpts(o))
    const b = tpoProfiles(cols, asOpts(o))
    expect(b).toEqual(a)
    expect(trades).toEqual(copy)
    expect(cols).toEqual(colsCopy)
  })

  fcTest.prop([caseArb, fc.integer({ min: 0, max: 60 })], { numRuns: 80 })(
    'merge law: merge(profiles(a), profiles(b)) = profiles(a ++ b)',
    ([o, trades], cut) => {
      const i = cut % (trades.length + 1)
      const a = trades.slice(0, i)
      const b = trades.slice(i)
      const merged = new Map<string, TpoProfile>()
      for (const p of [...tpoProfiles(a, asOpts(o)), ...tpoProfiles(b, asOpts(o))]) {
        const prev = merged.get(key(p))
        merged.set(key(p), prev === undefined ? p : mergeTpoProfiles(prev, p))
      }
      const whole = tpoProfiles(trades, asOpts(o))
      expect(whole.map((p) => merged.get(key(p)))).toEqual(whole)
      expect(merged.size).toBe(whole.length)
    },
  )

  fcTest.prop(
    [
      caseArb,
      fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 8 }),
      fc.array(fc.constantFrom('add', 'addTrades', 'addColumns'), { minLength: 8, maxLength: 8 }),
    ],
    { numRuns: 80 },
  )(
    'batch = streaming (any chunking, add / addTrades / addColumns, advance between chunks)',
    ([o, trades], sizes, how) => {
      const sorted = [...trades].sort((x, y) => x.time - y.time)
      const agg = createTpoAggregator(asOpts(o))
      const out: TpoProfile[] = []
      let i = 0
      let c = 0
      while (i < sorted.length) {
        const n = sizes[c % sizes.length]!
        const chunk = sorted.slice(i, i + n)
        const m = how[c % how.length]
        if (m === 'add') for (const t of chunk) agg.add(t)
        else if (m === 'addTrades') agg.addTrades(chunk)
        else agg.addColumns(toColumns(chunk))
        i += n
        c++
        if (i < sorted.length) out.push(...agg.advance(sorted[i]!.time))
      }
      out.push(...agg.flush())
      expect(out).toEqual(tpoProfiles(sorted, asOpts(o)))
    },
  )

  fcTest.prop([optsArb.chain((o) => fc.tuple(fc.constant(o), tradesArb(o.tickSize, { unique: true })))], {
    numRuns: 60,
  })('trade order does not matter (distinct times)', ([o, trades]) => {
    const a = tpoProfiles(trades, asOpts(o))
    expect(tpoProfiles([...trades].reverse(), asOpts(o))).toEqual(a)
  })

  fcTest.prop([caseArb, fc.constantFrom(70, 50, 68.2, 100)], { numRuns: 80 })(
    'value area contains the POC, holds >= p% of TPOs, and the area before its last addition held < p%',
    ([o, trades], pct) => {
      for (const p of tpoProfiles(trades, { ...asOpts(o), valueAreaPercent: pct })) {
        const prices = p.rows.map((r) => r[0])
        const counts = p.rows.map((r) => r[1].length)
        const poc = prices.indexOf(p.poc)
        const lo = prices.indexOf(p.valueAreaLow)
        const hi = prices.indexOf(p.valueAreaHigh)
        const total = counts.reduce((x, y) => x + y, 0)
        const sum = (l: number, h: number) => counts.slice(l, h + 1).reduce((x, y) => x + y, 0)
        expect(lo <= poc && poc <= hi).toBe(true)
        expect(counts[poc]).toBe(Math.max(...counts))
        expect(sum(lo, hi) * 100 >= pct * total - 1e-9).toBe(true)
        expect(p.tpoCount).toBe(total)
        expect(p.tpoAbovePoc + p.tpoBelowPoc + counts[poc]!).toBe(total)
        if (lo === poc && hi === poc) continue
        const before: number[] = []
        for (const k of [1, 2]) {
          if (hi - k >= poc) before.push(sum(lo, hi - k))
          if (lo + k <= poc) before.push(sum(lo + k, hi))
        }
        expect(before.some((s) => s * 100 < pct * total)).toBe(true)
      }
    },
  )

  fcTest.prop([caseArb], { numRuns: 80 })(
    "every row between a block's low and high carries it, and no other row does",
    ([o, trades]) => {
      for (const p of tpoProfiles(trades, asOpts(o))) {
        const rsv = p.rowSizeValue
        p.blocks.forEach((_, b) => {
          const carrying = p.rows.flatMap((r, i) => (r[1].includes(b) ? [i] : []))
          expect(carrying.length).toBeGreaterThan(0)
          // contiguous
          expect(carrying.at(-1)! - carrying[0]! + 1).toBe(carrying.length)
          // first and last carrying rows hold the block's low and high
          const lowRow = p.rows[carrying[0]!]![0]
          const highRow = p.rows[carrying.at(-1)!]![0]
          expect(
            Number(lowRow) <= Number(p.blockLows[b]) && Number(p.blockLows[b]) < Number(lowRow) + Number(rsv) + 1e-9,
          ).toBe(true)
          expect(
            Number(highRow) <= Number(p.blockHighs[b]) &&
              Number(p.blockHighs[b]) < Number(highRow) + Number(rsv) + 1e-9,
          ).toBe(true)
        })
        // ascending, contiguous grid rows
        for (let i = 1; i < p.rows.length; i++) expect(Number(p.rows[i]![0])).toBeGreaterThan(Number(p.rows[i - 1]![0]))
      }
    },
  )
})

describe('periods', () => {
  fcTest.prop([tradesArb('0.25'), fc.constantFrom(undefined, 'America/New_York', 'Asia/Kolkata')], { numRuns: 40 })(
    'weekly periods start on a Monday at local midnight and last 7 local days',
    (trades, timeZone) => {
      const zone = timeZone ?? 'UTC'
      const local = (t: number) =>
        new Intl.DateTimeFormat('en-US', {
          timeZone: zone,
          weekday: 'short',
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        }).format(t)
      for (const p of tpoProfiles(trades, {
        timeframe: '1w',
        tickSize: '0.25',
        ...(timeZone === undefined ? {} : { timeZone }),
      })) {
        expect(local(p.time)).toBe('Mon 00:00')
        expect(local(p.end)).toBe('Mon 00:00')
        const days = (p.end - p.time) / 86_400_000
        expect(days > 6.9 && days < 7.1).toBe(true)
        for (const b of p.blocks) expect(b >= p.time && b < p.end).toBe(true)
      }
    },
  )
})

describe('exact volumes past 2^53 units', () => {
  fcTest.prop(
    [
      fc.array(
        fc.tuple(
          fc.constantFrom(2 ** 52, 2 ** 53, 4503599627370495, 1e15, 123456789.123, 0.00000001, 9007199254740991),
          fc.constantFrom('buy' as const, 'sell' as const),
          fc.integer({ min: 0, max: 3 }),
        ),
        { minLength: 1, maxLength: 40 },
      ),
    ],
    { numRuns: 60 },
  )('volume sums equal big.js sums', (xs) => {
    const trades: Trade[] = xs.map(([v, side, k], i) => ({
      time: Date.UTC(2026, 5, 1, 10) + i * 60_000,
      price: 100 + k,
      volume: v,
      side,
    }))
    const o: RefOptions = { timeframe: '1d' as const, tickSize: '1' }
    expect(tpoProfiles(trades, o).map(pick)).toEqual(referenceProfiles(trades, o))
    expect(tpoProfiles(toColumns(trades), o).map(pick)).toEqual(referenceProfiles(trades, o))
  })
})

describe('a bad record inside a columnar batch', () => {
  const BAD = ['side', 'volume', 'time', 'price'] as const
  // dense times (most records share a block with the one before: the fast loop's case), sorted or not
  fcTest.prop([caseArb, fc.boolean(), fc.nat(), fc.constantFrom(...BAD)], { numRuns: 100 })(
    'throws naming its index and field; the records before it count, it and those after do not',
    ([o, trades], sort, at, field) => {
      const dense = trades.map((t, i) => ({
        ...t,
        time: BASES[0]! + 9 * 3_600_000 + (sort ? i * 7_000 : (t.time % 97) * 60_000),
      }))
      const xs = sort ? dense : dense.reverse()
      const k = at % xs.length
      const cols = toColumns(xs)
      if (field === 'side') cols.side[k] = 3
      else if (field === 'volume') cols.volume[k] = -1
      else if (field === 'time') cols.time[k] = (cols.time[k] as number) + 0.5
      else cols.price[k] = Number.NaN
      const agg = createTpoAggregator(asOpts(o))
      let thrown: unknown
      try {
        agg.addColumns(cols)
      } catch (e) {
        thrown = e
      }
      expect(thrown).toMatchObject({ index: k, field })
      expect(agg.flush()).toEqual(tpoProfiles(xs.slice(0, k), asOpts(o)))
    },
  )
})
