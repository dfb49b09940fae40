import { decimalsOf, formatUnits } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { computeAnalytics, resolveAnalyticsOptions } from './analytics-core.js'
import { exact, unitsAt } from './grid.js'
import { MSG } from './messages.js'
import { parseProfile } from './rowset.js'
import type { FootprintAnalytics, FootprintAnalyticsOptions, FootprintProfile } from './types.js'

/**
 * Order-flow analytics of one profile, from its rows:
 * - diagonal imbalance: buy volume at row r >= `ratio`% of the sell volume at row r - 1 (one row below), or
 *   sell volume at r >= `ratio`% of the buy volume at r + 1; only when that diagonal row traded; the
 *   dominant volume must be > 0 and >= `minVolume` (a diagonal of 0 counts as an infinite ratio);
 * - stacked imbalance: `stackedRows` (default 3) or more consecutive grid rows with an imbalance on the same side;
 * - unfinished auction: both buy and sell trades in the highest (or lowest) row.
 *
 * @example
 * footprintAnalytics(profile, { ratio: 300, minVolume: 10 }).stackedImbalances // [{ side: 'buy', low: '5000.00', high: '5001.00', rows: 5 }]
 */
export function footprintAnalytics(profile: FootprintProfile, opts?: FootprintAnalyticsOptions): FootprintAnalytics {
  const o = resolveAnalyticsOptions(opts)
  const q = parseProfile(profile, 'footprintAnalytics')
  return computeAnalytics(q.grid, q.set, o)
}

/** One step of {@link cumulativeDelta}. */
export interface CumulativeDeltaPoint {
  time: number
  /** The profile's delta (buy - sell). */
  delta: string
  /** Sum of the deltas of this and every earlier profile. */
  cumulativeDelta: string
}

/**
 * Cumulative delta across profiles, in time order (the input is not reordered in place): exact running
 * sum of each profile's `delta` (volumeBuy - volumeSell).
 *
 * @example
 * cumulativeDelta(profiles).at(-1)?.cumulativeDelta // '-125.5'
 */
export function cumulativeDelta(profiles: readonly FootprintProfile[]): CumulativeDeltaPoint[] {
  if (!Array.isArray(profiles)) throw new MarketDataError('invalid_option', MSG.notProfile('cumulativeDelta'))
  const ps = [...profiles].sort((a, b) => a.time - b.time)
  let scale = 0
  for (const p of ps) scale = Math.max(scale, decimalsOf(p.delta))
  let sum = 0n
  return ps.map((p) => {
    sum += unitsAt(exact(p.delta, 'delta'), scale)
    return { time: p.time, delta: p.delta, cumulativeDelta: formatUnits(sum, scale) }
  })
}
