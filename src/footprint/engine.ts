import { POW10, floorDivBig } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { createBucketer, resolveTimeframe, type Bucketer, type Timeframe } from '../time/index.js'
import { createScaledTradeReader, isTradeColumns, validateTradeColumns, type ScaledTradeReader } from '../trades/index.js'
import type { SessionType, Trade, TradeColumns } from '../trades/types.js'
import { resolveAnalyticsOptions, type ResolvedAnalyticsOptions } from './analytics-core.js'
import { BucketState, type BoundSpec } from './bucket-state.js'
import { resolveGrid, type Grid } from './grid.js'
import { MSG } from './messages.js'
import { buildProfile } from './rowset.js'
import type { FootprintOptions, FootprintProfile } from './types.js'

const LIMIT = 2 ** 52
const EMPTY = new Float64Array(0)
const SESSION_CODE: Readonly<Record<string, number>> = { MAINSESSION: 0, PRE_MARKET: 1, POST_MARKET: 2 }
/** Records per chunk of the shared scaled reader. */
const CHUNK = 4096

/**
 * The footprint aggregation engine shared by the batch function and the streaming aggregator: one
 * {@link BucketState} per open bucket. Records are validated and turned into exact integer units, chunk
 * by chunk, by the shared {@link ScaledTradeReader}; its scales only grow, and when they do the open
 * buckets are rescaled once, exactly.
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

  private readonly reader: ScaledTradeReader
  /** True when every session is kept (no per-record session test). */
  private readonly allSessions: boolean
  private readonly chunk: Trade[] = []
  private readonly bounds: BoundSpec
  /** Approximate row of a double price (verified against the bucket's bounds): floor((p - bnd[0]) * inv + half). */
  private readonly inv: number
  private readonly half: number
  pScale: number
  /** Row height in price units (NaN when it reaches 2^52: every record takes the exact slow path). */
  rowUnits: number
  rowUnitsBig: bigint
  vScale = 0

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
    if (sessions === undefined) this.keep.fill(1, 0, 3)
    else {
      if (!Array.isArray(sessions)) throw new MarketDataError('invalid_option', MSG.sessions(sessions), { field: 'sessions' })
      for (const s of sessions) {
        const c = typeof s === 'string' ? SESSION_CODE[s] : undefined
        if (c === undefined) throw new MarketDataError('invalid_option', MSG.sessions(s), { field: 'sessions' })
        this.keep[c] = 1
      }
    }
    this.allSessions = this.keep[0] === 1 && this.keep[1] === 1 && this.keep[2] === 1
    const distinct = new Set(sessions ?? [])
    this.sessionType = distinct.size === 1 ? (sessions?.[0] as SessionType) : undefined
    this.analytics = opts.analytics === undefined || opts.analytics === false ? undefined : resolveAnalyticsOptions(opts.analytics)
    this.pScale = this.grid.decimals
    this.rowUnitsBig = BigInt(this.grid.rowUnits)
    this.rowUnits = this.grid.rowUnits
    this.reader = createScaledTradeReader({ chunkSize: CHUNK, priceScale: this.pScale })
    this.bounds = { rowUnits: this.grid.rowUnits, pow: this.grid.decimals <= 22 ? (POW10[this.grid.decimals] as number) : Number.NaN }
    this.inv = 1 / Number(this.grid.rowSizeValue)
    this.half = 0.5 / this.grid.rowSize
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
    if (r.volumeScale !== this.vScale) {
      const k = r.volumeScale - this.vScale
      for (const st of this.states.values()) st.rescaleVolumes(k)
      this.vScale = r.volumeScale
    }
  }

  /** The exact path for entry i of the reader's chunk (units past 2^52, or rows too large for doubles). */
  private slowEntry(st: BucketState, i: number): void {
    const r = this.reader
    const pu = r.priceBig(i)
    const k = st.slotOf(Number(floorDivBig(pu, this.rowUnitsBig)))
    st.addPriceBig(pu)
    st.addVolumeBig(k, r.side[i] as 1 | 2, r.volumeBig(i))
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
      if (u !== u || vu !== vu || !rowsFast) {
        const cs = st as BucketState
        cs.minP = minP
        cs.maxP = maxP
        this.slowEntry(cs, i)
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
  }

  /**
   * Columnar fast path, one fused pass: prices are binned by comparison with the bucket's row bounds (no
   * conversion), volumes become integer units; any other record (new bucket, new row range, more
   * decimals, units past 2^52, invalid) goes through the shared reader one record at a time, which
   * validates it and feeds the exact unit path. `index` is the stream index of record 0 (for errors).
   */
  addColumns(c: TradeColumns, index = 0): void {
    if (!isTradeColumns(c)) throw new MarketDataError('invalid_option', MSG.notTrades(), { field: 'trades' })
    const n = c.time.length
    if (c.price?.length !== n || c.volume?.length !== n || c.side?.length !== n || (c.session !== undefined && c.session.length !== n) ||
      !(c.price instanceof Float64Array) || !(c.volume instanceof Float64Array) || !(c.side instanceof Uint8Array)) {
      const v = validateTradeColumns(c)
      if (!v.ok) throw v.error
    }
    const time = c.time
    const price = c.price
    const volume = c.volume
    const side = c.side
    const sess = c.session
    const keep = this.keep
    const inv = this.inv
    const half = this.half
    const reader = this.reader
    let st = this.cur
    let wS = this.wS
    let wE = this.wE
    let vPow = this.vScale <= 22 ? (POW10[this.vScale] as number) : Number.NaN
    let base = 0
    let cap = 0
    let lo: Float64Array = EMPTY
    let cnt: Float64Array = EMPTY
    let bnd: Float64Array = EMPTY
    let org = 0
    let minD = Infinity
    let maxD = -Infinity
    if (st !== null) {
      cap = st.cap
      lo = st.sums.lo
      cnt = st.counts
      bnd = st.bnd
      org = bnd[0] as number
      minD = st.minD
      maxD = st.maxD
    }
    for (let i = 0; i < n; i++) {
      const t = time[i] as number
      const s = side[i] as number
      const p = price[i] as number
      const v = volume[i] as number
      const k = Math.floor((p - org) * inv + half)
      const vu = Math.round(v * vPow)
      if (!(t >= wS && t < wE && Math.floor(t) === t && (s === 1 || s === 2) && k >= 0 && k < cap && p >= (bnd[k] as number) && p < (bnd[k + 1] as number) &&
        vu / vPow === v && vu >= 0 && vu < LIMIT)) {
        // the exact path for this record, through the shared reader (validation, units, new bucket or rows)
        if (st !== null) {
          st.minD = minD
          st.maxD = maxD
        }
        reader.readColumns(c, i, i + 1, index + i)
        this.processChunk(1, index + i)
        vPow = this.vScale <= 22 ? (POW10[this.vScale] as number) : Number.NaN
        st = this.cur
        if (st === null) {
          wS = Number.NaN
          wE = Number.NaN
          continue
        }
        wS = this.wS
        wE = this.wE
        cap = st.cap
        lo = st.sums.lo
        cnt = st.counts
        bnd = st.bnd
        org = bnd[0] as number
        minD = st.minD
        maxD = st.maxD
        continue
      }
      if (sess !== undefined) {
        const code = sess[i] as number
        if (keep[code] !== 1) {
          if (code > 2) reader.readColumns(c, i, i + 1, index + i) // throws the session error
          continue
        }
      }
      if (p < minD) minD = p
      if (p > maxD) maxD = p
      const j = 2 * k + s - 1
      const x = (lo[j] as number) + vu
      lo[j] = x
      if (x > LIMIT) {
        ;(st as BucketState).sums.spill(j)
        ;(st as BucketState).spilled = true
      }
      cnt[j] = (cnt[j] as number) + 1
    }
    if (st !== null) {
      st.minD = minD
      st.maxD = maxD
    }
  }

  /** Trade objects of an array, records [from, to); `index` is the stream index of trades[from]. */
  addTradeArray(trades: ArrayLike<Trade>, from: number, to: number, index: number): void {
    const r = this.reader
    for (let at = from; at < to; ) {
      const k = r.readTrades(trades, at, to, index + (at - from))
      this.processChunk(k, index + (at - from))
      at += k
    }
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
    }
    return out
  }

  /** The open buckets as profiles, without closing them. */
  snapshot(): FootprintProfile[] {
    const open = [...this.states.values()].filter((s) => !s.isEmpty()).sort((a, b) => a.start - b.start)
    return open.map((st) => this.finalize(st))
  }
}

function checkBound(x: unknown, field: 'from' | 'to', dflt: number): number {
  if (x === undefined) return dflt
  if (typeof x !== 'number' || Number.isNaN(x)) throw new MarketDataError('invalid_option', MSG.range(field, x), { field })
  return x
}
