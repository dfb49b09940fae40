import Big from 'big.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import { sampleTradeBatches, sampleTradeObjects, sampleTrades } from '../../src/sample/index.js'
import type { TradeColumns } from '../../src/trades/index.js'

const formatters = new Map<string, Intl.DateTimeFormat>()
/** Local calendar date and wall-clock minutes of an epoch ms in a zone (Intl, test-side only). */
function local(ms: number, timeZone: string): { date: string; minutes: number } {
  let f = formatters.get(timeZone)
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
    formatters.set(timeZone, f)
  }
  const v: Record<string, string> = {}
  for (const p of f.formatToParts(ms)) v[p.type] = p.value
  return { date: `${v.year}-${v.month}-${v.day}`, minutes: Number(v.hour) * 60 + Number(v.minute) }
}

function concat(batches: TradeColumns[]): TradeColumns {
  const n = batches.reduce((s, b) => s + b.time.length, 0)
  const out = {
    time: new Float64Array(n),
    price: new Float64Array(n),
    volume: new Float64Array(n),
    side: new Uint8Array(n),
    session: new Uint8Array(n),
  }
  let at = 0
  for (const b of batches) {
    out.time.set(b.time, at)
    out.price.set(b.price, at)
    out.volume.set(b.volume, at)
    out.side.set(b.side, at)
    out.session.set(b.session!, at)
    at += b.time.length
  }
  return out
}

/** First differing column and index, or undefined when equal (faster than toEqual on large typed arrays). */
function diff(a: TradeColumns, b: TradeColumns): string | undefined {
  for (const k of ['time', 'price', 'volume', 'side', 'session'] as const) {
    const x = a[k]!
    const y = b[k]!
    if (x.length !== y.length) return `${k}.length`
    for (let i = 0; i < x.length; i++) if (!Object.is(x[i], y[i])) return `${k}[${i}]`
  }
  return undefined
}

const SESSION_WINDOWS: Record<number, [number, number]> = {
  1: [4 * 60, 9 * 60 + 30],
  0: [9 * 60 + 30, 16 * 60],
  2: [16 * 60, 20 * 60],
}

