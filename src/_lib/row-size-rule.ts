import { niceCeil } from './nice-number.js'

/** Rows a picked row size gives by default: at least (when the range allows) and at most. */
export const AUTO_MIN_ROWS = 30
export const AUTO_MAX_ROWS = 80

/** A row size picked for a range, and the rows the range spans at it. */
export interface PickedRowSize {
  /** Row height in ticks (an integer >= 1). */
  rowSize: number
  /** Rows the range spans at that size, at most: `ceil(ticks / rowSize) + 1`. */
  rows: number
}

/**
 * The one rule that picks a readable row size for a price range of `ticks` ticks (a whole number >= 0, the
 * range rounded up to ticks): the smallest of 1, 2, 5, 10, 20, 50, ... ticks giving at most `maxRows` rows
 * (`ceil(ticks / k) + 1`: one more for a range that straddles a row edge); when that falls under `minRows`
 * (a window narrower than the 1-2-5 steps), the smallest whole number of ticks that fits. A range of fewer
 * than `minRows` ticks gets one tick a row. TPO's `autoRowSize` and the footprints' `rowSize: 'auto'` both
 * use it. `minRows` <= `maxRows`, both integers >= 2 (the callers check them).
 */
export function pickRowSize(
  ticks: number,
  minRows: number = AUTO_MIN_ROWS,
  maxRows: number = AUTO_MAX_ROWS,
): PickedRowSize {
  const rows = (k: number) => Math.ceil(ticks / k) + 1
  // the smallest k with rows(k) <= maxRows is k >= ticks / (maxRows - 1)
  const least = Math.max(1, Math.ceil(ticks / (maxRows - 1)))
  const nice = niceCeil(least)
  const k = rows(nice) >= minRows || nice === 1 ? nice : least
  return { rowSize: k, rows: rows(k) }
}

/** `ceil(rangeUnits / tickUnits)` (both at one scale, tick > 0), capped at 2^53 - 1. */
export function rangeTicks(rangeUnits: bigint, tickUnits: bigint): number {
  const big = (rangeUnits + tickUnits - 1n) / tickUnits
  return big > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(big)
}
