import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { volumeNodes, type VolumeNodeOptions } from '../../src/analytics/index.js'
import type { MarketDataError } from '../../src/errors.js'
import { footprintProfiles, type FootprintProfile } from '../../src/footprint/index.js'
import type { Trade } from '../../src/trades/index.js'
import { candleDay, day, randomDay, randomTrades, T } from './build.js'

/** A footprint whose rows 100..108 hold these volumes (one buy trade each). */
function histogram(volumes: readonly number[], base = 100): FootprintProfile {
  const trades: Trade[] = volumes.map((v, i) => ({ time: T(10) + i, price: base + i, volume: v, side: 'buy' }))
  return footprintProfiles(trades, { timeframe: '1d', tickSize: 1 })[0] as FootprintProfile
}

const TWO_PEAKS = [1, 5, 9, 5, 1, 4, 8, 4, 1]

describe('volumeNodes: hand-worked histograms', () => {
  it('no smoothing: peaks 9 and 8, the valley 1 between them, with prominence', () => {
    const r = volumeNodes(histogram(TWO_PEAKS), { smoothing: 1, minProminence: 0 })
    // 9: bases 0 on both sides (beyond the profile) -> 9/9; 8: left base 1 (walk stops at 9) -> 7/9
    expect(r.highVolumeNodes).toEqual([
      { price: '102', low: '102', high: '102', value: '9', prominence: '100' },
      { price: '106', low: '106', high: '106', value: '8', prominence: '77.77' },
    ])
    // 1 at 104: walls 9 (left) and 8 (right) -> depth 8 - 1 = 7 -> 7/9
    expect(r.lowVolumeNodes).toEqual([{ price: '104', low: '104', high: '104', value: '1', prominence: '77.77' }])
  })
  it('smoothing 3: window sums 6 15 19 15 10 13 16 13 5 keep the same nodes with their own prominence', () => {
    const r = volumeNodes(histogram(TWO_PEAKS), { minProminence: 0 })
    expect(r.smoothing).toBe(3)
    // peaks 19 (prominence 19 - 0) and 16 (16 - 10 = 6 -> 31.57%); valley 10 (min(19, 16) - 10 = 6)
    expect(r.highVolumeNodes.map((n) => [n.price, n.prominence])).toEqual([
      ['102', '100'],
      ['106', '31.57'],
    ])
    expect(r.lowVolumeNodes.map((n) => [n.price, n.prominence])).toEqual([['104', '31.57']])
  })
  it('minProminence drops the weaker nodes (default 10%)', () => {
    const p = histogram(TWO_PEAKS)
    expect(volumeNodes(p, { smoothing: 1, minProminence: 80 }).highVolumeNodes.map((n) => n.price)).toEqual(['102'])
    expect(volumeNodes(p, { smoothing: 1, minProminence: 80 }).lowVolumeNodes).toEqual([])
    expect(volumeNodes(p, { minProminence: '31.58' }).lowVolumeNodes).toEqual([])
    expect(volumeNodes(p, { minProminence: '31.57' }).lowVolumeNodes).toHaveLength(1)
  })
  it('a flat top is one node at its middle row, with its run', () => {
    const r = volumeNodes(histogram([1, 6, 6, 6, 6, 1]), { smoothing: 1, minProminence: 0 })
    expect(r.highVolumeNodes).toEqual([{ price: '102', low: '101', high: '104', value: '6', prominence: '100' }])
  })
  it('an untraded row inside a footprint counts as 0 volume (a low volume node)', () => {
    const trades: Trade[] = [
      { time: T(10), price: 100, volume: 5, side: 'buy' },
      { time: T(10), price: 101, volume: 5, side: 'buy' },
      { time: T(10), price: 103, volume: 5, side: 'sell' },
    ]
    const [fp] = footprintProfiles(trades, { timeframe: '1d', tickSize: 1 })
    expect(volumeNodes(fp!, { smoothing: 1 }).lowVolumeNodes).toEqual([
      { price: '102', low: '102', high: '102', value: '0', prominence: '100' },
    ])
  })
  it('TPO counts of a TPO profile; a candle profile defaults to them and refuses volumes', () => {
    const blocks: [number, number][] = [
      [100, 104],
      [101, 103],
      [102, 102],
      [106, 108],
      [106, 107],
    ]
    const byTpo = volumeNodes(day(blocks), { source: 'tpo', smoothing: 1, minProminence: 0 })
    // counts 100..108: 1 2 3 2 1 0 2 2 1 -> peaks at 102 and 106-107 (run, middle 106), valley at 105
    expect(byTpo.highVolumeNodes.map((n) => [n.price, n.low, n.high])).toEqual([
      ['102', '102', '102'],
      ['106', '106', '107'],
    ])
    expect(byTpo.lowVolumeNodes.map((n) => n.price)).toEqual(['105'])
    expect(volumeNodes(candleDay(blocks), { smoothing: 1, minProminence: 0 })).toEqual(byTpo)
    expect(() => volumeNodes(candleDay(blocks), { source: 'volume' })).toThrow(
      /built from candles \(rowVolumes: 'unknown'\).*source: 'tpo'/,
    )
  })
  it('a footprint has no TPO counts', () => {
    expect(() => volumeNodes(histogram(TWO_PEAKS), { source: 'tpo' })).toThrow(
      /no TPO counts; use \{ source: 'volume' \}/,
    )
  })
  it('all-zero volumes have no nodes', () => {
    expect(volumeNodes(histogram([0, 0, 0]))).toMatchObject({ highVolumeNodes: [], lowVolumeNodes: [] })
  })
  it.each([
    [{ smoothing: 2 }, 'smoothing'],
    [{ smoothing: 101 }, 'smoothing'],
    [{ minProminence: 101 }, 'minProminence'],
    [{ minProminence: '1e1' }, 'minProminence'],
    [{ source: 'count' }, 'source'],
    [{ prominence: 5 }, 'prominence'],
  ])('option %j is refused naming %s', (opts, field) => {
    try {
      volumeNodes(histogram(TWO_PEAKS), opts as VolumeNodeOptions)
      expect.unreachable()
    } catch (e) {
      expect((e as MarketDataError).code).toBe('invalid_option')
      expect((e as MarketDataError).field).toBe(field)
    }
  })
})

