import type { Aggregator, AggregatorCheckpoint } from '../aggregator.js'
import type { DecimalInput } from '../decimal/index.js'
import type { TimeframeInput } from '../time/index.js'
import type { SessionType, Trade } from '../trades/index.js'

/** A TPO row: `[price, blockIndexes, volumeBuy, volumeSell]`; price is the row's lower bound; indexes point into `blocks`. */
export type TpoRow = [price: string, blockIndexes: number[], volumeBuy: string, volumeSell: string]

/** One TPO (Market Profile) profile: a day, week or month period (or one session type of it). */
export interface TpoProfile {
  /** Period start (UTC epoch ms). */
  time: number
  /** Period end (exclusive). */
  end: number
  /** Only on GROUP_BY_TYPE profiles. */
  sessionType?: SessionType
  /** Block size id, e.g. '30m'. */
  blockSize: string
  /** Start times of the blocks that hold data, ascending. */
  blocks: number[]
  rowSize: number
  rowSizeValue: string
  /** Every grid row from the lowest to the highest marked row, ascending price. */
  rows: TpoRow[]
  poc: string
  volumePoc: string
  valueAreaHigh: string
  valueAreaLow: string
  volumeValueAreaHigh: string
  volumeValueAreaLow: string
  initialBalance: { high: string; low: string } | null
  high: string
  low: string
  open: string
  close: string
  tpoCount: number
  tpoAbovePoc: number
  tpoBelowPoc: number
  /** Row prices holding exactly one TPO inside the profile (not at its extremes). */
  singlePrints: string[]
  poorHigh: boolean
  poorLow: boolean
  /** Dalton excess: rows of single-print tail at the high / low (0 when none). */
  excessHigh: number
  excessLow: number
  volumeBuy: string
  volumeSell: string
  // ---- added by the TPO aggregator: what an exact merge of partial profiles needs ----
  /** Tick size in minimal form; the grid prints prices with its decimals. */
  tickSize: string
  /** Time of the trade that gave `open` (the earliest; the first given among equal times). */
  openTime: number
  /** Time of the trade that gave `close` (the latest; the last given among equal times). */
  closeTime: number
  /** Highest traded price of each block, aligned with `blocks`. */
  blockHighs: string[]
  /** Lowest traded price of each block, aligned with `blocks`. */
  blockLows: string[]
  /** The value-area share used, in percent (default 70). */
  valueAreaPercent: number
  /** The initial-balance length used (`'1h'`, `'90m'`). */
  initialBalancePeriod: string
  /** Start of the first block holding a main-session trade (the initial balance starts there), or null. */
  initialBalanceStart: number | null
}

/** How sessions form profiles: one per period, or one per session type per period. */
export type TpoMergeSessions = 'MERGE_ALL' | 'GROUP_BY_TYPE'

/** Keys of {@link TpoOptions} (closed options: anything else is refused). */
export const TPO_OPTION_KEYS = [
  'timeframe',
  'tickSize',
  'blockSize',
  'rowSize',
  'rowSizeValue',
  'mergeSessions',
  'valueAreaPercent',
  'initialBalance',
  'timeZone',
  'sessions',
] as const

/** Options of {@link tpoProfiles} and {@link createTpoAggregator}. */
export interface TpoOptions {
  /** The period: a day, week or month frame (`'1d'`, `'1w'`, `'1M'`, or `{ unit: 'DAY', count: 2 }`). */
  timeframe: TimeframeInput
  /** Price tick; rows are `rowSize` ticks high, anchored at 0. */
  tickSize: DecimalInput
  /** Block length: a minute or hour frame (default `'30m'`), aligned to local midnight like any such frame. */
  blockSize?: TimeframeInput
  /** Row height in ticks, an integer >= 1 (default 1). */
  rowSize?: number
  /**
   * Row height as a price (`'1.00'`), instead of `rowSize`: a whole multiple of `tickSize` (TPO rows are
   * whole ticks). Giving both `rowSize` and `rowSizeValue` is invalid, as in footprint.
   */
  rowSizeValue?: DecimalInput
  /** `MERGE_ALL` (default) or `GROUP_BY_TYPE`. */
  mergeSessions?: TpoMergeSessions
  /** Share of all TPOs the value area holds, 0 < p <= 100 (default 70). */
  valueAreaPercent?: number
  /** Initial-balance length `<n>m` / `<n>h` (default `'1h'`). */
  initialBalance?: string
  /** IANA zone of the period and block frames (default `UTC`). */
  timeZone?: string
  /** Keep only trades of these session types (default: all). */
  sessions?: readonly SessionType[]
}

