// The TPO engine's exact steps, off its fast paths: the row of any price (a double's units past 2^52, or
// a decimal a double cannot hold), volumes past 2^52 units or finer than the fast sums, and the exact
// add of a row sum that passes 2^52. Every one validates before it changes state.
import { MAX_FAST_VOLUME_SCALE } from '../decimal/exact-sums.js'
import { numberToUnits, parseDecimal, UNITS_LIMIT, type ExactDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { TPO_MSG } from './messages.js'
import type { TpoGrid } from './options.js'
import { rowOfDecimal } from './parts.js'
import type { PeriodAcc } from './period-acc.js'
import type { TradeReader } from './trade-reader.js'

const BIG_LIMIT = BigInt(UNITS_LIMIT)

/** The exact steps of one TPO engine (its reader's exact values, its grid). */
export class ExactPath {
  /** Exact units of the volume {@link unitsOf} last answered NaN for (added by {@link slowAdd}), at `bigScale` decimals. */
  private bigUnits = 0n
  private bigScale = 0

  constructor(
    private readonly reader: TradeReader,
    private readonly grid: TpoGrid,
  ) {}

  /** The lowest and highest rows a profile has traded so far, from its blocks' extremes (saved before the call). */
  tradedRows(acc: PeriodAcc): readonly [number, number] {
    let a = Number.POSITIVE_INFINITY
    let b = Number.NEGATIVE_INFINITY
    const g = this.grid
    for (let j = 0; j < acc.n; j++) {
      const h = acc.bHi[j] as number
      if (h === Number.NEGATIVE_INFINITY) continue
      if (acc.exact?.has(j) === true) {
        a = Math.min(a, rowOfDecimal(acc.blockLow(j), g))
        b = Math.max(b, rowOfDecimal(acc.blockHigh(j), g))
        continue
      }
      a = Math.min(a, this.rowOf(acc.bLo[j] as number, -1))
      b = Math.max(b, this.rowOf(h, -1))
    }
    return [a, b]
  }

  /** Checks that a price of a skipped record is a finite decimal; returns a row never used (0). */
  checkPrice(p: number, index: number): number {
    if (p !== p && this.reader.exactPrice !== undefined) return 0
    const d = parseDecimal(p)
    if (!d.ok) throw new MarketDataError('invalid_decimal', TPO_MSG.price(p, d.error), { index, field: 'price' })
    return 0
  }

  /**
   * Row of a price (validated): exact units on the grid, floor division by the row height. A NaN price
   * is the reader's {@link TradeReader.exactPrice} (a decimal a double cannot hold) when it has one.
   */
  rowOf(p: number, index: number): number {
    const g = this.grid
    const u = numberToUnits(p, g.scale)
    if (u === u) return Math.floor(u / g.rowUnits)
    const exact = p !== p ? this.reader.exactPrice : undefined
    const d = exact === undefined ? parseDecimal(p) : { ok: true as const, value: exact }
    if (!d.ok) throw new MarketDataError('invalid_decimal', TPO_MSG.price(p, d.error), { index, field: 'price' })
    try {
      return rowOfDecimal(d.value, g)
    } catch (e) {
      if (e instanceof MarketDataError) throw new MarketDataError(e.code, e.message, { index, field: 'price' })
      throw e
    }
  }

  /**
   * Volume units at the scale of `acc` (raising it, and rescaling that profile's sums, when the volume has
   * more decimals); NaN means "add {@link ExactPath.bigUnits} exactly via bigint" (units past 2^52, or a volume
   * the reader could not carry as a double). A record of a filtered-out session (`acc` null) is only checked.
   */
  unitsOf(v: number, index: number, acc: PeriodAcc | null): number {
    const exact = this.reader.exactVolume
    this.reader.exactVolume = undefined
    let d: ExactDecimal
    if (v !== v && exact !== undefined) d = exact
    else {
      if (!(v >= 0 && v < Infinity))
        throw new MarketDataError('invalid_volume', TPO_MSG.volume(v), { index, field: 'volume' })
      const u = numberToUnits(v, acc === null ? 0 : acc.volScale)
      if (u === u) return u
      const r = parseDecimal(v)
      if (!r.ok) throw new MarketDataError('invalid_volume', TPO_MSG.volume(v), { index, field: 'volume' })
      d = r.value
    }
    if (acc === null) return 0
    if (d.scale > MAX_FAST_VOLUME_SCALE) {
      // a volume finer than the fast sums take: summed on its own, so the later trades stay fast
      this.bigUnits = d.units
      this.bigScale = d.scale
      return Number.NaN
    }
    acc.rescaleVolumes(d.scale)
    const b = d.units * 10n ** BigInt(acc.volScale - d.scale)
    this.bigUnits = b
    this.bigScale = acc.volScale
    return b < BIG_LIMIT ? Number(b) : Number.NaN
  }

  /** The exact add when a sum passes 2^52 or the volume's units do not fit a double ({@link ExactPath.bigUnits}). */
  slowAdd(acc: PeriodAcc, k: number, u: number): void {
    const sums = acc.vol
    if (u === u) {
      sums.lo[k] = (sums.lo[k] as number) + u
      sums.spill(k)
    } else if (this.bigScale === acc.volScale) sums.addBig(k, this.bigUnits)
    else acc.addFine(k, this.bigUnits, this.bigScale)
  }
}
