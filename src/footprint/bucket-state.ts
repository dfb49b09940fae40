import { ExactSums, UNITS_LIMIT, type ExactDecimal } from '../decimal/index.js'
import { exactExtremes, type PriceExtremes } from './price-extremes.js'
import type { RowSet } from './rowset.js'

/**
 * A dense lane's first row: `base`, moved so that every row of the lane, `base` to `base + cap - 1`, is a safe
 * integer (rows near ±2^53 would otherwise fall between doubles, and slot arithmetic with them).
 */
function laneBase(base: number, cap: number): number {
  // (max - (cap - 1), not base + cap - 1: a sum past 2^53 rounds)
  const max = Number.MAX_SAFE_INTEGER
  const top = max - (cap - 1)
  return base < -max ? -max : base > top ? top : base
}

/**
 * Shared by the buckets of one engine. How to compute a row's lower bound as a double: `row * rowUnits / pow`
 * (the grid's units at its decimals); `spare`: arrays of closed buckets at the initial capacity, for the next
 * buckets to reuse (a new bucket then allocates no typed array); `arena`: where new dense buckets carve their
 * arrays from.
 */
export interface BoundSpec {
  rowUnits: number
  pow: number
  spare?: SpareArrays[]
  /** Closed buckets, for {@link BucketState.open} to reuse (a new bucket then allocates no object). */
  shells?: BucketState[]
  arena?: Arena
}

/**
 * A block of doubles that dense buckets carve their arrays from, `used` of them taken: one backing store
 * for many buckets. A typed array with its own buffer costs an off-heap allocation and external-memory
 * accounting each, which made a bucket's arrays most of its fixed cost (thin data, a few trades a bucket).
 */
export interface Arena {
  buf: Float64Array<ArrayBuffer>
  used: number
}

/** The sums and typed arrays of a dense bucket at the initial capacity (handed from bucket to bucket whole). */
export interface SpareArrays {
  sums: ExactSums
  counts: Float64Array<ArrayBuffer>
  bnd: Float64Array<ArrayBuffer>
}

/** Rows of a new dense bucket (it doubles as it needs): few trades a bucket touch few rows. */
const INITIAL_CAP = 16
/** Doubles of one arena block (256 KiB): about 400 new buckets. */
const ARENA_SIZE = 1 << 15
/** Placeholders of a bucket that holds no row yet (cap 0: read as empty, never written). */
const NO_SUMS = new ExactSums(2)
const NO_COUNTS = new Float64Array(2)
const NO_BOUNDS = new Float64Array(1)
/**
 * Spare array sets, and closed bucket objects, kept per engine: a batch closes its buckets a piece at a time
 * (hundreds of them on thin data), and the next piece's buckets reuse them instead of allocating (at most
 * about 0.7 MB an engine).
 */
const MAX_SPARE = 1024
/** Past this many rows a bucket whose rows are mostly empty switches from a dense array to a Map. */
const DENSE_MAX = 1 << 16

/**
 * The rows of one open bucket. Dense mode: slot = row - base in typed arrays (`cap` slots); sparse mode
 * (`cap` = 0): a Map from row to slot. Volumes are exact integer units (ExactSums); counts are doubles.
 */
