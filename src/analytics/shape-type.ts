import { formatUnits } from '../decimal/index.js'
import { distributionRule } from './day-type.js'
import { splittingZone } from './double-distribution.js'
import { readTpoHistogram } from './histogram.js'
import { decimalOption, readOptions, unreadableAsError } from './options.js'
import type { ProfileShapeOptions, ProfileShapeResult } from './read-types.js'
import type { AnyTpoProfile } from './types.js'

const FN = 'profileShapeType'
const KEYS = ['thinMeanTpos', 'shapeRatio', 'singlePrintRows', 'distributionMinShare', 'distributionMinTpos'] as const

/**
 * The shape of a TPO profile (Dalton, Markets in Profile), from its TPO counts per row, in this order:
 *
 * 1. `B`: a double distribution — two areas of value split by a thin zone (the day type's rule and options).
 * 2. `thin`: an elongated profile, fewer than `thinMeanTpos` (2) TPOs per row on average (a trend's).
 * 3. `P`: the rows above the profile's middle hold at least `shapeRatio` (2) times the TPOs of the rows
 *    below it (a fat top over a thin lower part: short covering, or buying that found value higher).
 * 4. `b`: the mirror of P (a fat bottom: long liquidation).
 * 5. `D`: otherwise, a balanced profile.
 *
 * The middle is the middle of the row range; with an odd number of rows the middle row counts on neither
 * side. The rules read counts only, never the POC or value area (whose tie rules are not symmetric), so a
 * profile and its mirror image swap P and b and keep the other shapes (a law the tests check).
 *
 * @param profile - a TPO profile (trades or candles)
 * @param options - thresholds (see {@link ProfileShapeOptions})
 * @returns `{ shape, upperTpos, lowerTpos, meanTpos, reason }`
 * @throws MarketDataError `invalid_option` for a footprint, a malformed profile, a bad option
 * @example
 * profileShapeType(day) // { shape: 'P', upperTpos: 30, lowerTpos: 8, meanTpos: '2.71', reason: '...' }
 */
export function profileShapeType(profile: AnyTpoProfile, options?: ProfileShapeOptions): ProfileShapeResult {
  return unreadableAsError(FN, () => {
    const o = readOptions(FN, options, KEYS)
    const thin = decimalOption(FN, 'thinMeanTpos', o.thinMeanTpos, '2', '0')
    const ratio = decimalOption(FN, 'shapeRatio', o.shapeRatio, '2', '1')
    const rule = distributionRule(FN, o)
    const h = readTpoHistogram(profile, FN)
    const c = h.counts as number[]
    const n = c.length
    let total = 0
    let upper = 0
    let lower = 0
    for (let i = 0; i < n; i++) {
      total += c[i] as number
      if (2 * i > n - 1) upper += c[i] as number
      else if (2 * i < n - 1) lower += c[i] as number
    }
    const mean = formatUnits((BigInt(total) * 100n) / BigInt(n), 2)
    const out = (shape: ProfileShapeResult['shape'], reason: string): ProfileShapeResult => ({
      shape,
      upperTpos: upper,
      lowerTpos: lower,
      meanTpos: mean,
      reason,
    })
    const k = 10n ** BigInt(ratio.scale)
    const zone = splittingZone(c, rule)
    if (zone !== undefined) return out('B', 'two areas of value split by a thin zone (a double distribution)')
    if (BigInt(total) * 10n ** BigInt(thin.scale) < thin.units * BigInt(n))
      return out('thin', `fewer than ${formatUnits(thin.units, thin.scale)} TPOs per row on average`)
    const times = formatUnits(ratio.units, ratio.scale)
    if (upper > lower && BigInt(upper) * k >= ratio.units * BigInt(lower))
      return out('P', `the upper half holds at least ${times} x the TPOs of the lower half`)
    if (lower > upper && BigInt(lower) * k >= ratio.units * BigInt(upper))
      return out('b', `the lower half holds at least ${times} x the TPOs of the upper half`)
    return out('D', 'TPOs balanced about the middle of the range')
  })
}
