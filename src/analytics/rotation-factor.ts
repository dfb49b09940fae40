import { readDaySession } from './day-session.js'
import { unreadableAsError } from './options.js'
import type { RotationFactor, RotationPeriod } from './read-types.js'
import type { AnyTpoProfile } from './types.js'

const sign = (a: bigint, b: bigint): -1 | 0 | 1 => (a > b ? 1 : a < b ? -1 : 0)

/**
 * The rotation factor of a day session (Jones and Dalton; the CBOT Market Profile handbook): each period
 * (block) from the second on scores +1 when its high is above the previous period's high, -1 when below,
 * 0 when equal, and the same for its low; the period's factor is the sum (-2..2), the day's the sum of
 * the periods'. A positive day says buyers controlled the rotations, a negative one sellers. Traded
 * block extremes, compared exactly; a one-block day has no periods and a total of 0.
 *
 * Mirroring prices negates every factor (a law the tests check).
 *
 * @param profile - the day session's TPO profile (trades or candles): grouped `MAINSESSION`, built with
 *   `sessions: ['MAINSESSION']`, or a merged profile without pre-market blocks
 * @returns `{ periods: [{ start, high, low, factor }], total }`
 * @throws MarketDataError `invalid_option` for a footprint, a profile that is not a day session, a
 *   malformed profile
 * @example
 * rotationFactor(day).total // 3
 */
export function rotationFactor(profile: AnyTpoProfile): RotationFactor {
  return unreadableAsError('rotationFactor', () => {
    const d = readDaySession(profile, 'rotationFactor')
    const periods: RotationPeriod[] = []
    let total = 0
    for (let i = 1; i < d.blocks.length; i++) {
      const a = d.blocks[i - 1]!
      const b = d.blocks[i]!
      const high = sign(b.high, a.high)
      const low = sign(b.low, a.low)
      periods.push({ start: b.start, high, low, factor: high + low })
      total += high + low
    }
    return { periods, total }
  })
}
