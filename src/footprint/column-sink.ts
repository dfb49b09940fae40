// The column sink of footprintColumnsFromTrades: closed buckets are written as numbers into growable
// columns instead of made into FootprintProfile objects (no object, array or string per profile or row).
import { exactDouble, formatUnits, POW10 } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { pocIndex } from '../profile/point-of-control.js'
import type { BucketState } from './bucket-state.js'
import type { BucketSink, FootprintEngine } from './engine.js'
import { FOOTPRINT_MSG } from './messages.js'
import { volumePocIndex } from './rowset.js'
import type { FootprintColumns } from './types.js'

/** A growable column of doubles. */
class Column {
  a = new Float64Array(64)
  n = 0
  push(x: number): void {
    if (this.n === this.a.length) this.ensure(1)
    this.a[this.n++] = x
  }
  /** Room for k more values; returns the array to write them into (at `n`, which the caller advances). */
  ensure(k: number): Float64Array {
    if (this.n + k > this.a.length) {
      const b = new Float64Array(Math.max(this.a.length * 2, this.n + k))
      b.set(this.a)
      this.a = b
    }
    return this.a
  }
  /** The values written (a copy of their length). */
  take(): Float64Array {
    return this.a.slice(0, this.n)
  }
}

/**
 * The footprint engine's column sink (given at its construction): each bucket that holds trades appends one
 * profile's cells and its rows' cells. A volume is the double whose shortest form is its exact sum; the
 * first sum no double carries is kept in `inexact` (thrown once the input is read, after any input error).
 */
export class ColumnSink implements BucketSink<void> {
  inexact: MarketDataError | undefined = undefined
  profileStart: number | undefined = undefined
  private readonly time = new Column()
  private readonly end = new Column()
  private readonly rowStart = new Column()
  private readonly pVb = new Column()
  private readonly pVs = new Column()
  private readonly pCb = new Column()
  private readonly pCs = new Column()
  private readonly poc = new Column()
  private readonly row = new Column()
  private readonly vb = new Column()
  private readonly vs = new Column()
  private readonly cb = new Column()
  private readonly cs = new Column()
  /** Scratch of one dense bucket's row volumes and rows, for its POC. */
  private readonly vol: number[] = []
  private readonly rowNo: number[] = []

  build(st: BucketState, engine: FootprintEngine<void>): void {
    const o = engine.options
    if (this.time.n === 0 && o.from > st.start) this.profileStart = o.from
    const first = this.row.n
    this.time.push(st.start)
    this.end.push(st.end)
    this.rowStart.push(first)
    if (!(!st.spilled && st.fine === undefined && !st.isSparse() && this.dense(st, engine))) {
      this.row.n = first
      this.exact(st, engine)
    }
  }

  /** A dense, unspilled bucket from its double slots; false (nothing kept) when a total passes 2^53. */
  private dense(st: BucketState, engine: FootprintEngine<void>): boolean {
    const vScale = engine.vScale
    const sums = st.sums.lo
    const counts = st.counts
    let vb = 0
    let vs = 0
    let cb = 0
    let cs = 0
    // the POC without arrays when one row holds the most volume (the tie rules need the rows: pocIndex)
    let max = -1
    let maxRow = 0
    let ties = 0
    // one pass: the row cells written straight into the columns (room made once for the bucket's slots), and
    // kept (the columns' lengths moved) only when the totals below are exact
    const at = this.row.n
    const row = this.row.ensure(st.cap)
    const vbA = this.vb.ensure(st.cap)
    const vsA = this.vs.ensure(st.cap)
    const cbA = this.cb.ensure(st.cap)
    const csA = this.cs.ensure(st.cap)
    let j = at
    for (let k = 0; k < st.cap; k++) {
      const nb = counts[2 * k] as number
      const ns = counts[2 * k + 1] as number
      if (nb + ns === 0) continue
      const b = sums[2 * k] as number
      const s = sums[2 * k + 1] as number
      vb += b
      vs += s
      cb += nb
      cs += ns
      if (b + s > max) {
        max = b + s
        maxRow = st.base + k
        ties = 0
      } else if (b + s === max) ties++
      row[j] = st.base + k
      vbA[j] = this.volume(b, vScale, 'volumeBuy', st.start)
      vsA[j] = this.volume(s, vScale, 'volumeSell', st.start)
      cbA[j] = nb
      csA[j] = ns
      j++
    }
    // every partial sum is exact while the whole stays a safe integer (non-negative integers)
    if (!(vb + vs <= Number.MAX_SAFE_INTEGER) || !Number.isSafeInteger(cb + cs)) return false
    this.row.n = this.vb.n = this.vs.n = this.cb.n = this.cs.n = j
    let poc = maxRow
    if (ties > 0) {
      // equal largest rows: the tie rules over the bucket's rows (rare)
      const vol = this.vol
      const rowNo = this.rowNo
      vol.length = 0
      rowNo.length = 0
      for (let q = at; q < j; q++) {
        const k = (row[q] as number) - st.base
        vol.push((sums[2 * k] as number) + (sums[2 * k + 1] as number))
        rowNo.push(row[q] as number)
      }
      poc = rowNo[pocIndex(vol, rowNo)] as number
    }
    this.totals(vb, vs, cb, cs, vScale, st.start, poc)
    return true
  }

