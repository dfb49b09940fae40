import Big from 'big.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readTrades } from '../../src/io/index.js'
import { candlesFromTrades, createCandleAggregator, resampleCandles, validateCandle } from '../../src/candles/index.js'
import { exactDouble, formatUnits, parseDecimal } from '../../src/decimal/index.js'
import { fromPartnerDecimal } from '../../src/partner/index.js'
import { parseDataDecimal } from '../../src/decimal/parse.js'
import { footprintProfiles } from '../../src/footprint/index.js'
import { parseHistoryQuery } from '../../src/rules/index.js'
import { tpoFromCandles, tpoProfiles } from '../../src/tpo/index.js'
import { tradesToColumns, validateTrade, type Trade } from '../../src/trades/index.js'

Big.NE = -500
Big.PE = 500

/**
 * `s` (a plain decimal) written in exponent notation with the point moved `k0` places (at least -scale,
 * so the mantissa is plain); `upper` picks `E`, `plus` writes `+` before a positive exponent.
 */
function exponentForm(s: string, k0: number, upper: boolean, plus: boolean): string {
  const d = parseDecimal(s)
  if (!d.ok) throw new Error(s)
  const k = Math.max(k0, -d.value.scale)
  const m = formatUnits(d.value.units, d.value.scale + k)
  return `${m}${upper ? 'E' : 'e'}${k < 0 ? '-' : plus ? '+' : ''}${Math.abs(k)}`
}

const plainArb = fc
  .tuple(
    fc.boolean(),
    fc.stringMatching(/^[0-9]{1,20}$/),
    fc.option(fc.stringMatching(/^[0-9]{1,12}$/), { nil: undefined }),
  )
  .map(([neg, i, f]) => `${neg ? '-' : ''}${i}${f === undefined ? '' : `.${f}`}`)

describe('parseDataDecimal reads exponent notation exactly', () => {
  it.each([
    ['9.417e-05', '0.00009417'],
    ['1E+3', '1000'],
    ['1e3', '1000'],
    ['-2.5e-3', '-0.0025'],
    ['12E-2', '0.12'],
    ['1.50e1', '15'],
    ['0e7', '0'],
    ['-0E-3', '0'],
    ['5e0', '5'],
    ['1e-400', `0.${'0'.repeat(399)}1`],
  ])('%s is %s', (text, plain) => {
    const r = parseDataDecimal(text)
    expect(r.ok && formatUnits(r.value.units, r.value.scale)).toBe(plain)
  })

  it('equals big.js on any decimal written with any exponent, either case and sign style', () => {
    fc.assert(
      fc.property(plainArb, fc.integer({ min: -30, max: 30 }), fc.boolean(), fc.boolean(), (s, k0, upper, plus) => {
        const e = exponentForm(s, k0, upper, plus)
        const r = parseDataDecimal(e)
        const p = parseDecimal(s)
        expect(r.ok && p.ok).toBe(true)
        if (!r.ok || !p.ok) return
        expect(r.value).toEqual(p.value)
        expect(formatUnits(r.value.units, r.value.scale)).toBe(
          new Big(e).toFixed() === '-0' ? '0' : new Big(e).toFixed(),
        )
      }),
    )
  })

  it.each([
    ['1e', 'optionally followed by an exponent'],
    ['e5', 'optionally followed by an exponent'],
    ['1.e5', 'optionally followed by an exponent'],
    ['.5e1', 'optionally followed by an exponent'],
    ['1e+-3', 'optionally followed by an exponent'],
    ['1e2.5', 'optionally followed by an exponent'],
    ['1e401', 'out of range'],
    ['1e0000401', 'out of range'],
    ['+1e3', 'leading "+"'],
    ['1 e3', 'space'],
    ['1,5e3', '","'],
  ])('refuses %j saying why (%s)', (text, why) => {
    const r = parseDataDecimal(text)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error).toContain(why)
  })

  it('exactDouble takes exponent strings a double carries, and refuses the others', () => {
    expect(exactDouble('9.417e-05')).toBe(0.00009417)
    expect(exactDouble('1E+3')).toBe(1000)
    expect(exactDouble('1.00000000000000001e3')).toBeNaN()
    expect(exactDouble('1e999')).toBeNaN()
  })
})

describe('parameters stay strict: exponent notation is refused with the reason', () => {
  const why = 'exponent notation is accepted in data records only'
  it('parseDecimal (options such as tickSize and rowSizeValue)', () => {
    const r = parseDecimal('1e-2')
    expect(!r.ok && r.error).toContain(why)
    expect(() => footprintProfiles([], { timeframe: '1h', tickSize: '1e-2' })).toThrow(why)
    expect(() => footprintProfiles([], { timeframe: '1h', tickSize: '0.01', rowSizeValue: '1e-1' })).toThrow(why)
    expect(() => tpoProfiles([], { timeframe: '1d', tickSize: '2.5E-1' })).toThrow(why)
  })
  it('query values (rowSizeValue)', () => {
    const r = parseHistoryQuery(
      'footprint',
      { exchange: 'XNAS', symbol: 'AAPL', timeframe: '1h', rowSizeValue: '1e-2' },
      { now: Date.UTC(2026, 5, 10) },
    )
    expect(r.ok).toBe(false)
  })
  it('interface A Decimal', () => {
    expect(fromPartnerDecimal({ value: '1e3', scale: '10' }).ok).toBe(false)
  })
})

