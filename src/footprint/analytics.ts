import { formatUnits, parseDecimal, type ExactDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { computeAnalytics, resolveAnalyticsOptions } from './analytics-core.js'
import { unitsAt } from './grid.js'
import { FOOTPRINT_MSG } from './messages.js'
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
 * @param profile - a profile as the library returned it
 * @param opts - options, see {@link FootprintAnalyticsOptions} (optional)
 * @returns the `FootprintAnalytics`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * footprintAnalytics(profile, { ratio: 300, minVolume: 10 }).stackedImbalances // [{ side: 'buy', low: '5000.00', high: '5001.00', rows: 5 }]
 */
export function footprintAnalytics(profile: FootprintProfile, opts?: FootprintAnalyticsOptions): FootprintAnalytics {
  const o = resolveAnalyticsOptions(opts, 'options')
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
 * sum of each profile's `delta` (volumeBuy - volumeSell). Each element needs a finite `time` and a decimal
 * string `delta`; otherwise `MarketDataError` (`invalid_option` / `invalid_decimal`) names its index and field.
 *
 * @param profiles - profiles as the library returned them
 * @returns the `CumulativeDeltaPoint[]`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * cumulativeDelta(profiles).at(-1)?.cumulativeDelta // '-125.5'
 */
export function cumulativeDelta(profiles: readonly FootprintProfile[]): CumulativeDeltaPoint[] {
  const fn = 'cumulativeDelta'
  if (!Array.isArray(profiles)) throw new MarketDataError('invalid_option', FOOTPRINT_MSG.notProfile(fn))
  const n = profiles.length
  const items: { time: number; delta: string; d: ExactDecimal }[] = new Array(n)
  let scale = 0
  for (let i = 0; i < n; i++) {
    const p: unknown = profiles[i]
    const who = `profiles[${i}]`
    if (typeof p !== 'object' || p === null || Array.isArray(p))
      throw new MarketDataError('invalid_option', FOOTPRINT_MSG.notProfileAt(fn, who, p), { index: i, field: who })
    const { time, delta } = p as Record<string, unknown>
    if (typeof time !== 'number' || !Number.isFinite(time)) {
      throw new MarketDataError(
        'invalid_option',
        FOOTPRINT_MSG.profileField(fn, who, 'time', time, 'must be a finite epoch-millisecond number'),
        { index: i, field: 'time' },
      )
    }
    const r = typeof delta === 'string' ? parseDecimal(delta) : undefined
    if (r === undefined || !r.ok)
      throw new MarketDataError(
        'invalid_decimal',
        FOOTPRINT_MSG.profileField(fn, who, 'delta', delta, 'must be a decimal string'),
        { index: i, field: 'delta' },
      )
    items[i] = { time, delta: delta as string, d: r.value }
    scale = Math.max(scale, r.value.scale)
  }
  const ps = items.sort((a, b) => a.time - b.time)
  let sum = 0n
  return ps.map((p) => {
    sum += unitsAt(p.d, scale)
    return { time: p.time, delta: p.delta, cumulativeDelta: formatUnits(sum, scale) }
  })
}