  /** Any bucket from its exact row set (sparse, spilled into bigints, or with finer volumes). */
  private exact(st: BucketState, engine: FootprintEngine<void>): void {
    const set = st.rowSet(engine.vScale)
    let vb = 0n
    let vs = 0n
    let cb = 0
    let cs = 0
    for (let i = 0; i < set.rows.length; i++) {
      const b = set.buy[i] as bigint
      const s = set.sell[i] as bigint
      vb += b
      vs += s
      cb += set.nb[i] as number
      cs += set.ns[i] as number
      this.row.push(set.rows[i] as number)
      this.vb.push(this.volume(b, set.vScale, 'volumeBuy', st.start))
      this.vs.push(this.volume(s, set.vScale, 'volumeSell', st.start))
      this.cb.push(set.nb[i] as number)
      this.cs.push(set.ns[i] as number)
    }
    if (!Number.isSafeInteger(cb + cs))
      throw new MarketDataError('inexact', FOOTPRINT_MSG.countSum('trades'), { field: 'trades' })
    this.totals(vb, vs, cb, cs, set.vScale, st.start, set.rows[volumePocIndex(set)] as number)
  }

  private totals(
    vb: number | bigint,
    vs: number | bigint,
    cb: number,
    cs: number,
    vScale: number,
    time: number,
    pocRow: number,
  ): void {
    this.pVb.push(this.volume(vb, vScale, 'volumeBuy', time))
    this.pVs.push(this.volume(vs, vScale, 'volumeSell', time))
    this.pCb.push(cb)
    this.pCs.push(cs)
    this.poc.push(pocRow)
  }

  /**
   * Exact volume units at `scale` as the double whose shortest form is that decimal, or NaN with `inexact`
   * set. Below 10^15 units a double carries the decimal and u / 10^scale is that double (correctly rounded).
   */
  private volume(u: number | bigint, scale: number, field: string, time: number): number {
    if (typeof u === 'number' ? u < 1e15 : u < 1000000000000000n) {
      if (scale <= 22) return Number(u) / (POW10[scale] as number)
    }
    const text = formatUnits(u, scale)
    const x = exactDouble(text)
    if (x !== x) this.inexact ??= new MarketDataError('inexact', FOOTPRINT_MSG.inexact(field, text, time), { field })
    return x
  }

  /** The profiles written, as columns (with the grid and provenance of `engine`). */
  result(engine: FootprintEngine<void>): FootprintColumns {
    const g = engine.grid
    this.rowStart.push(this.row.n)
    const out: FootprintColumns = {
      tickSize: g.tickSize,
      rowSize: g.rowSize,
      rowSizeValue: g.rowSizeValue,
      time: this.time.take(),
      end: this.end.take(),
      rowStart: this.rowStart.take(),
      volumeBuy: this.pVb.take(),
      volumeSell: this.pVs.take(),
      tradesCountBuy: this.pCb.take(),
      tradesCountSell: this.pCs.take(),
      volumePocRow: this.poc.take(),
      rows: {
        row: this.row.take(),
        volumeBuy: this.vb.take(),
        volumeSell: this.vs.take(),
        tradesCountBuy: this.cb.take(),
        tradesCountSell: this.cs.take(),
      },
    }
    if (this.profileStart !== undefined) out.profileStart = this.profileStart
    if (engine.options.sessionType !== undefined) out.sessionType = engine.options.sessionType
    return out
  }
}
