import { formatUnits, type ExactDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { profileShape } from '../tpo/profile-shape.js'
import { priceField, readTpoHistogram } from './histogram.js'
import { ANALYTICS_MSG } from './messages.js'
import { decimalOption, integerOption, readOptions, unreadableAsError } from './options.js'
import type { AnyTpoProfile, DayTypeOptions, DayTypeResult } from './types.js'

const FN = 'dayType'
const KEYS = [
  'trendRangeMultiple',
  'normalMaxExtension',
  'extremeCloseShare',
  'singlePrintRows',
  'distributionMinShare',
  'narrowRange',
] as const

/** `a >= f x b` for units a, b and an exact factor f. */
const atLeast = (a: bigint, f: ExactDecimal, b: bigint) => a * 10n ** BigInt(f.scale) >= f.units * b
/** `a <= f x b`. */
const atMost = (a: bigint, f: ExactDecimal, b: bigint) => a * 10n ** BigInt(f.scale) <= f.units * b

/**
 * The first run of at least `minRows` consecutive single-print rows inside the profile with at least
 * `share` of all TPOs on each side of it, or undefined.
 */
function splittingRun(counts: number[], minRows: number, share: ExactDecimal): { a: number; b: number } | undefined {
  const s = profileShape(counts).singlePrints
  let total = 0n
  for (const c of counts) total += BigInt(c)
  for (let i = 0; i < s.length; ) {
    let j = i
    while (j + 1 < s.length && s[j + 1] === (s[j] as number) + 1) j++
    const a = s[i] as number
    const b = s[j] as number
    if (b - a + 1 >= minRows) {
      let below = 0n
      for (let k = 0; k < a; k++) below += BigInt(counts[k] as number)
      let above = 0n
      for (let k = b + 1; k < counts.length; k++) above += BigInt(counts[k] as number)
      if (atLeast(below, share, total) && atLeast(above, share, total)) return { a, b }
    }
    i = j + 1
  }
  return undefined
}

/**
 * The day type of one TPO profile from its initial balance (Dalton, Mind over Markets, "Day types"), by
 * these rules, in this order, with every threshold an option (R = high - low, I = IB high - IB low,
 * extension = high above the IB high and / or low below the IB low, traded prices):
 *
 * 1. double-distribution: a run of at least `singlePrintRows` (2) single-print rows inside the profile with
 *    at least `distributionMinShare` (0.2) of all TPOs on each side — two distributions split by single prints.
 * 2. neutral-extreme / neutral-center: range extension on both sides; extreme when the close lies in the
 *    `extremeCloseShare` (0.25) of the range at the high or at the low, else centre.
 * 3. trend: extension on one side only, R >= `trendRangeMultiple` (2) x I, and the close in the
 *    `extremeCloseShare` of the range at the extension's end.
 * 4. normal / non-trend: no extension, or one side with (R - I) <= `normalMaxExtension` (0.15) x R (a wide
 *    IB holds nearly the whole day); non-trend instead when `narrowRange` is given and R <= narrowRange
 *    (a narrow, quiet day — "narrow" needs the instrument's scale, so it has no default).
 * 5. normal-variation: any other one-sided extension.
 *
 * Profiles from candles work as trade ones (the rules read prices and TPO counts only).
 *
 * @param profile - a TPO profile (trades or candles) with an initial balance
 * @param options - thresholds (see {@link DayTypeOptions})
 * @returns `{ type, extension, range, ibRange, reason }`
 * @throws MarketDataError `invalid_option` for a profile without initial balance, a footprint, a malformed
 *   profile or a bad option
 * @example
 * dayType(day) // { type: 'normal-variation', extension: 'up', range: '12.5', ibRange: '6.25', reason: '...' }
 */
export function dayType(profile: AnyTpoProfile, options?: DayTypeOptions): DayTypeResult {
  return unreadableAsError('dayType', () => {
    const o = readOptions(FN, options, KEYS)
    const trendM = decimalOption(FN, 'trendRangeMultiple', o.trendRangeMultiple, '2', '1')
    const normalMax = decimalOption(FN, 'normalMaxExtension', o.normalMaxExtension, '0.15', '0', '1')
    const extreme = decimalOption(FN, 'extremeCloseShare', o.extremeCloseShare, '0.25', '0', '0.5')
    const minRows = integerOption(FN, 'singlePrintRows', o.singlePrintRows, 2, 1, 1_000_000)
    const minShare = decimalOption(FN, 'distributionMinShare', o.distributionMinShare, '0.2', '0', '0.5')
    const narrow =
      o.narrowRange === undefined
        ? undefined
        : decimalOption(FN, 'narrowRange', o.narrowRange, '0', '0', undefined, 'must be a decimal price distance >= 0')
    const h = readTpoHistogram(profile, FN)
    const ib = (profile as { initialBalance?: unknown }).initialBalance
    if (ib === null || typeof ib !== 'object')
      throw new MarketDataError('invalid_option', ANALYTICS_MSG.noInitialBalance(FN, 'profile'), {
        field: 'initialBalance',
      })
    const ds = [
      priceField(FN, 'profile', profile, 'high'),
      priceField(FN, 'profile', profile, 'low'),
      priceField(FN, 'profile', profile, 'close'),
      priceField(FN, 'profile.initialBalance', ib, 'high'),
      priceField(FN, 'profile.initialBalance', ib, 'low'),
    ]
    const s = Math.max(...ds.map((d) => d.scale), narrow?.scale ?? 0)
    const [H, L, C, IH, IL] = ds.map((d) => d.units * 10n ** BigInt(s - d.scale)) as [
      bigint,
      bigint,
      bigint,
      bigint,
      bigint,
    ]
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
    const run = splittingRun(h.counts as number[], minRows, minShare)
    if (run !== undefined)
      return done(
        'double-distribution',
        `${run.b - run.a + 1} single-print rows split the profile, each side holding at least ${formatUnits(minShare.units, minShare.scale)} of the TPOs`,
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
