import { floorDivBig, type DecimalInput } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { analyticsOf } from './combine.js'
import { resolveGrid } from './grid.js'
import { FOOTPRINT_MSG } from './messages.js'
import { buildProfile, parseProfile, RowAccumulator } from './rowset.js'
import type { FootprintProfile } from './types.js'
import { checkOptions } from '../_lib/closed-options.js'

/** Target grid of {@link regridFootprint}: `rowSize` in ticks or an absolute `rowSizeValue` (one of them). */
export interface RegridOptions {
  rowSize?: number
  rowSizeValue?: DecimalInput
}

/**
 * Coarsens a profile to a row size that is a whole multiple of its own, without the trades: each old row
 * `[p, p + r)` lies in exactly one new row because both grids are anchored at 0. Equals aggregating the
 * trades at the coarse size. Throws `MarketDataError` (`grid_mismatch`) when the new size is not a multiple.
 *
 * @param profile - a profile as the library returned it
 * @param opts - options, see {@link RegridOptions}
 * @returns the `FootprintProfile`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * regridFootprint(profileAt1Tick, { rowSize: 4 }) // same bucket, rows 4 ticks high
 */
export function regridFootprint(profile: FootprintProfile, opts: RegridOptions): FootprintProfile {
  const fn = 'regridFootprint'
  const q = parseProfile(profile, fn)
  if (opts !== undefined && opts !== null && typeof opts !== 'object')
    throw new MarketDataError('invalid_option', FOOTPRINT_MSG.regridOptions(opts), { field: 'options' })
  checkOptions(opts, ['rowSize', 'rowSizeValue'], fn)
  const o: RegridOptions = opts ?? {}
  const g = resolveGrid(
    q.grid.tickSize,
    o.rowSize,
    o.rowSize === undefined && o.rowSizeValue === undefined ? q.grid.rowSizeValue : o.rowSizeValue,
  )
  const d = Math.max(q.grid.decimals, g.decimals)
  const oldRu = BigInt(q.grid.rowUnits) * 10n ** BigInt(d - q.grid.decimals)
  const newRu = BigInt(g.rowUnits) * 10n ** BigInt(d - g.decimals)
  if (newRu % oldRu !== 0n)
    throw new MarketDataError('grid_mismatch', FOOTPRINT_MSG.regridMultiple(g.rowSizeValue, q.grid.rowSizeValue), {
      field: 'rowSizeValue',
    })
  const acc = new RowAccumulator()
  acc.add(q.set, (r) => Number(floorDivBig(BigInt(r) * oldRu, newRu)))
  return buildProfile(
    { time: profile.time, end: profile.end, profileStart: profile.profileStart, sessionType: profile.sessionType },
    g,
    acc.result(),
    q.high,
    q.low,
    analyticsOf([profile]),
  )
}
