// Gaps found by mutation testing of the footprint module (object fast loop, analytics, merge).
import Big from 'big.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  footprintAnalytics,
  footprintProfiles,
  mergeFootprintProfiles,
  type FootprintProfile,
} from '../../src/footprint/index.js'
import type { Trade } from '../../src/trades/index.js'
import { START } from './arbitraries.js'
import { referenceFootprint } from './reference.js'

const tr = (price: number, volume: number | string, side: 'buy' | 'sell', time = START): Trade => ({
  time,
  price,
  volume,
  side,
})

describe('trade objects: row sums passing 2^53 stay exact', () => {
  it('a sum taken to just under 2^53 by the object loop, then past it by an odd amount', () => {
    const vols = [1, 2 ** 52 - 1, 2 ** 52 - 2, 3]
    const want = vols.reduce((s, v) => s + BigInt(v), 0n).toString() // 2^53 + 1
    for (const asString of [false, true]) {
      const trades = vols.map((v, i) => tr(100, asString ? String(v) : v, 'buy', START + i))
      const [p] = footprintProfiles(trades, { timeframe: '1h', tickSize: 1 })
      expect(p!.rows).toEqual([['100', want, '0', 4, 0]])
      expect(p).toEqual(referenceFootprint(trades, { timeframe: '1h', tickSize: 1 })[0])
    }
  })
})

describe('footprintAnalytics: minVolume and stacked imbalances against a big.js reading', () => {
  /** [row, buy, sell] on tick 1, rows 0..11 with gaps (rows that never traded). */
  const rowsArb = fc.uniqueArray(
    fc
      .tuple(fc.integer({ min: 0, max: 11 }), fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 12 }))
      .filter(([, b, s]) => b + s > 0),
    { selector: (r) => r[0], minLength: 1, maxLength: 12 },
  )
  it('an imbalance needs dominant >= minVolume (equal counts); stacked runs need consecutive grid rows', () => {
    fc.assert(
      fc.property(
        rowsArb,
        fc.integer({ min: 100, max: 400 }),
        fc.nat(),
        fc.integer({ min: 2, max: 4 }),
        (rows, ratio, pickMin, stackedRows) => {
          const trades: Trade[] = []
          for (const [p, b, s] of rows) {
            if (b > 0) trades.push(tr(p, b, 'buy'))
            if (s > 0) trades.push(tr(p, s, 'sell'))
          }
          const [p] = footprintProfiles(trades, { timeframe: '1h', tickSize: 1 })
          // minVolume equal to one of the traded volumes, so the boundary (dominant == minVolume) is hit
          const vols = rows.flatMap(([, b, s]) => [b, s])
          const minVolume = String(vols[pickMin % vols.length])
          const a = footprintAnalytics(p!, { ratio, minVolume, stackedRows })
          const byRow = new Map(p!.rows.map((r) => [Number(r[0]), r]))
          const ok = (dom: string, against: string) =>
            new Big(dom).gt(0) &&
            new Big(dom).gte(minVolume) &&
            new Big(dom).times(100).gte(new Big(against).times(ratio))
          const buy = new Set<number>()
          const sell = new Set<number>()
          for (const r of p!.rows) {
            const x = Number(r[0])
            const below = byRow.get(x - 1)
            const above = byRow.get(x + 1)
            if (below !== undefined && ok(r[1], below[2])) buy.add(x)
            if (above !== undefined && ok(r[2], above[1])) sell.add(x)
          }
          const want: string[] = []
          for (const r of p!.rows) {
            const x = Number(r[0])
            if (buy.has(x)) want.push(`${x} buy`)
            if (sell.has(x)) want.push(`${x} sell`)
          }
          expect(a.imbalances.map((i) => `${i.price} ${i.side}`)).toEqual(want)
          // stacked: maximal runs of consecutive grid rows on one side, at least stackedRows long
          const stacked: { side: string; low: string; high: string; rows: number }[] = []
          for (let x = 0; x <= 11; x++) {
            for (const [side, set] of [
              ['buy', buy],
              ['sell', sell],
            ] as const) {
              if (!set.has(x) || set.has(x - 1)) continue
              let y = x
              while (set.has(y + 1)) y++
              if (y - x + 1 >= stackedRows) stacked.push({ side, low: String(x), high: String(y), rows: y - x + 1 })
            }
          }
          expect(a.stackedImbalances).toEqual(stacked)
        },
      ),
      { numRuns: 150 },
    )
  })

  it('a dominant volume equal to minVolume counts; a flagged row after a gap starts a new stack', () => {
    const trades = [tr(10, 1, 'sell'), tr(11, 5, 'buy')]
    const [p] = footprintProfiles(trades, { timeframe: '1h', tickSize: 1 })
    expect(footprintAnalytics(p!, { minVolume: 5 }).imbalances).toEqual([
      { price: '11', side: 'buy', volume: '5', against: '1' },
    ])
    // buy imbalances at 2, 3 and (after the gap at 4) 6: no run of 3 consecutive rows
    const gap = [tr(1, 1, 'sell'), tr(2, 9, 'buy'), tr(3, 9, 'buy'), tr(5, 1, 'sell'), tr(6, 9, 'buy')]
    const [q] = footprintProfiles(gap, { timeframe: '1h', tickSize: 1 })
    const a = footprintAnalytics(q!)
    expect(a.imbalances.filter((i) => i.side === 'buy').map((i) => i.price)).toEqual(['2', '3', '6'])
    expect(a.stackedImbalances).toEqual([])
  })
})

