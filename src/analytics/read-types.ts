// Types of the day-session reads (rotation factor, open type and location, range extension, shape, spike)
// and of the multi-day reads (brackets, repairs, value-area trend).
import type { DecimalInput } from '../decimal/index.js'
import type { SessionType } from '../trades/index.js'
import type { AnyTpoProfile, PriceRange } from './types.js'

/** One period's rotation against the period before: +1 / 0 / -1 for its high and for its low. */
export interface RotationPeriod {
  /** The block's start. */
  start: number
  high: -1 | 0 | 1
  low: -1 | 0 | 1
  /** high + low, -2..2. */
  factor: number
}

/** The rotation factor of a day session, per period (from the second block) and for the day. */
export interface RotationFactor {
  periods: RotationPeriod[]
  /** Sum of the periods' factors. */
  total: number
}

/** An open type (Dalton, Mind over Markets). */
export type OpenTypeName = 'open-drive' | 'open-test-drive' | 'open-rejection-reverse' | 'open-auction'

/** Options of {@link openType}. */
export interface OpenTypeOptions {
  /** The previous day session's profile: tells an open auction in range from one out of range. */
  previous?: AnyTpoProfile
  /** "At" an IB extreme: within this share of the IB range, 0..0.5 (default 0.1). */
  tolerance?: DecimalInput
}

/** How the day session opened, read from its initial-balance blocks. */
export interface OpenType {
  type: OpenTypeName
  /** The drive's (or the reversal's) direction; null for an open auction. */
  direction: 'up' | 'down' | null
  /** Open auctions with a `previous` profile: whether the open lies inside its range; else null. */
  auction: 'in-range' | 'out-of-range' | null
  open: string
  reason: string
}

/** Where the open lies against the previous day session's value area and range. */
export type OpenLocationName = 'above-range' | 'above-value' | 'in-value' | 'below-value' | 'below-range'

/** The open against the previous day session (the setup the "80% rule" reads). */
export interface OpenLocation {
  location: OpenLocationName
  open: string
  previousValueArea: { low: string; high: string }
  previousRange: { low: string; high: string }
  /**
   * An open outside the previous value area: the start of the second of the first two consecutive blocks
   * that trade inside it (the 80% rule's trigger), or null; always null for an open in value.
   */
  reentry: number | null
}

/** One side of the range extension. */
export interface ExtensionSide {
  /** Price distance beyond the IB extreme (0 when none). */
  distance: string
  /** distance / IB range, floored to 2 decimals; null when the IB range is 0. */
  multiple: string | null
}

/** Range extension of a day session measured from its IB's extremes, in IB multiples. */
export interface RangeExtension {
  ibHigh: string
  ibLow: string
  ibRange: string
  sides: 'none' | 'up' | 'down' | 'both'
  up: ExtensionSide
  down: ExtensionSide
}

/** A profile shape: P (fat top), b (fat bottom), D (balanced), B (double distribution), thin (elongated). */
export type ProfileShapeName = 'P' | 'b' | 'D' | 'B' | 'thin'

/** Options of {@link profileShapeType}: its thresholds, and those of the double-distribution test. */
export interface ProfileShapeOptions {
  /** Thin: fewer TPOs per row on average than this (default 2). */
  thinMeanTpos?: DecimalInput
  /** P / b: one half of the rows holds at least this multiple of the other half's TPOs (default 2). */
  shapeRatio?: DecimalInput
  /** The double-distribution thresholds, as in the day type's options (B needs a double distribution). */
  singlePrintRows?: number
  distributionMinShare?: DecimalInput
  distributionMinTpos?: number
}

/** A profile's shape with the measures that decided it. */
export interface ProfileShapeResult {
  shape: ProfileShapeName
  /** TPOs in the rows above and below the middle of the profile (the middle row, if any, in neither). */
  upperTpos: number
  lowerTpos: number
  /** TPOs per row, floored to 2 decimals. */
  meanTpos: string
  reason: string
}

/** A spike into the close: the range the day session's last block traded beyond every earlier block. */
export interface Spike extends PriceRange {
  direction: 'up' | 'down'
  /** The last block's start. */
  start: number
}

/** Options of {@link balanceBrackets}. */
export interface BalanceBracketOptions {
  /** Days a bracket needs at least, an integer >= 2 (default 3). */
  minDays?: number
}

/** Days in balance: consecutive profiles whose value areas all share a price range. */
export interface BalanceBracket {
  /** Period starts of the first and last day. */
  start: number
  last: number
  days: number
  /** Bracket high and low: the days' highest high and lowest low (traded prices). */
  high: string
  low: string
  /** The rows every day's value area holds. */
  value: PriceRange
}

/** What {@link repairs} tracks. */
export type RepairKind = 'poor-high' | 'poor-low' | 'single-prints'

/** A poor extreme or a single-print zone and whether later trading repaired it. */
export interface Repair extends PriceRange {
  /** The profile's period start and session type. */
  time: number
  sessionType?: SessionType
  kind: RepairKind
  /** Start of the first later block that traded into the range, or null. */
  touchedAt: number | null
  /**
   * Start of the later block that repaired it: traded beyond a poor high (above) or poor low (below); for
   * single prints, the block after which later blocks had traded every row of the zone. Null while open.
   */
  repairedAt: number | null
  repaired: boolean
}

/** One period's value-area width and volume POC, against the period before. */
export interface ValueAreaTrendEntry {
  time: number
  sessionType?: SessionType
  valueAreaLow: string
  valueAreaHigh: string
  /** The value area's price height: rows x rowSizeValue. */
  width: string
  rows: number
  /** Against the previous entry; null for the first. */
  widthChange: 'wider' | 'narrower' | 'same' | null
  /** The volume POC; null for candle profiles (no row volumes). */
  volumePoc: string | null
  /** volumePoc minus the previous entry's; null when either is unknown. */
  volumePocShift: string | null
  volumePocDirection: 'up' | 'down' | 'unchanged' | null
}
