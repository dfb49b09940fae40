import { parseOutputDecimal, type ExactDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { resolveAnalyticsOptions, type ResolvedAnalyticsOptions } from './analytics-core.js'
import { FOOTPRINT_MSG } from './messages.js'
import { buildProfile, compareExact, RowAccumulator, type ParsedProfile, type ProfileMeta } from './rowset.js'
import type { FootprintProfile } from './types.js'

/** Analytics options a profile was computed with, to recompute them on a combined profile. */
export function analyticsOf(ps: readonly FootprintProfile[]): ResolvedAnalyticsOptions | undefined {
  for (const p of ps) {
    const a = p.analytics
    if (a !== undefined)
      return resolveAnalyticsOptions({ ratio: a.ratio, minVolume: a.minVolume, stackedRows: a.stackedRows })
  }
  return undefined
}

function sameDecimal(a: string, b: string): boolean {
  const x = parseOutputDecimal(a)
  const y = parseOutputDecimal(b)
  return x.ok && y.ok && x.value.units === y.value.units && x.value.scale === y.value.scale
}

/** A profile with its parsed form (see {@link parseProfile}). */
export interface ParsedItem {
  p: FootprintProfile
  q: ParsedProfile
}

/**
 * Adds profiles that share one price grid into one profile of bucket `time`..`end` (rows summed exactly,
 * high = max, low = min, profileStart = earliest given, sessionType kept when all agree).
 */
export function combineProfiles(items: readonly ParsedItem[], time: number, end: number, fn: string): FootprintProfile {
  const first = items[0] as ParsedItem
  const grid = first.q.grid
  const acc = new RowAccumulator()
  let high: ExactDecimal | undefined
  let low: ExactDecimal | undefined
  let profileStart: number | undefined
  let sessionType = first.p.sessionType
  for (let i = 0; i < items.length; i++) {
    const { p, q } = items[i] as ParsedItem
    if (!sameDecimal(q.grid.tickSize, grid.tickSize))
      throw new MarketDataError('grid_mismatch', FOOTPRINT_MSG.tick(fn, grid.tickSize, q.grid.tickSize), {
        field: 'tickSize',
      })
    if (!sameDecimal(q.grid.rowSizeValue, grid.rowSizeValue))
      throw new MarketDataError('grid_mismatch', FOOTPRINT_MSG.grid(fn, grid.rowSizeValue, q.grid.rowSizeValue), {
        field: 'rowSizeValue',
      })
    acc.add(q.set)
    if (q.set.rows.length > 0) {
      if (high === undefined || compareExact(q.high, high) > 0) high = q.high
      if (low === undefined || compareExact(q.low, low) < 0) low = q.low
    }
    if (p.profileStart !== undefined && (profileStart === undefined || p.profileStart < profileStart))
      profileStart = p.profileStart
    if (p.sessionType !== sessionType) sessionType = undefined
  }
  const meta: ProfileMeta = { time, end, profileStart, sessionType }
  const zero = { units: 0n, scale: 0 }
  return buildProfile(meta, grid, acc.result(), high ?? zero, low ?? zero, analyticsOf(items.map((x) => x.p)))
}
