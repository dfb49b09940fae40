import { isArray } from '../_lib/describe.js'
import { MarketDataError } from '../errors.js'
import { dayType } from './day-type.js'
import { poorExtremes, singlePrintZones } from './extremes.js'
import { isTpo, readHistogram } from './histogram.js'
import { ANALYTICS_MSG } from './messages.js'
import { volumeNodes } from './nodes.js'
import { balancedTarget, openRange } from './open-range.js'
import { readOptions, unreadableAsError } from './options.js'
import type {
  AnalyticsProfile,
  AnyTpoProfile,
  BalancedTarget,
  DayTypeResult,
  OpenRange,
  PoorExtremes,
  SinglePrintZone,
  ValueMigration,
  VolumeNodes,
} from './types.js'
import { valueMigration } from './value-migration.js'

/** Every analytic that applies to one profile (null where the profile cannot give it). */
export interface ProfileAnalytics {
  /** TPO profiles: the first main-session block's range; null for footprints. */
  openRange: OpenRange | null
  balancedTarget: BalancedTarget
  /** Volume nodes; null for candle profiles (row volumes unknown). */
  volumeNodes: VolumeNodes | null
  /** TPO-count nodes; null for footprints. */
  tpoNodes: VolumeNodes | null
  /** Against `previous` when given, else null. */
  valueMigration: ValueMigration | null
  /** TPO profiles with an initial balance, with the default thresholds; else null. */
  dayType: DayTypeResult | null
  poorExtremes: PoorExtremes
  /** TPO profiles only; null for footprints. */
  singlePrintZones: SinglePrintZone[] | null
}

/**
 * Every analytic of this folder that applies to one profile, with default options: what the CLI's
 * `--analytics` prints and a chart can annotate. Rules that need what the profile lacks give null
 * (volume nodes of a candle profile, TPO rules of a footprint, a day type without initial balance).
 *
 * @param profile - a TPO profile (trades or candles) or a footprint profile
 * @param options - `{ previous? }`: the previous period's profile, for the value migration
 * @returns the analytics, plain data
 * @throws MarketDataError `invalid_option` for a malformed profile or option
 * @example
 * profileAnalytics(days[1], { previous: days[0] }).valueMigration?.relation // 'overlapping-higher'
 */
export function profileAnalytics(
  profile: AnalyticsProfile,
  options?: { previous?: AnalyticsProfile },
): ProfileAnalytics {
  return unreadableAsError('profileAnalytics', () => {
    const fn = 'profileAnalytics'
    const o = readOptions(fn, options, ['previous'])
    if (typeof profile !== 'object' || profile === null || isArray(profile))
      throw new MarketDataError('invalid_option', ANALYTICS_MSG.notProfile(fn, 'profile', profile), {
        field: 'profile',
      })
    const h = readHistogram(profile, fn)
    const tpo = isTpo(profile)
    const ib = (profile as { initialBalance?: unknown }).initialBalance
    return {
      openRange: tpo ? openRange(profile as AnyTpoProfile) : null,
      balancedTarget: balancedTarget(profile),
      volumeNodes: h.kind === 'tpo-candles' ? null : volumeNodes(profile, { source: 'volume' }),
      tpoNodes: tpo ? volumeNodes(profile, { source: 'tpo' }) : null,
      valueMigration: o.previous === undefined ? null : valueMigration(o.previous as AnalyticsProfile, profile),
      dayType: tpo && ib !== null && ib !== undefined ? dayType(profile as AnyTpoProfile) : null,
      poorExtremes: poorExtremes(profile),
      singlePrintZones: tpo ? singlePrintZones(profile as AnyTpoProfile) : null,
    }
  })
}
