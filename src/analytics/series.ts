import { MarketDataError } from '../errors.js'
import { pocIndex } from '../profile/point-of-control.js'
import { resolveValueAreaPercent } from '../tpo/options.js'
import { valueAreaRange } from '../profile/value-area.js'
import { totalVolumes, type Histogram } from './histogram.js'
import { ANALYTICS_MSG } from './messages.js'

/** What a histogram rule reads: buy + sell volume per row, or TPOs per row. */
export type ProfileSource = 'volume' | 'tpo'

/**
 * The values of one source per row (dense, ascending price). Refuses what the profile cannot give:
 * volumes of a candle profile (`hint` says what to use instead), TPO counts of a footprint.
 */
export function seriesOf(h: Histogram, source: ProfileSource, fn: string, hint: string, option = 'source'): bigint[] {
  if (source === 'tpo') {
    if (h.counts === null)
      throw new MarketDataError('invalid_option', ANALYTICS_MSG.noTpoCounts(fn, h.who, option), { field: option })
    return h.counts.map((c) => BigInt(c))
  }
  const v = totalVolumes(h)
  if (v === null)
    throw new MarketDataError('invalid_option', ANALYTICS_MSG.noVolumes(fn, h.who, hint), { field: 'rows' })
  return v
}

/** POC and value area (row indexes) of a dense series, by the library's own rules (see tpo/point-of-control, tpo/value-area). */
export function pocAndValueArea(
  values: readonly bigint[],
  valueAreaPercent: number,
): { poc: number; low: number; high: number } {
  const poc = pocIndex(values)
  const r = valueAreaRange(values, poc, resolveValueAreaPercent(valueAreaPercent).exact)
  return { poc, low: r.low, high: r.high }
}
