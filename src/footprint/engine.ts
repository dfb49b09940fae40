import { MAX_FAST_VOLUME_SCALE } from '../decimal/exact-sums.js'
import { POW10, floorDivBig, formatUnits, stringToUnits } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { createBucketer, resolveTimeframe, type Bucketer, type Timeframe } from '../time/index.js'
import { createScaledTradeReader, isTradeColumns, sessionMask, validateTradeColumns, type ScaledTradeReader } from '../trades/index.js'
import type { SessionType, Trade, TradeColumns } from '../trades/types.js'
import { codeWords, codesKept } from '../trades/codes.js'
import { MAX_TIME } from '../trades/validate.js'
import { resolveAnalyticsOptions, type ResolvedAnalyticsOptions } from './analytics-core.js'
import { BucketState, type BoundSpec } from './bucket-state.js'
import { resolveGrid, type Grid } from './grid.js'
import { MSG } from './messages.js'
import { buildProfile } from './rowset.js'
import type { FootprintOptions, FootprintProfile } from './types.js'

const LIMIT = 2 ** 52
const MAX_ROW = BigInt(Number.MAX_SAFE_INTEGER)
const EMPTY = new Float64Array(0)
/** Stands for an absent session column in {@link fastRun} (never read: its `hasSess` is then 0). */
const NO_SESSION = new Uint8Array(0)
/** 'buy' and 'sell' at their lengths (the object loop's side test). */
const SIDE_BY_LENGTH: readonly (string | null)[] = [null, null, null, 'buy', 'sell', null, null, null]
/**
 * Records per slice of the columnar path: the session column of a slice is checked first, four bytes at a
 * time, while the slice comes into cache (then the hot loop skips that test).
 */
const SLICE = 16384
/** Records per chunk of a non-array iterable of trade objects. */
const CHUNK = 4096

/**
 * The footprint aggregation engine shared by the batch function and the streaming aggregator: one
 * {@link BucketState} per open bucket. Call-free hot loops ({@link fastRun}, {@link fastObjects}) take the
 * common records; every other record is validated and turned into exact integer units by the shared
 * {@link ScaledTradeReader}, whose scales only grow (the open buckets are then rescaled once, exactly).
 */
export class FootprintEngine {
  readonly grid: Grid
  readonly timeframe: Timeframe
  private readonly bucketer: Bucketer
  private readonly from: number
  private readonly to: number
  /** keep[code] === 1 when session code is selected. */
  private readonly keep = new Uint8Array(256)
  private readonly sessionType: SessionType | undefined
  private readonly analytics: ResolvedAnalyticsOptions | undefined

  private reader: ScaledTradeReader
  /** The resolved options that shape the output (what a checkpoint must match). */
  readonly optionsKey: Record<string, unknown>
  /** True when every session is kept (no per-record session test). */
  private readonly allSessions: boolean
  private readonly chunk: Trade[] = []
  /**
   * [minD, maxD] handed to and from the fast loops; for {@link fastRun} also [wS, wE, inv, half, vPow] (read
   * there as unboxed doubles: number parameters would be unboxed again on every use inside the loop).
   */
  private readonly scratch = new Float64Array(16)
  private readonly bounds: BoundSpec
  /** Approximate row of a double price (verified against the bucket's bounds): floor((p - bnd[0]) * inv + half). */
  private readonly inv: number
  private readonly half: number
  pScale: number
  /** Row height in price units (NaN when it reaches 2^52: every record takes the exact slow path). */
  rowUnits: number
  rowUnitsBig: bigint
  vScale = 0
  /** The reader's current record has more decimals than the fast sums take: it is added on its own. */
  private fine = false

  private readonly states = new Map<number, BucketState>()
  cur: BucketState | null = null
  wS = Number.NaN
  wE = Number.NaN
  watermark = -Infinity

  constructor(opts: FootprintOptions, fn: string) {
    if (typeof opts !== 'object' || opts === null) throw new MarketDataError('invalid_option', MSG.optionsMissing(fn))
    this.timeframe = resolveTimeframe(opts.timeframe)
    if (this.timeframe.unit === 'TICK') throw new MarketDataError('invalid_option', MSG.tickFrame(this.timeframe.id), { field: 'timeframe' })
    this.grid = resolveGrid(opts.tickSize, opts.rowSize, opts.rowSizeValue)
    this.bucketer = createBucketer(this.timeframe, opts.timeZone === undefined ? {} : { timeZone: opts.timeZone })
    this.from = checkBound(opts.from, 'from', -Infinity)
    this.to = checkBound(opts.to, 'to', Infinity)
    const sessions = opts.sessions
    // the trades module's rule (session names compared, not looked up: 'toString' is no session)
    const mask = sessionMask(sessions)
    for (let c = 0; c < 3; c++) this.keep[c] = (mask >> c) & 1
    this.allSessions = this.keep[0] === 1 && this.keep[1] === 1 && this.keep[2] === 1
    const distinct = new Set(sessions ?? [])
    this.sessionType = distinct.size === 1 ? (sessions?.[0] as SessionType) : undefined
    this.analytics = opts.analytics === undefined || opts.analytics === false ? undefined : resolveAnalyticsOptions(opts.analytics)
    this.pScale = this.grid.decimals
    this.rowUnitsBig = BigInt(this.grid.rowUnits)
    this.rowUnits = this.grid.rowUnits
    // (the engine hands the reader one record at a time: its buffers need no more room)
    this.reader = createScaledTradeReader({ chunkSize: 1, priceScale: this.pScale })
    this.bounds = { rowUnits: this.grid.rowUnits, pow: this.grid.decimals <= 22 ? (POW10[this.grid.decimals] as number) : Number.NaN, spare: [] }
    this.inv = 1 / Number(this.grid.rowSizeValue)
    this.half = 0.5 / this.grid.rowSize
    const g = this.grid
    this.optionsKey = {
      timeframe: `${this.timeframe.count} ${this.timeframe.unit}`, timeZone: opts.timeZone ?? 'UTC', tickSize: g.tickSize, rowSizeValue: g.rowSizeValue,
      priceDecimals: g.decimals, from: String(this.from), to: String(this.to), sessions: mask,
      analytics: this.analytics === undefined ? null : [formatUnits(this.analytics.ratio.units, this.analytics.ratio.scale), formatUnits(this.analytics.minVolume.units, this.analytics.minVolume.scale), this.analytics.stackedRows],
    }
  }

