import { parseDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { TPO_MSG } from './messages.js'
import type { NakedPoc, TpoProfileLike } from './types.js'

/** Exact decimal text as bigint units at `scale` (scale >= its decimals). */
function unitsAt(x: unknown, scale: number, field: string): bigint {
  const r = parseDecimal(x)
  if (!r.ok || r.value.scale > scale) throw new MarketDataError('invalid_option', TPO_MSG.notProfile(field), { field })
  return r.value.units * 10n ** BigInt(scale - r.value.scale)
}

/** The shape nakedPocs reads: an object with `blocks` (times) and `rows` of `[price, block indexes, ...]`. */
function checkShape(p: unknown, k: number): void {
  const bad = (field: string) =>
    new MarketDataError('invalid_option', TPO_MSG.notProfile(`profiles[${k}].${field}`), { index: k, field })
  if (typeof p !== 'object' || p === null) throw bad('profile')
  const { blocks, rows, time } = p as { blocks?: unknown; rows?: unknown; time?: unknown }
  if (typeof time !== 'number' || !Number.isFinite(time)) throw bad('time')
  if (!Array.isArray(blocks) || !blocks.every((t) => typeof t === 'number' && Number.isFinite(t))) throw bad('blocks')
  if (!Array.isArray(rows)) throw bad('rows')
  for (const row of rows as unknown[]) {
    if (!Array.isArray(row) || !Array.isArray(row[1])) throw bad('rows')
    for (const b of row[1] as unknown[])
      if (typeof b !== 'number' || !Number.isInteger(b) || b < 0 || b >= blocks.length) throw bad('rows')
  }
}

function decimals(x: unknown, field: string): number {
  const r = parseDecimal(x)
  if (!r.ok) throw new MarketDataError('invalid_option', TPO_MSG.notProfile(field), { field })
  return r.value.scale
}

/**
 * Naked (virgin) POCs: for each profile, whether any later block traded through its POC row, and when
 * first. A block "trades through" a price row when its range (its lowest to its highest marked row,
 * every row between included, as TPO blocks mark) overlaps the POC row `[poc, poc + rowSizeValue)`;
 * "later" means a block (of any profile in the list) that starts after the profile's last block. Works on
 * trade and candle profiles alike, and across grids (rows compare as exact price intervals).
 *
 * @param profiles - profiles as the library returned them
 * @returns the `NakedPoc[]`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * nakedPocs(tpoProfiles(trades, { timeframe: '1d', tickSize: '0.25' }))
 * // [{ time, poc: "5001.25", naked: false, revisitedAt: 1780320600000 }, { time, poc: "5010.00", naked: true, revisitedAt: null }]
 */
export function nakedPocs(profiles: readonly TpoProfileLike[]): NakedPoc[] {
  if (!Array.isArray(profiles))
    throw new MarketDataError('invalid_option', TPO_MSG.notProfile('profiles'), { field: 'profiles' })
  profiles.forEach(checkShape)
  let scale = 0
  for (const p of profiles) {
    scale = Math.max(scale, decimals(p.rowSizeValue, 'rowSizeValue'))
    if (p.rows.length > 0) scale = Math.max(scale, decimals(p.rows[0]?.[0], 'rows'))
  }
  // every block of every profile as [start, low, high) in units
  const blocks: { start: number; low: bigint; high: bigint }[] = []
  const lastBlock: number[] = []
  for (const p of profiles) {
    const nb = p.blocks.length
    const lo: (bigint | undefined)[] = new Array(nb)
    const hi: (bigint | undefined)[] = new Array(nb)
    const rs = unitsAt(p.rowSizeValue, scale, 'rowSizeValue')
    for (const row of p.rows) {
      const price = unitsAt(row[0], scale, 'rows')
      for (const b of row[1]) {
        const l = lo[b]
        if (l === undefined || price < l) lo[b] = price
        const h = hi[b]
        if (h === undefined || price + rs > h) hi[b] = price + rs
      }
    }
    for (let b = 0; b < nb; b++) {
      const l = lo[b]
      const h = hi[b]
      if (l !== undefined && h !== undefined) blocks.push({ start: p.blocks[b] as number, low: l, high: h })
    }
    lastBlock.push(nb > 0 ? Math.max(...p.blocks) : -Infinity)
  }
  blocks.sort((a, b) => a.start - b.start)
  return profiles.map((p, k) => {
    const lo = unitsAt(p.poc, scale, 'poc')
    const hi = lo + unitsAt(p.rowSizeValue, scale, 'rowSizeValue')
    const after = lastBlock[k] as number
    let revisitedAt: number | null = null
    for (const b of blocks) {
      if (b.start <= after) continue
      if (b.low < hi && lo < b.high) {
        revisitedAt = b.start
        break
      }
    }
    const out: NakedPoc = { time: p.time, poc: p.poc, naked: revisitedAt === null, revisitedAt }
    if (p.sessionType !== undefined) out.sessionType = p.sessionType
    return out
  })
}
