import { isArray } from '../_lib/describe.js'
import { MarketDataError } from '../errors.js'
import { checkDaySession } from './day-session.js'
import { dayType } from './day-type.js'
import { poorExtremes, singlePrintZones } from './extremes.js'
import { isTpo, readHistogram } from './histogram.js'
import { ANALYTICS_MSG } from './messages.js'
import { volumeNodes } from './nodes.js'
import { openLocation } from './open-location.js'
import { balancedTarget, mainSessionOf, openRange } from './open-range.js'
import { openType } from './open-type.js'
import { readOptions, unreadableAsError } from './options.js'
import { rangeExtension } from './range-extension.js'
import type { OpenLocation, OpenType, ProfileShapeResult, RangeExtension, RotationFactor, Spike } from './read-types.js'
import { rotationFactor } from './rotation-factor.js'
import { profileShapeType } from './shape-type.js'
import { spike } from './spike.js'
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

/** Options of {@link profileAnalytics}. */
export interface ProfileAnalyticsOptions {
  /** The previous period's profile, for the value migration (and, when it is a day session, the open's reads). */
  previous?: AnalyticsProfile
  /**
   * The period's main-session profile, when `profile` is a merged one (MERGE_ALL) of data with sessions:
   * the grouped `MAINSESSION` profile of the same period, or the profile built with `sessions: ['MAINSESSION']`.
   * The day-session reads use it.
   */
  mainSession?: AnyTpoProfile
  /** The previous period's main-session profile, for the open against the previous day session. */
  previousMainSession?: AnyTpoProfile
}

/** Every analytic that applies to one profile (null where the profile cannot give it). */
export interface ProfileAnalytics {
  /**
   * Which profile the day-session reads (open range, IB projection, day type, rotation factor, open type
   * and location, range extension, shape, spike) used: `'main-session'` (the `mainSession` option, or a
   * grouped MAINSESSION profile), `'profile'` (a merged profile without blocks before its main session,
   * read as the day session: right unless it holds post-market trades, which a merged profile cannot
   * show), or null (no day session: footprints, PRE_MARKET / POST_MARKET profiles, profiles without
   * main-session trades, merged profiles with pre-market blocks and no `mainSession`).
   */
  daySession: 'main-session' | 'profile' | null
  /** TPO profiles: the first main-session block's range; null for footprints. */
  openRange: OpenRange | null
  balancedTarget: BalancedTarget
  /** Volume nodes; null for candle profiles (row volumes unknown). */
  volumeNodes: VolumeNodes | null
  /** TPO-count nodes; null for footprints. */
  tpoNodes: VolumeNodes | null
  /** Against `previous` when given, else null. */
  valueMigration: ValueMigration | null
  /** The day session's type with the default thresholds; null without a day session. */
  dayType: DayTypeResult | null
  rotationFactor: RotationFactor | null
  /** The open type; `auction` in / out of range against the previous day session when known. */
  openType: OpenType | null
  /** The open against the previous day session's value area and range; null without both. */
  openLocation: OpenLocation | null
  rangeExtension: RangeExtension | null
  /** The shape of the day session's profile (the profile's own when it has none); null for footprints. */
  profileShape: ProfileShapeResult | null
  spike: Spike | null
  poorExtremes: PoorExtremes
  /** TPO profiles only; null for footprints. */
  singlePrintZones: SinglePrintZone[] | null
}

/** `p` when it is a TPO day session, else undefined. */
function asDay(p: unknown): AnyTpoProfile | undefined {
  if (!isTpo(p)) return undefined
  try {
    checkDaySession(p as object, 'profileAnalytics', 'profile')
    return p as AnyTpoProfile
  } catch (e) {
    if (e instanceof MarketDataError) return undefined
    throw e
  }
}

/**
 * Every analytic of this folder that applies to one profile, with default options: what the CLI's
 * `--analytics` prints and a chart can annotate. Rules that need what the profile lacks give null
 * (volume nodes of a candle profile, TPO rules of a footprint, day-session reads without a day session).
 * The day-session reads use the main session (see `daySession`): pass `mainSession` for a merged profile
 * of data with pre- or post-market trades.
 *
 * @param profile - a TPO profile (trades or candles) or a footprint profile
 * @param options - `{ previous?, mainSession?, previousMainSession? }`
 * @returns the analytics, plain data
 * @throws MarketDataError `invalid_option` for a malformed profile or option (a `mainSession` of another period)
 * @example
 * profileAnalytics(days[1], { previous: days[0] }).valueMigration?.relation // 'overlapping-higher'
 */
export function profileAnalytics(profile: AnalyticsProfile, options?: ProfileAnalyticsOptions): ProfileAnalytics {
  return unreadableAsError('profileAnalytics', () => {
    const fn = 'profileAnalytics'
    const o = readOptions(fn, options, ['previous', 'mainSession', 'previousMainSession'])
    if (typeof profile !== 'object' || profile === null || isArray(profile))
      throw new MarketDataError('invalid_option', ANALYTICS_MSG.notProfile(fn, 'profile', profile), {
        field: 'profile',
      })
    const h = readHistogram(profile, fn)
    const tpo = isTpo(profile)
    const main = o.mainSession === undefined ? undefined : (mainSessionOf(fn, profile, o.mainSession) as AnyTpoProfile)
    const day = main ?? asDay(profile)
    const grouped = (profile as { sessionType?: unknown }).sessionType === 'MAINSESSION'
    const prevDay =
      o.previousMainSession !== undefined
        ? (mainSessionOf(
            fn,
            (o.previous ?? o.previousMainSession) as object,
            o.previousMainSession,
            'previousMainSession',
          ) as AnyTpoProfile)
        : asDay(o.previous)
    return {
      daySession: day === undefined ? null : main !== undefined || grouped ? 'main-session' : 'profile',
      openRange: tpo ? openRange((day ?? profile) as AnyTpoProfile) : null,
      balancedTarget: balancedTarget(profile, main === undefined ? {} : { mainSession: main }),
      volumeNodes: h.kind === 'tpo-candles' ? null : volumeNodes(profile, { source: 'volume' }),
      tpoNodes: tpo ? volumeNodes(profile, { source: 'tpo' }) : null,
      valueMigration: o.previous === undefined ? null : valueMigration(o.previous as AnalyticsProfile, profile),
      dayType: day === undefined ? null : dayType(day),
      rotationFactor: day === undefined ? null : rotationFactor(day),
      openType: day === undefined ? null : openType(day, prevDay === undefined ? {} : { previous: prevDay }),
      openLocation: day === undefined || prevDay === undefined ? null : openLocation(day, prevDay),
      rangeExtension: day === undefined ? null : rangeExtension(day),
      profileShape: tpo ? profileShapeType((day ?? profile) as AnyTpoProfile) : null,
      spike: day === undefined ? null : spike(day),
      poorExtremes: poorExtremes(profile),
      singlePrintZones: tpo ? singlePrintZones(profile as AnyTpoProfile) : null,
    }
  })
}
