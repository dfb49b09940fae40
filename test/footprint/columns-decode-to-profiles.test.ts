// footprintColumnsFromTrades gives the profiles footprintProfiles gives, as columns: decoded (row x
// rowSizeValue for prices, the shortest form of each volume double), they are exactly those profiles, for
// objects, one column batch and chunked batches, on generated and market-shaped trades; a sum no double
// carries is refused as `inexact` exactly when a profile's decimal has no exact double.
import Big from 'big.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import {
  footprintColumnsFromTrades,
  footprintProfiles,
  type FootprintColumnOptions,
  type FootprintColumns,
  type FootprintProfile,
} from '../../src/footprint/index.js'
import { sampleMarketTrades } from '../../src/sample/index.js'
import type { Trade, TradeColumns } from '../../src/trades/index.js'
import { exactNumber, fpTrades, START, TICKS, toColumns } from './arbitraries.js'

/** The decimal a volume double stands for (its shortest form, without an exponent). */
const dec = (x: number): string => new Big(x).toFixed()

/** The columns read back into the fields footprintProfiles prints (grid decimals for row prices). */
function decode(c: FootprintColumns): unknown[] {
  const decimals = Math.max(
    ...[c.tickSize, c.rowSizeValue].map((s) => (s.includes('.') ? s.length - s.indexOf('.') - 1 : 0)),
  )
  const price = (row: number) => new Big(row).times(c.rowSizeValue).toFixed(decimals)
  const out: unknown[] = []
  for (let i = 0; i < c.time.length; i++) {
    const rows: unknown[] = []
    for (let r = c.rowStart[i] as number; r < (c.rowStart[i + 1] as number); r++) {
      rows.push([
        price(c.rows.row[r] as number),
        dec(c.rows.volumeBuy[r] as number),
        dec(c.rows.volumeSell[r] as number),
        c.rows.tradesCountBuy[r],
        c.rows.tradesCountSell[r],
      ])
    }
    const p: Record<string, unknown> = {
      time: c.time[i],
      end: c.end[i],
      rowSize: c.rowSize,
      rowSizeValue: c.rowSizeValue,
      tickSize: c.tickSize,
      rows,
    }
    p.volumeBuy = dec(c.volumeBuy[i] as number)
    p.volumeSell = dec(c.volumeSell[i] as number)
    p.tradesCountBuy = c.tradesCountBuy[i]
    p.tradesCountSell = c.tradesCountSell[i]
    p.volumePoc = price(c.volumePocRow[i] as number)
    if (i === 0 && c.profileStart !== undefined) p.profileStart = c.profileStart
    if (c.sessionType !== undefined) p.sessionType = c.sessionType
    out.push(p)
  }
  return out
}

/** The same fields of the profiles. */
function fields(ps: FootprintProfile[]): unknown[] {
  return ps.map((p) => {
    const q: Record<string, unknown> = {
      time: p.time,
      end: p.end,
      rowSize: p.rowSize,
      rowSizeValue: p.rowSizeValue,
      tickSize: p.tickSize,
      rows: p.rows,
    }
    q.volumeBuy = p.volumeBuy
    q.volumeSell = p.volumeSell
    q.tradesCountBuy = p.tradesCountBuy
    q.tradesCountSell = p.tradesCountSell
    q.volumePoc = p.volumePoc
    if (p.profileStart !== undefined) q.profileStart = p.profileStart
    if (p.sessionType !== undefined) q.sessionType = p.sessionType
    return q
  })
}

/** A profile decimal no double holds exactly (the columns must then refuse). */
const hasInexact = (ps: FootprintProfile[]): boolean =>
  ps.some((p) =>
    [p.volumeBuy, p.volumeSell, ...p.rows.flatMap((r) => [r[1], r[2]])].some((v) => exactNumber(v) === undefined),
  )

/** footprintColumnsFromTrades agrees with footprintProfiles on `input` (decoded equal, or both sides inexact). */
function agrees(input: Trade[] | TradeColumns | TradeColumns[], opts: FootprintColumnOptions): void {
  const want = footprintProfiles(input, opts)
  let got: FootprintColumns | undefined
  try {
    got = footprintColumnsFromTrades(input, opts)
  } catch (e) {
    expect(e).toBeInstanceOf(MarketDataError)
    expect((e as MarketDataError).code).toBe('inexact')
    expect(hasInexact(want)).toBe(true)
    return
  }
  expect(decode(got)).toEqual(fields(want))
  expect(got.rowStart.length).toBe(got.time.length + 1)
}