describe('sampleTrades', () => {
  it('gives the same data for the same seed and options, and different data for another seed', () => {
    const a = sampleTrades({ seed: 42, tradesPerDay: 5_000, days: 2 })
    const b = sampleTrades({ seed: 42, tradesPerDay: 5_000, days: 2 })
    const c = sampleTrades({ seed: 43, tradesPerDay: 5_000, days: 2 })
    expect(diff(a, b)).toBeUndefined()
    expect(a.time.length).toBe(10_000)
    expect(Array.from(a.price)).not.toEqual(Array.from(c.price))
  })

  it('has the requested length, non-decreasing integer times, sides 1|2 and positive volumes', () => {
    const t = sampleTrades({ seed: 3, tradesPerDay: 20_000, days: 3 })
    expect(t.time.length).toBe(60_000)
    for (let i = 0; i < t.time.length; i++) {
      if (!Number.isInteger(t.time[i])) throw new Error(`time not integer ms at ${i}`)
      if (i > 0 && t.time[i]! < t.time[i - 1]!) throw new Error(`time decreases at ${i}`)
      if (t.side[i] !== 1 && t.side[i] !== 2) throw new Error(`bad side at ${i}`)
      if (!(t.volume[i]! > 0) || !Number.isInteger(t.volume[i])) throw new Error(`bad volume at ${i}`)
    }
  })

  it('puts every trade inside its session hours, in the zone, one trading day per calendar day', () => {
    for (const timeZone of ['America/New_York', 'Europe/Berlin', 'Asia/Tokyo']) {
      // 2026-03-07 .. 03-09 spans the US DST change; 2026-03-28 .. 30 the EU one
      for (const start of [Date.UTC(2026, 2, 7), Date.UTC(2026, 2, 28)]) {
        const t = sampleTrades({ seed: 5, tradesPerDay: 3_000, days: 3, start, timeZone })
        const counts = [0, 0, 0]
        for (let i = 0; i < t.time.length; i++) {
          const s = t.session![i]!
          counts[s]!++
          const [lo, hi] = SESSION_WINDOWS[s]!
          const { date, minutes } = local(t.time[i]!, timeZone)
          if (minutes < lo || minutes >= hi)
            throw new Error(`${timeZone}: trade ${i} of session ${s} at local minute ${minutes}`)
          const day = Math.floor(i / 3_000)
          if (date !== new Date(start + day * 86_400_000).toISOString().slice(0, 10))
            throw new Error(`${timeZone}: trade ${i} on ${date}`)
        }
        // 8% pre-market, 7% post-market, the rest main
        expect(counts).toEqual([3 * 2_550, 3 * 240, 3 * 210])
      }
    }
  })

  it('uses sessions in time order within each day: pre-market, main, post-market', () => {
    const t = sampleTrades({ seed: 9, tradesPerDay: 1_000, days: 2 })
    const order = [1, 0, 2]
    let last = 0
    for (let i = 0; i < t.time.length; i++) {
      if (i % 1_000 === 0) last = 0
      const rank = order.indexOf(t.session![i]!)
      expect(rank).toBeGreaterThanOrEqual(last)
      last = rank
    }
  })

  it('prices are exact multiples of the tick: the shortest decimal form divided by the tick is an integer (big.js)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('0.25', '0.01', '0.00001', '5', '0.1', '0.0005', '12.5'),
        fc.constantFrom('5000', '1.2345', '0.00042', '100', '77777.7'),
        fc.integer({ min: 0, max: 1000 }),
        (tickSize, startPrice, seed) => {
          const t = sampleTrades({ seed, tickSize, startPrice, tradesPerDay: 400 })
          const tick = new Big(tickSize)
          for (let i = 0; i < t.price.length; i++) {
            const p = new Big(String(t.price[i]))
            const q = p.div(tick)
            if (!q.eq(q.round(0, Big.roundDown)) || p.lte(0))
              throw new Error(`price ${String(t.price[i])} not on tick ${tickSize}`)
          }
        },
      ),
      { numRuns: 40 },
    )
  })

  it('starts at the start price floored to the grid and moves one tick at a time', () => {
    const t = sampleTrades({ seed: 1, startPrice: '5000.3', tickSize: '0.25', tradesPerDay: 2_000 })
    const ticks = Array.from(t.price, (p) => new Big(String(p)).div('0.25').toNumber())
    expect(Math.abs(ticks[0]! - 20001)).toBeLessThanOrEqual(1)
    for (let i = 1; i < ticks.length; i++) expect(Math.abs(ticks[i]! - ticks[i - 1]!)).toBeLessThanOrEqual(1)
  })

  it('volumeDecimals 8 gives volumes k / 1e8 with k a positive integer, some with 8 decimals', () => {
    const t = sampleTrades({ seed: 11, volumeDecimals: 8, tradesPerDay: 2_000 })
    let eight = 0
    for (let i = 0; i < t.volume.length; i++) {
      const v = new Big(String(t.volume[i]))
      const k = v.times(1e8)
      expect(k.eq(k.round(0, Big.roundDown))).toBe(true)
      expect(v.gt(0)).toBe(true)
      if (v.toFixed().split('.')[1]?.length === 8) eight++
    }
    expect(eight).toBeGreaterThan(1_000)
  })

  it('trend days move further from the open than balanced days (main session, averaged over seeds)', () => {
    let trend = 0
    let balanced = 0
    for (let seed = 0; seed < 12; seed++) {
      for (const kind of ['trend', 'balanced'] as const) {
        const t = sampleTrades({ seed, dayKinds: [kind], tradesPerDay: 20_000 })
        let first = NaN
        let lastP = NaN
        for (let i = 0; i < t.price.length; i++) {
          if (t.session![i] !== 0) continue
          if (Number.isNaN(first)) first = t.price[i]!
          lastP = t.price[i]!
        }
        if (kind === 'trend') trend += Math.abs(lastP - first)
        else balanced += Math.abs(lastP - first)
      }
    }
    expect(trend).toBeGreaterThan(balanced)
  })

  it('has both aggressor sides and bursts (some trades share a millisecond or come within 10 ms)', () => {
    const t = sampleTrades({ seed: 2, tradesPerDay: 50_000 })
    let buys = 0
    let close = 0
    for (let i = 0; i < t.side.length; i++) {
      if (t.side[i] === 1) buys++
      if (i > 0 && t.time[i]! - t.time[i - 1]! <= 10) close++
    }
    expect(buys / t.side.length).toBeGreaterThan(0.3)
    expect(buys / t.side.length).toBeLessThan(0.7)
    expect(close).toBeGreaterThan(500)
  })

  it('zero days or zero trades give empty columns', () => {
    expect(sampleTrades({ days: 0 }).time.length).toBe(0)
    expect(sampleTrades({ tradesPerDay: 0, days: 3 }).time.length).toBe(0)
    expect(sampleTrades({ tradesPerDay: 1 }).time.length).toBe(1)
  })

  it('rejects bad options with a MarketDataError naming the option', () => {
    const bad: [object, string][] = [
      [{ tickSize: '0' }, 'tickSize'],
      [{ tickSize: 'abc' }, 'tickSize'],
      [{ startPrice: '-1' }, 'startPrice'],
      [{ days: -1 }, 'days'],
      [{ tradesPerDay: 1.5 }, 'tradesPerDay'],
      [{ volumeDecimals: 3 }, 'volumeDecimals'],
      [{ timeZone: 'Mars/Olympus' }, 'timeZone'],
      [{ dayKinds: [] }, 'dayKinds'],
      [{ start: NaN }, 'start'],
    ]
    for (const [opts, field] of bad) {
      try {
        sampleTrades(opts)
        throw new Error(`accepted ${JSON.stringify(opts)}`)
      } catch (e) {
        expect(e).toBeInstanceOf(MarketDataError)
        expect((e as MarketDataError).field).toBe(field)
        expect((e as MarketDataError).message).toContain(field)
      }
    }
  })
})