  /** The open buckets that hold trades (for a checkpoint; read only). */
  openBuckets(): BucketState[] {
    return [...this.states.values()].filter((st) => !st.isEmpty()).sort((a, b) => a.start - b.start)
  }

  /**
   * Starts this new engine from a checkpoint's scales and watermark; returns an empty bucket for each
   * start given (the caller fills it). Throws `invalid_option` naming `field` for a start that is not a
   * bucket start of this frame or whose bucket the watermark has closed.
   */
  restore(pScale: number, vScale: number, watermark: number, starts: readonly number[], field: (i: number) => string): BucketState[] {
    this.reader = createScaledTradeReader({ chunkSize: 1, priceScale: pScale, volumeScale: vScale })
    this.pScale = pScale
    this.rowUnitsBig = BigInt(this.grid.rowUnits) * 10n ** BigInt(pScale - this.grid.decimals)
    this.rowUnits = this.rowUnitsBig < BigInt(LIMIT) ? Number(this.rowUnitsBig) : Number.NaN
    this.vScale = vScale
    this.watermark = watermark
    return starts.map((start, i) => {
      const ok = this.bucketer.locate(start) === start && this.bucketer.end > watermark && !this.states.has(start)
      if (!ok) throw new MarketDataError('invalid_option', `${field(i)}: ${start} is not the start of an open ${this.timeframe.id ?? 'timeframe'} bucket after the watermark (each bucket once)`, { field: field(i) })
      const st = new BucketState(start, this.bucketer.end, this.bounds)
      this.states.set(start, st)
      return st
    })
  }

  /** Moves to the bucket of time t; false when t is outside [from, to). Throws on a bad or late time. */
  enter(t: number, index: number): boolean {
    if (t < this.from || t >= this.to) return false
    const start = this.bucketer.locate(t)
    const end = this.bucketer.end
    if (end <= this.watermark) throw new MarketDataError('late_record', MSG.late(t, end, this.watermark), { index, field: 'time' })
    let st = this.states.get(start)
    if (st === undefined) {
      st = new BucketState(start, end, this.bounds)
      this.states.set(start, st)
    }
    this.cur = st
    this.wS = Math.max(start, this.from)
    this.wE = Math.min(end, this.to)
    return true
  }

  /** Follows the reader's scales (they only grow), rescaling every open bucket exactly. */
  private syncScales(): void {
    const r = this.reader
    if (r.priceScale !== this.pScale) {
      const k = r.priceScale - this.pScale
      for (const st of this.states.values()) st.rescalePrices(k)
      this.pScale = r.priceScale
      this.rowUnitsBig = BigInt(this.grid.rowUnits) * 10n ** BigInt(this.pScale - this.grid.decimals)
      this.rowUnits = this.rowUnitsBig < BigInt(LIMIT) ? Number(this.rowUnitsBig) : Number.NaN
    }
    // a volume finer than the fast sums take (more than MAX_FAST_VOLUME_SCALE decimals) is added on
    // its own at its scale (see slowEntry): the engine's scale stays, so the later trades stay fast
    this.fine = r.volumeScale > this.vScale && r.volumeScale > MAX_FAST_VOLUME_SCALE
    if (r.volumeScale !== this.vScale && !this.fine) {
      const k = r.volumeScale - this.vScale
      for (const st of this.states.values()) st.rescaleVolumes(k)
      this.vScale = r.volumeScale
    }
  }

  /** The exact path for entry i of the reader's chunk (units past 2^52, or rows too large for doubles). */
  private slowEntry(st: BucketState, i: number, index: number): void {
    const r = this.reader
    const pu = r.priceBig(i)
    const row = floorDivBig(pu, this.rowUnitsBig)
    // row indexes are doubles: past 2^53 they would silently name a neighbouring row
    if (row > MAX_ROW || row < -MAX_ROW) {
      throw new MarketDataError('invalid_decimal', MSG.priceRow(formatUnits(pu, this.pScale), this.grid.rowSizeValue), { index, field: 'price' })
    }
    const k = st.slotOf(Number(row))
    st.addPriceBig(pu)
    if (this.fine) st.addFineVolume(k, Number(row), r.side[i] as 1 | 2, r.volumeBig(i), r.volumeScale)
    else st.addVolumeBig(k, r.side[i] as 1 | 2, r.volumeBig(i))
  }

