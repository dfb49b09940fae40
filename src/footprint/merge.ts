import { MarketDataError } from '../errors.js'
import { combineProfiles } from './combine.js'
import { FOOTPRINT_MSG } from './messages.js'
import { parseProfile } from './rowset.js'
import type { FootprintProfile } from './types.js'

/**
 * Adds two partial profiles of the same bucket and grid (for example the same hour computed on two shards
 * of the trades): rows summed exactly, high/low extended, `profileStart` the earlier one. Merging the
 * profiles of any split of the trades equals the profile of all of them. Throws `MarketDataError`
 * (`incompatible` for different buckets, `grid_mismatch` for different grids; a malformed profile is refused
 * naming it — index 0 = `a`, 1 = `b` — and the field, e.g. `rows[2].volumeBuy`).
 *
 * @param a - the first part
 * @param b - the second part
 * @returns the `FootprintProfile`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * const opts = { timeframe: '1h', tickSize: '0.25' }
 * mergeFootprintProfiles(footprintProfiles(a, opts)[0], footprintProfiles(b, opts)[0])
 */
export function mergeFootprintProfiles(a: FootprintProfile, b: FootprintProfile): FootprintProfile {
  const fn = 'mergeFootprintProfiles'
  const qa = parseProfile(a, fn, { who: 'a', index: 0 })
  const qb = parseProfile(b, fn, { who: 'b', index: 1 })
  if (a.time !== b.time)
    throw new MarketDataError('incompatible', FOOTPRINT_MSG.mergeBucket(a.time, b.time), { field: 'time' })
  if (a.end !== b.end) throw new MarketDataError('incompatible', FOOTPRINT_MSG.mergeEnd(a.end, b.end), { field: 'end' })
  return combineProfiles(
    [
      { p: a, q: qa },
      { p: b, q: qb },
    ],
    a.time,
    a.end,
    fn,
  )
}