/** Options of {@link createTpoAggregator}: those of {@link tpoProfiles}, and the stream's own. */
export interface TpoAggregatorOptions extends TpoOptions {
  /**
   * Latest record time accepted (UTC epoch ms, inclusive). A record stamped after it is refused with
   * `out_of_range` and changes nothing. Default: no bound.
   */
  maxTime?: number
  /**
   * A state from `checkpoint()` (after `JSON.stringify` / `JSON.parse` as you like): the aggregator
   * continues exactly where that one stood. The options must shape the output as the checkpointed
   * aggregator's did, else `invalid_option` naming `restore.options.<name>`; every field is validated.
   */
  restore?: AggregatorCheckpoint
}

/** A TPO row built from candles: `[price, blockIndexes]` — per-row volumes are unknown, so they are absent. */
export type TpoCandleRow = [price: string, blockIndexes: number[]]

/**
 * A TPO profile built from block-sized candles (the classic construction): every field of
 * {@link TpoProfile} that needs per-row volumes is absent, because candles do not say where in their
 * range the volume traded. `rowVolumes: 'unknown'` says so; `volume` is the candles' total volume.
 */
export interface TpoCandleProfile
  extends Omit<
    TpoProfile,
    'rows' | 'volumePoc' | 'volumeValueAreaHigh' | 'volumeValueAreaLow' | 'volumeBuy' | 'volumeSell'
  > {
  rows: TpoCandleRow[]
  /** Always `'unknown'`: candles give no volume per row nor per side. */
  rowVolumes: 'unknown'
  /** Sum of the candles' volumes (exact), or null when a candle had none. */
  volume: string | null
}

/** A candle as {@link tpoFromCandles} reads it (the candles module's `Candle` fits). */
export interface TpoCandleInput {
  time: number
  open: DecimalInput
  high: DecimalInput
  low: DecimalInput
  close: DecimalInput
  volume?: DecimalInput
  session?: SessionType
}

/** Options of {@link tpoFromCandles}: those of {@link TpoOptions} that apply to candles. */
export type TpoCandleOptions = TpoOptions

/** What the cross-profile functions read of a profile (both trade and candle profiles fit). */
export interface TpoProfileLike {
  time: number
  end: number
  sessionType?: SessionType
  blocks: readonly number[]
  rowSizeValue: string
  tickSize: string
  poc: string
  valueAreaPercent: number
  rows: ReadonlyArray<readonly [string, readonly number[], ...unknown[]]>
}

/** A profile's POC and whether later trading reached it. */
export interface NakedPoc {
  /** The profile's period start and session type. */
  time: number
  sessionType?: SessionType
  poc: string
  /** True when no later block traded through the POC row. */
  naked: boolean
  /** Start of the first later block whose range covers the POC row, or null while naked. */
  revisitedAt: number | null
}

/** The developing profile after one block. */
export interface DevelopingTpo {
  /** Start of the block just added. */
  block: number
  poc: string
  valueAreaHigh: string
  valueAreaLow: string
  tpoCount: number
}

/**
 * The streaming TPO aggregator (see {@link createTpoAggregator}): the {@link Aggregator} contract over
 * trades and TPO profiles. Periods may receive trades in any order while open; `advance` closes those
 * that end at or before its time; the watermark is the latest `advance` (or `flush`) time.
 */
export interface TpoAggregator extends Aggregator<Trade, TpoProfile> {
  /** Adds trades `from..to-1` of an array (errors name the array index; `applied` counts from `from`). */
  addTrades(trades: ArrayLike<Trade>, from?: number, to?: number): void
}
