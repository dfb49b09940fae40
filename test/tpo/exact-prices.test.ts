// One trade stream feeds candles, footprint and TPO: a price a double cannot hold (`973063183.99440743`)
// is placed exactly by TPO as by the footprint, and a price whose row does not fit the grid is refused
// by both with the same rule, at the same record.
import Big from 'big.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { candlesFromTrades } from '../../src/candles/index.js'
import { MarketDataError } from '../../src/errors.js'
import { footprintProfiles } from '../../src/footprint/index.js'
import { createTpoAggregator, tpoProfiles } from '../../src/tpo/index.js'
import type { Trade } from '../../src/trades/index.js'
import { pick, referenceProfiles, type RefOptions } from './reference.js'

Big.NE = -100
Big.PE = 100

const T0 = Date.UTC(2026, 5, 1, 13)

/** A price near `center`: whole ticks away, plus digits finer than 10^-8 (often more than a double keeps). */
const priceArb = (center: string, tick: string) =>
  fc
    .record({
      ticks: fc.integer({ min: -300, max: 300 }),
      fine: fc.bigInt({ min: 0n, max: 10n ** 12n }),
      fineScale: fc.integer({ min: 9, max: 20 }),
      plain: fc.boolean(),
      asNumber: fc.boolean(),
    })
    .map((r) => {
      let p = new Big(center).plus(new Big(tick).times(r.ticks))
      // below 10^-8, so under one tick of every grid here (a profile spans at most a few hundred rows)
      if (!r.plain)
        p = p.plus(new Big((r.fine % 10n ** BigInt(r.fineScale - 8)).toString()).div(new Big(10).pow(r.fineScale)))
      const text = p.toFixed()
      // a number only where it carries the decimal exactly (its shortest form is the same decimal)
      return r.asNumber && new Big(String(Number(text))).eq(p) ? Number(text) : text
    })

const caseArb = fc
  .record({
    center: fc.constantFrom('5000', '973063183.99440743', '0.0014', '-12.5'),
    tick: fc.constantFrom('0.01', '0.25', '0.00000001', '1'),
    rowSize: fc.integer({ min: 1, max: 4 }),
  })
  .chain((o) =>
    fc.tuple(
      fc.constant(o),
      fc.array(
        fc.record({
          gap: fc.integer({ min: 0, max: 2 * 3_600_000 }),
          price: fc.oneof(
            { weight: 12, arbitrary: priceArb(o.center, o.tick) },
            { weight: 1, arbitrary: fc.constant(`1${'0'.repeat(30)}.5`) },
          ),
          volume: fc.constantFrom('1', '0.5', '973063183.99440743', 2),
          sell: fc.boolean(),
        }),
        { minLength: 1, maxLength: 40 },
      ),
    ),
  )
  .map(([o, rows]) => {
    let t = T0
    const trades = rows.map((r): Trade => {
      t += r.gap
      return { time: t, price: r.price, volume: r.volume, side: r.sell ? 'sell' : 'buy' }
    })
    return { o, trades }
  })

type Outcome<T> = { ok: true; value: T } | { ok: false; error: MarketDataError }
function attempt<T>(f: () => T): Outcome<T> {
  try {
    return { ok: true, value: f() }
  } catch (e) {
    if (!(e instanceof MarketDataError)) throw e
    return { ok: false, error: e }
  }
}

/** The message with its price written in minimal form (the footprint writes it at the stream's finest scale so far). */
const normalPrice = (m: string) => m.replace(/price: (\S+) is/, (_, x: string) => `price: ${new Big(x).toFixed()} is`)

describe('one trade stream feeds candles, footprint and TPO (prices a double cannot hold)', () => {
  it('a price of 17 significant digits is placed exactly: rows, extremes, open and close', () => {
    const trades: Trade[] = [
      { time: T0, price: '973063183.99440743', volume: '1', side: 'buy' },
      { time: T0 + 60_000, price: 973063183.995, volume: '2', side: 'sell' },
      { time: T0 + 120_000, price: '973063183.98440743', volume: '3', side: 'buy' },
    ]
    const [p] = tpoProfiles(trades, { timeframe: '1d', tickSize: '0.01' })
    expect(p?.open).toBe('973063183.99440743')
    expect(p?.close).toBe('973063183.98440743')
    expect(p?.high).toBe('973063183.995')
    expect(p?.low).toBe('973063183.98440743')
    expect(p?.rows.map((r) => [r[0], r[2], r[3]])).toEqual([
      ['973063183.98', '3', '0'],
      ['973063183.99', '1', '2'],
    ])
    expect(footprintProfiles(trades, { timeframe: '1d', tickSize: '0.01' })[0]?.high).toBe('973063183.995')
  })

  it('the double nearest an exact price sorts on the right side of it (high and low stay exact)', () => {
    // Number('0.30000000000000004441') is 0.30000000000000004, whose shortest form is above the decimal
    const x = '0.30000000000000004441'
    const trades: Trade[] = [
      { time: T0, price: x, volume: '1', side: 'buy' },
      { time: T0 + 1, price: 0.30000000000000004, volume: '1', side: 'buy' },
      { time: T0 + 2, price: '0.30000000000000004001', volume: '1', side: 'buy' },
    ]
    const [p] = tpoProfiles(trades, { timeframe: '1d', tickSize: '0.01' })
    expect(p?.high).toBe('0.30000000000000004441')
    expect(p?.low).toBe('0.30000000000000004')
    expect(p?.open).toBe(x)
    expect(p?.close).toBe('0.30000000000000004001')
  })

  it('random streams: candles accept; footprint and TPO both accept or refuse the same record by the same rule; TPO equals big.js, batch, streaming and restored', () => {
    fc.assert(
      fc.property(caseArb, fc.nat(), ({ o, trades }, cut) => {
        const opts: RefOptions = { timeframe: '1d', tickSize: o.tick, rowSize: o.rowSize }
        const candles = attempt(() => candlesFromTrades(trades, { timeframe: '1d' }))
        const fp = attempt(() => footprintProfiles(trades, { timeframe: '1d', tickSize: o.tick, rowSize: o.rowSize }))
        const tpo = attempt(() => tpoProfiles(trades, opts))
        // candles have no price grid: every finite decimal is a price
        expect(candles.ok).toBe(true)
        expect(tpo.ok).toBe(fp.ok)
        if (!fp.ok || !tpo.ok) {
          const [a, b] = [(fp as { error: MarketDataError }).error, (tpo as { error: MarketDataError }).error]
          expect({ code: b.code, index: b.index, field: b.field }).toEqual({
            code: a.code,
            index: a.index,
            field: a.field,
          })
          expect(b.field).toBe('price')
          expect(normalPrice(b.message)).toBe(normalPrice(a.message))
          return
        }
        const want = referenceProfiles(trades, opts)
        expect(tpo.value.map(pick)).toEqual(want)
        const one = createTpoAggregator(opts)
        for (const t of trades) one.add(t)
        expect(one.flush().map(pick)).toEqual(want)
        // checkpoint -> JSON -> restore -> rest of the stream equals the uninterrupted run
        const k = cut % (trades.length + 1)
        const first = createTpoAggregator(opts)
        first.addTrades(trades, 0, k)
        const restore = JSON.parse(JSON.stringify(first.checkpoint()))
        const rest = createTpoAggregator({ ...opts, restore })
        rest.addTrades(trades, k)
        expect(rest.flush().map(pick)).toEqual(want)
      }),
      { numRuns: 150 },
    )
  })
})
