import type { DecimalInput } from '../decimal/types.js'
import type { TimeframeInput } from '../time/index.js'
import type { SessionType } from '../trades/types.js'

/** A footprint row: `[price, volumeBuy, volumeSell, tradesCountBuy, tradesCountSell]`; price is the row's lower bound. */
export type FootprintRow = [
  price: string,
  volumeBuy: string,
  volumeSell: string,
  tradesCountBuy: number,
  tradesCountSell: number,
]

/** One volume footprint profile: one timeframe bucket. Prices and volumes are exact decimal strings. */
export interface FootprintProfile {
  /** Bucket start (UTC epoch ms). */
  time: number
  /** Bucket end (exclusive). */
  end: number
  /** Real start of the first profile when its range was trimmed (depth, data floor or `from`). */
  profileStart?: number
  /**
   * Row height in ticks: `rowSizeValue / tickSize`. A whole number unless the grid was given as an absolute
   * `rowSizeValue` that is not a whole multiple of the tick size (then the exact ratio as a number, e.g. 0.4).
   */
  rowSize: number
  /** Row height as an absolute price step (minimal form); echo it back to pin the same grid. */
  rowSizeValue: string
  /** Tick size the profile was built with (minimal form). */
  tickSize: string
  /** Rows in ascending price; only rows that traded. */
  rows: FootprintRow[]
  /** Highest and lowest traded price (grid decimals, more when the traded price has more). */
  high: string
  low: string
  /** Totals over the profile. */
  volumeBuy: string
  volumeSell: string
  /** volumeBuy + volumeSell. */
  volume: string
  /** volumeBuy - volumeSell. */
  delta: string
  tradesCountBuy: number
  tradesCountSell: number
  /** tradesCountBuy + tradesCountSell. */
  trades: number
  /** Row price with the most buy + sell volume (ties: TPO POC rule on volume). */
  volumePoc: string
  /** Set when the `sessions` filter selects exactly one session type. */
  sessionType?: SessionType
  /** Order-flow analytics, present only when the `analytics` option asked for them. */
  analytics?: FootprintAnalytics
}

/** Options of the order-flow analytics (all optional). */
export interface FootprintAnalyticsOptions {
  /** Imbalance threshold in percent: buy at a row >= ratio% of sell one row below (and mirrored). Default 300. */
  ratio?: DecimalInput
  /** Minimum volume of the dominant side for an imbalance. Default 0 (any volume above zero). */
  minVolume?: DecimalInput
  /** Consecutive imbalanced rows (same side) that make a stacked imbalance. Default 3. */
  stackedRows?: number
}

/** A diagonal imbalance at one row. */
export interface FootprintImbalance {
  /** Row price (grid decimals) of the dominant side. */
  price: string
  /** 'buy': buy volume at `price` vs sell volume one row below; 'sell': sell at `price` vs buy one row above. */
  side: 'buy' | 'sell'
  /** Dominant volume. */
  volume: string
  /** The compared (diagonal) volume, `"0"` when that row did not trade on that side. */
  against: string
}

/** N or more consecutive grid rows imbalanced on the same side. */
export interface FootprintStackedImbalance {
  side: 'buy' | 'sell'
  /** Lowest and highest row price of the run. */
  low: string
  high: string
  /** Number of rows in the run. */
  rows: number
}

/** Order-flow analytics of one profile, with the options they were computed with. */
export interface FootprintAnalytics {
  ratio: string
  minVolume: string
  stackedRows: number
  imbalances: FootprintImbalance[]
  stackedImbalances: FootprintStackedImbalance[]
  /** Both sides traded at the high row (an auction that did not finish there). */
  unfinishedHigh: boolean
  /** Both sides traded at the low row. */
  unfinishedLow: boolean
}

/** Keys of {@link FootprintOptions} (closed options: anything else is refused). */
export const FOOTPRINT_OPTION_KEYS = [
  'timeframe',
  'tickSize',
  'rowSize',
  'rowSizeValue',
  'timeZone',
  'sessions',
  'from',
  'to',
  'analytics',
] as const

/** Keys of {@link FootprintAnalyticsOptions}. */
export const ANALYTICS_OPTION_KEYS = ['ratio', 'minVolume', 'stackedRows'] as const

