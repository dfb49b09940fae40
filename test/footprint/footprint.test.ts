import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import { createFootprintAggregator, footprintProfiles, type FootprintProfile } from '../../src/footprint/index.js'
import { validateTradeColumns, validateTrades, type SessionType, type Trade } from '../../src/trades/index.js'
import { START, TICKS, fpTrades, toColumns } from './arbitraries.js'
import { columnsAsTrades, referenceFootprint } from './reference.js'
import type { TimeframeId } from '../../src/time/index.js'

const H = 3_600_000
const tr = (time: number, price: string | number, volume: string | number, side: 'buy' | 'sell' = 'buy'): Trade => ({
  time,
  price,
  volume,
  side,
})
const errorOf = (f: () => unknown): [string, number | undefined, string | undefined] | undefined => {
  try {
    f()
  } catch (e) {
    if (e instanceof MarketDataError) return [e.code, e.index, e.field]
    throw e
  }
  return undefined
}
const rowsOf = (ps: FootprintProfile[]) => ps.map((p) => p.rows)

describe('footprintProfiles: exactness against a big.js reference', () => {
  const ZONES = ['UTC', 'America/New_York', 'Asia/Kathmandu']
  for (const tick of TICKS) {
    it(`tick ${tick}: objects (strings and numbers, off-grid prices, negative prices)`, () => {
      fc.assert(
        fc.property(
          fpTrades({ tick, offGrid: true }),
          fc.integer({ min: 1, max: 12 }),
          fc.constantFrom('1m', '15m', '1h', '1d'),
          fc.constantFrom(...ZONES),
          (trades, rowSize, timeframe, timeZone) => {
            const opts = { timeframe, tickSize: tick, rowSize, timeZone }
            expect(footprintProfiles(trades, opts)).toEqual(referenceFootprint(trades, opts))
          },
        ),
        { numRuns: 60 },
      )
    })
    it(`tick ${tick}: columns`, () => {
      fc.assert(
        fc.property(fpTrades({ tick, numbers: true }), fc.integer({ min: 1, max: 12 }), (trades, rowSize) => {
          const cols = toColumns(trades)
          const opts = { timeframe: '1h' as const, tickSize: tick, rowSize }
          expect(footprintProfiles(cols, opts)).toEqual(referenceFootprint(columnsAsTrades(cols), opts))
        }),
        { numRuns: 60 },
      )
    })
  }

  it('objects and column batches mixed in one bucket: high and low (kept as units and as doubles) equal the reference', () => {
    fc.assert(
      fc.property(
        fpTrades({ tick: '0.25', offGrid: true, maxGap: 5 * 60_000 }),
        fc.array(fc.boolean(), { maxLength: 40 }),
        fc.integer({ min: 1, max: 5 }),
        (trades, asObject, cut) => {
          const cols = trades.filter((t, i) => asObject[i] !== true && toColumns([t]).time.length === 1)
          const objs = trades.filter((t) => !cols.includes(t))
          const input = [...objs.slice(0, cut), toColumns(cols), ...objs.slice(cut)]
          const opts = { timeframe: '1h' as const, tickSize: '0.25', rowSize: 2 }
          expect(footprintProfiles(input, opts)).toEqual(referenceFootprint([...objs, ...cols], opts))
        },
      ),
      { numRuns: 200 },
    )
  })

  it('columns with any double prices (17 significant digits, off-grid, negative) bin like the reference', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.oneof(
              fc.double({ min: -1e6, max: 1e6, noNaN: true }),
              fc.integer({ min: -4000, max: 4000 }).map((k) => k * 0.01),
              fc.constant(0.1 + 0.2),
            ),
            fc.nat(1000),
            fc.boolean(),
          ),
          { maxLength: 60 },
        ),
        fc.constantFrom('0.01', '0.25', '0.00001', '5'),
        fc.integer({ min: 1, max: 5 }),
        (rows, tick, rowSize) => {
          const n = rows.length
          const cols = {
            time: new Float64Array(n).fill(START),
            price: new Float64Array(rows.map((r) => r[0])),
            volume: new Float64Array(rows.map((r) => r[1] / 100)),
            side: new Uint8Array(rows.map((r) => (r[2] ? 1 : 2))),
          }
          const opts = { timeframe: '1h' as const, tickSize: tick, rowSize }
          expect(footprintProfiles(cols, opts)).toEqual(referenceFootprint(columnsAsTrades(cols), opts))
        },
      ),
      { numRuns: 100 },
    )
  })

  it('rowSizeValue grids (absolute, not a tick multiple too) equal the reference', () => {
    fc.assert(
      fc.property(
        fpTrades({ tick: '0.01' }),
        fc.constantFrom('0.1', '0.05', '0.3', '1', '0.015', '2.5'),
        (trades, rowSizeValue) => {
          const opts = { timeframe: '1h' as const, tickSize: '0.01', rowSizeValue }
          expect(footprintProfiles(trades, opts)).toEqual(referenceFootprint(trades, opts))
        },
      ),
      { numRuns: 60 },
    )
  })

  it('columns: runs of repeated prices, mixed sides, sums near 2^52, session filters equal the reference', () => {
    const rec = fc.record({
      gap: fc.integer({ min: 0, max: 15 * 60_000 }),
      price: fc.constantFrom(100, 100.25, 100.5, 101, 99.75, -3.5),
      vol: fc.oneof(fc.integer({ min: 0, max: 50 }), fc.constantFrom(2 ** 52 - 1, 2 ** 51 + 3, 2 ** 50, 2 ** 52 - 7)),
      side: fc.constantFrom(1, 2),
      session: fc.constantFrom(0, 1, 2),
    })
    const filters: (('MAINSESSION' | 'PRE_MARKET' | 'POST_MARKET')[] | undefined)[] = [
      undefined,
      ['MAINSESSION'],
      ['PRE_MARKET', 'POST_MARKET'],
    ]
    fc.assert(
      fc.property(
        fc.array(rec, { maxLength: 60 }),
        fc.constantFrom(...filters),
        fc.constantFrom(1, 2, 4),
        (rs, sessions, rowSize) => {
          let time = START
          const n = rs.length
          const cols = {
            time: new Float64Array(n),
            price: new Float64Array(n),
            volume: new Float64Array(n),
            side: new Uint8Array(n),
            session: new Uint8Array(n),
          }
          rs.forEach((r, i) => {
            time += r.gap
            cols.time[i] = time
            cols.price[i] = r.price
            cols.volume[i] = r.vol
            cols.side[i] = r.side
            cols.session[i] = r.session
          })
          const opts = {
            timeframe: '1h' as const,
            tickSize: '0.25',
            rowSize,
            ...(sessions === undefined ? {} : { sessions }),
          }
          expect(footprintProfiles(cols, opts)).toEqual(referenceFootprint(columnsAsTrades(cols), opts))
        },
      ),
      { numRuns: 150 },
    )
  })

  /** Long columns in runs of one price (the block path of the columnar loop), sessions 0..2 in runs, ascending times. */
  const runColumns = fc
    .record({
      runs: fc.array(
        fc.record({ price: fc.constantFrom(100, 100.25, 101.5, 99, -2.75), len: fc.integer({ min: 1, max: 14 }) }),
        { minLength: 1, maxLength: 30 },
      ),
      seed: fc.integer({ min: 1, max: 2 ** 30 }),
      withSession: fc.boolean(),
      volumeDecimals: fc.constantFrom(0, 0, 2, 4),
      sessionRun: fc.integer({ min: 1, max: 24 }),
    })
    .map(({ runs, seed, withSession, volumeDecimals, sessionRun }) => {
      const n = runs.reduce((a, r) => a + r.len, 0)
      const c = {
        time: new Float64Array(n),
        price: new Float64Array(n),
        volume: new Float64Array(n),
        side: new Uint8Array(n),
        session: new Uint8Array(n),
      }
      let x = seed
      const rnd = (m: number) => {
        x = (Math.imul(x, 1103515245) + 12345) >>> 0
        return (x >>> 8) % m
      }
      let i = 0
      let time = START
      for (const r of runs) {
        for (let k = 0; k < r.len; k++, i++) {
          time += rnd(4) === 0 ? rnd(40 * 60_000) : rnd(3)
          c.time[i] = time
          c.price[i] = r.price
          c.volume[i] =
            rnd(5) === 0
              ? 2 ** 50 + rnd(9)
              : volumeDecimals === 0
                ? rnd(20)
                : rnd(20 * 10 ** volumeDecimals) / 10 ** volumeDecimals
          c.side[i] = 1 + rnd(2)
          c.session[i] = Math.floor(i / sessionRun) % 3 // sessions in runs
        }
      }
      if (withSession) return c
      const { session: _s, ...rest } = c
      return rest
    })

  it('columns in long runs of one price, with odd but valid records anywhere, equal the reference', () => {
    fc.assert(
      fc.property(
        runColumns,
        fc.array(fc.nat(), { maxLength: 3 }),
        fc.constantFrom('fraction', 'moreDecimals', 'offGrid', 'huge', 'later', 'earlier'),
        fc.constantFrom(1, 3),
        fc.constantFrom<SessionType[] | undefined>(undefined, ['MAINSESSION'], ['PRE_MARKET', 'POST_MARKET']),
        (c, ats, odd, rowSize, sessions) => {
          for (const at of ats) {
            const i = at % c.time.length
            if (odd === 'fraction') c.volume[i] = 0.5
            if (odd === 'moreDecimals') c.volume[i] = 0.03125
            if (odd === 'offGrid') c.price[i] = (c.price[i] as number) + 0.125
            if (odd === 'huge') c.volume[i] = 2 ** 53
            if (odd === 'later') c.time[i] = (c.time[i] as number) + 5 * H
            if (odd === 'earlier') c.time[i] = START - 2 * H
          }
          const opts = {
            timeframe: '1h' as const,
            tickSize: '0.25',
            rowSize,
            ...(sessions === undefined ? {} : { sessions }),
          }
          expect(footprintProfiles(c, opts)).toEqual(referenceFootprint(columnsAsTrades(c), opts))
        },
      ),
      { numRuns: 200 },
    )
  })

  it('columns: a volume with more decimals than seen so far, at every position of a run, is exact', () => {
    const opts = { timeframe: '1h' as const, tickSize: '0.25', rowSize: 1 }
    for (const [usual, odd] of [
      [3, 0.5],
      [0.25, 0.03125],
      [1.5, 7],
    ] as const) {
      for (let at = 0; at < 14; at++) {
        const n = 24
        const c = {
          time: new Float64Array(n).fill(START),
          price: new Float64Array(n).fill(100),
          volume: new Float64Array(n).fill(usual),
          side: new Uint8Array(n),
          session: new Uint8Array(n),
        }
        for (let i = 0; i < n; i++) c.side[i] = 1 + (i % 3 === 0 ? 1 : 0)
        c.volume[at] = odd
        expect(footprintProfiles(c, opts)).toEqual(referenceFootprint(columnsAsTrades(c), opts))
      }
    }
  })

  it('columns: one price, times out of order (a swapped pair, a repeat, a step back) at every position of a run equal the reference', () => {
    const opts = { timeframe: '1h' as const, tickSize: '0.25', rowSize: 1 }
    for (const usual of [3, 0.25]) {
      for (let at = 0; at < 15; at++) {
        for (const kind of ['swap', 'repeat', 'back'] as const) {
          const n = 24
          const c = {
            time: new Float64Array(n),
            price: new Float64Array(n).fill(100),
            volume: new Float64Array(n).fill(usual),
            side: new Uint8Array(n),
            session: new Uint8Array(n),
          }
          for (let i = 0; i < n; i++) {
            c.time[i] = START + 10 * i
            c.side[i] = 1 + (i % 3 === 0 ? 1 : 0)
            c.volume[i] = usual * (1 + (i % 5))
          }
          if (kind === 'swap') [c.time[at], c.time[at + 1]] = [c.time[at + 1] as number, c.time[at] as number]
          if (kind === 'repeat') c.time[at + 1] = c.time[at] as number
          if (kind === 'back') c.time[at] = START - 1
          expect(footprintProfiles(c, opts)).toEqual(referenceFootprint(columnsAsTrades(c), opts))
        }
      }
    }
  })

  it('columns with a session filter: a dropped record at every position of a run is left out', () => {
    const opts = { timeframe: '1h' as const, tickSize: '0.25', rowSize: 1, sessions: ['MAINSESSION' as const] }
    for (const usual of [3, 0.25]) {
      for (let at = 0; at < 14; at++) {
        const n = 24
        const c = {
          time: new Float64Array(n).fill(START),
          price: new Float64Array(n).fill(100),
          volume: new Float64Array(n).fill(usual),
          side: new Uint8Array(n).fill(1),
          session: new Uint8Array(n),
        }
        c.session[at] = 1 + (at % 2)
        expect(footprintProfiles(c, opts)).toEqual(referenceFootprint(columnsAsTrades(c), opts))
      }
    }
  })

  it('a batch without a session column is MAINSESSION, which a filter drops even after other batches made rows', () => {
    const n = 12
    const pre = {
      time: new Float64Array(n).fill(START),
      price: new Float64Array(n).fill(100),
      volume: new Float64Array(n).fill(1),
      side: new Uint8Array(n).fill(1),
      session: new Uint8Array(n).fill(1),
    }
    const plain = {
      time: new Float64Array(n).fill(START + 1),
      price: new Float64Array(n).fill(100),
      volume: new Float64Array(n).fill(2),
      side: new Uint8Array(n).fill(2),
    }
    for (const sessions of [['PRE_MARKET'], ['MAINSESSION'], ['PRE_MARKET', 'MAINSESSION']] as SessionType[][]) {
      const opts = { timeframe: '1h' as const, tickSize: '0.25', sessions }
      const want = referenceFootprint([...columnsAsTrades(pre), ...columnsAsTrades(plain)], opts)
      expect(footprintProfiles([pre, plain], opts)).toEqual(want)
      const agg = createFootprintAggregator(opts)
      agg.addColumns(pre)
      agg.addColumns(plain)
      expect(agg.flush()).toEqual(want)
    }
    expect(footprintProfiles([plain], { timeframe: '1h', tickSize: '0.25', sessions: ['PRE_MARKET'] })).toEqual([])
  })

  it('columns in long runs of one price: a bad record anywhere is reported like validateTradeColumns reports it', () => {
    const bad = [
      ['side', 0],
      ['side', 3],
      ['side', 255],
      ['session', 3],
      ['session', 200],
      ['time', Number.NaN],
      ['time', START + 0.5],
      ['volume', -1],
      ['volume', Number.NaN],
      ['volume', Number.POSITIVE_INFINITY],
      ['price', Number.NaN],
      ['price', Number.NEGATIVE_INFINITY],
    ] as const
    fc.assert(
      fc.property(runColumns, fc.nat(), fc.constantFrom(...bad), (c, at, [field, value]) => {
        const i = at % c.time.length
        const col = (c as Record<string, Float64Array | Uint8Array | undefined>)[field]
        if (col === undefined) return
        col[i] = value
        const v = validateTradeColumns(c)
        expect(v.ok).toBe(false)
        const e = v.ok ? undefined : (v.error as MarketDataError)
        expect(errorOf(() => footprintProfiles(c, { timeframe: '1h', tickSize: '0.25', rowSize: 2 }))).toEqual([
          e?.code,
          e?.index,
          e?.field,
        ])
      }),
      { numRuns: 150 },
    )
  })

  /**
   * Long columns (past two slices of the columnar path, whose session column is checked four bytes
   * at a time) as views at any byte offset of larger buffers, so words start anywhere in the records.
   */
  const longColumns = (n: number, offset: number, withSession: boolean, seed: number) => {
    const view = <T extends Float64Array | Uint8Array>(make: (m: number) => T): T =>
      make(n + 16).subarray(offset, offset + n) as T
    const c = {
      time: view((m) => new Float64Array(m)),
      price: view((m) => new Float64Array(m)),
      volume: view((m) => new Float64Array(m)),
      side: view((m) => new Uint8Array(m)),
      session: view((m) => new Uint8Array(m)),
    }
    let x = seed
    const rnd = (m: number) => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0
      return (x >>> 8) % m
    }
    let price = 100
    for (let i = 0; i < n; i++) {
      if (rnd(40) === 0) price += (rnd(5) - 2) * 0.25
      c.time[i] = START + Math.floor(i / 8) * 1000
      c.price[i] = price
      c.volume[i] = 1 + rnd(9)
      c.side[i] = 1 + rnd(2)
      c.session[i] = Math.floor(i / 5000) % 3
    }
    if (withSession) return c
    const { session: _s, ...rest } = c
    return rest
  }
  const SLICE = 16384
  const spots = (n: number) => [
    0,
    1,
    2,
    3,
    4,
    5,
    7,
    SLICE - 5,
    SLICE - 4,
    SLICE - 3,
    SLICE - 1,
    SLICE,
    SLICE + 1,
    SLICE + 2,
    SLICE + 3,
    SLICE + 4,
    2 * SLICE + 1,
    n - 5,
    n - 4,
    n - 3,
    n - 2,
    n - 1,
  ]

  it('long column views at any byte offset, across slices: equal the reference; a bad side or session code anywhere is reported like validateTradeColumns', () => {
    const n = 2 * SLICE + 301
    const opts = { timeframe: '1h' as const, tickSize: '0.25', rowSize: 2 }
    for (let offset = 0; offset < 8; offset++) {
      const ok = longColumns(n, offset, offset % 2 === 0, 7 + offset)
      expect(footprintProfiles(ok, opts)).toEqual(referenceFootprint(columnsAsTrades(ok), opts))
    }
    const bad = [
      ['side', 0],
      ['side', 3],
      ['side', 255],
      ['session', 3],
      ['session', 255],
    ] as const
    for (const offset of [0, 1, 3, 6]) {
      for (const at of spots(n)) {
        for (const [field, value] of bad) {
          const c = longColumns(n, offset, true, 3 + at) as ReturnType<typeof longColumns> & { session: Uint8Array }
          c[field][at] = value
          const v = validateTradeColumns(c)
          const e = v.ok ? undefined : (v.error as MarketDataError)
          expect(e?.index).toBe(at)
          expect(errorOf(() => footprintProfiles(c, opts))).toEqual([e?.code, e?.index, e?.field])
        }
      }
    }
  })

  it('long column views with a sessions filter (every subset of the codes): slices whose codes are all kept equal the reference too', () => {
    const n = SLICE + 1003
    const all: SessionType[] = ['MAINSESSION', 'PRE_MARKET', 'POST_MARKET']
    for (let set = 0; set < 8; set++) {
      const sessions = all.filter((_, c) => ((set >> c) & 1) === 1)
      const opts = { timeframe: '1h' as const, tickSize: '0.25', rowSize: 2, sessions }
      // codes in runs of 5000 records: 0, 1, 2, 0 (a slice of 16384 records holds several)
      const c = longColumns(n, set % 4, true, 5 + set) as ReturnType<typeof longColumns> & { session: Uint8Array }
      expect(footprintProfiles(c, opts)).toEqual(referenceFootprint(columnsAsTrades(c), opts))
      // no session column: every record MAINSESSION
      const plain = longColumns(n, 3 - (set % 4), false, 9 + set)
      expect(footprintProfiles(plain, opts)).toEqual(referenceFootprint(columnsAsTrades(plain), opts))
      // one code everywhere, then a slice with one record of each other code at its words' byte positions
      for (let code = 0; code < 3; code++) {
        c.session.fill(code)
        expect(footprintProfiles(c, opts)).toEqual(referenceFootprint(columnsAsTrades(c), opts))
        for (let k = 0; k < 8; k++) c.session[SLICE + 100 * k + k] = (code + 1 + (k % 2)) % 3
        expect(footprintProfiles(c, opts)).toEqual(referenceFootprint(columnsAsTrades(c), opts))
      }
      c.session[SLICE + 7] = 3
      expect(errorOf(() => footprintProfiles(c, opts))).toEqual(['invalid_session', SLICE + 7, 'session'])
    }
  })

  it('long column views: a fractional time or volume, a negative volume, a new price anywhere in a slice equal the reference or fail like validateTradeColumns', () => {
    const n = SLICE + 37
    const opts = { timeframe: '1h' as const, tickSize: '0.25', rowSize: 1 }
    const odd = [
      ['time', 0.5],
      ['volume', 0.5],
      ['volume', 0.25],
      ['volume', -1],
      ['volume', -0],
      ['volume', 2 ** 52],
      ['price', 0.25],
      ['price', 0.125],
      ['time', 3 * H],
    ] as const
    for (const at of [0, 2, 5, SLICE - 1, SLICE, SLICE + 3, n - 1]) {
      for (const [field, delta] of odd) {
        const c = longColumns(n, at % 5, at % 2 === 0, 11 + at)
        if (field === 'volume' && (delta < 0 || Object.is(delta, -0) || delta === 2 ** 52)) c.volume[at] = delta
        else c[field][at] = (c[field][at] as number) + delta
        const v = validateTradeColumns(c)
        if (v.ok) expect(footprintProfiles(c, opts)).toEqual(referenceFootprint(columnsAsTrades(c), opts))
        else {
          const e = v.error as MarketDataError
          expect(errorOf(() => footprintProfiles(c, opts))).toEqual([e.code, e.index, e.field])
        }
      }
    }
  })

  it('objects: odd volume, price and side strings anywhere in runs of one price equal the reference or fail like validateTrades', () => {
    const odd = [
      '1.',
      '.5',
      '1.50',
      '0.100000000',
      '+1',
      '1e3',
      ' 1',
      '',
      '-0',
      '00.25',
      '1.2.3',
      '4503599627370496',
      '0.000000001',
      '12345678901234567',
      'x',
    ]
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ price: fc.constantFrom('100.25', '100.50', '-3.75'), len: fc.integer({ min: 1, max: 9 }) }),
          { minLength: 1, maxLength: 12 },
        ),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...odd), fc.boolean()), { maxLength: 3 }),
        fc.constantFrom('0.01', '0.25'),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom('', 'b', 'BUY', 'sel', 'buys', 'sell ', 'sellers', 'ask')), {
          maxLength: 2,
        }),
        fc.constantFrom<SessionType[] | undefined>(undefined, ['MAINSESSION'], ['PRE_MARKET', 'POST_MARKET']),
        fc.integer({ min: 1, max: 9 }),
        (runs, edits, tickSize, sides, sessions, sessionRun) => {
          const trades: Trade[] = []
          const names = ['PRE_MARKET', 'MAINSESSION', 'POST_MARKET'] as const
          for (const r of runs) {
            for (let k = 0; k < r.len; k++) {
              const n = trades.length
              // sessions in runs, hours apart: some buckets hold only records a filter drops
              trades.push({
                ...tr(
                  START + n + Math.floor(n / sessionRun) * 2 * H,
                  r.price,
                  `${(n * 7) % 13}.${n % 10}`,
                  n % 3 ? 'buy' : 'sell',
                ),
                session: names[Math.floor(n / sessionRun) % 3] as SessionType,
              })
            }
          }
          for (const [at, text, onPrice] of edits) {
            const t = trades[at % trades.length] as Trade
            // (prices past 2^53 rows are an error of their own, tested below)
            if (onPrice && text.length < 16) t.price = text
            else t.volume = text
          }
          for (const [at, side] of sides) (trades[at % trades.length] as { side: string }).side = side
          const opts = {
            timeframe: '1h' as const,
            tickSize,
            rowSize: 2,
            ...(sessions === undefined ? {} : { sessions }),
          }
          const v = validateTrades(trades)
          if (v.ok) expect(footprintProfiles(trades, opts)).toEqual(referenceFootprint(trades, opts))
          else
            expect(errorOf(() => footprintProfiles(trades, opts))).toEqual([v.error.code, v.error.index, v.error.field])
        },
      ),
      { numRuns: 150 },
    )
  })

  it('sums past 2^53 units stay exact (columns and strings, bigint path)', () => {
    const big = 2 ** 52 - 1 // largest integer volume on the fast path
    const n = 9
    const cols = {
      time: new Float64Array(n).fill(START),
      price: new Float64Array(n).fill(100.25),
      volume: new Float64Array(n).fill(big),
      side: new Uint8Array(n).fill(1),
    }
    const opts = { timeframe: '1h' as const, tickSize: '0.25' }
    const [p] = footprintProfiles(cols, opts)
    expect(p?.rows[0]?.[1]).toBe((BigInt(big) * BigInt(n)).toString())
    const strings = [
      tr(START, '100.25', '90071992547409.93'), // 2^53-ish units at scale 2: bigint per record
      tr(START + 1, '100.25', '90071992547409.93'),
      tr(START + 2, '100.25', '0.00000001'),
      tr(START + 3, '123456789012345.25', '45035996273704.95', 'sell'), // price units past 2^52
      tr(START + 4, '-123456789012345.75', '1', 'sell'),
    ]
    expect(footprintProfiles(strings, opts)).toEqual(referenceFootprint(strings, opts))
    expect(footprintProfiles(strings, opts)[0]?.volumeBuy).toBe('180143985094819.86000001')
  })
})