export class BucketState implements PriceExtremes {
  start: number
  end: number
  base = 0
  cap = 0
  /** Volume units, interleaved: slot k buy at 2k, sell at 2k + 1 (index = 2k + side - 1, no side branch). */
  sums: ExactSums = NO_SUMS
  /** Trade counts, interleaved like `sums`. */
  counts: Float64Array<ArrayBuffer> = NO_COUNTS
  /**
   * Dense mode: bnd[k] = the double nearest the lower bound of row base + k (k = 0..cap). A double price p
   * lies in row base + k exactly when bnd[k] <= p < bnd[k + 1] (rounding to the nearest double is
   * monotonic, and a bound with few digits is its double's shortest form), so the columnar path bins
   * prices by comparisons, without converting them.
   */
  bnd: Float64Array<ArrayBuffer> = NO_BOUNDS
  /** Extreme traded prices seen by the columnar path, as doubles (read by their shortest form at the end). */
  minD = Infinity
  maxD = -Infinity
  /** Volumes finer than the fast sums take, [buy, sell] by row, at `fineScale` decimals (rare; see {@link addFineVolume}). */
  fine: Map<number, [bigint, bigint]> | undefined = undefined
  fineScale = 0
  /** True once a sum has spilled into its bigint part (then moving slots must carry it). */
  spilled = false
  private readonly spec: BoundSpec
  /**
   * The initial-capacity set that is this bucket's sums, counts and bounds (undefined once they are others:
   * every change of them goes through {@link allocate}, which sets this anew).
   */
  private arrays: SpareArrays | undefined = undefined
  private sparse: Map<number, number> | null = null
  private slotRow: number[] = []
  /** Extreme traded prices in units of the engine's price scale; the bigint fields hold those past 2^52. */
  minP = Infinity
  maxP = -Infinity
  minBig: bigint | null = null
  maxBig: bigint | null = null

  constructor(start: number, end: number, spec: BoundSpec) {
    this.start = start
    this.end = end
    this.spec = spec
  }

  /** An empty bucket [start, end) of the engine of `spec`: a released one when there is one, else a new one. */
  static open(start: number, end: number, spec: BoundSpec): BucketState {
    const st = spec.shells?.pop()
    if (st === undefined) return new BucketState(start, end, spec)
    st.start = start
    st.end = end
    return st
  }

  private fillBounds(): void {
    const { rowUnits, pow } = this.spec
    const bnd = this.bnd.length === this.cap + 1 ? this.bnd : new Float64Array(this.cap + 1)
    for (let k = 0; k <= this.cap; k++) {
      const u = (this.base + k) * rowUnits
      // a bound of at most 15 significant digits is the shortest form of its double (exact comparisons)
      bnd[k] = Math.abs(u) < 1e15 && pow === pow ? u / pow : Number.NaN
    }
    this.bnd = bnd
  }

