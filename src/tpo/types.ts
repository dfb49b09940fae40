import type { SessionType } from '../trades/types.js'

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
}
