import { profileShape } from '../tpo/profile-shape.js'
import { readHistogram, readTpoHistogram, rowPriceOf, type Histogram } from './histogram.js'
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
 * rows or more (the profile's `excessLow` / `excessHigh`). A profile without any row of two or more TPOs
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
    const out: SinglePrintZone[] = []
    if (shape.excessLow > 0) out.push({ kind: 'buying-tail', ...range(h, 0, shape.excessLow - 1) })
    const s = shape.singlePrints
    for (let i = 0; i < s.length; ) {
      let j = i
      while (j + 1 < s.length && s[j + 1] === (s[j] as number) + 1) j++
      out.push({ kind: 'single-prints', ...range(h, s[i] as number, s[j] as number) })
      i = j + 1
    }
    if (shape.excessHigh > 0) out.push({ kind: 'selling-tail', ...range(h, h.n - shape.excessHigh, h.n - 1) })
    return out
  })
}