  /** True once the rows live in a Map (cap 0 for good). */
  isSparse(): boolean {
    return this.sparse !== null
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
      this.base = laneBase(row - (INITIAL_CAP >> 1), INITIAL_CAP)
      this.allocate(INITIAL_CAP)
      this.fillBounds()
      return row - this.base
    }
    const k = row - this.base
    if (k >= 0 && k < this.cap) return k
    const lo = Math.min(this.base, row)
    const hi = Math.max(this.base + (this.cap - 1), row)
    const span = hi - lo + 1
    if (span > DENSE_MAX && span > 8 * (this.usedDense() + 1)) {
      this.toSparse()
      return this.slotOf(row)
    }
    const cap = Math.max(this.cap * 2, span + (span >> 1))
    const base = laneBase(row < this.base ? hi - cap + 1 : lo, cap)
    this.move(base, cap)
    return row - base
  }

  private used(k: number): boolean {
    return (this.counts[2 * k] as number) + (this.counts[2 * k + 1] as number) > 0
  }

  private allocate(n: number): void {
    const spare = n === INITIAL_CAP && this.sparse === null ? this.spec.spare?.pop() : undefined
    if (spare !== undefined) {
      spare.sums.clear()
      this.arrays = spare
      this.sums = spare.sums
      this.counts = spare.counts.fill(0)
      this.bnd = spare.bnd
      return
    }
    // one buffer for the sums, the counts and (dense) the row bounds: one allocation, not three
    const dense = this.sparse === null
    const size = 4 * n + (dense ? n + 1 : 0)
    const buf = dense ? this.carve(size) : new Float64Array(size)
    this.sums = new ExactSums(buf.subarray(0, 2 * n))
    this.counts = buf.subarray(2 * n, 4 * n)
    if (dense) this.bnd = buf.subarray(4 * n)
    this.arrays = dense && n === INITIAL_CAP ? { sums: this.sums, counts: this.counts, bnd: this.bnd } : undefined
  }

  /** `size` zeroed doubles from the engine's arena (a new block when it is full; large requests get their own). */
  private carve(size: number): Float64Array<ArrayBuffer> {
    if (size > ARENA_SIZE >> 3) return new Float64Array(size)
    let a = this.spec.arena
    if (a === undefined || a.used + size > a.buf.length)
      a = this.spec.arena = { buf: new Float64Array(ARENA_SIZE), used: 0 }
    const from = a.used
    a.used = from + size
    return a.buf.subarray(from, from + size)
  }

  /**
   * Hands this (closed, finalized) bucket's arrays (when they have the initial capacity) and the bucket object
   * itself, emptied, to the next buckets of the engine ({@link BucketState.open}). The caller must not use it
   * afterwards.
   */
  release(): void {
    const pool = this.spec.spare
    const set = this.arrays
    if (pool !== undefined && set !== undefined && pool.length < MAX_SPARE) pool.push(set)
    this.arrays = undefined
    const shells = this.spec.shells
    if (shells === undefined || shells.length >= MAX_SPARE) return
    // back to the state of a new bucket (every field the constructor leaves at its initial value)
    this.base = 0
    this.cap = 0
    this.sums = NO_SUMS
    this.counts = NO_COUNTS
    this.bnd = NO_BOUNDS
    this.minD = Infinity
    this.maxD = -Infinity
    this.fine = undefined
    this.fineScale = 0
    this.spilled = false
    this.sparse = null
    if (this.slotRow.length > 0) this.slotRow = []
    this.minP = Infinity
    this.maxP = -Infinity
    this.minBig = null
    this.maxBig = null
    shells.push(this)
  }

  /** Sparse mode: room for n slots. */
  private ensure(n: number): void {
    if (2 * n <= this.counts.length) return
    const m = 2 * Math.max(n, this.counts.length)
    this.sums.grow(m)
    const c = new Float64Array(m)
    c.set(this.counts)
    this.counts = c
  }

  private usedDense(): number {
    let c = 0
    for (let k = 0; k < this.cap; k++) if (this.used(k)) c++
    return c
  }

  /** Dense mode: re-lays the slots at a new base and capacity. */
  private move(base: number, cap: number): void {
    const off = 2 * (this.base - base)
    const { sums, counts } = this
    const oldLen = 2 * this.cap
    this.allocate(cap)
    this.sums.lo.set(sums.lo.subarray(0, oldLen), off)
    this.counts.set(counts.subarray(0, oldLen), off)
    if (this.spilled) {
      for (let j = 0; j < oldLen; j++) {
        const b = sums.get(j) - BigInt(sums.lo[j] as number)
        if (b !== 0n) this.sums.addBig(j + off, b)
      }
    }
    this.base = base
    this.cap = cap
    this.fillBounds()
  }

  private toSparse(): void {
    const { sums, counts, base, cap } = this
    const used = this.usedDense()
    this.sparse = new Map()
    this.slotRow = []
    this.cap = 0
    this.base = 0
    this.bnd = new Float64Array(1)
    this.allocate(Math.max(16, used * 2))
    for (let k = 0; k < cap; k++) {
      if ((counts[2 * k] as number) + (counts[2 * k + 1] as number) === 0) continue
      const j = this.slotRow.length
      this.sparse.set(base + k, j)
      this.slotRow.push(base + k)
      for (let s = 0; s < 2; s++) {
        this.sums.addBig(2 * j + s, sums.get(2 * k + s))
        this.counts[2 * j + s] = counts[2 * k + s] as number
      }
    }
    this.spilled = true
  }

  /** Visits every used slot (any order) with its row. */
  private forEachUsed(f: (k: number, row: number) => void): void {
    if (this.sparse !== null) {
      for (let k = 0; k < this.slotRow.length; k++) f(k, this.slotRow[k] as number)
      return
    }
    for (let k = 0; k < this.cap; k++) if (this.used(k)) f(k, this.base + k)
  }

  /** Records a traded price given as exact units. */
  addPriceBig(u: bigint): void {
    if (u < BigInt(UNITS_LIMIT) && u > -BigInt(UNITS_LIMIT)) {
      const x = Number(u)
      if (x < this.minP) this.minP = x
      if (x > this.maxP) this.maxP = x
      return
    }
    if (this.minBig === null || u < this.minBig) this.minBig = u
    if (this.maxBig === null || u > this.maxBig) this.maxBig = u
  }

  /** Adds exact volume units to slot k of one side (1 buy, 2 sell) and counts the trade. */
  addVolumeBig(k: number, side: 1 | 2, u: bigint): void {
    const j = 2 * k + side - 1
    if (u < BigInt(UNITS_LIMIT)) this.sums.add(j, Number(u))
    else this.sums.addBig(j, u)
    this.spilled = true
    this.counts[j] = (this.counts[j] as number) + 1
  }

  /**
   * Adds the exact units (at `scale` decimals, finer than the engine's fast volume scale takes) of one
   * trade of `row` and side (1 buy, 2 sell), and counts it: kept by row at their own scale, apart from
   * the fast sums, so a rare high-scale volume costs only its own record.
   */
  addFineVolume(k: number, row: number, side: 1 | 2, u: bigint, scale: number): void {
    let fine = this.fine
    if (fine === undefined) {
      fine = this.fine = new Map()
      this.fineScale = scale
    } else if (scale > this.fineScale) {
      const f = 10n ** BigInt(scale - this.fineScale)
      for (const v of fine.values()) {
        v[0] *= f
        v[1] *= f
      }
      this.fineScale = scale
    }
    let v = fine.get(row)
    if (v === undefined) fine.set(row, (v = [0n, 0n]))
    v[side - 1] = (v[side - 1] as bigint) + u * 10n ** BigInt(this.fineScale - scale)
    const j = 2 * k + side - 1
    this.counts[j] = (this.counts[j] as number) + 1
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
    const lim = BigInt(UNITS_LIMIT)
    const sums = this.sums
    this.forEachUsed((slot) => {
      for (let j = 2 * slot; j < 2 * slot + 2; j++) {
        const x = sums.get(j) * f
        sums.reset(j)
        if (x < lim) sums.lo[j] = Number(x)
        else {
          sums.addBig(j, x)
          this.spilled = true
        }
      }
    })
  }

  /** True when no trade was recorded. */
  isEmpty(): boolean {
    return this.minP === Infinity && this.minBig === null && this.minD === Infinity
  }

  /** Exact high and low prices (see {@link exactExtremes}). */
  extremes(pScale: number): { high: ExactDecimal; low: ExactDecimal } {
    return exactExtremes(this, pScale)
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
    const fine = this.fine
    const scale = fine === undefined ? vScale : Math.max(vScale, this.fineScale)
    const f = 10n ** BigInt(scale - vScale)
    const ff = 10n ** BigInt(scale - this.fineScale)
    const set: RowSet = {
      rows: new Array(n),
      buy: new Array(n),
      sell: new Array(n),
      nb: new Array(n),
      ns: new Array(n),
      vScale: scale,
    }
    for (let i = 0; i < n; i++) {
      const j = order[i] as number
      const k = idx[j] as number
      const row = rowOf[j] as number
      set.rows[i] = row
      const x = fine?.get(row)
      set.buy[i] = this.sums.get(2 * k) * f + (x === undefined ? 0n : x[0] * ff)
      set.sell[i] = this.sums.get(2 * k + 1) * f + (x === undefined ? 0n : x[1] * ff)
      set.nb[i] = this.counts[2 * k] as number
      set.ns[i] = this.counts[2 * k + 1] as number
    }
    return set
  }
}