describe('mergeFootprintProfiles: provenance fields', () => {
  const opts = { timeframe: '1h' as const, tickSize: 1 }
  it('profileStart is the earlier one (either order)', () => {
    const a = footprintProfiles([tr(5, 1, 'buy', START + 30 * 60_000)], {
      ...opts,
      from: START + 10 * 60_000,
    })[0] as FootprintProfile
    const b = footprintProfiles([tr(6, 1, 'buy', START + 40 * 60_000)], {
      ...opts,
      from: START + 20 * 60_000,
    })[0] as FootprintProfile
    expect([a.profileStart, b.profileStart]).toEqual([START + 10 * 60_000, START + 20 * 60_000])
    expect(mergeFootprintProfiles(a, b).profileStart).toBe(START + 10 * 60_000)
    expect(mergeFootprintProfiles(b, a).profileStart).toBe(START + 10 * 60_000)
  })
  it('sessionType stays only when both agree', () => {
    const t = [tr(5, 1, 'buy')]
    const pre = footprintProfiles(
      t.map((x) => ({ ...x, session: 'PRE_MARKET' as const })),
      { ...opts, sessions: ['PRE_MARKET'] },
    )[0] as FootprintProfile
    const post = footprintProfiles(
      t.map((x) => ({ ...x, session: 'POST_MARKET' as const })),
      { ...opts, sessions: ['POST_MARKET'] },
    )[0] as FootprintProfile
    expect(mergeFootprintProfiles(pre, pre).sessionType).toBe('PRE_MARKET')
    expect(mergeFootprintProfiles(pre, post).sessionType).toBeUndefined()
    expect(mergeFootprintProfiles(post, pre).sessionType).toBeUndefined()
  })
  it('a profile with two rows at one price is refused', () => {
    const p = footprintProfiles([tr(5, 1, 'buy'), tr(6, 2, 'sell')], opts)[0] as FootprintProfile
    const dup = { ...p, rows: [p.rows[0]!, p.rows[0]!] }
    expect(() => mergeFootprintProfiles(p, dup)).toThrow(
      expect.objectContaining({ code: 'invalid_option', field: 'rows[1].price', index: 1 }),
    )
  })
  it('a profile without rows adds nothing, not even its high / low', () => {
    const p = footprintProfiles([tr(5, 1, 'buy'), tr(6, 2, 'sell')], opts)[0] as FootprintProfile
    const empty = { ...p, rows: [], high: '1000', low: '-1000' }
    const m = mergeFootprintProfiles(p, empty)
    expect([m.high, m.low, m.rows]).toEqual([p.high, p.low, p.rows])
  })
})
