import { isArray } from '../_lib/describe.js'
import { MarketDataError } from '../errors.js'
import { rowOf, sameGrid } from './brackets.js'
import { daySessionsOf } from './day-session.js'
import { poorExtremes, singlePrintZones } from './extremes.js'
import { readTpoHistogram, type Histogram } from './histogram.js'
import { ANALYTICS_MSG } from './messages.js'
import { unreadableAsError } from './options.js'
import type { Repair, RepairKind } from './read-types.js'
import type { AnyTpoProfile, PriceRange } from './types.js'
import { parseDecimal, type ExactDecimal } from '../decimal/index.js'

const FN = 'repairs'

/** One block as grid rows: every row from its lowest to its highest marked row. */
interface BlockRows {
  start: number
  low: bigint
  high: bigint
}

function rowsOfBlocks(p: AnyTpoProfile, h: Histogram): BlockRows[] {
  const blocks = (p as { blocks: number[] }).blocks
  const lo: (bigint | undefined)[] = new Array(blocks.length)
  const hi: (bigint | undefined)[] = new Array(blocks.length)
  const rows = (p as { rows: [string, number[]][] }).rows
  for (let i = 0; i < rows.length; i++) {
    const r = h.firstRow + BigInt(i)
    for (const b of rows[i]![1]) {
      if (lo[b] === undefined) lo[b] = r
      hi[b] = r
    }
  }
  const out: BlockRows[] = []
  blocks.forEach((start, b) => {
    if (lo[b] !== undefined) out.push({ start, low: lo[b] as bigint, high: hi[b] as bigint })
  })
  return out
}

const dec = (x: string): ExactDecimal => (parseDecimal(x) as { value: ExactDecimal }).value

/**
 * Repair tracking across later profiles, as `nakedPocs` tracks POCs: every poor high, poor low
 * ({@link poorExtremes}) and inside single-print zone ({@link singlePrintZones}) of each profile, with the
 * first later block that traded into it (`touchedAt`) and the one that repaired it (`repairedAt`):
 *
 * - a poor high is repaired when a later block trades above its row range (the auction there finished,
 *   Dalton's "repair" of an unfinished high); a poor low when one trades below;
 * - a single-print zone is repaired (filled) when later blocks together have traded every row of it.
 *
 * "Later" means a block of any profile in the list that starts after the profile's last block. A grouped
 * (GROUP_BY_TYPE) list reads its MAINSESSION profiles only. All profiles on one `rowSizeValue`.
 *
 * @param profiles - TPO profiles (trades or candles), in any order
 * @returns one entry per poor extreme and single-print zone, by profile (as given) then ascending price
 * @throws MarketDataError `invalid_option` for a footprint or a malformed profile; `grid_mismatch` for
 *   profiles on different grids
 * @example
 * repairs(days) // [{ time, kind: 'poor-high', low: '5010.00', high: '5010.00', rows: 1, touchedAt: 1780392600000, repairedAt: 1780394400000, repaired: true }, ...]
 */
export function repairs(profiles: readonly AnyTpoProfile[]): Repair[] {
  return unreadableAsError(FN, () => {
    if (!isArray(profiles))
      throw new MarketDataError('invalid_option', ANALYTICS_MSG.noProfiles(FN), { field: 'profiles' })
    const list = daySessionsOf<AnyTpoProfile>(profiles)
    let first: Histogram | undefined
    const hs = list.map(({ p, i }) => {
      const h = readTpoHistogram(p, FN, `profiles[${i}]`)
      first ??= h
      sameGrid(FN, first, h, i)
      return h
    })
    const blocks = list.flatMap(({ p }, k) => rowsOfBlocks(p, hs[k]!)).sort((a, b) => a.start - b.start)
    const out: Repair[] = []
    list.forEach(({ p }, k) => {
      const h = hs[k]!
      const q = p as unknown as { time: number; sessionType?: Repair['sessionType']; blocks: number[] }
      const after = q.blocks.length > 0 ? Math.max(...q.blocks) : -Infinity
      const later = blocks.filter((b) => b.start > after)
      const track = (kind: RepairKind, r: PriceRange) => {
        const lo = rowOf(FN, h, dec(r.low), 'rows', r.low)
        const hi = rowOf(FN, h, dec(r.high), 'rows', r.high)
        let touchedAt: number | null = null
        let repairedAt: number | null = null
        const filled = new Array<boolean>(Number(hi - lo + 1n)).fill(false)
        let left = filled.length
        for (const b of later) {
          if (touchedAt === null && b.low <= hi && b.high >= lo) touchedAt = b.start
          if (kind === 'poor-high' ? b.high > hi : kind === 'poor-low' ? b.low < lo : false) repairedAt = b.start
          if (kind === 'single-prints') {
            for (let x = b.low > lo ? b.low : lo; x <= (b.high < hi ? b.high : hi); x++) {
              const i = Number(x - lo)
              if (!filled[i]) {
                filled[i] = true
                left--
              }
            }
            if (left === 0) repairedAt = b.start
          }
          if (repairedAt !== null) break
        }
        const e: Repair = { time: q.time, kind, ...r, touchedAt, repairedAt, repaired: repairedAt !== null }
        if (q.sessionType !== undefined) e.sessionType = q.sessionType
        out.push(e)
      }
      const { poorHigh, poorLow } = poorExtremes(p)
      const mine: [RepairKind, PriceRange][] = []
      if (poorLow !== null) mine.push(['poor-low', poorLow])
      for (const z of singlePrintZones(p))
        if (z.kind === 'single-prints') mine.push(['single-prints', { low: z.low, high: z.high, rows: z.rows }])
      if (poorHigh !== null) mine.push(['poor-high', poorHigh])
      for (const [kind, r] of mine) track(kind, r)
    })
    return out
  })
}