describe('footprintProfiles: the grid', () => {
  it('boundary prices land in the row they open (no float misbinning)', () => {
    const a = footprintProfiles([tr(START, 0.07, 1), tr(START, '0.07', 1)], { timeframe: '1h', tickSize: '0.01' })
    expect(a[0]?.rows).toEqual([['0.07', '2', '0', 2, 0]])
    const b = footprintProfiles([tr(START, 0.3, 1), tr(START, '0.3', 2)], {
      timeframe: '1h',
      tickSize: '0.01',
      rowSizeValue: '0.1',
    })
    expect(b[0]?.rows).toEqual([['0.30', '3', '0', 2, 0]])
    const cols = {
      time: new Float64Array([START, START]),
      price: new Float64Array([0.07, 0.3]),
      volume: new Float64Array([1, 1]),
      side: new Uint8Array([1, 2]),
    }
    expect(rowsOf(footprintProfiles(cols, { timeframe: '1h', tickSize: '0.01' }))).toEqual([
      [
        ['0.07', '1', '0', 1, 0],
        ['0.30', '0', '1', 0, 1],
      ],
    ])
    expect(rowsOf(footprintProfiles(cols, { timeframe: '1h', tickSize: '0.1' }))).toEqual([
      [
        ['0.0', '1', '0', 1, 0],
        ['0.3', '0', '1', 0, 1],
      ],
    ])
  })

  it('floors negative prices (not truncation) and anchors the grid at 0', () => {
    const ps = footprintProfiles([tr(START, '-0.01', 1), tr(START, '-1.3', 1), tr(START, '1.3', 1)], {
      timeframe: '1h',
      tickSize: '0.01',
      rowSizeValue: '0.5',
    })
    expect(ps[0]?.rows.map((r) => r[0])).toEqual(['-1.50', '-0.50', '1.00'])
    expect(ps[0]?.low).toBe('-1.30')
    expect(ps[0]?.high).toBe('1.30')
  })

  it('prints prices with the grid decimals; high/low keep extra decimals of off-grid prices', () => {
    const ps = footprintProfiles([tr(START, '5000', 1), tr(START, '5000.125', 1)], {
      timeframe: '1h',
      tickSize: '0.25',
      rowSize: 4,
    })
    expect(ps[0]).toMatchObject({
      rowSize: 4,
      rowSizeValue: '1',
      tickSize: '0.25',
      high: '5000.125',
      low: '5000.00',
      volumePoc: '5000.00',
    })
    expect(ps[0]?.rows).toEqual([['5000.00', '2', '0', 2, 0]])
    const t5 = footprintProfiles([tr(START, 12345, 1)], { timeframe: '1h', tickSize: 5, rowSize: 3 })
    expect(t5[0]?.rows[0]?.[0]).toBe('12345')
    expect(t5[0]?.rowSizeValue).toBe('15')
  })

  it('a rowSizeValue echoed from a profile reproduces the same grid', () => {
    fc.assert(
      fc.property(fpTrades({ tick: '0.25' }), fc.integer({ min: 1, max: 20 }), (trades, rowSize) => {
        const a = footprintProfiles(trades, { timeframe: '1h', tickSize: '0.25', rowSize })
        if (a.length === 0) return
        const b = footprintProfiles(trades, {
          timeframe: '1h',
          tickSize: '0.25',
          rowSizeValue: (a[0] as FootprintProfile).rowSizeValue,
        })
        expect(b).toEqual(a)
      }),
      { numRuns: 40 },
    )
  })

  it('volume 0 is a trade; totals and delta', () => {
    const ps = footprintProfiles([tr(START, 1, 0), tr(START, 1, '2.5', 'sell'), tr(START, 2, '1')], {
      timeframe: '1h',
      tickSize: 1,
    })
    expect(ps[0]).toMatchObject({
      volumeBuy: '1',
      volumeSell: '2.5',
      volume: '3.5',
      delta: '-1.5',
      tradesCountBuy: 2,
      tradesCountSell: 1,
      trades: 3,
      volumePoc: '1',
    })
    expect(ps[0]?.rows).toEqual([
      ['1', '0', '2.5', 1, 1],
      ['2', '1', '0', 1, 0],
    ])
  })

  it('volume POC ties: nearest the middle, then the side with more volume, then the lower price', () => {
    const p = (rows: [number, number][]) =>
      footprintProfiles(
        rows.map(([price, v]) => tr(START, price, v)),
        { timeframe: '1h', tickSize: 1 },
      )[0]?.volumePoc
    expect(
      p([
        [1, 5],
        [2, 1],
        [3, 5],
        [4, 1],
        [5, 1],
      ]),
    ).toBe('3') // 3 is the middle
    expect(
      p([
        [1, 5],
        [2, 5],
        [3, 1],
        [4, 1],
        [5, 3],
      ]),
    ).toBe('2') // 2 nearer the middle than 1
    expect(
      p([
        [1, 1],
        [2, 5],
        [3, 1],
        [4, 5],
        [5, 2],
      ]),
    ).toBe('4') // 2 and 4 equally near; above holds more
    expect(
      p([
        [1, 2],
        [2, 5],
        [3, 1],
        [4, 5],
        [5, 1],
      ]),
    ).toBe('2') // below holds more
    expect(
      p([
        [1, 1],
        [2, 5],
        [3, 1],
        [4, 5],
        [5, 1],
      ]),
    ).toBe('2') // equal sides: lower price
    // sparse rows: the middle is between prices (1 + 10) / 2, not row indexes; 8 + 10 above outweigh 1 below
    expect(
      p([
        [1, 5],
        [8, 1],
        [10, 5],
      ]),
    ).toBe('10')
  })
})