describe('one message table for every data entry point', () => {
  it.each(['1e', '1,5', ' 1', '+1', '5.'])(
    '%j gets the same reason from the record validators, the text reader (svc-marketdata/io) and parseDataDecimal',
    (text) => {
      const r = parseDataDecimal(text)
      expect(r.ok).toBe(false)
      if (r.ok) return
      const reason = r.error.slice(r.error.indexOf(': ') + 2)
      const t = validateTrade({ time: 0, price: text, volume: 1, side: 'buy' })
      expect(!t.ok && t.error.message).toContain(reason)
      const c = validateCandle({ time: 0, open: '1', high: '1', low: '1', close: '1', volume: text })
      expect(!c.ok && c.error.message).toContain(reason)
      let row = ''
      try {
        readTrades(`time,price,volume,side\n0,1,${text},buy\n`)
      } catch (e) {
        row = (e as Error).message
      }
      // the CSV reader trims cells first (" 1" is a valid cell there), and a comma splits a cell
      if (text.trim() === text && !text.includes(',')) expect(row).toContain(reason)
    },
  )
})

/** Trades with prices on a 0.01 grid and volumes with up to 10 decimals, in plain form. */
const tradesArb = fc
  .array(
    fc.record({
      gap: fc.integer({ min: 0, max: 40 * 60_000 }),
      p: fc.integer({ min: 1, max: 3_000_000 }),
      v: fc.bigInt({ min: 0n, max: 10n ** 14n }),
      vs: fc.integer({ min: 0, max: 10 }),
      sell: fc.boolean(),
      k: fc.integer({ min: -6, max: 6 }),
      upper: fc.boolean(),
      plus: fc.boolean(),
      which: fc.integer({ min: 0, max: 3 }),
    }),
    { minLength: 1, maxLength: 40 },
  )
  .map((rows) => {
    let t = Date.UTC(2026, 5, 1, 13)
    const plain: Trade[] = []
    const expo: Trade[] = []
    for (const r of rows) {
      t += r.gap
      const price = formatUnits(BigInt(r.p), 2)
      const volume = formatUnits(r.v, r.vs)
      const tr: Trade = { time: t, price, volume, side: r.sell ? 'sell' : 'buy' }
      plain.push(tr)
      // 0: price in exponent form, 1: volume, 2: both, 3: neither
      expo.push({
        ...tr,
        price: r.which === 0 || r.which === 2 ? exponentForm(price, r.k, r.upper, r.plus) : price,
        volume: r.which === 1 || r.which === 2 ? exponentForm(volume, r.k, r.upper, r.plus) : volume,
      })
    }
    return { plain, expo }
  })

describe('a decimal in exponent form gives the same result as its plain form in every aggregator', () => {
  it('candles, candle aggregator, footprint, TPO, columns', () => {
    fc.assert(
      fc.property(tradesArb, ({ plain, expo }) => {
        const same = (f: (t: Trade[]) => unknown) => expect(f(expo)).toEqual(f(plain))
        same((t) => candlesFromTrades(t, { timeframe: '15m' }))
        same((t) => {
          const a = createCandleAggregator({ timeframe: '1h' })
          for (const x of t) a.add(x)
          // finish() closes the open candle (named flush() where the aggregators share one interface)
          const end = a as unknown as { flush?: () => unknown; finish: () => unknown }
          return end.flush !== undefined ? end.flush() : end.finish()
        })
        same((t) => footprintProfiles(t, { timeframe: '1h', tickSize: '0.01', rowSize: 100 }))
        same((t) => tpoProfiles(t, { timeframe: '1d', tickSize: '0.01', rowSize: 1000 }))
        same((t) =>
          tradesToColumns(
            t.filter(
              (x) => exactDouble(x.price) === exactDouble(x.price) && exactDouble(x.volume) === exactDouble(x.volume),
            ),
          ),
        )
      }),
      { numRuns: 60 },
    )
  })

  it('candle inputs: resampling and TPO from candles', () => {
    fc.assert(
      fc.property(tradesArb, ({ plain, expo }) => {
        // 5m candles from the plain trades, then the same candles with their fields in exponent form
        const candles = candlesFromTrades(plain, { timeframe: '5m' })
        const ex = candles.map((c, i) => {
          const e = (s: string, k: number) => exponentForm(s, k, i % 2 === 0, i % 3 === 0)
          return {
            ...c,
            open: e(c.open, 2),
            high: e(c.high, -1),
            low: e(c.low, 3),
            close: e(c.close, 0),
            volume: e(c.volume, -2),
            value: e(c.value as string, 1),
          }
        })
        expect(resampleCandles(ex, { timeframe: '1h', sourceTimeframe: '5m' })).toEqual(
          resampleCandles(candles, { timeframe: '1h', sourceTimeframe: '5m' }),
        )
        expect(tpoFromCandles(ex, { timeframe: '1d', tickSize: '0.01', rowSize: 1000, sourceTimeframe: '5m' })).toEqual(
          tpoFromCandles(candles, { timeframe: '1d', tickSize: '0.01', rowSize: 1000, sourceTimeframe: '5m' }),
        )
        expect(expo.length).toBe(plain.length)
      }),
      { numRuns: 40 },
    )
  })
})