const smoothing = fc.constantFrom(1, 3, 5, 7)
const price = (s: string) => Number(s)

describe('volumeNodes laws', () => {
  fcTest.prop([randomTrades, smoothing, fc.constantFrom<'volume' | 'tpo'>('volume', 'tpo')])(
    'nodes lie inside the profile, in ascending price, highs and lows apart',
    (trades, w, source) => {
      const p = randomDay(trades)
      const r = volumeNodes(p, { smoothing: w, minProminence: 0, source })
      const lo = price(p.rows[0]![0])
      const hi = price(p.rows.at(-1)![0])
      for (const n of [...r.highVolumeNodes, ...r.lowVolumeNodes]) {
        expect(price(n.low)).toBeGreaterThanOrEqual(lo)
        expect(price(n.high)).toBeLessThanOrEqual(hi)
        expect(price(n.low) <= price(n.price) && price(n.price) <= price(n.high)).toBe(true)
      }
      const ps = r.highVolumeNodes.map((n) => price(n.price))
      expect(ps).toEqual([...ps].sort((a, b) => a - b))
      const lows = new Set(r.lowVolumeNodes.map((n) => n.price))
      for (const n of r.highVolumeNodes) expect(lows.has(n.price)).toBe(false)
    },
  )
  fcTest.prop([randomTrades, smoothing, fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 })])(
    'a higher minProminence keeps a subset',
    (trades, w, a, b) => {
      const p = randomDay(trades)
      const [x, y] = a <= b ? [a, b] : [b, a]
      const loose = volumeNodes(p, { smoothing: w, minProminence: x })
      const strict = volumeNodes(p, { smoothing: w, minProminence: y })
      expect(loose.highVolumeNodes).toEqual(expect.arrayContaining(strict.highVolumeNodes))
      expect(loose.lowVolumeNodes).toEqual(expect.arrayContaining(strict.lowVolumeNodes))
      for (const n of [...strict.highVolumeNodes, ...strict.lowVolumeNodes])
        expect(Number(n.prominence)).toBeGreaterThanOrEqual(y - 0.01)
    },
  )
  fcTest.prop([fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 40 })])(
    'prominences equal a slow walk (the SciPy rule, step by step)',
    (vs) => {
      const r = volumeNodes(histogram(vs), { smoothing: 1, minProminence: 0 })
      const v = [0, ...vs, 0]
      const max = Math.max(...v)
      const walk = (k: number, sign: 1 | -1): number => {
        // from row k (padded index), each way while not strictly beyond the extremum; the base is the farthest value reached
        const top = v[k]! * sign
        let left = top
        for (let i = k - 1; i >= 0 && v[i]! * sign <= top; i--) left = Math.min(left, v[i]! * sign)
        let right = top
        for (let i = k + 1; i < v.length && v[i]! * sign <= top; i++) right = Math.min(right, v[i]! * sign)
        return top - Math.max(left, right)
      }
      const pct = (p: number) => (Math.floor((p * 10_000) / max) / 100).toString()
      for (const n of r.highVolumeNodes) expect(n.prominence).toBe(pct(walk(price(n.price) - 100 + 1, 1)))
      for (const n of r.lowVolumeNodes) expect(n.prominence).toBe(pct(walk(price(n.price) - 100 + 1, -1)))
    },
  )
  fcTest.prop([fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 30 })])(
    'without smoothing, high and low nodes alternate (prominence 0 keeps every strict extremum)',
    (vs) => {
      const r = volumeNodes(histogram(vs), { smoothing: 1, minProminence: 0 })
      const all = [
        ...r.highVolumeNodes.map((n) => [price(n.price), 1]),
        ...r.lowVolumeNodes.map((n) => [price(n.price), -1]),
      ].sort((a, b) => a[0]! - b[0]!)
      for (let i = 1; i < all.length; i++) expect(all[i]![1]).not.toBe(all[i - 1]![1])
      // a slow reference: a row is a strict maximum when its run of equal values has lower neighbours (0 beyond the ends)
      const v = [0, ...vs, 0]
      const maxima: number[] = []
      for (let a = 1; a < v.length - 1; ) {
        let b = a
        while (b + 1 < v.length - 1 && v[b + 1] === v[a]) b++
        if (v[a - 1]! < v[a]! && v[b + 1]! < v[a]!) maxima.push(100 + a - 1 + Math.floor((b - a) / 2))
        a = b + 1
      }
      expect(r.highVolumeNodes.map((n) => price(n.price))).toEqual(maxima)
    },
  )
})