describe('footprintProfiles: frames, ranges, sessions', () => {
  it('one profile per bucket with trades, in time order, any input order', () => {
    const ts = [tr(START + 2 * H + 5, 1, 1), tr(START, 1, 1), tr(START + 5 * H, 2, 1, 'sell'), tr(START + 1, 1, 2)]
    const ps = footprintProfiles(ts, { timeframe: '1h', tickSize: 1 })
    expect(ps.map((p) => [p.time, p.end])).toEqual([
      [START, START + H],
      [START + 2 * H, START + 3 * H],
      [START + 5 * H, START + 6 * H],
    ])
    expect(ps[0]?.rows).toEqual([['1', '3', '0', 2, 0]])
  })

  it('months and weeks in a zone; custom counts', () => {
    const t = Date.UTC(2026, 4, 31, 12)
    const m = footprintProfiles([tr(t, 1, 1)], { timeframe: '1M', tickSize: 1, timeZone: 'America/New_York' })
    expect(m[0]?.time).toBe(Date.UTC(2026, 4, 1, 4))
    expect(m[0]?.end).toBe(Date.UTC(2026, 5, 1, 4))
    const w = footprintProfiles([tr(Date.UTC(2026, 4, 29), 1, 1)], { timeframe: '1w', tickSize: 1 })
    expect(w[0]?.time).toBe(Date.UTC(2026, 4, 25))
    const c = footprintProfiles([tr(START + 100 * 60_000, 1, 1)], {
      timeframe: { unit: 'MINUTE', count: 90 },
      tickSize: 1,
    })
    expect(c[0]?.time).toBe(Date.UTC(2026, 4, 29, 10, 30))
  })

  it('from/to keep [from, to); profileStart when from cuts into the first bucket', () => {
    const ts = [tr(START, 1, 1), tr(START + 10 * 60_000, 2, 1), tr(START + H + 5, 3, 1), tr(START + 2 * H, 4, 1)]
    const from = START + 5 * 60_000
    const ps = footprintProfiles(ts, { timeframe: '1h', tickSize: 1, from, to: START + 2 * H })
    expect(ps.map((p) => p.rows.map((r) => r[0]))).toEqual([['2'], ['3']])
    expect(ps[0]?.profileStart).toBe(from)
    expect(ps[1]?.profileStart).toBeUndefined()
    const aligned = footprintProfiles(ts, { timeframe: '1h', tickSize: 1, from: START })
    expect(aligned[0]?.profileStart).toBeUndefined()
  })

  it('property: from / to are taken exactly when whole numbers within ±8.64e15', () => {
    const ts = [tr(START, 1, 1)]
    const num = fc.oneof(
      fc.integer({ min: -8.64e15 - 5, max: 8.64e15 + 5 }),
      fc.double(),
      fc.integer().map((n) => n + 0.5),
    )
    fc.assert(
      fc.property(num, fc.constantFrom('from', 'to'), (x, field) => {
        const ok = Number.isInteger(x) && Math.abs(x) <= 8.64e15
        const run = () => footprintProfiles(ts, { timeframe: '1h', tickSize: 1, [field]: x })
        if (ok) expect(run).not.toThrow()
        else expect(run).toThrow(expect.objectContaining({ code: 'invalid_option', field }))
      }),
      { numRuns: 300 },
    )
  })

  it('from/to must be whole ms within the Date range (profileStart echoes from)', () => {
    const ts = [tr(START, 1, 1)]
    for (const field of ['from', 'to'] as const) {
      for (const bad of [START + 0.5, Number.NaN, Infinity, -Infinity, 8.64e15 + 1, -8.64e15 - 1, '0', null]) {
        expect(() => footprintProfiles(ts, { timeframe: '1h', tickSize: 1, [field]: bad as number })).toThrow(
          expect.objectContaining({ code: 'invalid_option', field }),
        )
      }
    }
    // the ends of the range are taken
    expect(footprintProfiles(ts, { timeframe: '1h', tickSize: 1, from: -8.64e15, to: 8.64e15 })).toHaveLength(1)
  })

  it('sessions filter; one selected session type is reported', () => {
    const ts: Trade[] = [
      { ...tr(START, 1, 1), session: 'PRE_MARKET' },
      tr(START, 2, 1),
      { ...tr(START, 3, 1), session: 'POST_MARKET' },
    ]
    expect(footprintProfiles(ts, { timeframe: '1h', tickSize: 1, sessions: ['MAINSESSION'] })[0]).toMatchObject({
      sessionType: 'MAINSESSION',
      rows: [['2', '1', '0', 1, 0]],
    })
    const two = footprintProfiles(ts, { timeframe: '1h', tickSize: 1, sessions: ['PRE_MARKET', 'POST_MARKET'] })[0]
    expect(two?.rows.map((r) => r[0])).toEqual(['1', '3'])
    expect(two?.sessionType).toBeUndefined()
    expect(footprintProfiles(ts, { timeframe: '1h', tickSize: 1, sessions: [] })).toEqual([])
  })

  it('no trades -> []', () => {
    expect(footprintProfiles([], { timeframe: '1h', tickSize: 1 })).toEqual([])
  })

  it('sparse rows (huge range in one bucket) stay exact', () => {
    const ts = [
      tr(START, '0.01', 1),
      tr(START, '99999999.99', 2),
      tr(START, '0.02', 3, 'sell'),
      tr(START, '50000000', 4),
    ]
    const opts = { timeframe: '1h' as const, tickSize: '0.01' }
    expect(footprintProfiles(ts, opts)).toEqual(referenceFootprint(ts, opts))
  })

  it('dense rows growing in both directions', () => {
    const ts: Trade[] = []
    for (let i = 0; i < 3000; i++)
      ts.push(tr(START + i, (i % 2 ? 1 : -1) * i * 0.25 + 1000, (i % 7) + 0.5, i % 3 ? 'buy' : 'sell'))
    const opts = { timeframe: '1h' as const, tickSize: '0.25' }
    expect(footprintProfiles(ts, opts)).toEqual(referenceFootprint(ts, opts))
  })
})

