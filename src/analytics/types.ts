import type { DecimalInput } from '../decimal/index.js'
import type { FootprintProfile } from '../footprint/index.js'
import type { TpoCandleProfile, TpoProfile } from '../tpo/index.js'

/** Any profile the analytics read: from trades (TPO), from candles (TPO, volumes unknown) or a footprint. */
export type AnalyticsProfile = TpoProfile | TpoCandleProfile | FootprintProfile

/** A TPO profile from trades or from candles. */
export type AnyTpoProfile = TpoProfile | TpoCandleProfile

/** A price range of grid rows, both ends row prices (lower bounds, as `valueAreaLow` / `valueAreaHigh`). */
export interface PriceRange {
  low: string
  high: string
  /** Grid rows in the range. */
  rows: number
}

/** Options of {@link openRange}. */
export interface OpenRangeOptions {
  /** Length of the open range in minutes (an integer >= 1); default: the first block (TPO) or the first profile (footprints). */
  minutes?: number
}

/** The open range: extreme traded prices of the opening minutes. */
export interface OpenRange {
  /** Start of the range (the first main-session block, else the first block; the first footprint's time). */
  start: number
  /** End of the range (exclusive). */
  end: number
  high: string
  low: string
  /** Starts of the blocks (TPO) or profiles (footprints) the range took. */
  starts: number[]
}

/** Options of {@link balancedTarget}. */
export interface BalancedTargetOptions {
  /** POC to reflect about: `'tpo'` (TPO profiles' default) or `'volume'` (footprints' only choice). */
  basis?: 'tpo' | 'volume'
  /**
   * The period's main-session profile (a grouped `MAINSESSION` profile, or one built with
   * `sessions: ['MAINSESSION']`): `ibProjection` uses its open and initial balance.
   */
  mainSession?: AnyTpoProfile
}

/** The balanced target of a profile and, for TPO profiles, the initial-balance range projected from the open. */
export interface BalancedTarget {
  basis: 'tpo' | 'volume'
  poc: string
  /** py-market-profile's balanced target: the POC's longer side reflected to the other side. */
  target: string
  /** Whether the target lies below or above the POC. */
  direction: 'down' | 'up'
  /**
   * The day session's open ± (IB high - IB low), or null without one (footprints, profiles without main
   * session, merged profiles with pre-market blocks and no `mainSession` given).
   */
  ibProjection: { high: string; low: string } | null
}

/** Options of {@link volumeNodes}. */
export interface VolumeNodeOptions {
  /** `'volume'` (buy + sell per row; default, except for candle profiles) or `'tpo'` (TPOs per row). */
  source?: 'volume' | 'tpo'
  /** Rows in the centred moving-mean window, odd, 1..99 (default 3; 1 = no smoothing). */
  smoothing?: number
  /** Least prominence kept, percent of the highest smoothed value, 0..100 (default 10). */
  minProminence?: DecimalInput
}

/** One high or low volume node. */
export interface VolumeNode {
  /** Row price of the node (the middle row of a flat run). */
  price: string
  /** First and last row price of the run. */
  low: string
  high: string
  /** The node row's own (unsmoothed) volume or TPO count. */
  value: string
  /** Prominence in percent of the highest smoothed value (floored to 2 decimals). */
  prominence: string
}

/** High and low volume nodes with the options used. */
export interface VolumeNodes {
  source: 'volume' | 'tpo'
  smoothing: number
  minProminence: string
  highVolumeNodes: VolumeNode[]
  lowVolumeNodes: VolumeNode[]
}

/** How one period's value area lies against the previous one's. */
export type ValueRelation =
  | 'higher'
  | 'lower'
  | 'overlapping-higher'
  | 'overlapping-lower'
  | 'unchanged'
  | 'inside'
  | 'outside'

/** Options of {@link valueMigration}. */
export interface ValueMigrationOptions {
  /** Value area to compare: `'tpo'` (TPO profiles' default) or `'volume'` (footprints' only choice). */
  basis?: 'tpo' | 'volume'
  /** Value-area share for profiles that carry no value area (footprints), 0 < p <= 100 (default 70). */
  valueAreaPercent?: number
}

/** The value-area relation of two consecutive periods. */
export interface ValueMigration {
  /** Period start of the earlier and later profile. */
  previousTime: number
  time: number
  relation: ValueRelation
  /** The two value areas compared (row prices). */
  previous: { valueAreaLow: string; valueAreaHigh: string }
  current: { valueAreaLow: string; valueAreaHigh: string }
}

/** A day type (Dalton, Mind over Markets). */
export type DayType =
  | 'normal'
  | 'normal-variation'
  | 'trend'
  | 'double-distribution'
  | 'neutral-center'
  | 'neutral-extreme'
  | 'non-trend'

/** Thresholds of {@link dayType}; every one is a documented option. */
export interface DayTypeOptions {
  /** Trend: the day's range is at least this multiple of the IB range (default 2). */
  trendRangeMultiple?: DecimalInput
  /** Normal: the range outside the IB is at most this share of the day's range (default 0.15). */
  normalMaxExtension?: DecimalInput
  /** "Near an extreme": the close lies in this share of the range at the high or low end (default 0.25). */
  extremeCloseShare?: DecimalInput
  /**
   * Double distribution: the thin zone between the two areas of value holds at least this many consecutive
   * rows of at most one TPO (single prints or untraded rows) inside the profile (default 2).
   */
  singlePrintRows?: number
  /** Double distribution: each side of the thin zone holds at least this share of all TPOs (default 0.2). */
  distributionMinShare?: DecimalInput
  /** Double distribution: each side's fullest row holds at least this many TPOs, a rotation (default 3, >= 2). */
  distributionMinTpos?: number
  /** Non-trend: the largest day range (a price distance) that counts as narrow; without it no day is non-trend. */
  narrowRange?: DecimalInput
}

/** A day's type with the measures that decided it. */
export interface DayTypeResult {
  type: DayType
  /** Range extension beyond the initial balance. */
  extension: 'none' | 'up' | 'down' | 'both'
  /** high - low and IB high - IB low (traded prices). */
  range: string
  ibRange: string
  /** The rule that matched, in words. */
  reason: string
}

/** Options of {@link compositeVolumeProfile}. */
export interface CompositeVolumeOptions {
  /** Value-area share, 0 < p <= 100 (default: the first TPO profile's, else 70). */
  valueAreaPercent?: number
  /** Options of the composite's nodes (as {@link volumeNodes}; the source is always volume). */
  nodes?: Omit<VolumeNodeOptions, 'source'>
}

/** A volume profile over several profiles. */
export interface CompositeVolumeProfile {
  /** Earliest period start and latest end of the inputs. */
  time: number
  end: number
  /** Number of profiles combined. */
  profiles: number
  rowSizeValue: string
  /** `[price, volumeBuy, volumeSell]` for every row some input holds, ascending price. */
  rows: [price: string, volumeBuy: string, volumeSell: string][]
  high: string
  low: string
  volumeBuy: string
  volumeSell: string
  volume: string
  poc: string
  valueAreaHigh: string
  valueAreaLow: string
  valueAreaPercent: number
  nodes: VolumeNodes
}

/** Poor high / poor low of a profile, as ranges (null when the extreme is not poor). */
export interface PoorExtremes {
  poorHigh: PriceRange | null
  poorLow: PriceRange | null
}

/** A run of single-print rows: inside the profile, a tail (excess) at an extreme, or a spike into the close. */
export interface SinglePrintZone extends PriceRange {
  kind: 'single-prints' | 'buying-tail' | 'selling-tail' | 'spike'
}
