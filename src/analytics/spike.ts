import { readDaySession } from './day-session.js'
import { rowPriceOf } from './histogram.js'
import { unreadableAsError } from './options.js'
import type { Spike } from './read-types.js'
import type { AnyTpoProfile } from './types.js'

/** Rows a spike needs at least: as many as a tail needs to count as excess. */
export const SPIKE_MIN_ROWS = 2

/**
 * The spike of a profile's rows (block indexes per row, ascending price), as row indexes: the run of rows
 * at one extreme that only the last block (index `last`, -1 for a profile of one block) marks, when it is at
 * least {@link SPIKE_MIN_ROWS} rows. A last block that set a new high and a new low is no spike.
 */
export function spikeRows(
  rows: readonly (readonly number[])[],
  last: number,
): { direction: 'up' | 'down'; from: number; to: number } | undefined {
  if (last < 0) return undefined
  const only = (r: readonly number[]) => r.length === 1 && r[0] === last
  const n = rows.length
  let top = 0
  while (top < n && only(rows[n - 1 - top]!)) top++
  let bottom = 0
  while (bottom < n && only(rows[bottom]!)) bottom++
  if (top >= SPIKE_MIN_ROWS && bottom === 0) return { direction: 'up', from: n - top, to: n - 1 }
  if (bottom >= SPIKE_MIN_ROWS && top === 0) return { direction: 'down', from: 0, to: bottom - 1 }
  return undefined
}

/** Index of the latest block. */
export function lastBlock(blocks: readonly number[]): number {
  let last = 0
  for (let b = 1; b < blocks.length; b++) if ((blocks[b] as number) > (blocks[last] as number)) last = b
  return last
}

/**
 * A spike into the close (Dalton, Markets in Profile): a fast move in the day session's last period away
 * from the rest of the day — the rows at one extreme that only the last block traded, at least two rows
 * (as excess needs). A spike is not a tail: a tail is excess, an auction that ended and was rejected by
 * later periods, while nothing traded after a spike; whether it was accepted is told by the next day's
 * open (above, inside or below the spike). {@link singlePrintZones} reports these rows as `spike`, not as
 * a buying or selling tail. Null when the last block set no new extreme by two rows or more, set both, or
 * the day has one block.
 *
 * @param profile - the day session's TPO profile (trades or candles; see {@link rotationFactor})
 * @returns `{ direction, low, high, rows, start }` (row prices; `start` the last block's) or null
 * @throws MarketDataError `invalid_option` for a footprint, a profile that is not a day session, a
 *   malformed profile
 * @example
 * spike(day) // { direction: 'up', low: '111', high: '114', rows: 4, start: 1780311600000 }
 */
export function spike(profile: AnyTpoProfile): Spike | null {
  return unreadableAsError('spike', () => {
    const d = readDaySession(profile, 'spike')
    const rows = (profile as { rows: [string, number[]][] }).rows.map((r) => r[1])
    const blocks = (profile as { blocks: number[] }).blocks
    const last = lastBlock(blocks)
    const s = spikeRows(rows, blocks.length > 1 ? last : -1)
    if (s === undefined) return null
    return {
      direction: s.direction,
      low: rowPriceOf(d.h, s.from),
      high: rowPriceOf(d.h, s.to),
      rows: s.to - s.from + 1,
      start: blocks[last] as number,
    }
  })
}
