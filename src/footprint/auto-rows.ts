// rowSize 'auto' of the batch footprint functions: aggregate at one tick, pick one row size for the whole
// result from the span of its traded rows (the rule TPO's autoRowSize uses), regrid every profile to it.
import { pickRowSize } from '../_lib/row-size-rule.js'
import { exact, unitsAt } from './grid.js'
import { regridFootprint } from './regrid.js'
import type { FootprintProfile } from './types.js'

/** True when the options (any value) ask for `rowSize: 'auto'`. */
export function wantsAutoRows(opts: unknown): boolean {
  return typeof opts === 'object' && opts !== null && (opts as { rowSize?: unknown }).rowSize === 'auto'
}

/**
 * The options with one-tick rows in place of `'auto'` (with `rowSizeValue` also given, the engine then refuses
 * the pair as for any `rowSize`).
 */
export function oneTickRows<T extends object>(opts: T): T & { rowSize: number } {
  return { ...opts, rowSize: 1 }
}

/**
 * The row size `'auto'` picks for profiles at one tick (every profile on one grid): from the ticks between the
 * lowest and the highest traded row of them all. 1 when no profile has rows.
 */
export function autoRowSizeOf(profiles: readonly FootprintProfile[]): number {
  let lo: bigint | undefined
  let hi: bigint | undefined
  for (const p of profiles) {
    if (p.rows.length === 0) continue
    const a = tickIndex(p.rows[0]![0], p.tickSize)
    const b = tickIndex(p.rows[p.rows.length - 1]![0], p.tickSize)
    if (lo === undefined || a < lo) lo = a
    if (hi === undefined || b > hi) hi = b
  }
  if (lo === undefined || hi === undefined) return 1
  const span = hi - lo
  return pickRowSize(span > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(span)).rowSize
}

/** The one-tick row of a row price: `price / tickSize`, whole on that grid. */
function tickIndex(price: string, tickSize: string): bigint {
  const p = exact(price, 'rows.price')
  const t = exact(tickSize, 'tickSize')
  const s = Math.max(p.scale, t.scale)
  return unitsAt(p, s) / unitsAt(t, s)
}

/** One-tick profiles regridded to the row size `'auto'` picks for them all (the same array when it is 1). */
export function autoRows(profiles: FootprintProfile[]): FootprintProfile[] {
  const k = autoRowSizeOf(profiles)
  return k === 1 ? profiles : profiles.map((p) => regridFootprint(p, { rowSize: k }))
}