/** Columns cut into batches at the given cut points. */
function chunks(c: TradeColumns, cuts: number[]): TradeColumns[] {
  const n = c.time.length
  const at = [0, ...cuts.map((x) => Math.floor(x * n)).sort((a, b) => a - b), n]
  const out: TradeColumns[] = []
  for (let i = 0; i + 1 < at.length; i++) {
    const [a, b] = [at[i] as number, at[i + 1] as number]
    const piece: TradeColumns = {
      time: c.time.subarray(a, b),
      price: c.price.subarray(a, b),
      volume: c.volume.subarray(a, b),
      side: c.side.subarray(a, b),
    }
    if (c.session !== undefined) piece.session = c.session.subarray(a, b)
    out.push(piece)
  }
  return out
}

const optsArb = (tick: string) =>
  fc
    .record(
      {
        timeframe: fc.constantFrom('1m', '5m', '1h', '1d'),
        rowSize: fc.integer({ min: 1, max: 5 }),
        sessions: fc.constantFrom(undefined, ['MAINSESSION' as const], ['PRE_MARKET' as const, 'POST_MARKET' as const]),
        from: fc.constantFrom(undefined, START + 90_000),
      },
      { requiredKeys: ['timeframe'] },
    )
    .map((o) => {
      const r: FootprintColumnOptions = { timeframe: o.timeframe, tickSize: tick }
      if (o.rowSize !== undefined) r.rowSize = o.rowSize
      if (o.sessions !== undefined) r.sessions = o.sessions
      if (o.from !== undefined) r.from = o.from
      return r
    })

describe('footprintColumnsFromTrades decodes to footprintProfiles', () => {
  it('for generated trades (ticks, negative and off-grid prices, 0..8-decimal volumes, sessions, sides) as objects, columns and chunked columns', () => {
    const arb = fc
      .constantFrom(...TICKS)
      .chain((tick) =>
        fc.tuple(
          fpTrades({ tick, maxLength: 60, offGrid: true }),
          optsArb(tick),
          fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
        ),
      )
    fc.assert(
      fc.property(arb, ([trades, opts, cuts]) => {
        agrees(trades, opts)
        const c = toColumns(trades)
        agrees(c, opts)
        agrees(chunks(c, cuts), opts)
      }),
      { numRuns: 300 },
    )
  })

  it('for busy and thin market trades, thin (a trade a bucket) and busy buckets, one batch or chunked', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e6 }),
        fc.constantFrom(200, 3000, 20000),
        fc.constantFrom('1m', '5m', '1h'),
        fc.constantFrom<'busy-crypto' | 'thin-altcoin'>('busy-crypto', 'thin-altcoin'),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 3 }),
        (seed, n, timeframe, market, cuts) => {
          const c = sampleMarketTrades(market, { seed, trades: n })
          const opts = { timeframe, tickSize: market === 'thin-altcoin' ? '0.000001' : '0.01' }
          agrees(c, opts)
          agrees(chunks(c, cuts), opts)
        },
      ),
      { numRuns: 12 },
    )
  })

  it('refuses a sum no double carries as inexact, naming the field', () => {
    const t = Date.UTC(2026, 4, 29, 10)
    const trades: Trade[] = [
      { time: t, price: '5000', volume: '12345678901.2345678', side: 'buy' },
      { time: t + 1, price: '5000', volume: '1', side: 'sell' },
    ]
    const e = (() => {
      try {
        footprintColumnsFromTrades(trades, { timeframe: '1h', tickSize: '0.25' })
      } catch (x) {
        return x
      }
    })() as MarketDataError
    expect(e).toBeInstanceOf(MarketDataError)
    expect(e.code).toBe('inexact')
    expect(e.field).toBe('volumeBuy')
    expect(footprintProfiles(trades, { timeframe: '1h', tickSize: '0.25' })[0]?.volumeBuy).toBe('12345678901.2345678')
  })

  it('refuses the analytics option (analytics are strings; footprintProfiles has them)', () => {
    expect(() =>
      footprintColumnsFromTrades([], { timeframe: '1h', tickSize: '0.25', analytics: true } as never),
    ).toThrow(/analytics/)
  })
})