describe('footprintProfiles: errors', () => {
  const code = (f: () => unknown): [string, number | undefined, string | undefined] => {
    try {
      f()
    } catch (e) {
      if (e instanceof MarketDataError) return [e.code, e.index, e.field]
      throw e
    }
    throw new Error('did not throw')
  }
  it('rejects bad options naming the option', () => {
    expect(code(() => footprintProfiles([], { timeframe: '1h', tickSize: 1, rowSize: 2, rowSizeValue: '2' }))).toEqual([
      'invalid_option',
      undefined,
      'rowSize',
    ])
    expect(code(() => footprintProfiles([], { timeframe: '1h', tickSize: 0 }))).toEqual([
      'invalid_option',
      undefined,
      'tickSize',
    ])
    expect(code(() => footprintProfiles([], { timeframe: '1h', tickSize: 1, rowSize: 1.5 }))).toEqual([
      'invalid_option',
      undefined,
      'rowSize',
    ])
    expect(code(() => footprintProfiles([], { timeframe: '1h', tickSize: 1, rowSizeValue: '-1' }))).toEqual([
      'invalid_option',
      undefined,
      'rowSizeValue',
    ])
    expect(code(() => footprintProfiles([], { timeframe: '100t', tickSize: 1 }))).toEqual([
      'invalid_option',
      undefined,
      'timeframe',
    ])
    expect(code(() => footprintProfiles([], { timeframe: '60m' as TimeframeId, tickSize: 1 }))[0]).toBe(
      'invalid_option',
    )
    expect(code(() => footprintProfiles([], { timeframe: '1h', tickSize: 1, timeZone: 'Mars/Base' }))).toEqual([
      'invalid_option',
      undefined,
      'timeZone',
    ])
    expect(code(() => footprintProfiles([], { timeframe: '1h', tickSize: 1, sessions: ['LUNCH' as never] }))).toEqual([
      'invalid_option',
      undefined,
      'sessions',
    ])
  })
  it('rejects a price whose row index passes 2^53 (it could not name its row exactly)', () => {
    const opts = { timeframe: '1h' as const, tickSize: '0.01', rowSize: 2 }
    const ok = tr(START, '180143985094819.82', 1) // row 2^53 - 1
    expect(footprintProfiles([ok], opts)[0]?.rows[0]?.[0]).toBe('180143985094819.82')
    expect(code(() => footprintProfiles([ok, tr(START, '180143985094819.84', 1, 'sell')], opts))).toEqual([
      'invalid_decimal',
      1,
      'price',
    ])
    expect(code(() => footprintProfiles([tr(START, '-180143985094819.86', 1)], opts))).toEqual([
      'invalid_decimal',
      0,
      'price',
    ])
    expect(
      code(() => footprintProfiles([ok, tr(START, '12345678901234567', 1)], { ...opts, sessions: ['MAINSESSION'] })),
    ).toEqual(['invalid_decimal', 1, 'price'])
  })
  it('validates records that a filter (sessions, from/to) drops, too', () => {
    const bad: Trade[] = [tr(START, 1, 1), { ...tr(START + 1, 'x', 1), session: 'PRE_MARKET' }]
    expect(code(() => footprintProfiles(bad, { timeframe: '1h', tickSize: 1, sessions: ['MAINSESSION'] }))).toEqual([
      'invalid_decimal',
      1,
      'price',
    ])
    expect(
      code(() =>
        footprintProfiles([tr(START, 1, 1), tr(START + 10 * H, 1, -2)], {
          timeframe: '1h',
          tickSize: 1,
          to: START + H,
        }),
      ),
    ).toEqual(['invalid_volume', 1, 'volume'])
    const cols = {
      time: new Float64Array([START, START]),
      price: new Float64Array([1, Number.NaN]),
      volume: new Float64Array([1, 1]),
      side: new Uint8Array([1, 1]),
      session: new Uint8Array([0, 1]),
    }
    expect(code(() => footprintProfiles(cols, { timeframe: '1h', tickSize: 1, sessions: ['MAINSESSION'] }))).toEqual([
      'invalid_decimal',
      1,
      'price',
    ])
    const infVol = { ...cols, price: new Float64Array([1, 1]), volume: new Float64Array([1, Number.POSITIVE_INFINITY]) }
    expect(code(() => footprintProfiles(infVol, { timeframe: '1h', tickSize: 1, sessions: ['MAINSESSION'] }))[2]).toBe(
      'volume',
    )
    expect(
      code(() =>
        footprintProfiles({ ...infVol, session: new Uint8Array([0, 0]) }, { timeframe: '1h', tickSize: 1 }),
      )[2],
    ).toBe('volume')
  })
  it('rejects bad records naming the index and field', () => {
    const opts = { timeframe: '1h' as const, tickSize: 1 }
    expect(code(() => footprintProfiles([tr(START, 1, 1), tr(START, 'x', 1)], opts))).toEqual([
      'invalid_decimal',
      1,
      'price',
    ])
    expect(code(() => footprintProfiles([tr(START, 1, 1), tr(START, 1, 1), tr(START, 1, -1)], opts))).toEqual([
      'invalid_volume',
      2,
      'volume',
    ])
    expect(code(() => footprintProfiles([tr(Number.NaN, 1, 1)], opts))).toEqual(['invalid_time', 0, 'time'])
    expect(code(() => footprintProfiles([{ ...tr(START, 1, 1), side: 'up' as never }], opts))).toEqual([
      'invalid_side',
      0,
      'side',
    ])
    const cols = {
      time: new Float64Array([START, START]),
      price: new Float64Array([1, 1]),
      volume: new Float64Array([1, 1]),
      side: new Uint8Array([1, 0]),
    }
    expect(code(() => footprintProfiles(cols, opts))).toEqual(['invalid_side', 1, 'side'])
  })
})
