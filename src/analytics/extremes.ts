import { profileShape } from '../tpo/profile-shape.js'
import { readHistogram, readTpoHistogram, rowPriceOf, type Histogram } from './histogram.js'
import { lastBlock, spikeRows } from './spike.js'
import { unreadableAsError } from './options.js'
import type { AnalyticsProfile, AnyTpoProfile, PoorExtremes, PriceRange, SinglePrintZone } from './types.js'

function range(h: Histogram, from: number, to: number): PriceRange {
  return { low: rowPriceOf(h, from), high: rowPriceOf(h, to), rows: to - from + 1 }
}

/**
 * Poor high and poor low as price ranges, for a chart to mark.
 *
 * - TPO profiles (trades or candles), Dalton (Mind over Markets): an extreme is poor when its row holds two
 *   or more TPOs (no tail: the auction stopped without excess); the range is that row and the rows next
 *   to it holding the same count (the flat shelf). A profile without any row of two or more TPOs (one
 *   block) has no poor extreme. `poorHigh !== null` exactly when the profile's own `poorHigh` is true.
 * - Footprint profiles, the order-flow reading (an "unfinished auction"): an extreme is poor when both
 *   buyers and sellers traded in its row; the range is that row.
 *
 * @param profile - a TPO profile (trades or candles) or a footprint profile
 * @returns `{ poorHigh, poorLow }`, each `{ low, high, rows }` or null
 * @throws MarketDataError `invalid_option` for a malformed profile
 * @example
 * poorExtremes(profile) // { poorHigh: { low: '5010.00', high: '5010.25', rows: 2 }, poorLow: null }
 */
export function poorExtremes(profile: AnalyticsProfile): PoorExtremes {
  return unreadableAsError('poorExtremes', () => {
    const h = readHistogram(profile, 'poorExtremes')
    const top = h.n - 1
    if (h.counts === null) {
      const tb = h.tradesBuy as number[]
      const ts = h.tradesSell as number[]
      const unfinished = (i: number) => (tb[i] as number) > 0 && (ts[i] as number) > 0
      return { poorHigh: unfinished(top) ? range(h, top, top) : null, poorLow: unfinished(0) ? range(h, 0, 0) : null }
    }
    const c = h.counts
    const shape = profileShape(c)
    let poorHigh: PriceRange | null = null
    let poorLow: PriceRange | null = null
    if (shape.poorHigh) {
      let k = top
      while (k > 0 && c[k - 1] === c[top]) k--
      poorHigh = range(h, k, top)
    }
    if (shape.poorLow) {
      let k = 0
      while (k < top && c[k + 1] === c[0]) k++
      poorLow = range(h, 0, k)
    }
    return { poorHigh, poorLow }
  })
}

/**
 * Single-print zones as price ranges, ascending: runs of consecutive rows holding exactly one TPO
 * (Dalton, Mind over Markets). Inside the profile they are `single-prints` (the rows of the profile's own
 * `singlePrints`, grouped); at the low a `buying-tail`, at the high a `selling-tail` when the run is two
 * rows or more (the profile's `excessLow` / `excessHigh`) — unless the rows at that extreme are the last
 * block's alone: that is a `spike` (see {@link spike}; a spike is not excess), and the rest of that tail's
 * run, between the spike and the body, is `single-prints`. A profile without any row of two or more TPOs
 * (one block) has no zones. Candle profiles work as trade ones; a footprint has no TPOs and is refused.
 *
 * @param profile - a TPO profile (from trades or candles)
 * @returns the zones `{ kind, low, high, rows }`, ascending price
 * @throws MarketDataError `invalid_option` for a footprint or a malformed profile
 * @example
 * singlePrintZones(profile) // [{ kind: 'buying-tail', low: '4990.00', high: '4990.75', rows: 4 }, { kind: 'single-prints', ... }]
 */
export function singlePrintZones(profile: AnyTpoProfile): SinglePrintZone[] {
  return unreadableAsError('singlePrintZones', () => {
    const h = readTpoHistogram(profile, 'singlePrintZones')
    const shape = profileShape(h.counts as number[])
    const blocks = (profile as { blocks: number[] }).blocks
    const rows = (profile as { rows: [string, number[]][] }).rows.map((r) => r[1])
    const sp =
      shape.excessLow + shape.excessHigh + shape.singlePrints.length > 0
        ? spikeRows(rows, blocks.length > 1 ? lastBlock(blocks) : -1)
        : undefined
    // single-print rows (inside, or in a tail) by kind; the last block's rows at an extreme are a spike
    const kind: (SinglePrintZone['kind'] | undefined)[] = new Array(h.n).fill(undefined)
    for (const i of shape.singlePrints) kind[i] = 'single-prints'
    for (let i = 0; i < shape.excessLow; i++) kind[i] = 'buying-tail'
    for (let i = h.n - shape.excessHigh; i < h.n; i++) kind[i] = 'selling-tail'
    if (sp !== undefined) {
      // the rest of the tail lies between the spike and the day's body: single prints, not excess
      for (let i = 0; i < h.n; i++)
        if (kind[i] === (sp.direction === 'up' ? 'selling-tail' : 'buying-tail')) kind[i] = 'single-prints'
      for (let i = sp.from; i <= sp.to; i++) kind[i] = 'spike'
    }
    const out: SinglePrintZone[] = []
    for (let i = 0; i < h.n; ) {
      const k = kind[i]
      let j = i
      while (j + 1 < h.n && kind[j + 1] === k) j++
      if (k !== undefined) out.push({ kind: k, ...range(h, i, j) })
      i = j + 1
    }
    return out
  })
}
