import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import {
  createFootprintAggregator,
  footprintProfiles,
  footprintProfilesAsync,
  mergeFootprintProfiles,
  type FootprintProfile,
} from '../../src/footprint/index.js'
import { feedTrades, type Trade } from '../../src/trades/index.js'
import { START, fpTrades, shuffled, toColumns } from './arbitraries.js'

const M = 60_000
const tr = (time: number, price: number | string, volume: number | string, side: 'buy' | 'sell' = 'buy'): Trade => ({
  time,
  price,
  volume,
  side,
})

describe('createFootprintAggregator', () => {
  it('advance closes the buckets that ended, in time order; flush the rest', () => {
    const agg = createFootprintAggregator({ timeframe: '1m', tickSize: '0.25' })
    agg.add(tr(START + 2 * M, '10', 1))
    agg.add(tr(START, '10.25', 1))
    agg.add(tr(START + M + 5, '10.5', 2, 'sell'))
    expect(agg.advance(START + M)).toMatchObject([{ time: START, rows: [['10.25', '1', '0', 1, 0]] }])
    expect(agg.watermark).toBe(START + M)
    expect(agg.snapshot().map((p) => p.time)).toEqual([START + M, START + 2 * M])
    expect(agg.advance(START + 2 * M + 1).map((p) => p.time)).toEqual([START + M])
    expect(agg.advance(START).length).toBe(0) // the watermark never moves back
    expect(agg.flush().map((p) => p.time)).toEqual([START + 2 * M])
  })

  it('rejects a late trade for a closed bucket with late_record, naming the time', () => {
    const agg = createFootprintAggregator({ timeframe: '1m', tickSize: 1 })
    agg.add(tr(START, 1, 1))
    agg.advance(START + M)
    let e: unknown
    try {
      agg.add(tr(START + M - 1, 1, 1))
    } catch (x) {
      e = x
    }
    expect(e).toBeInstanceOf(MarketDataError)
    expect(e).toMatchObject({ code: 'late_record', field: 'time' })
    expect(String((e as Error).message)).toMatch(/already closed by advance/)
    // the open bucket still takes trades, also out of order
    agg.add(tr(START + M + 30, 2, 1))
    agg.add(tr(START + M, 1, 1))
    expect(agg.flush()[0]?.rows).toEqual([
      ['1', '1', '0', 1, 0],
      ['2', '1', '0', 1, 0],
    ])
  })

  it('columns in batches with advances = batch over the whole (any batch cut)', () => {
    fc.assert(
      fc.property(
        fpTrades({ tick: '0.01', maxGap: 3 * M }),
        fc.array(fc.integer({ min: 1, max: 10 }), { maxLength: 8 }),
        (trades, sizes) => {
          const cols = toColumns(trades)
          const opts = { timeframe: '5m' as const, tickSize: '0.01', rowSize: 5 }
          const agg = createFootprintAggregator(opts)
          const out: FootprintProfile[] = []
          let at = 0
          for (const k of [...sizes, cols.time.length]) {
            const end = Math.min(cols.time.length, at + k)
            agg.addColumns({
              time: cols.time.subarray(at, end),
              price: cols.price.subarray(at, end),
              volume: cols.volume.subarray(at, end),
              side: cols.side.subarray(at, end),
              session: cols.session?.subarray(at, end),
            })
            if (end > at) out.push(...agg.advance(cols.time[end - 1] as number))
            at = end
          }
          out.push(...agg.flush())
          expect(out).toEqual(footprintProfiles(cols, opts))
        },
      ),
      { numRuns: 60 },
    )
  })

  it('out-of-order trades among open buckets are accepted; results as batch', () => {
    fc.assert(
      fc.property(fpTrades({ tick: '0.25' }), fc.integer(), (trades, seed) => {
        const opts = { timeframe: '15m' as const, tickSize: '0.25' }
        const agg = createFootprintAggregator(opts)
        feedTrades(shuffled(trades, seed), agg)
        expect(agg.flush()).toEqual(footprintProfiles(trades, opts))
      }),
      { numRuns: 40 },
    )
  })

  it('flush closes its buckets for good (a later trade for one is late); snapshots are the partial profiles, and they merge', () => {
    const opts = { timeframe: '1h' as const, tickSize: 1 }
    const agg = createFootprintAggregator(opts)
    agg.add(tr(START, 1, 1))
    const a = agg.snapshot()[0] as FootprintProfile
    agg.add(tr(START + 1, 1, 2, 'sell'))
    const whole = agg.flush()[0] as FootprintProfile
    expect(whole).toEqual(footprintProfiles([tr(START, 1, 1), tr(START + 1, 1, 2, 'sell')], opts)[0])
    expect(
      mergeFootprintProfiles(a, footprintProfiles([tr(START + 1, 1, 2, 'sell')], opts)[0] as FootprintProfile),
    ).toEqual(whole)
    expect(() => agg.add(tr(START + 2, 1, 1))).toThrow(expect.objectContaining({ code: 'late_record' }))
    expect(agg.flush()).toEqual([])
  })

  it('buckets closed by advance hand their arrays to later buckets: every later bucket equals the batch (rows far apart, grown, sparse, spilled)', () => {
    const H = 60 * M
    const opts = { timeframe: '1h' as const, tickSize: '0.25', rowSize: 1 }
    const hours = 14
    const per = 40
    const n = hours * per
    const c = {
      time: new Float64Array(n),
      price: new Float64Array(n),
      volume: new Float64Array(n),
      side: new Uint8Array(n),
    }
    for (let h = 0; h < hours; h++) {
      for (let k = 0; k < per; k++) {
        const i = h * per + k
        c.time[i] = START + h * H + k * 1000
        // hour 3 spans 200 rows (grows past the first capacity), hour 5 a huge range (sparse rows), hour 8 sums past 2^52
        const spread = h === 3 ? (k % 20) * 2.5 : h === 5 && k === 7 ? 1e9 : (k % 4) * 0.25
        c.price[i] = 100 + 37 * (h % 4) + spread
        c.volume[i] = h === 8 ? 2 ** 51 + k : 1 + ((k * 7 + h) % 5)
        c.side[i] = 1 + ((k + h) % 2)
      }
    }
    const agg = createFootprintAggregator(opts)
    const out: FootprintProfile[] = []
    for (let h = 0; h < hours; h++) {
      const part = {
        time: c.time.subarray(h * per, (h + 1) * per),
        price: c.price.subarray(h * per, (h + 1) * per),
        volume: c.volume.subarray(h * per, (h + 1) * per),
        side: c.side.subarray(h * per, (h + 1) * per),
      }
      agg.addColumns(part)
      out.push(...agg.advance(START + (h + 1) * H))
    }
    out.push(...agg.flush())
    expect(out).toEqual(footprintProfiles(c, opts))
  })

  it('columns: a late record is rejected with its index in the batch', () => {
    const agg = createFootprintAggregator({ timeframe: '1m', tickSize: 1 })
    agg.addColumns({
      time: new Float64Array([START, START + M]),
      price: new Float64Array([1, 2]),
      volume: new Float64Array([1, 1]),
      side: new Uint8Array([1, 2]),
    })
    expect(agg.advance(START + M).length).toBe(1)
    const late = {
      time: new Float64Array([START + M + 1, START + 5]),
      price: new Float64Array([1, 1]),
      volume: new Float64Array([1, 1]),
      side: new Uint8Array([1, 1]),
    }
    expect(() => agg.addColumns(late)).toThrow(
      expect.objectContaining({ code: 'late_record', index: 1, field: 'time' }),
    )
  })

  it('footprintProfilesAsync over an async mix of objects and column batches = batch', async () => {
    const trades = fc.sample(fpTrades({ tick: '0.01' }), { numRuns: 1, seed: 7 })[0] as Trade[]
    const half = trades.length >> 1
    async function* source() {
      yield toColumns(trades.slice(0, half))
      for (const t of trades.slice(half)) yield t
    }
    const opts = { timeframe: '1h' as const, tickSize: '0.01' }
    const mixed = [...trades.slice(0, half).filter((t) => toColumns([t]).time.length === 1), ...trades.slice(half)]
    expect(await footprintProfilesAsync(source(), opts)).toEqual(footprintProfiles(mixed, opts))
  })

  it('advance rejects a time that is not a number', () => {
    const agg = createFootprintAggregator({ timeframe: '1h', tickSize: 1 })
    expect(() => agg.advance(Number.NaN)).toThrow(MarketDataError)
    // the same code as the TPO and candle aggregators
    expect(() => agg.advance(Number.NaN)).toThrow(expect.objectContaining({ code: 'invalid_time', field: 'time' }))
  })

  it('scales grow mid-stream (more price and volume decimals) and stay exact', () => {
    const opts = { timeframe: '1h' as const, tickSize: 1 }
    const agg = createFootprintAggregator(opts)
    const trades = [
      tr(START, 5, 3),
      tr(START + 1, '5.5', '0.25'),
      tr(START + 2, '6.125', '0.00000001', 'sell'),
      tr(START + 3, '4', '1'),
    ]
    for (const t of trades) agg.add(t)
    expect(agg.flush()).toEqual(footprintProfiles(trades, opts))
    expect(footprintProfiles(trades, opts)[0]).toMatchObject({
      high: '6.125',
      low: '4',
      volumeBuy: '4.25',
      volumeSell: '0.00000001',
    })
  })
})