  /** Aggregates the reader's current chunk (n entries; stream index of entry 0 = index). */
  private processChunk(n: number, index: number): void {
    this.syncScales()
    const r = this.reader
    const time = r.time
    const price = r.price
    const volume = r.volume
    const side = r.side
    const sess = r.session
    const keep = this.keep
    const filter = !this.allSessions
    const rowUnits = this.rowUnits
    const rowsFast = rowUnits === rowUnits
    let st = this.cur
    let wS = this.wS
    let wE = this.wE
    let base = 0
    let cap = 0
    let lo: Float64Array = EMPTY
    let cnt: Float64Array = EMPTY
    let minP = Infinity
    let maxP = -Infinity
    if (st !== null) {
      base = st.base
      cap = st.cap
      lo = st.sums.lo
      cnt = st.counts
      minP = st.minP
      maxP = st.maxP
    }
    for (let i = 0; i < n; i++) {
      const t = time[i] as number
      if (!(t >= wS && t < wE)) {
        if (st !== null) {
          st.minP = minP
          st.maxP = maxP
        }
        if (!this.enter(t, index + i)) continue
        st = this.cur as BucketState
        wS = this.wS
        wE = this.wE
        base = st.base
        cap = st.cap
        lo = st.sums.lo
        cnt = st.counts
        minP = st.minP
        maxP = st.maxP
      }
      if (filter && keep[sess[i] as number] !== 1) continue
      const u = price[i] as number
      const vu = volume[i] as number
      if (u !== u || vu !== vu || !rowsFast || this.fine) {
        const cs = st as BucketState
        cs.minP = minP
        cs.maxP = maxP
        this.slowEntry(cs, i, index + i)
        base = cs.base
        cap = cs.cap
        lo = cs.sums.lo
        cnt = cs.counts
        minP = cs.minP
        maxP = cs.maxP
        continue
      }
      let k = Math.floor(u / rowUnits) - base
      if (k < 0 || k >= cap) {
        const cs = st as BucketState
        k = cs.slotOf(k + base)
        base = cs.base
        cap = cs.cap
        lo = cs.sums.lo
        cnt = cs.counts
      }
      if (u < minP) minP = u
      if (u > maxP) maxP = u
      const j = 2 * k + (side[i] as number) - 1
      const x = (lo[j] as number) + vu
      lo[j] = x
      if (x > LIMIT) {
        ;(st as BucketState).sums.spill(j)
        ;(st as BucketState).spilled = true
      }
      cnt[j] = (cnt[j] as number) + 1
    }
    if (st !== null) {
      st.minP = minP
      st.maxP = maxP
    }
    if (this.fine) {
      // the next record is read at the engine's own scale again
      r.volumeScale = this.vScale
      this.fine = false
    }
  }

  /**
   * Columnar fast path, one fused pass ({@link fastRun}) per run of records in the current bucket and row
   * range; any other record (new bucket, new row range, more decimals, units past 2^52, a spill, invalid)
   * goes through the shared reader one record at a time, which validates it and feeds the exact unit
   * path. `index` is the stream index of record 0 (for errors).
   */
  addColumns(c: TradeColumns, index = 0): void {
    if (!isTradeColumns(c)) throw new MarketDataError('invalid_option', MSG.notTrades(), { field: 'trades' })
    const n = c.time.length
    let wellFormed = false
    try {
      wellFormed = c.price?.length === n && c.volume?.length === n && c.side?.length === n && (c.session === undefined || c.session.length === n) &&
        c.price instanceof Float64Array && c.volume instanceof Float64Array && c.side instanceof Uint8Array
    } catch {
      // a column whose read throws (a getter, a Proxy trap): the validator below names it
    }
    if (!wellFormed) {
      const v = validateTradeColumns(c)
      if (!v.ok) throw v.error
    }
    const reader = this.reader
    const scratch = this.scratch
    const sess = c.session
    const sides = c.side
    const sess32 = sess === undefined ? null : codeWords(sess)
    let i = 0
    let sliceEnd = 0
    let clean = 0
    while (i < n) {
      const st = this.cur
      // (a bucket without rows yet, or with sparse rows, has cap 0: the loop then drops records and stops at the first kept one)
      if (st !== null) {
        if (i >= sliceEnd) {
          // a slice whose session codes are all kept takes the blocks without a session test
          sliceEnd = n - i > SLICE ? i + SLICE : n
          clean = (sess === undefined ? this.keep[0] === 1 : codesKept(sess, sess32, i, sliceEnd, this.keep)) ? 1 : 0
        }
        scratch[0] = st.minD
        scratch[1] = st.maxD
        scratch[2] = this.wS
        scratch[3] = this.wE
        scratch[4] = this.inv
        scratch[5] = this.half
        scratch[6] = this.vScale <= 22 ? (POW10[this.vScale] as number) : Number.NaN
        i = fastRun(c.time, c.price, c.volume, sides, sess ?? NO_SESSION, sess === undefined ? 0 : 1, this.keep, i, sliceEnd, st.sums.lo, st.counts, st.bnd, st.cap, scratch, this.allSessions ? 1 : 0, clean)
        st.minD = scratch[0] as number
        st.maxD = scratch[1] as number
        if (i >= n) break
        if (i === sliceEnd) continue
      }
      reader.readColumns(c, i, i + 1, index + i)
      this.processChunk(1, index + i)
      i++
    }
  }

