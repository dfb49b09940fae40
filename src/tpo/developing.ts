import { MarketDataError } from '../errors.js'
import { TPO_MSG } from './messages.js'
import { resolveValueAreaPercent } from './options.js'
import { pocIndex } from '../profile/point-of-control.js'
import type { DevelopingTpo, TpoProfileLike } from './types.js'
import { valueAreaRange } from '../profile/value-area.js'

/**
 * The developing POC and value area: the profile as it stood after each of its blocks (blocks 0..k,
 * rows from the lowest to the highest row they mark), with the same POC and value-area rules. The last
 * entry equals the profile's own POC and value area. Works on trade and candle profiles.
 *
 * @param profile - a profile as the library returned it
 * @returns the `DevelopingTpo[]`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * developingTpo(profile).map((d) => d.poc) // ["5000.25", "5000.25", "5001.00", ...] one per block
 */
export function developingTpo(profile: TpoProfileLike): DevelopingTpo[] {
  if (
    typeof profile !== 'object' ||
    profile === null ||
    !Array.isArray(profile.rows) ||
    !Array.isArray(profile.blocks)
  ) {
    throw new MarketDataError('invalid_option', TPO_MSG.notProfile('rows'), { field: 'profile' })
  }
  const va = resolveValueAreaPercent(profile.valueAreaPercent).exact
  const nb = profile.blocks.length
  const n = profile.rows.length
  const rowsOf: number[][] = Array.from({ length: nb }, () => [])
  for (let i = 0; i < n; i++) {
    const row = profile.rows[i] as unknown
    if (!Array.isArray(row) || !Array.isArray(row[1]) || typeof row[0] !== 'string')
      throw new MarketDataError('invalid_option', TPO_MSG.notProfile('rows'), { field: 'rows' })
    for (const b of (row as unknown as TpoProfileLike['rows'][number])[1]) {
      if (typeof b !== 'number' || !Number.isInteger(b) || b < 0 || b >= nb)
        throw new MarketDataError('invalid_option', TPO_MSG.notProfile('rows'), { field: 'rows' })
      ;(rowsOf[b] as number[]).push(i)
    }
  }
  const counts = new Array<bigint>(n).fill(0n)
  let lo = Infinity
  let hi = -Infinity
  let total = 0
  const out: DevelopingTpo[] = []
  for (let b = 0; b < nb; b++) {
    for (const i of rowsOf[b] as number[]) {
      counts[i] = (counts[i] as bigint) + 1n
      if (i < lo) lo = i
      if (i > hi) hi = i
      total++
    }
    if (lo > hi) continue
    const window = counts.slice(lo, hi + 1)
    const poc = pocIndex(window)
    const r = valueAreaRange(window, poc, va)
    const price = (i: number) => (profile.rows[lo + i] as TpoProfileLike['rows'][number])[0]
    out.push({
      block: profile.blocks[b] as number,
      poc: price(poc),
      valueAreaHigh: price(r.high),
      valueAreaLow: price(r.low),
      tpoCount: total,
    })
  }
  return out
}
