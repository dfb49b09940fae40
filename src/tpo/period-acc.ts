import { ExactSums, exactDouble, formatUnits, UNITS_LIMIT, type ExactDecimal } from '../decimal/index.js'
import { compareDecimal } from './parts.js'
import { doubleAbove, doubleBelow, maxExact, minExact, type ExactBlockPrices } from './exact-prices.js'
import { MarketDataError } from '../errors.js'
import { TPO_MSG } from './messages.js'
import { MAX_ROWS } from './parts.js'

/**
 * Running state of one profile (a period, or one session type of it): per-block extremes, open/close
 * and main-session flag in typed arrays, and per-row buy/sell volumes as exact scaled-integer sums,
 * interleaved in one `vol`: buy of row r at `2 * (r - rowBase)`, sell at `2 * (r - rowBase) + 1` (so the
 * per-trade loop indexes by side code instead of branching on it: sides alternate unpredictably).
 */
export class PeriodAcc {
  readonly start: number
  readonly end: number
  /** Session code for grouped profiles, -1 for MERGE_ALL. */
  readonly session: number
  n = 0
  private readonly index = new Map<number, number>()
  bStart = new Float64Array(8)
  bHi = new Float64Array(8)
  bLo = new Float64Array(8)
  bOpenT = new Float64Array(8)
  bOpenP = new Float64Array(8)
  bCloseT = new Float64Array(8)
  bCloseP = new Float64Array(8)
  bMain = new Uint8Array(8)
  rowBase = 0
  rowCap = 0
  vol: ExactSums = new ExactSums(2)
  /**
   * Decimals of the units in `vol`: this profile's own, raised only by its own volumes, and at most
   * `MAX_FAST_VOLUME_SCALE`; finer volumes go to `fine`, so one high-scale record costs only itself.
   */
  volScale = 0
  /** Sums of the volumes finer than `MAX_FAST_VOLUME_SCALE` decimals, at `fineScale`, same indexes as `vol` (rare). */
  fine: ExactSums | undefined = undefined
  fineScale = 0
  /**
   * The exact prices of the blocks that traded a price a double cannot hold (rare): beside the block's
   * doubles, which then order the double prices as the exact one does (see {@link addExactPrice}).
   */
  exact: Map<number, ExactBlockPrices> | undefined = undefined

  constructor(start: number, end: number, session: number) {
    this.start = start
    this.end = end
    this.session = session
  }

  /** Slot of the block starting at `start`, created empty when new. */
  block(start: number): number {
    const j = this.index.get(start)
    if (j !== undefined) return j
    const k = this.n++
    if (k === this.bStart.length) this.growBlocks()
    this.index.set(start, k)
    this.bStart[k] = start
    this.bHi[k] = -Infinity
    this.bLo[k] = Infinity
    this.bOpenT[k] = Infinity
    this.bCloseT[k] = -Infinity
    return k
  }

  /**
   * Places a price a double cannot hold, of a record at time `t`, into block `j`: its extremes (the
   * doubles move to the bracketing doubles of `x`, the exact value is kept beside them) and its open and
   * close (a NaN double price means the exact one).
   */
  addExactPrice(j: number, x: ExactDecimal, t: number): void {
    const map = (this.exact ??= new Map())
    let e = map.get(j)
    if (e === undefined) {
      e = { high: undefined, low: undefined, open: undefined, close: undefined }
      map.set(j, e)
    }
    const below = doubleBelow(x)
    const above = doubleAbove(x)
    if (below > (this.bHi[j] as number)) this.bHi[j] = below
    if (above < (this.bLo[j] as number)) this.bLo[j] = above
    if (e.high === undefined || compareDecimal(x, e.high) > 0) e.high = x
    if (e.low === undefined || compareDecimal(x, e.low) < 0) e.low = x
    const cT = this.bCloseT[j] as number
    if (t >= cT) {
      if (cT === Number.NEGATIVE_INFINITY) this.setOpen(j, t, x, e)
      this.bCloseT[j] = t
      this.bCloseP[j] = Number.NaN
      e.close = x
    } else if (t < (this.bOpenT[j] as number)) this.setOpen(j, t, x, e)
  }

  private setOpen(j: number, t: number, x: ExactDecimal, e: ExactBlockPrices): void {
    this.bOpenT[j] = t
    this.bOpenP[j] = Number.NaN
    e.open = x
  }

  /** Sets block `j`'s prices from a checkpoint (each a double where one holds it, else kept exactly). */
  restorePrices(j: number, high: ExactDecimal, low: ExactDecimal, open: ExactDecimal, close: ExactDecimal): void {
    const e: ExactBlockPrices = { high: undefined, low: undefined, open: undefined, close: undefined }
    const dbl = (x: ExactDecimal) => exactDouble(formatUnits(x.units, x.scale))
    this.bHi[j] = dbl(high)
    if (this.bHi[j] !== this.bHi[j]) [this.bHi[j], e.high] = [doubleBelow(high), high]
    this.bLo[j] = dbl(low)
    if (this.bLo[j] !== this.bLo[j]) [this.bLo[j], e.low] = [doubleAbove(low), low]
    this.bOpenP[j] = dbl(open)
    if (this.bOpenP[j] !== this.bOpenP[j]) e.open = open
    this.bCloseP[j] = dbl(close)
    if (this.bCloseP[j] !== this.bCloseP[j]) e.close = close
    if (e.high !== undefined || e.low !== undefined || e.open !== undefined || e.close !== undefined)
      (this.exact ??= new Map()).set(j, e)
  }