  /** Trade objects of an array, records [from, to); `index` is the stream index of trades[from]. */
  addTradeArray(trades: ArrayLike<Trade>, from: number, to: number, index: number, untilColumns = false): number {
    const reader = this.reader
    const scratch = this.scratch
    const pPow = this.pScale <= 22 ? (POW10[this.pScale] as number) : Number.NaN
    let i = from
    while (i < to) {
      const st = this.cur
      if (st !== null && this.rowUnits === this.rowUnits && pPow === pPow) {
        scratch[0] = st.minP
        scratch[1] = st.maxP
        const vPow = this.vScale <= 22 ? (POW10[this.vScale] as number) : Number.NaN
        i = fastObjects(trades, i, to, this.keep, st.sums.lo, st.counts, st.base, st.cap, this.wS, this.wE, this.pScale, pPow, this.rowUnits, this.vScale, vPow, scratch)
        st.minP = scratch[0] as number
        st.maxP = scratch[1] as number
        if (i >= to) break
      }
      // the exact path for record i, through the shared reader (validation, scales, new bucket or rows)
      if (untilColumns && isTradeColumns(trades[i])) return i
      reader.readTrades(trades, i, i + 1, index + (i - from))
      this.processChunk(1, index + (i - from))
      i++
      if (this.pScale <= 22 && (POW10[this.pScale] as number) !== pPow) {
        return this.addTradeArray(trades, i, to, index + (i - from), untilColumns)
      }
    }
    return i
  }

  /** Object path: any iterable of Trade objects. */
  addTrades(trades: Iterable<Trade>): void {
    if (Array.isArray(trades)) {
      this.addTradeArray(trades, 0, trades.length, 0)
      return
    }
    if (typeof trades !== 'object' || trades === null || typeof (trades as Iterable<Trade>)[Symbol.iterator] !== 'function') {
      throw new MarketDataError('invalid_option', MSG.notTrades(), { field: 'trades' })
    }
    const chunk = this.chunk
    let index = 0
    chunk.length = 0
    for (const tr of trades) {
      chunk.push(tr)
      if (chunk.length === CHUNK) {
        this.addTradeArray(chunk, 0, CHUNK, index)
        index += CHUNK
        chunk.length = 0
      }
    }
    if (chunk.length > 0) this.addTradeArray(chunk, 0, chunk.length, index)
    chunk.length = 0
  }

  /** One Trade object. */
  addTrade(tr: Trade, index: number): void {
    const k = this.reader.readTrade(tr, index)
    this.processChunk(k, index)
  }

  private finalize(st: BucketState): FootprintProfile {
    const { high, low } = st.extremes(this.pScale)
    return buildProfile(
      { time: st.start, end: st.end, profileStart: this.from > st.start ? this.from : undefined, sessionType: this.sessionType },
      this.grid,
      st.rowSet(this.vScale),
      high,
      low,
      this.analytics,
    )
  }

  /** Closes (removes and returns, in time order) the buckets whose end is <= upTo. */
  close(upTo: number): FootprintProfile[] {
    const done: BucketState[] = []
    for (const st of this.states.values()) if (st.end <= upTo) done.push(st)
    done.sort((a, b) => a.start - b.start)
    const out: FootprintProfile[] = []
    for (const st of done) {
      this.states.delete(st.start)
      if (st === this.cur) {
        this.cur = null
        this.wS = Number.NaN
        this.wE = Number.NaN
      }
      if (!st.isEmpty()) out.push(this.finalize(st))
      st.release()
    }
    return out
  }

  /** The open buckets as profiles, without closing them. */
  snapshot(): FootprintProfile[] {
    const open = [...this.states.values()].filter((s) => !s.isEmpty()).sort((a, b) => a.start - b.start)
    return open.map((st) => this.finalize(st))
  }
}

/**
 * The columnar hot loop over records [from, to) of one open bucket's dense row range: no calls, no
 * allocation, every array a constant. A price is binned by comparison with the row bounds `bnd` (exact:
 * see BucketState.bnd), a volume becomes integer units (`u / 10^s === v` proves them exact). Returns the
 * index of the first record it cannot take (then the caller's exact path takes that one), or `to`.
 * `mm` carries [min, max] of the prices in and out.
 *
 * Consecutive trades nearly always repeat the price, so a price is binned (and min / max updated) only
 * when it changes, and the volumes and counts of a run of equal prices are summed in locals (both sides
 * branch-free: `b = 2 - side` is 1 for a buy, 0 for a sell), then added to the row's slots when the price
 * changes or the loop ends. `room` keeps every slot's sum within 2^52 (integers, so every sum is exact).
 * `clean` = 1: every session code of [from, to) is kept (the caller checked the slice word-wise), so the
 * blocks are {@link wholeBlocks} / {@link unitBlocks}, without a session test.
 */
