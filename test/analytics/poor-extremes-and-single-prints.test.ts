import { test as fcTest } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { poorExtremes, singlePrintZones } from '../../src/analytics/index.js'
import { footprintProfiles } from '../../src/footprint/index.js'
import type { Trade } from '../../src/trades/index.js'
import { candleDay, day, randomDay, randomTrades, T } from './build.js'

describe('poorExtremes', () => {
  it('a flat top of two rows held by two blocks is a poor high; a one-TPO low is not poor', () => {
    // counts 100..106: 1 2 3 3 3 2 2 -> the high shelf 105-106 (count 2)
    const p = day([
      [100, 106],
      [101, 106],
      [102, 104],
    ])
    expect(p.poorHigh).toBe(true)
    expect(poorExtremes(p)).toEqual({ poorHigh: { low: '105', high: '106', rows: 2 }, poorLow: null })
    expect(
      poorExtremes(
        candleDay([
          [100, 106],
          [101, 106],
          [102, 104],
        ]),
      ),
    ).toEqual(poorExtremes(p))
  })
  it('a single block has no poor extreme', () => {
    expect(poorExtremes(day([[100, 103]]))).toEqual({ poorHigh: null, poorLow: null })
  })
  it('footprints: both sides traded at the extreme row (unfinished auction)', () => {
    const trades: Trade[] = [
      { time: T(10), price: 100, volume: 1, side: 'buy' },
      { time: T(10), price: 100, volume: 1, side: 'sell' },
      { time: T(10), price: 103, volume: 1, side: 'buy' },
    ]
    const [fp] = footprintProfiles(trades, { timeframe: '1d', tickSize: 1 })
    expect(poorExtremes(fp!)).toEqual({ poorHigh: null, poorLow: { low: '100', high: '100', rows: 1 } })
  })
  fcTest.prop([randomTrades])("agrees with the profile's own poorHigh / poorLow", (trades) => {
    const p = randomDay(trades)
    const r = poorExtremes(p)
    expect(r.poorHigh !== null).toBe(p.poorHigh)
    expect(r.poorLow !== null).toBe(p.poorLow)
    if (r.poorHigh !== null) expect(r.poorHigh.high).toBe(p.rows.at(-1)![0])
    if (r.poorLow !== null) expect(r.poorLow.low).toBe(p.rows[0]![0])
  })
})

describe('singlePrintZones', () => {
  it('tails at both ends and a run of single prints inside, ascending', () => {
    // A 100-110 (buying tail 100-101 and selling tail 109-110 held by A alone), B 102-104, C 107-108: 105-106 single
    const p = day([
      [100, 110],
      [102, 104],
      [107, 108],
    ])
    expect(singlePrintZones(p)).toEqual([
      { kind: 'buying-tail', low: '100', high: '101', rows: 2 },
      { kind: 'single-prints', low: '105', high: '106', rows: 2 },
      { kind: 'selling-tail', low: '109', high: '110', rows: 2 },
    ])
    expect(
      singlePrintZones(
        candleDay([
          [100, 110],
          [102, 104],
          [107, 108],
        ]),
      ),
    ).toEqual(singlePrintZones(p))
  })
  it('a one-row single at an extreme is neither a tail nor an inside single print', () => {
    expect(
      singlePrintZones(
        day([
          [100, 103],
          [101, 103],
        ]),
      ),
    ).toEqual([])
  })
  it('a footprint has no TPOs', () => {
    const [fp] = footprintProfiles([{ time: T(10), price: 1, volume: 1, side: 'buy' }], {
      timeframe: '1d',
      tickSize: 1,
    })
    expect(() => singlePrintZones(fp as never)).toThrow(/singlePrintZones: profile is a footprint profile/)
  })
  fcTest.prop([randomTrades])(
    "the zones cover the profile's singlePrints and excess rows; a tail is excess unless it is the last block's spike",
    (trades) => {
      const p = randomDay(trades)
      const zones = singlePrintZones(p)
      const rowsOf = (z: { low: string; rows: number }) =>
        Array.from({ length: z.rows }, (_, i) => (Number(z.low) + i * 0.25).toFixed(2))
      const prices = p.rows.map((r) => r[0])
      const excess = [...prices.slice(0, p.excessLow), ...prices.slice(prices.length - p.excessHigh)]
      expect(zones.flatMap(rowsOf).sort()).toEqual([...p.singlePrints, ...excess].sort())
      const spikeZone = zones.find((z) => z.kind === 'spike')
      const last = p.blocks.length - 1
      if (spikeZone !== undefined)
        for (const r of rowsOf(spikeZone)) expect(p.rows.find((x) => x[0] === r)![1]).toEqual([last])
      const atLow = spikeZone !== undefined && spikeZone.low === prices[0]
      const atHigh = spikeZone !== undefined && !atLow
      expect(zones.find((z) => z.kind === 'buying-tail')?.rows ?? 0).toBe(atLow ? 0 : p.excessLow)
      expect(zones.find((z) => z.kind === 'selling-tail')?.rows ?? 0).toBe(atHigh ? 0 : p.excessHigh)
      for (let i = 1; i < zones.length; i++) {
        const gap = Number(zones[i]!.low) - Number(zones[i - 1]!.high)
        // zones of one kind are apart; a spike touches the single prints of the tail it cut
        expect(gap).toBeGreaterThan(zones[i]!.kind === zones[i - 1]!.kind ? 0.25 : 0)
      }
    },
  )
})
