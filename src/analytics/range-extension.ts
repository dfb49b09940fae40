import { formatUnits } from '../decimal/index.js'
import { readDaySession } from './day-session.js'
import { unreadableAsError } from './options.js'
import type { ExtensionSide, RangeExtension } from './read-types.js'
import type { AnyTpoProfile } from './types.js'

/** `a / b` floored to 2 decimals (a >= 0, b > 0). */
export function ratioText(a: bigint, b: bigint): string {
  return formatUnits((a * 100n) / b, 2)
}

/**
 * Range extension of a day session in IB multiples (Dalton; Steidlmayer): how far the day traded beyond
 * its initial balance, measured from the IB's own extremes — up = (high - IB high) / (IB high - IB low),
 * down = (IB low - low) / (IB high - IB low); an up multiple of 1.5 puts the high one and a half IB ranges
 * above the IB high. Traded prices, exact;
 * multiples floored to 2 decimals, null when the IB range is 0 (one price in the IB). An IB equal to the
 * range has no extension on either side.
 *
 * @param profile - the day session's TPO profile (trades or candles; see {@link rotationFactor})
 * @returns `{ ibHigh, ibLow, ibRange, sides, up: { distance, multiple }, down: { distance, multiple } }`
 * @throws MarketDataError `invalid_option` for a footprint, a profile that is not a day session, a
 *   malformed profile
 * @example
 * rangeExtension(day) // { ibHigh: '106', ibLow: '100', ibRange: '6', sides: 'up', up: { distance: '9', multiple: '1.5' }, down: { distance: '0', multiple: '0' } }
 */
export function rangeExtension(profile: AnyTpoProfile): RangeExtension {
  return unreadableAsError('rangeExtension', () => {
    const d = readDaySession(profile, 'rangeExtension')
    const I = d.ibHigh - d.ibLow
    const side = (x: bigint): ExtensionSide => {
      const dist = x > 0n ? x : 0n
      return { distance: formatUnits(dist, d.scale), multiple: I > 0n ? ratioText(dist, I) : null }
    }
    const up = d.high > d.ibHigh
    const down = d.low < d.ibLow
    return {
      ibHigh: d.ibHighText,
      ibLow: d.ibLowText,
      ibRange: formatUnits(I, d.scale),
      sides: up && down ? 'both' : up ? 'up' : down ? 'down' : 'none',
      up: side(d.high - d.ibHigh),
      down: side(d.ibLow - d.low),
    }
  })
}