function fastRun(
  time: Float64Array, price: Float64Array, volume: Float64Array, side: Uint8Array, sess: Uint8Array, hasSess: number, keep: Uint8Array,
  from: number, to: number, lo: Float64Array, cnt: Float64Array, bnd: Float64Array, cap: number, mm: Float64Array, allSess: number, clean: number,
): number {
  const org = bnd[0] as number
  const wS = mm[2] as number
  const wE = mm[3] as number
  const inv = mm[4] as number
  const half = mm[5] as number
  const vPow = mm[6] as number
  const all = allSess === 1
  const withSess = hasSess === 1
  mm[7] = vPow
  mm[9] = wS
  mm[10] = wE
  const whole = vPow === 1
  let minD = mm[0] as number
  let maxD = mm[1] as number
  let lastP = Number.NaN
  /** Slot of the buy side of the current price's row (sell at jb + 1). */
  let jb = 0
  /** Pending run on row jb: total units, buy units, buy trades, all trades; room = 2^52 - the larger slot sum. */
  let accT = 0
  let accB = 0
  let nB = 0
  let nT = 0
  let room = -1
  /** No session column and a filter that drops MAINSESSION: every record is dropped (one at a time below). */
  const dropAll = !withSess && keep[0] !== 1
  let i = from
  outer: for (;;) {
    if (clean === 1) {
      mm[8] = lastP
      mm[11] = room
      mm[12] = accT
      mm[13] = accB
      mm[14] = nB
      mm[15] = nT
      i = whole ? wholeBlocks(time, price, volume, side, i, to, mm) : unitBlocks(time, price, volume, side, i, to, mm)
      accT = mm[12] as number
      accB = mm[13] as number
      nB = mm[14] as number
      nT = mm[15] as number
    }
    if (whole && !dropAll && clean !== 1) {
      // blocks of 4 records at the current price: the usual case, with one test per field for all four
      // (bitwise for sides and session codes, so no branch depends on the data)
      for (; i + 4 <= to; i += 4) {
        const p0 = price[i] as number
        const p1 = price[i + 1] as number
        const p2 = price[i + 2] as number
        const p3 = price[i + 3] as number
        if (!(p0 === lastP && p1 === lastP && p2 === lastP && p3 === lastP)) break
        const t0 = time[i] as number
        const t1 = time[i + 1] as number
        const t2 = time[i + 2] as number
        const t3 = time[i + 3] as number
        if (!(t0 >= wS && t0 < wE && Math.floor(t0) === t0 && t1 >= wS && t1 < wE && Math.floor(t1) === t1 &&
          t2 >= wS && t2 < wE && Math.floor(t2) === t2 && t3 >= wS && t3 < wE && Math.floor(t3) === t3)) break
        const s0 = side[i] as number
        const s1 = side[i + 1] as number
        const s2 = side[i + 2] as number
        const s3 = side[i + 3] as number
        // every side is 1 or 2 exactly when no (side - 1) has a bit other than bit 0
        if ((((s0 - 1) | (s1 - 1) | (s2 - 1) | (s3 - 1)) & -2) !== 0) break
        if (withSess) {
          const c0 = sess[i] as number
          const c1 = sess[i + 1] as number
          const c2 = sess[i + 2] as number
          const c3 = sess[i + 3] as number
          // every code is 0..2 exactly when every code + 1 is below 4; with a filter, all four kept
          if (all ? ((c0 + 1) | (c1 + 1) | (c2 + 1) | (c3 + 1)) >> 2 !== 0 : ((keep[c0] as number) & (keep[c1] as number) & (keep[c2] as number) & (keep[c3] as number)) !== 1) break
        }
        const v0 = volume[i] as number
        const v1 = volume[i + 1] as number
        const v2 = volume[i + 2] as number
        const v3 = volume[i + 3] as number
        if (!(Math.floor(v0) === v0 && v0 >= 0 && Math.floor(v1) === v1 && v1 >= 0 && Math.floor(v2) === v2 && v2 >= 0 && Math.floor(v3) === v3 && v3 >= 0)) break
        // non-negative integers: when the total stays within room every partial sum is exact
        const nt = accT + (v0 + v1 + (v2 + v3))
        if (!(nt <= room)) break
        accT = nt
        accB += v0 * (2 - s0) + v1 * (2 - s1) + (v2 * (2 - s2) + v3 * (2 - s3))
        nB += 8 - s0 - s1 - s2 - s3
        nT += 4
      }
    }
    if (!whole && !dropAll && clean !== 1) {
      // the same blocks for volumes with decimals: units u = round(v * 10^s), exact when u / 10^s === v
      for (; i + 4 <= to; i += 4) {
        const p0 = price[i] as number
        const p1 = price[i + 1] as number
        const p2 = price[i + 2] as number
        const p3 = price[i + 3] as number
        if (!(p0 === lastP && p1 === lastP && p2 === lastP && p3 === lastP)) break
        const t0 = time[i] as number
        const t1 = time[i + 1] as number
        const t2 = time[i + 2] as number
        const t3 = time[i + 3] as number
        if (!(t0 >= wS && t0 < wE && Math.floor(t0) === t0 && t1 >= wS && t1 < wE && Math.floor(t1) === t1 &&
          t2 >= wS && t2 < wE && Math.floor(t2) === t2 && t3 >= wS && t3 < wE && Math.floor(t3) === t3)) break
        const s0 = side[i] as number
        const s1 = side[i + 1] as number
        const s2 = side[i + 2] as number
        const s3 = side[i + 3] as number
        // every side is 1 or 2 exactly when no (side - 1) has a bit other than bit 0
        if ((((s0 - 1) | (s1 - 1) | (s2 - 1) | (s3 - 1)) & -2) !== 0) break
        if (withSess) {
          const c0 = sess[i] as number
          const c1 = sess[i + 1] as number
          const c2 = sess[i + 2] as number
          const c3 = sess[i + 3] as number
          // every code is 0..2 exactly when every code + 1 is below 4; with a filter, all four kept
          if (all ? ((c0 + 1) | (c1 + 1) | (c2 + 1) | (c3 + 1)) >> 2 !== 0 : ((keep[c0] as number) & (keep[c1] as number) & (keep[c2] as number) & (keep[c3] as number)) !== 1) break
        }
        const v0 = volume[i] as number
        const v1 = volume[i + 1] as number
        const v2 = volume[i + 2] as number
        const v3 = volume[i + 3] as number
        const u0 = Math.floor(v0 * vPow + 0.5)
        const u1 = Math.floor(v1 * vPow + 0.5)
        const u2 = Math.floor(v2 * vPow + 0.5)
        const u3 = Math.floor(v3 * vPow + 0.5)
        if (!(u0 / vPow === v0 && u0 >= 0 && u1 / vPow === v1 && u1 >= 0 && u2 / vPow === v2 && u2 >= 0 && u3 / vPow === v3 && u3 >= 0)) break
        const nt = accT + (u0 + u1 + (u2 + u3))
        if (!(nt <= room)) break
        accT = nt
        accB += u0 * (2 - s0) + u1 * (2 - s1) + (u2 * (2 - s2) + u3 * (2 - s3))
        nB += 8 - s0 - s1 - s2 - s3
        nT += 4
      }
    }
    if (i >= to) break
    // one record at a time up to the next block: a new price (binned here), a dropped record, or one the
    // caller's exact path must take
    const stop = i + 4 < to ? i + 4 : to
    for (; i < stop; i++) {
      const t = time[i] as number
      const s = side[i] as number
      const v = volume[i] as number
      // one predictable test per field: the side test is bitwise (s === 1 || s === 2 would branch on the side)
      if (!(t >= wS && t < wE && Math.floor(t) === t && ((s - 1) & -2) === 0)) break outer
      const vu = whole ? v : Math.floor(v * vPow + 0.5)
      // (units past 2^52 fail the room test below; Infinity stops here, before its price could move the extremes)
      if (!((whole ? Math.floor(v) === v : vu / vPow === v) && vu >= 0 && vu !== Infinity)) break outer
      if (!all || withSess) {
        // (no session column: every record is MAINSESSION, code 0, which a filter may drop)
        const code = withSess ? (sess[i] as number) : 0
        if (all) {
          if (code > 2) break outer
        } else if (keep[code] !== 1) {
          // a dropped record is validated too, as the exact reader would: finite price and volume
          const q = price[i] as number
          if (code > 2 || v - v !== 0 || q - q !== 0) break outer
          continue
        }
      }
      const p = price[i] as number
      const moved = p !== lastP
      if (moved) {
        const k = Math.floor((p - org) * inv + half)
        if (!(k >= 0 && k < cap && p >= (bnd[k] as number) && p < (bnd[k + 1] as number))) break outer
        if (nT !== 0) {
          lo[jb] = (lo[jb] as number) + accB
          lo[jb + 1] = (lo[jb + 1] as number) + (accT - accB)
          cnt[jb] = (cnt[jb] as number) + nB
          cnt[jb + 1] = (cnt[jb + 1] as number) + (nT - nB)
          accT = 0
          accB = 0
          nB = 0
          nT = 0
        }
        jb = 2 * k
        const a = lo[jb] as number
        const c = lo[jb + 1] as number
        room = LIMIT - (a > c ? a : c)
        lastP = p
        if (p < minD) minD = p
        if (p > maxD) maxD = p
      }
      const nt = accT + vu
      if (nt > room) {
        // near 2^52: this record alone, exactly (a sum past 2^52 stops the loop; the caller spills it)
        const j = jb + s - 1
        const x = (lo[j] as number) + (s === 1 ? accB : accT - accB) + vu
        if (x > LIMIT) break outer
        if (nT !== 0) {
          lo[jb] = (lo[jb] as number) + accB
          lo[jb + 1] = (lo[jb + 1] as number) + (accT - accB)
          cnt[jb] = (cnt[jb] as number) + nB
          cnt[jb + 1] = (cnt[jb + 1] as number) + (nT - nB)
          accT = 0
          accB = 0
          nB = 0
          nT = 0
        }
        lo[j] = (lo[j] as number) + vu
        cnt[j] = (cnt[j] as number) + 1
        const a = lo[jb] as number
        const c = lo[jb + 1] as number
        room = LIMIT - (a > c ? a : c)
        continue
      }
      const b = 2 - s
      accT = nt
      accB += vu * b
      nB += b
      nT++
      if (moved && clean === 1) {
        // a new price opens a run: back to the blocks from the next record
        i++
        continue outer
      }
    }
  }
  if (nT !== 0) {
    lo[jb] = (lo[jb] as number) + accB
    lo[jb + 1] = (lo[jb + 1] as number) + (accT - accB)
    cnt[jb] = (cnt[jb] as number) + nB
    cnt[jb + 1] = (cnt[jb + 1] as number) + (nT - nB)
  }
  mm[0] = minD
  mm[1] = maxD
  return i
}

