import { formatFixed, type ExactDecimal } from '../decimal/index.js'
import { readDaySession } from './day-session.js'
import { priceField } from './histogram.js'
import { unreadableAsError } from './options.js'
import type { OpenLocation, OpenLocationName } from './read-types.js'
import type { AnyTpoProfile } from './types.js'

const FN = 'openLocation'

/**
 * Where the day session opened against the previous day session (Dalton, Mind over Markets: the open's
 * relation to yesterday's value and range; the setup of the "80% rule"). The previous value area is the
 * interval of its rows, `[valueAreaLow, valueAreaHigh + rowSizeValue)` (as {@link valueMigration}); its
 * range the traded `[low, high]`. In this order: `above-range` (open > previous high), `below-range`
 * (open < previous low), `above-value` (open at or above the value area's top), `below-value` (open below
 * its low), else `in-value`.
 *
 * For an open outside value, `reentry` is the start of the second of the first two consecutive blocks
 * (of the day session, the first block included) that trade inside the previous value area — the 80%
 * rule's trigger (two consecutive periods back in value; the rule then expects the whole value area to
 * be traversed, which is a statistic of the source, not of this library).
 *
 * @param profile - the day session's TPO profile (trades or candles; see {@link rotationFactor})
 * @param previous - the previous day session's TPO profile
 * @returns `{ location, open, previousValueArea, previousRange, reentry }`
 * @throws MarketDataError `invalid_option` for a footprint, a profile that is not a day session, a
 *   malformed profile
 * @example
 * openLocation(today, yesterday) // { location: 'above-value', open: '106', previousValueArea: { low: '100', high: '104' }, previousRange: { low: '98', high: '110' }, reentry: 1780308000000 }
 */
export function openLocation(profile: AnyTpoProfile, previous: AnyTpoProfile): OpenLocation {
  return unreadableAsError(FN, () => {
    const d = readDaySession(profile, FN)
    const p = readDaySession(previous, FN, 'previous')
    const val = priceField(FN, 'previous', previous, 'valueAreaLow')
    const vah = priceField(FN, 'previous', previous, 'valueAreaHigh')
    const s = Math.max(d.scale, p.scale, val.scale, vah.scale)
    const u = (x: bigint, from: number) => x * 10n ** BigInt(s - from)
    const ex = (x: ExactDecimal) => u(x.units, x.scale)
    const O = u(d.open, d.scale)
    const low = ex(val)
    const top = ex(vah) + u(p.rowUnits, p.scale)
    const pHigh = u(p.high, p.scale)
    const pLow = u(p.low, p.scale)
    const location: OpenLocationName =
      O > pHigh
        ? 'above-range'
        : O < pLow
          ? 'below-range'
          : O >= top
            ? 'above-value'
            : O < low
              ? 'below-value'
              : 'in-value'
    let reentry: number | null = null
    if (location !== 'in-value') {
      const inValue = d.blocks.map((b) => u(b.low, d.scale) < top && u(b.high, d.scale) >= low)
      for (let i = 1; i < inValue.length && reentry === null; i++)
        if (inValue[i - 1] && inValue[i]) reentry = d.blocks[i]!.start
    }
    return {
      location,
      open: d.openText,
      previousValueArea: {
        low: formatFixed(val.units, val.scale, p.h.decimals),
        high: formatFixed(vah.units, vah.scale, p.h.decimals),
      },
      previousRange: { low: (previous as { low: string }).low, high: (previous as { high: string }).high },
      reentry,
    }
  })
}
