import { ExactSums } from '../decimal/index.js'
import type { RowSet } from './rowset.js'

const LIMIT = 2 ** 52
const INITIAL_CAP = 64
/** Past this many rows a bucket whose rows are mostly empty switches from a dense array to a Map. */
const DENSE_MAX = 1 << 16

/**
 * The rows of one open bucket. Dense mode: slot = row - base in typed arrays (`cap` slots); sparse mode
 * (`cap` = 0): a Map from row to slot. Volumes are exact integer units (ExactSums); counts are doubles.
 */
export class BucketState {
  readonly start: number
  readonly end: number
  base = 0
  cap = 0
  buy = new ExactSums(1)
  sell = new ExactSums(1)
  nb = new Float64Array(1)
  ns = new Float64Array(1)
  /** True once a sum has spilled into its bigint part (then moving slots must carry it). */
  spilled = false
  private sparse: Map<number, number> | null = null
  private slotRow: number[] = []
  /** Extreme traded prices in units of the engine's price scale; the bigint fields hold those past 2^52. */
  minP = Infinity
  maxP = -Infinity
  minBig: bigint | null = null
  maxBig: bigint | null = null

  constructor(start: number, end: number) {
    this.start = start
    this.end = end
  }

  /** Slot of `row`, creating it (and growing or switching storage) when needed. */
  slotOf(row: number): number {
    const sparse = this.sparse
    if (sparse !== null) {
      let k = sparse.get(row)
      if (k === undefined) {
        k = this.slotRow.length
        this.ensure(k + 1)
        sparse.set(row, k)
        this.slotRow.push(row)
      }
      return k
    }
    if (this.cap === 0) {
      this.cap = INITIAL_CAP
      this.base = row - (INITIAL_CAP >> 1)
      this.allocate(INITIAL_CAP)
      return row - this.base
    }
    const k = row - this.base
    if (k >= 0 && k < this.cap) return k
    const lo = Math.min(this.base, row)
    const hi = Math.max(this.base + this.cap - 1, row)
    const span = hi - lo + 1
    if (span > DENSE_MAX && span > 8 * (this.usedDense() + 1)) {
      this.toSparse()
      return this.slotOf(row)
    }
    const cap = Math.max(this.cap * 2, span + (span >> 1))
    const base = row < this.base ? hi - cap + 1 : lo
    this.move(base, cap)
    return row - base
  }

  private allocate(n: number): void {
    this.buy = new ExactSums(n)
    this.sell = new ExactSums(n)
    this.nb = new Float64Array(n)
    this.ns = new Float64Array(n)
  }

  /** Sparse mode: room for n slots. */
  private ensure(n: number): void {
    if (n <= this.nb.length) return
    const m = Math.max(n, this.nb.length * 2)
    this.buy.grow(m)
    this.sell.grow(m)
    const nb = new Float64Array(m)
    nb.set(this.nb)
    this.nb = nb
    const ns = new Float64Array(m)
    ns.set(this.ns)
    this.ns = ns
  }

  private usedDense(): number {
    let c = 0
    for (let k = 0; k < this.cap; k++) if ((this.nb[k] as number) + (this.ns[k] as number) > 0) c++
    return c
  }

  /** Dense mode: re-lays the slots at a new base and capacity. */
  private move(base: number, cap: number): void {
    const off = this.base - base
    const { buy, sell, nb, ns } = this
    const oldCap = this.cap
    this.allocate(cap)
    this.buy.lo.set(buy.lo.subarray(0, oldCap), off)
    this.sell.lo.set(sell.lo.subarray(0, oldCap), off)
    this.nb.set(nb.subarray(0, oldCap), off)
    this.ns.set(ns.subarray(0, oldCap), off)
    if (this.spilled) {
      for (let k = 0; k < oldCap; k++) {
        const b = buy.get(k) - BigInt(buy.lo[k] as number)
        if (b !== 0n) this.buy.addBig(k + off, b)
        const s = sell.get(k) - BigInt(sell.lo[k] as number)
        if (s !== 0n) this.sell.addBig(k + off, s)
      }
    }
    this.base = base
    this.cap = cap
  }

