import { MarketDataError } from '../errors.js'
import { profileToParts } from './merge.js'
import { resolveTpoGrid } from './options.js'
import { buildProfile, type BlockPart } from './parts.js'
import type { TpoProfile } from './types.js'
import { checkOptions } from '../_lib/closed-options.js'

/** Options of {@link regridTpo}. */
export interface RegridTpoOptions {
  /** The new row height in ticks: a whole multiple of the profile's own `rowSize`. */
  rowSize: number
}

/**
 * A TPO profile on a coarser row grid, exactly as `tpoProfiles` would have built it from the same trades
 * with that `rowSize`: each block marks the coarse rows from the one holding its low to the one holding
 * its high (rows are anchored at 0, so a coarse row is `floor(row / k)` of the fine ones), volumes of the
 * fine rows add up, and POC, value area, initial balance, single prints and the shape follow from those
 * rows by the usual rules. Lets a client draw a profile fetched at the tick grid (the REST `/tpo` answer)
 * with a readable row size (`autoRowSize`).
 *
 * @param profile - A TPO profile built from trades (`tpoProfiles`, the streaming aggregator, a merge).
 * @param opts - `rowSize`: the new row height in ticks, a multiple of `profile.rowSize`.
 * @returns A new profile; the input is not changed.
 * @throws {MarketDataError} `invalid_option` naming `rowSize` when it is not a whole multiple of the profile's, or naming the profile field that is malformed.
 * @example
 * const [day] = tpoProfiles(trades, { timeframe: '1d', tickSize: '0.25' }) // 400 rows of one tick
 * regridTpo(day, { rowSize: autoRowSize({ tickSize: '0.25', range: '100' }).rowSize }) // 41 rows of 10 ticks
 */
export function regridTpo(profile: TpoProfile, opts: RegridTpoOptions): TpoProfile {
  if (typeof opts === 'object' && opts !== null) checkOptions(opts, ['rowSize'], 'regridTpo')
  const parts = profileToParts(profile)
  const target = typeof opts === 'object' && opts !== null ? opts.rowSize : undefined
  const from = parts.grid.rowSize
  if (typeof target !== 'number' || !Number.isSafeInteger(target) || target < from || target % from !== 0) {
    throw new MarketDataError(
      'invalid_option',
      `regridTpo: \`rowSize\` must be a whole multiple of the profile's row size ${from} (ticks), got ${String(target)}`,
      { field: 'rowSize' },
    )
  }
  const k = target / from
  if (k === 1) return buildProfile(parts)
  const grid = resolveTpoGrid(parts.grid.tickSize, target)
  const coarse = (r: number) => Math.floor(r / k)
  const blocks: BlockPart[] = parts.blocks.map((b) => ({ ...b, lowRow: coarse(b.lowRow), highRow: coarse(b.highRow) }))
  const rowLow = coarse(parts.rowLow)
  let buy: bigint[] | null = null
  let sell: bigint[] | null = null
  if (parts.buy !== null && parts.sell !== null) {
    const n = coarse(parts.rowLow + parts.buy.length - 1) - rowLow + 1
    buy = new Array<bigint>(n).fill(0n)
    sell = new Array<bigint>(n).fill(0n)
    for (let i = 0; i < parts.buy.length; i++) {
      const j = coarse(parts.rowLow + i) - rowLow
      buy[j] = (buy[j] as bigint) + (parts.buy[i] as bigint)
      sell[j] = (sell[j] as bigint) + (parts.sell[i] as bigint)
    }
  }
  return buildProfile({ ...parts, grid, blocks, rowLow, buy, sell })
}