/**
 * {@link fastRun}'s blocks of 4 records at the current price, for a clean slice (every session code kept:
 * checked before, word-wise) with whole-lot volumes. State in and out through
 * `a[8..15]` = [lastP, wS, wE, room, accT, accB, nB, nT]. Returns the index of the first record of the
 * first block it cannot take whole (the caller then goes one record at a time), or the last block end.
 *
 * A small function of its own keeps the loop's values in registers. A block's times must be ascending (then
 * two bounds tests cover all four; any other order goes one record at a time). Integer times and volumes
 * are tested together: x - floor(x) is exact, 0 exactly for an integer, positive for any other finite x
 * and NaN for NaN or an infinity, so a sum of them is 0 exactly when every one is an integer. (`| 0` on
 * the indexes: i + 3 < to fits an int32, and V8 then drops its overflow tests.)
 */
function wholeBlocks(time: Float64Array, price: Float64Array, volume: Float64Array, side: Uint8Array, from: number, to: number, a: Float64Array): number {
  const lastP = a[8] as number
  const wS = a[9] as number
  const wE = a[10] as number
  const room = a[11] as number
  let accT = a[12] as number
  let accB = a[13] as number
  let nB = a[14] as number
  let nT = a[15] as number
  let i = from
  for (; i + 4 <= to; i += 4) {
    const i1 = (i + 1) | 0
    const i2 = (i + 2) | 0
    const i3 = (i + 3) | 0
    if (!((price[i] as number) === lastP && (price[i1] as number) === lastP && (price[i2] as number) === lastP && (price[i3] as number) === lastP)) break
    const t0 = time[i] as number
    const t1 = time[i1] as number
    const t2 = time[i2] as number
    const t3 = time[i3] as number
    if (!(t0 >= wS && t0 <= t1 && t1 <= t2 && t2 <= t3 && t3 < wE)) break
    const s0 = side[i] as number
    const s1 = side[i1] as number
    const s2 = side[i2] as number
    const s3 = side[i3] as number
    // every side is 1 or 2 exactly when no (side - 1) has a bit other than bit 0
    if ((((s0 - 1) | (s1 - 1) | (s2 - 1) | (s3 - 1)) & -2) !== 0) break
    const v0 = volume[i] as number
    const v1 = volume[i1] as number
    const v2 = volume[i2] as number
    const v3 = volume[i3] as number
    if (!(v0 >= 0 && v1 >= 0 && v2 >= 0 && v3 >= 0 &&
      t0 - Math.floor(t0) + (t1 - Math.floor(t1)) + (t2 - Math.floor(t2) + (t3 - Math.floor(t3))) +
      (v0 - Math.floor(v0) + (v1 - Math.floor(v1)) + (v2 - Math.floor(v2) + (v3 - Math.floor(v3)))) === 0)) break
    // non-negative integers: when the total stays within room every partial sum is exact
    const nt = accT + (v0 + v1 + (v2 + v3))
    if (!(nt <= room)) break
    accT = nt
    accB += v0 * (2 - s0) + v1 * (2 - s1) + (v2 * (2 - s2) + v3 * (2 - s3))
    nB += 8 - s0 - s1 - s2 - s3
    nT += 4
  }
  a[12] = accT
  a[13] = accB
  a[14] = nB
  a[15] = nT
  return i
}