  private toSparse(): void {
    const { buy, sell, nb, ns, base, cap } = this
    const used = this.usedDense()
    this.sparse = new Map()
    this.slotRow = []
    this.cap = 0
    this.base = 0
    this.allocate(Math.max(16, used * 2))
    for (let k = 0; k < cap; k++) {
      if ((nb[k] as number) + (ns[k] as number) === 0) continue
      const j = this.slotRow.length
      this.sparse.set(base + k, j)
      this.slotRow.push(base + k)
      this.buy.addBig(j, buy.get(k))
      this.sell.addBig(j, sell.get(k))
      this.nb[j] = nb[k] as number
      this.ns[j] = ns[k] as number
    }
    this.spilled = true
  }

  /** Visits every used slot (any order) with its row. */
  private forEachUsed(f: (k: number, row: number) => void): void {
    if (this.sparse !== null) {
      for (let k = 0; k < this.slotRow.length; k++) f(k, this.slotRow[k] as number)
      return
    }
    for (let k = 0; k < this.cap; k++) if ((this.nb[k] as number) + (this.ns[k] as number) > 0) f(k, this.base + k)
  }

  /** Records a traded price given as exact units. */
  addPriceBig(u: bigint): void {
    if (u < BigInt(LIMIT) && u > -BigInt(LIMIT)) {
      const x = Number(u)
      if (x < this.minP) this.minP = x
      if (x > this.maxP) this.maxP = x
      return
    }
    if (this.minBig === null || u < this.minBig) this.minBig = u
    if (this.maxBig === null || u > this.maxBig) this.maxBig = u
  }

  /** Adds exact volume units to slot k of one side. */
  addVolumeBig(k: number, side: 1 | 2, u: bigint): void {
    const sums = side === 1 ? this.buy : this.sell
    if (u < BigInt(LIMIT)) sums.add(k, Number(u))
    else sums.addBig(k, u)
    this.spilled = true
    if (side === 1) this.nb[k] = (this.nb[k] as number) + 1
    else this.ns[k] = (this.ns[k] as number) + 1
  }

  /** Multiplies every price unit by 10^k (the engine's price scale grew). */
  rescalePrices(k: number): void {
    const f = 10n ** BigInt(k)
    const lo = this.minP
    const hi = this.maxP
    const minB = this.minBig
    const maxB = this.maxBig
    this.minP = Infinity
    this.maxP = -Infinity
    this.minBig = null
    this.maxBig = null
    if (lo !== Infinity) this.addPriceBig(BigInt(lo) * f)
    if (hi !== -Infinity) this.addPriceBig(BigInt(hi) * f)
    if (minB !== null) this.addPriceBig(minB * f)
    if (maxB !== null) this.addPriceBig(maxB * f)
  }

  /** Multiplies every volume unit by 10^k (the engine's volume scale grew). */
  rescaleVolumes(k: number): void {
    const f = 10n ** BigInt(k)
    const lim = BigInt(LIMIT)
    this.forEachUsed((slot) => {
      for (const sums of [this.buy, this.sell]) {
        const x = sums.get(slot) * f
        sums.reset(slot)
        if (x < lim) sums.lo[slot] = Number(x)
        else {
          sums.addBig(slot, x)
          this.spilled = true
        }
      }
    })
  }

  /** True when no trade was recorded. */
  isEmpty(): boolean {
    return this.minP === Infinity && this.minBig === null
  }

  /** Exact high and low price units. */
  extremes(): { high: bigint; low: bigint } {
    let high = this.maxP === -Infinity ? null : BigInt(this.maxP)
    let low = this.minP === Infinity ? null : BigInt(this.minP)
    if (this.maxBig !== null && (high === null || this.maxBig > high)) high = this.maxBig
    if (this.minBig !== null && (low === null || this.minBig < low)) low = this.minBig
    return { high: high ?? 0n, low: low ?? 0n }
  }

  /** The rows in ascending order, exact. */
  rowSet(vScale: number): RowSet {
    const idx: number[] = []
    const rowOf: number[] = []
    this.forEachUsed((k, row) => {
      idx.push(k)
      rowOf.push(row)
    })
    const order = idx.map((_, i) => i)
    if (this.sparse !== null) order.sort((a, b) => (rowOf[a] as number) - (rowOf[b] as number))
    const n = order.length
    const set: RowSet = { rows: new Array(n), buy: new Array(n), sell: new Array(n), nb: new Array(n), ns: new Array(n), vScale }
    for (let i = 0; i < n; i++) {
      const j = order[i] as number
      const k = idx[j] as number
      set.rows[i] = rowOf[j] as number
      set.buy[i] = this.buy.get(k)
      set.sell[i] = this.sell.get(k)
      set.nb[i] = this.nb[k] as number
      set.ns[i] = this.ns[k] as number
    }
    return set
  }
}
