import { isArray } from '../_lib/describe.js'
import { formatFixed, formatUnits } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { daySessionsOf } from './day-session.js'
import { priceField, rowPriceOf } from './histogram.js'
import { ANALYTICS_MSG } from './messages.js'
import { unreadableAsError } from './options.js'
import type { ValueAreaTrendEntry } from './read-types.js'
import { pocAndValueArea, seriesOf } from './series.js'
import type { AnalyticsProfile, ValueMigrationOptions } from './types.js'
import { profileValue, resolveMigrationOptions } from './value-migration.js'

const FN = 'valueAreaTrend'

/**
 * Value-area width and volume-POC migration across periods (Dalton, Markets in Profile: narrowing value
 * foreshadows a break-out of balance; a volume POC that moves with price says value is being accepted
 * there). Per profile: the value area (as {@link valueMigration} reads it: TPO value area, or `basis:
 * 'volume'`; a footprint's volume value area), its `width` (rows x rowSizeValue, the price height of its
 * rows) and `widthChange` against the entry before; the volume POC (null for candle profiles, which have
 * no row volumes), its `volumePocShift` (exact price difference) and `volumePocDirection`. A grouped
 * (GROUP_BY_TYPE) list reads its MAINSESSION profiles only.
 *
 * @param profiles - profiles of consecutive periods, in time order (TPO from trades or candles, footprints)
 * @param options - `{ basis?, valueAreaPercent? }`, as {@link valueMigration}
 * @returns one entry per profile read, in the order given
 * @throws MarketDataError `invalid_option` for a malformed profile or option, `basis: 'volume'` on a candle profile
 * @example
 * valueAreaTrend(days).map((d) => [d.width, d.widthChange, d.volumePocDirection]) // [['6', null, null], ['4', 'narrower', 'up']]
 */
export function valueAreaTrend(
  profiles: readonly AnalyticsProfile[],
  options?: ValueMigrationOptions,
): ValueAreaTrendEntry[] {
  return unreadableAsError(FN, () => {
    const o = resolveMigrationOptions(FN, options)
    if (!isArray(profiles))
      throw new MarketDataError('invalid_option', ANALYTICS_MSG.noProfiles(FN), { field: 'profiles' })
    const out: ValueAreaTrendEntry[] = []
    let prev: { width: bigint; poc: bigint | null; scale: number } | undefined
    for (const { p, i } of daySessionsOf<AnalyticsProfile>(profiles)) {
      const who = `profiles[${i}]`
      const v = profileValue(p, who, FN, o.basis, o.percent)
      const h = v.h
      let poc: bigint | null = null
      let pocText: string | null = null
      if (h.kind === 'footprint') {
        const r = pocAndValueArea(seriesOf(h, 'volume', FN, ''), o.percent)
        pocText = rowPriceOf(h, r.poc)
      } else if (h.kind === 'tpo') {
        const d = priceField(FN, who, p, 'volumePoc')
        pocText = formatFixed(d.units, d.scale, h.decimals)
      }
      if (pocText !== null) {
        const d = priceField(FN, who, { volumePoc: pocText }, 'volumePoc')
        poc = d.units * 10n ** BigInt(v.scale - d.scale)
      }
      const width = v.top - v.low
      const scale = Math.max(v.scale, prev?.scale ?? 0)
      const at = (x: bigint, s: number) => x * 10n ** BigInt(scale - s)
      const entry: ValueAreaTrendEntry = {
        time: v.time,
        valueAreaLow: v.valueAreaLow,
        valueAreaHigh: v.valueAreaHigh,
        width: formatUnits(width, v.scale),
        rows: Number(width / v.rs),
        widthChange: null,
        volumePoc: pocText,
        volumePocShift: null,
        volumePocDirection: null,
      }
      const st = (p as { sessionType?: ValueAreaTrendEntry['sessionType'] }).sessionType
      if (st !== undefined) entry.sessionType = st
      if (prev !== undefined) {
        const a = at(prev.width, prev.scale)
        const b = at(width, v.scale)
        entry.widthChange = b > a ? 'wider' : b < a ? 'narrower' : 'same'
        if (prev.poc !== null && poc !== null) {
          const shift = at(poc, v.scale) - at(prev.poc, prev.scale)
          entry.volumePocShift = formatUnits(shift, scale)
          entry.volumePocDirection = shift > 0n ? 'up' : shift < 0n ? 'down' : 'unchanged'
        }
      }
      out.push(entry)
      prev = { width, poc, scale: v.scale }
    }
    return out
  })
}