/** Options of {@link footprintProfiles} and {@link createFootprintAggregator}. */
export interface FootprintOptions {
  /** Bucket frame: an id (`'1h'`) or a Timeframe object (any count >= 1); minute .. year units, not ticks. */
  timeframe: TimeframeInput
  /** Tick size of the security, a positive decimal. */
  tickSize: DecimalInput
  /**
   * Row height in ticks, an integer >= 1 (default 1), or `'auto'`: the batch functions aggregate at one tick,
   * then pick one row size for the whole result from the span of its traded rows (the rule of `autoRowSize`,
   * 30..80 rows over that span) and regrid every profile to it exactly (`regridFootprint`); the chosen size is
   * each profile's `rowSize`. The streaming aggregator refuses `'auto'` (it cannot know the range). Not
   * together with `rowSizeValue`.
   */
  rowSize?: number | 'auto'
  /** Row height as an absolute positive decimal (pins a grid echoed from a previous profile). Not together with `rowSize`. */
  rowSizeValue?: DecimalInput
  /** IANA zone of the bucket alignment (default `UTC`). */
  timeZone?: string
  /** Session types to keep (default all). */
  sessions?: readonly SessionType[]
  /** Keep trades with time >= from (UTC ms); sets `profileStart` when it cuts into the first bucket. */
  from?: number
  /** Keep trades with time < to (UTC ms). */
  to?: number
  /** Compute order-flow analytics into each profile (`true` for the defaults). */
  analytics?: boolean | FootprintAnalyticsOptions
}

/** Keys of {@link FootprintColumnOptions}: those of {@link FootprintOptions} but `analytics`. */
export const FOOTPRINT_COLUMN_OPTION_KEYS = [
  'timeframe',
  'tickSize',
  'rowSize',
  'rowSizeValue',
  'timeZone',
  'sessions',
  'from',
  'to',
] as const

/** Options of `footprintColumnsFromTrades`: those of {@link FootprintOptions} but `analytics` (analytics are made of strings; `footprintProfiles` has them). */
export type FootprintColumnOptions = Omit<FootprintOptions, 'analytics'>

/**
 * Footprint profiles as columns: the profiles `footprintProfiles` returns, as numbers in typed arrays (no
 * object or string per profile or row). Profile `i` owns rows `rowStart[i]` to `rowStart[i + 1] - 1` of
 * {@link FootprintColumns.rows}, in ascending price.
 *
 * Reading exact values: a row's price is exactly `row × rowSizeValue` (the decimal product; as a double,
 * `row * Number(rowSizeValue)` is close but may differ in the last digit). Every volume is the double whose
 * shortest form (`String(x)`) is the exact decimal sum, as `footprintProfiles` prints it; a sum with more
 * significant digits than a double carries is refused with `MarketDataError` `inexact` (`footprintProfiles`
 * returns it as a decimal string). Counts are whole numbers below 2^53. Profile totals `volume` and `delta`
 * are `volumeBuy + volumeSell` and `volumeBuy - volumeSell` added as decimals (a double addition may round).
 */
export interface FootprintColumns {
  /** Tick size the profiles were built with (minimal form). */
  tickSize: string
  /** Row height in ticks, as `FootprintProfile.rowSize`. */
  rowSize: number
  /** Row height as an absolute price step (minimal form): row `k` is the price range `[k × rowSizeValue, (k + 1) × rowSizeValue)`. */
  rowSizeValue: string
  /** Real start of the first profile when `from` cuts into its bucket. */
  profileStart?: number
  /** Set when the `sessions` filter selects exactly one session type. */
  sessionType?: SessionType
  /** Per profile: bucket start (UTC epoch ms). */
  time: Float64Array
  /** Per profile: bucket end (exclusive). */
  end: Float64Array
  /** Offsets into `rows`, one more than profiles: profile i's rows are [rowStart[i], rowStart[i + 1]). */
  rowStart: Float64Array
  /** Per profile: total buy and sell volume (exact, see above). */
  volumeBuy: Float64Array
  volumeSell: Float64Array
  /** Per profile: buy and sell trade counts. */
  tradesCountBuy: Float64Array
  tradesCountSell: Float64Array
  /** Per profile: the row index of the volume POC (`FootprintProfile.volumePoc` = `volumePocRow × rowSizeValue`). */
  volumePocRow: Float64Array
  /** The rows of every profile, one after another. */
  rows: FootprintRowColumns
}

/** The row columns of {@link FootprintColumns}: one entry per row that traded. */
export interface FootprintRowColumns {
  /** Grid row index: the row's price is exactly `row × rowSizeValue`. */
  row: Float64Array
  volumeBuy: Float64Array
  volumeSell: Float64Array
  tradesCountBuy: Float64Array
  tradesCountSell: Float64Array
}