/**
 * {@link wholeBlocks} for volumes with decimals (`a[7]` = 10^vScale): units u = round(v * 10^s), exact when
 * u / 10^s === v.
 */
function unitBlocks(time: Float64Array, price: Float64Array, volume: Float64Array, side: Uint8Array, from: number, to: number, a: Float64Array): number {
  const vPow = a[7] as number
  const lastP = a[8] as number
  const wS = a[9] as number
  const wE = a[10] as number
  const room = a[11] as number
  let accT = a[12] as number
  let accB = a[13] as number
  let nB = a[14] as number
  let nT = a[15] as number
  let i = from
  for (; i + 4 <= to; i += 4) {
    const i1 = (i + 1) | 0
    const i2 = (i + 2) | 0
    const i3 = (i + 3) | 0
    if (!((price[i] as number) === lastP && (price[i1] as number) === lastP && (price[i2] as number) === lastP && (price[i3] as number) === lastP)) break
    const t0 = time[i] as number
    const t1 = time[i1] as number
    const t2 = time[i2] as number
    const t3 = time[i3] as number
    if (!(t0 >= wS && t0 <= t1 && t1 <= t2 && t2 <= t3 && t3 < wE &&
      t0 - Math.floor(t0) + (t1 - Math.floor(t1)) + (t2 - Math.floor(t2) + (t3 - Math.floor(t3))) === 0)) break
    const s0 = side[i] as number
    const s1 = side[i1] as number
    const s2 = side[i2] as number
    const s3 = side[i3] as number
    // every side is 1 or 2 exactly when no (side - 1) has a bit other than bit 0
    if ((((s0 - 1) | (s1 - 1) | (s2 - 1) | (s3 - 1)) & -2) !== 0) break
    const v0 = volume[i] as number
    const v1 = volume[i1] as number
    const v2 = volume[i2] as number
    const v3 = volume[i3] as number
    const u0 = Math.floor(v0 * vPow + 0.5)
    const u1 = Math.floor(v1 * vPow + 0.5)
    const u2 = Math.floor(v2 * vPow + 0.5)
    const u3 = Math.floor(v3 * vPow + 0.5)
    if (!(u0 / vPow === v0 && u0 >= 0 && u1 / vPow === v1 && u1 >= 0 && u2 / vPow === v2 && u2 >= 0 && u3 / vPow === v3 && u3 >= 0)) break
    const nt = accT + (u0 + u1 + (u2 + u3))
    if (!(nt <= room)) break
    accT = nt
    accB += u0 * (2 - s0) + u1 * (2 - s1) + (u2 * (2 - s2) + u3 * (2 - s3))
    nB += 8 - s0 - s1 - s2 - s3
    nT += 4
  }
  a[12] = accT
  a[13] = accB
  a[14] = nB
  a[15] = nT
  return i
}


