import { formatUnits, type ExactDecimal } from '../decimal/index.js'
import { readDaySession } from './day-session.js'
import { atLeast, splittingZone, type DistributionRule } from './double-distribution.js'
import { decimalOption, integerOption, readOptions, unreadableAsError } from './options.js'
import type { AnyTpoProfile, DayTypeOptions, DayTypeResult } from './types.js'

const FN = 'dayType'
const KEYS = [
  'trendRangeMultiple',
  'normalMaxExtension',
  'extremeCloseShare',
  'singlePrintRows',
  'distributionMinShare',
  'distributionMinTpos',
  'narrowRange',
] as const

/** `a <= f x b`. */
const atMost = (a: bigint, f: ExactDecimal, b: bigint) => a * 10n ** BigInt(f.scale) <= f.units * b

/** The double-distribution thresholds of an options object (`fn` names the function in errors). */
export function distributionRule(fn: string, o: Record<string, unknown>): DistributionRule {
  return {
    minRows: integerOption(fn, 'singlePrintRows', o.singlePrintRows, 2, 1, 1_000_000),
    minShare: decimalOption(fn, 'distributionMinShare', o.distributionMinShare, '0.2', '0', '0.5'),
    minTpos: integerOption(fn, 'distributionMinTpos', o.distributionMinTpos, 3, 2, 1_000_000),
  }
}

/**
 * The day type of one TPO profile from its initial balance (Dalton, Mind over Markets, "Day types"), by
 * these rules, in this order, with every threshold an option (R = high - low, I = IB high - IB low,
 * extension = high above the IB high and / or low below the IB low, traded prices):
 *
 * 1. double-distribution: two areas of value split by a thin zone — a run of at least `singlePrintRows` (2)
 *    rows inside the profile holding at most one TPO each (single prints, or rows no block traded), with at
 *    least `distributionMinShare` (0.2) of all TPOs and a row of at least `distributionMinTpos` (3) TPOs (a
 *    rotation) on each side.
 * 2. neutral-extreme / neutral-center: range extension on both sides; extreme when the close lies in the
 *    `extremeCloseShare` (0.25) of the range at the high or at the low, else centre.
 * 3. trend: extension on one side only, R >= `trendRangeMultiple` (2) x I, and the close in the
 *    `extremeCloseShare` of the range at the extension's end.
 * 4. normal / non-trend: no extension, or one side with (R - I) <= `normalMaxExtension` (0.15) x R (a wide
 *    IB holds nearly the whole day); non-trend instead when `narrowRange` is given and R <= narrowRange
 *    (a narrow, quiet day — "narrow" needs the instrument's scale, so it has no default).
 * 5. normal-variation: any other one-sided extension.
 *
 * The day type is the day session's: give the main-session profile (grouped `MAINSESSION`, or built with
 * `sessions: ['MAINSESSION']`); a merged profile with blocks before its main session, or a PRE_MARKET /
 * POST_MARKET profile, is refused (`profileAnalytics` takes the main session as an option). Profiles from
 * candles work as trade ones (the rules read prices and TPO counts only).
 *
 * @param profile - a TPO profile (trades or candles) with an initial balance
 * @param options - thresholds (see {@link DayTypeOptions})
 * @returns `{ type, extension, range, ibRange, reason }`
 * @throws MarketDataError `invalid_option` for a profile without initial balance or that is not a day
 *   session, a footprint, a malformed profile or a bad option
 * @example
 * dayType(day) // { type: 'normal-variation', extension: 'up', range: '12.5', ibRange: '6.25', reason: '...' }
 */
export function dayType(profile: AnyTpoProfile, options?: DayTypeOptions): DayTypeResult {
  return unreadableAsError('dayType', () => {
    const o = readOptions(FN, options, KEYS)
    const trendM = decimalOption(FN, 'trendRangeMultiple', o.trendRangeMultiple, '2', '1')
    const normalMax = decimalOption(FN, 'normalMaxExtension', o.normalMaxExtension, '0.15', '0', '1')
    const extreme = decimalOption(FN, 'extremeCloseShare', o.extremeCloseShare, '0.25', '0', '0.5')
    const rule = distributionRule(FN, o)
    const narrow =
      o.narrowRange === undefined
        ? undefined
        : decimalOption(FN, 'narrowRange', o.narrowRange, '0', '0', undefined, 'must be a decimal price distance >= 0')
    const d = readDaySession(profile, FN)
    const s = Math.max(d.scale, narrow?.scale ?? 0)
    const f = 10n ** BigInt(s - d.scale)
    const [H, L, C, IH, IL] = [d.high * f, d.low * f, d.close * f, d.ibHigh * f, d.ibLow * f]
    const R = H - L
    const I = IH - IL
    const up = H > IH
    const down = L < IL
    const extension: DayTypeResult['extension'] = up && down ? 'both' : up ? 'up' : down ? 'down' : 'none'
    const nearHigh = atMost(H - C, extreme, R)
    const nearLow = atMost(C - L, extreme, R)
    const done = (type: DayTypeResult['type'], reason: string): DayTypeResult => ({
      type,
      extension,
      range: formatUnits(R, s),
      ibRange: formatUnits(I, s),
      reason,
    })
    const run = splittingZone(d.h.counts as number[], rule)
    if (run !== undefined)
      return done(
        'double-distribution',
        `${run.b - run.a + 1} thin rows (single prints or untraded) split the profile into two areas of value, each with at least ${formatUnits(rule.minShare.units, rule.minShare.scale)} of the TPOs and a row of ${rule.minTpos} or more`,
      )
    if (extension === 'both') {
      return nearHigh || nearLow
        ? done('neutral-extreme', 'range extension on both sides, close near an extreme')
        : done('neutral-center', 'range extension on both sides, close in the middle of the range')
    }
    const narrowDay = narrow !== undefined && R <= narrow.units * 10n ** BigInt(s - narrow.scale)
    const quiet = (why: string) =>
      narrowDay ? done('non-trend', `${why}; range within narrowRange`) : done('normal', why)
    if (extension === 'none') return quiet('no range extension beyond the initial balance')
    if (atLeast(R, trendM, I) && (up ? nearHigh : nearLow))
      return done(
        'trend',
        `one-sided extension ${extension}, range >= ${formatUnits(trendM.units, trendM.scale)} x IB, close near the ${up ? 'high' : 'low'}`,
      )
    if (atMost(R - I, normalMax, R))
      return quiet(
        `one-sided extension ${extension} within ${formatUnits(normalMax.units, normalMax.scale)} of the range`,
      )
    return done(
      'normal-variation',
      `one-sided extension ${extension} beyond ${formatUnits(normalMax.units, normalMax.scale)} of the range`,
    )
  })
}
