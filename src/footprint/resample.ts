import { MarketDataError } from '../errors.js'
import { bucketEnd, bucketStart, createBucketer, resolveTimeframe, type TimeframeInput } from '../time/index.js'
import { combineProfiles, type ParsedItem } from './combine.js'
import { FOOTPRINT_MSG } from './messages.js'
import { parseProfile } from './rowset.js'
import type { FootprintProfile } from './types.js'
import { checkOptions } from '../_lib/closed-options.js'

/** Options of {@link resampleFootprint}. */
export interface ResampleFootprintOptions {
  /** The coarser frame: an id or a Timeframe object (any count >= 1). */
  timeframe: TimeframeInput
  /** IANA zone of the coarse alignment (default `UTC`). */
  timeZone?: string
}

/**
 * Combines fine profiles (e.g. 1m) into a coarser frame (e.g. 1h): every fine bucket must lie in one coarse
 * bucket (else `MarketDataError` `incompatible`); profiles of one coarse bucket are added exactly as by
 * {@link mergeFootprintProfiles} (same grid required). Input in any order; output in time order, one
 * profile per coarse bucket that has input. Equals aggregating the trades at the coarse frame.
 *
 * @param profiles - profiles as the library returned them
 * @param opts - options, see {@link ResampleFootprintOptions}
 * @returns the `FootprintProfile[]`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * resampleFootprint(footprintProfiles(trades, { timeframe: '1m', tickSize: '0.25' }), { timeframe: '1h' })
 */
export function resampleFootprint(
  profiles: readonly FootprintProfile[],
  opts: ResampleFootprintOptions,
): FootprintProfile[] {
  const fn = 'resampleFootprint'
  if (typeof opts !== 'object' || opts === null)
    throw new MarketDataError('invalid_option', FOOTPRINT_MSG.optionsMissing(fn))
  checkOptions(opts, ['timeframe', 'timeZone'], fn)
  const tf = resolveTimeframe(opts.timeframe)
  if (tf.unit === 'TICK')
    throw new MarketDataError('invalid_option', FOOTPRINT_MSG.tickFrame(tf.id), { field: 'timeframe' })
  const zone = opts.timeZone === undefined ? {} : { timeZone: opts.timeZone }
  createBucketer(tf, zone) // validates the zone up front (also when there are no profiles)
  if (!Array.isArray(profiles)) throw new MarketDataError('invalid_option', FOOTPRINT_MSG.notProfile(fn))
  const groups = new Map<number, { end: number; ps: ParsedItem[] }>()
  for (let i = 0; i < profiles.length; i++) {
    const p = profiles[i] as FootprintProfile
    const q = parseProfile(p, fn, { who: `profiles[${i}]`, index: i })
    const s = bucketStart(p.time, tf, zone)
    const e = bucketEnd(p.time, tf, zone)
    if (p.end > e || p.end <= p.time)
      throw new MarketDataError('incompatible', FOOTPRINT_MSG.resampleNest(p.time, p.end, tf.id), {
        index: i,
        field: 'time',
      })
    let g = groups.get(s)
    if (g === undefined) {
      g = { end: e, ps: [] }
      groups.set(s, g)
    }
    g.ps.push({ p, q })
  }
  return [...groups.entries()].sort((a, b) => a[0] - b[0]).map(([s, g]) => combineProfiles(g.ps, s, g.end, fn))
}