describe('sampleTradeBatches', () => {
  it('concatenated batches equal sampleTrades for any batch size', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 0, max: 99 }), (batchSize, seed) => {
        const opts = { seed, days: 2, tradesPerDay: 3_001, volumeDecimals: 8 as const }
        const batches = [...sampleTradeBatches({ ...opts, batchSize })]
        for (let i = 0; i < batches.length - 1; i++) expect(batches[i]!.time.length).toBe(batchSize)
        expect(diff(concat(batches), sampleTrades(opts))).toBeUndefined()
      }),
      { numRuns: 15 },
    )
  })

  it('reuse: true writes every batch into the same arrays and gives the same trades', () => {
    const opts = { seed: 4, days: 1, tradesPerDay: 10_000 }
    const copies: TradeColumns[] = []
    let first: Float64Array | undefined
    for (const b of sampleTradeBatches({ ...opts, batchSize: 3_000, reuse: true })) {
      first ??= b.time
      expect(b.time.buffer).toBe(first.buffer)
      copies.push({
        time: b.time.slice(),
        price: b.price.slice(),
        volume: b.volume.slice(),
        side: b.side.slice(),
        session: b.session!.slice(),
      })
    }
    expect(copies.map((c) => c.time.length)).toEqual([3_000, 3_000, 3_000, 1_000])
    expect(diff(concat(copies), sampleTrades(opts))).toBeUndefined()
  })

  it('rejects a bad batchSize', () => {
    expect(() => [...sampleTradeBatches({ batchSize: 0 })]).toThrow(/batchSize/)
  })

  it('yields nothing for an empty sample', () => {
    expect([...sampleTradeBatches({ days: 0 })]).toEqual([])
  })
})

describe('sampleTradeObjects', () => {
  it('holds the same trades as decimal strings: grid-decimals prices, minimal volumes, session names', () => {
    const opts = { seed: 8, tradesPerDay: 1_000, volumeDecimals: 8 as const }
    const cols = sampleTrades(opts)
    const objs = sampleTradeObjects(opts)
    expect(objs.length).toBe(cols.time.length)
    const names = ['MAINSESSION', 'PRE_MARKET', 'POST_MARKET']
    for (let i = 0; i < objs.length; i++) {
      const o = objs[i]!
      expect(o.time).toBe(cols.time[i])
      expect(typeof o.price).toBe('string')
      expect(o.price).toMatch(/^\d+\.\d\d$/)
      expect(new Big(o.price as string).eq(new Big(String(cols.price[i])))).toBe(true)
      expect(new Big(o.volume as string).eq(new Big(String(cols.volume[i])))).toBe(true)
      expect(o.volume).not.toMatch(/e|\.$|\.\d*0$/)
      expect(o.side).toBe(cols.side[i] === 1 ? 'buy' : 'sell')
      expect(o.session).toBe(names[cols.session![i]!])
    }
  })
})
