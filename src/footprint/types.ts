import type { SessionType } from '../trades/types.js'

/** A footprint row: `[price, volumeBuy, volumeSell, tradesCountBuy, tradesCountSell]`; price is the row's lower bound. */
export type FootprintRow = [price: string, volumeBuy: string, volumeSell: string, tradesCountBuy: number, tradesCountSell: number]

/** One volume footprint profile: one timeframe bucket. Prices and volumes are exact decimal strings. */
export interface FootprintProfile {
  /** Bucket start (UTC epoch ms). */
  time: number
  /** Bucket end (exclusive). */
  end: number
  /** Real start of the first profile when its range was trimmed (depth, data floor or `from`). */
  profileStart?: number
  /** Row height in ticks (undefined when the grid was given as an absolute `rowSizeValue` that is not a whole number of ticks). */
  rowSize: number
  /** Row height as an absolute price step, echo it back to pin the same grid. */
  rowSizeValue: string
  /** Rows in ascending price; only rows that traded. */
  rows: FootprintRow[]
  /** Highest and lowest traded price. */
  high: string
  low: string
  /** Totals over the profile. */
  volumeBuy: string
  volumeSell: string
  /** volumeBuy - volumeSell. */
  delta: string
  tradesCountBuy: number
  tradesCountSell: number
  /** Row price with the most buy + sell volume (ties: TPO POC rule on volume). */
  volumePoc: string
  /** Set when a `sessions` filter or grouping applies. */
  sessionType?: SessionType
}
