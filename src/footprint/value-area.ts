import { MarketDataError } from '../errors.js'
import { resolveValueAreaPercent } from '../profile/value-area.js'
import { pocIndex } from '../profile/point-of-control.js'
import { rowPrice } from './grid.js'
import { parseProfile } from './rowset.js'
import type { FootprintProfile } from './types.js'
import { checkOptions } from '../_lib/closed-options.js'

/** Options of {@link footprintValueArea}. */
export interface FootprintValueAreaOptions {
  /** Share of the profile's volume the value area holds, 0 < p <= 100 (default 70, as TPO profiles). */
  valueAreaPercent?: number
}

/** The volume value area of one footprint profile. */
export interface FootprintValueArea {
  /** Row price of the volume POC the area grows from (the profile's `volumePoc`). */
  volumePoc: string
  /** Highest and lowest row price inside the area (grid decimals). */
  valueAreaHigh: string
  valueAreaLow: string
  /** The share used, in percent. */
  valueAreaPercent: number
}

/**
 * The volume value area of a footprint profile, by the rule TPO profiles use (Dalton / CQG "method A"):
 * from the volume POC, add the next two grid rows above or below, whichever pair holds more volume (the
 * pair above on a tie), until the area holds `valueAreaPercent` of the volume. A footprint lists only rows
 * that traded; rows between them count as grid rows with no volume, exactly as in a TPO profile's
 * contiguous rows, without being materialised (a wide, sparse profile costs its row count, not its span).
 *
 * @param profile - A footprint profile (as `footprintProfiles` returns it, or parsed back from JSON).
 * @param opts - `valueAreaPercent` (default 70).
 * @returns The POC and the area's high and low row prices; for a profile without rows, `MarketDataError`.
 * @throws {MarketDataError} `invalid_option` for a bad percent, an empty profile or a malformed profile (naming the field).
 * @example
 * footprintValueArea(profile) // { volumePoc: '5001.25', valueAreaHigh: '5003.00', valueAreaLow: '4999.50', valueAreaPercent: 70 }
 */
export function footprintValueArea(
  profile: FootprintProfile,
  opts: FootprintValueAreaOptions = {},
): FootprintValueArea {
  if (typeof opts !== 'object' || opts === null)
    throw new MarketDataError('invalid_option', 'footprintValueArea: `options` must be an object', { field: 'options' })
  checkOptions(opts, ['valueAreaPercent'], 'footprintValueArea')
  const va = resolveValueAreaPercent(opts.valueAreaPercent)
  const { grid, set } = parseProfile(profile, 'footprintValueArea')
  const n = set.rows.length
  if (n === 0)
    throw new MarketDataError(
      'invalid_option',
      'footprintValueArea: `profile.rows` is empty: a profile without rows has no value area',
      { field: 'rows' },
    )
  const vol: bigint[] = new Array(n)
  let total = 0n
  for (let i = 0; i < n; i++) {
    vol[i] = (set.buy[i] as bigint) + (set.sell[i] as bigint)
    total += vol[i] as bigint
  }
  const rows = set.rows
  const poc = pocIndex(vol, rows)
  // area / total >= percent  <=>  area * 100 * 10^scale >= units * total
  const lhs = 100n * 10n ** BigInt(va.exact.scale)
  const need = va.exact.units * total
  const minRow = rows[0] as number
  const maxRow = rows[n - 1] as number
  // [lo, hi] are grid rows; li / hi_ index the nearest traded row at or outside each edge
  let lo = rows[poc] as number
  let hi = lo
  let below = poc - 1 // index of the highest traded row < lo
  let above = poc + 1 // index of the lowest traded row > hi
  let area = vol[poc] as bigint
  /** Volume of the traded rows among grid rows (edge, edge + k] going up, or [edge - k, edge) going down. */
  const pairUp = (k: number): bigint => {
    let s = 0n
    for (let j = above; j < n && (rows[j] as number) <= hi + k; j++) s += vol[j] as bigint
    return s
  }
  const pairDown = (k: number): bigint => {
    let s = 0n
    for (let j = below; j >= 0 && (rows[j] as number) >= lo - k; j--) s += vol[j] as bigint
    return s
  }
  while (area * lhs < need) {
    const upN = Math.min(2, maxRow - hi)
    const downN = Math.min(2, lo - minRow)
    if (upN === 0 && downN === 0) break
    const up = pairUp(upN)
    const down = pairDown(downN)
    if (upN > 0 && (downN === 0 || up >= down)) {
      if (up === 0n) {
        // empty grid rows: step in pairs to just below the next traded row (the down side stays as it is)
        const next = rows[above] as number
        hi += 2 * Math.max(1, Math.ceil((next - hi - 2) / 2))
        hi = Math.min(hi, maxRow)
      } else hi += upN
      while (above < n && (rows[above] as number) <= hi) area += vol[above++] as bigint
    } else {
      if (down === 0n) {
        const next = rows[below] as number
        lo -= 2 * Math.max(1, Math.ceil((lo - next - 2) / 2))
        lo = Math.max(lo, minRow)
      } else lo -= downN
      while (below >= 0 && (rows[below] as number) >= lo) area += vol[below--] as bigint
    }
  }
  return {
    volumePoc: rowPrice(grid, rows[poc] as number),
    valueAreaHigh: rowPrice(grid, hi),
    valueAreaLow: rowPrice(grid, lo),
    valueAreaPercent: va.percent,
  }
}