  /** The exact high of block `j` (it holds trades). */
  blockHigh(j: number): ExactDecimal {
    return maxExact(this.bHi[j] as number, this.exact?.get(j)?.high)
  }

  /** The exact low of block `j` (it holds trades). */
  blockLow(j: number): ExactDecimal {
    return minExact(this.bLo[j] as number, this.exact?.get(j)?.low)
  }

  /** The exact open price of block `j`. */
  blockOpen(j: number): ExactDecimal {
    const p = this.bOpenP[j] as number
    return p === p ? maxExact(p, undefined) : (this.exact?.get(j)?.open as ExactDecimal)
  }

  /** The exact close price of block `j`. */
  blockClose(j: number): ExactDecimal {
    const p = this.bCloseP[j] as number
    return p === p ? maxExact(p, undefined) : (this.exact?.get(j)?.close as ExactDecimal)
  }

  private growBlocks(): void {
    const m = this.bStart.length * 2
    const f = (a: Float64Array) => {
      const b = new Float64Array(m)
      b.set(a)
      return b
    }
    this.bStart = f(this.bStart)
    this.bHi = f(this.bHi)
    this.bLo = f(this.bLo)
    this.bOpenT = f(this.bOpenT)
    this.bOpenP = f(this.bOpenP)
    this.bCloseT = f(this.bCloseT)
    this.bCloseP = f(this.bCloseP)
    const main = new Uint8Array(m)
    main.set(this.bMain)
    this.bMain = main
  }

  /** Adds `units` (at `scale` decimals, > `MAX_FAST_VOLUME_SCALE`) to the fine sum `i`, raising its scale when finer. */
  addFine(i: number, units: bigint, scale: number): void {
    let fine = this.fine
    if (fine === undefined) {
      fine = this.fine = new ExactSums(2 * this.rowCap)
      this.fineScale = scale
    } else if (scale > this.fineScale) {
      const f = 10n ** BigInt(scale - this.fineScale)
      for (let k = 0; k < 2 * this.rowCap; k++) {
        if (fine.isZero(k)) continue
        const v = fine.get(k) * f
        fine.reset(k)
        fine.addBig(k, v)
      }
      this.fineScale = scale
    }
    fine.addBig(i, units * 10n ** BigInt(this.fineScale - scale))
  }

  /** Decimals of {@link sumAt}: the finer of the two parts. */
  outScale(): number {
    return this.fine === undefined ? this.volScale : Math.max(this.volScale, this.fineScale)
  }

  /** The exact sum `i` (both parts) in units at `scale` (>= {@link outScale}). */
  sumAt(i: number, scale: number): bigint {
    const v = this.vol.get(i) * 10n ** BigInt(scale - this.volScale)
    return this.fine === undefined ? v : v + this.fine.get(i) * 10n ** BigInt(scale - this.fineScale)
  }

  /** Raises the volume scale to `d` decimals, rescaling every sum exactly. */
  rescaleVolumes(d: number): void {
    if (d <= this.volScale) return
    const f = 10n ** BigInt(d - this.volScale)
    const lim = BigInt(UNITS_LIMIT)
    const sums = this.vol
    for (let i = 0; i < 2 * this.rowCap; i++) {
      if (sums.isZero(i)) continue
      const v = sums.get(i) * f
      sums.reset(i)
      if (v <= lim && v >= -lim) sums.lo[i] = Number(v)
      else sums.addBig(i, v)
    }
    this.volScale = d
  }

  /**
   * Makes row `r` addressable in the volume sums (re-basing and growing as needed); `index` names the
   * record in errors. The 10,000,000-row cap counts the rows the profile spans: when the capacity with its
   * slack would pass it, `extent` gives the rows traded so far ([lowest, highest], or [Infinity, -Infinity]
   * when none), so the answer does not depend on the order of the trades.
   */
  ensureRow(r: number, index?: number, extent?: () => readonly [number, number]): void {
    if (this.rowCap === 0) {
      this.rowCap = 64
      this.rowBase = r - 32
      this.vol = new ExactSums(2 * this.rowCap)
      return
    }
    let lo = Math.min(this.rowBase, r)
    let hi = Math.max(this.rowBase + this.rowCap, r + 1)
    if (hi - lo > MAX_ROWS && extent !== undefined) {
      const [a, b] = extent()
      lo = Math.min(a, r)
      hi = Math.max(b + 1, r + 1)
    }
    const span = hi - lo
    if (span > MAX_ROWS)
      throw new MarketDataError(
        'invalid_option',
        TPO_MSG.tooManyRows(span),
        index === undefined ? { field: 'price' } : { index, field: 'price' },
      )
    // grow with slack on the side that grew
    const cap = Math.min(Math.max(span * 2, 64), MAX_ROWS)
    const base = r < this.rowBase ? hi - cap : lo
    this.vol = rebase(this.vol, 2 * this.rowCap, 2 * (this.rowBase - base), 2 * cap)
    if (this.fine !== undefined) this.fine = rebase(this.fine, 2 * this.rowCap, 2 * (this.rowBase - base), 2 * cap)
    this.rowBase = base
    this.rowCap = cap
  }
}

function rebase(old: ExactSums, n: number, shift: number, cap: number): ExactSums {
  const next = new ExactSums(cap)
  const lo = old.lo
  for (let i = 0; i < n; i++) {
    if (lo[i] === 0 && old.isZero(i)) continue
    const v = old.get(i)
    if (v <= BigInt(UNITS_LIMIT) && v >= -BigInt(UNITS_LIMIT)) next.lo[i + shift] = Number(v)
    else next.addBig(i + shift, v)
  }
  return next
}