/**
 * The object hot loop over trades [from, to) of one open bucket's dense row range: decimal strings (or
 * numbers) become integer units with the allocation-free primitives; any record it cannot take for sure
 * (another bucket or row range, more decimals, units past 2^52, a possible spill, anything invalid) stops
 * it, and the caller's exact path (the shared reader) takes that one. `mm` carries [minP, maxP] in units.
 */
function fastObjects(
  trades: ArrayLike<Trade>, from: number, to: number, keep: Uint8Array, lo: Float64Array, cnt: Float64Array, base: number, cap: number,
  wS: number, wE: number, pScale: number, pPow: number, rowUnits: number, vScale: number, vPow: number, mm: Float64Array,
): number {
  let minP = mm[0] as number
  let maxP = mm[1] as number
  // the last price string and its units and slot: consecutive trades nearly always repeat the price, and
  // comparing two short strings costs less than reading one
  let lastS: string | null = null
  let lastU = 0
  /** The units whose slot is lastK (NaN: none yet). */
  let kU = Number.NaN
  let lastK = 0
  let i = from
  for (; i < to; i++) {
    const tr = trades[i]
    if (typeof tr !== 'object' || tr === null) break
    const t = tr.time
    if (typeof t !== 'number' || !(t >= wS && t < wE) || Math.floor(t) !== t) break
    const sd = tr.side
    // the side from its length, then one comparison that is true for every valid record (testing
    // 'buy' then 'sell' would branch on the data and mispredict on mixed sides)
    if (typeof sd !== 'string') break
    const sl = sd.length & 7
    if (sd !== SIDE_BY_LENGTH[sl]) break
    const s = sl - 2 // 'buy' 1, 'sell' 2
    const se = tr.session
    const code = se === undefined || se === 'MAINSESSION' ? 0 : se === 'PRE_MARKET' ? 1 : se === 'POST_MARKET' ? 2 : 3
    if (code === 3) break
    const p = tr.price
    const v = tr.volume
    let u: number
    if (typeof p === 'string') {
      if (p === lastS) u = lastU
      else {
        u = stringToUnits(p, pScale)
        if (!(u < LIMIT && u > -LIMIT)) break
        lastS = p
        lastU = u
      }
    } else if (typeof p === 'number') {
      u = Math.round(p * pPow)
      if (u / pPow !== p || !(u < LIMIT && u > -LIMIT)) break
    } else break
    let vu: number
    if (typeof v === 'string') {
      // a plain decimal (digits, one dot with digits on both sides, at most vScale decimals) read inline,
      // each character once; any other string stops the loop and the exact reader judges it
      const n = v.length
      let q = 0
      let c = 0
      vu = -0
      for (; q < n; q++) {
        c = v.charCodeAt(q) - 48
        if (c >>> 0 > 9) break
        vu = vu * 10 + c
      }
      if (q < n) {
        const f = n - 1 - q
        if (c !== -2 || q === 0 || f === 0 || f > vScale) break
        // four digits a step (their value first, then one multiply-add into vu): a quarter of the
        // dependency chain of a multiply-add per digit (8-decimal volumes: W5 about +2-4%)
        let bad = false
        for (q++; q + 4 <= n; q += 4) {
          const c0 = v.charCodeAt(q) - 48
          const c1 = v.charCodeAt(q + 1) - 48
          const c2 = v.charCodeAt(q + 2) - 48
          const c3 = v.charCodeAt(q + 3) - 48
          if (c0 >>> 0 > 9 || c1 >>> 0 > 9 || c2 >>> 0 > 9 || c3 >>> 0 > 9) {
            bad = true
            break
          }
          vu = vu * 10000 + ((c0 * 10 + c1) * 100 + (c2 * 10 + c3))
        }
        if (bad) break
        for (; q < n; q++) {
          c = v.charCodeAt(q) - 48
          if (c >>> 0 > 9) break
          vu = vu * 10 + c
        }
        if (q < n) break
        if (f < vScale) vu *= POW10[vScale - f] as number
      } else if (n === 0) break
      else if (vScale > 0) vu *= vPow
    } else if (typeof v === 'number') {
      vu = Math.round(v * vPow)
      if (vu / vPow !== v) vu = Number.NaN
    } else break
    if (!(vu >= 0 && vu < LIMIT)) break
    if (keep[code] !== 1) continue // filtered out, after validation
    let k = lastK
    if (u !== kU) {
      k = Math.floor(u / rowUnits) - base
      if (!(k >= 0 && k < cap)) break
      kU = u
      lastK = k
    }
    const j = 2 * k + s - 1
    const x = (lo[j] as number) + vu
    if (x > LIMIT) break
    lo[j] = x
    cnt[j] = (cnt[j] as number) + 1
    if (u < minP) minP = u
    if (u > maxP) maxP = u
  }
  mm[0] = minP
  mm[1] = maxP
  return i
}

function checkBound(x: unknown, field: 'from' | 'to', dflt: number): number {
  if (x === undefined) return dflt
  // a whole ms within the Date range, as trade times: profileStart echoes it
  if (typeof x !== 'number' || !(x >= -MAX_TIME && x <= MAX_TIME) || Math.floor(x) !== x) throw new MarketDataError('invalid_option', MSG.range(field, x), { field })
  return x
}
