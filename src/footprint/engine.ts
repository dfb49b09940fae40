import { POW10, floorDivBig, parseDecimal, stringToUnits } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { createBucketer, resolveTimeframe, type Bucketer, type Timeframe } from '../time/index.js'
import type { SessionType, Trade, TradeColumns } from '../trades/types.js'
import { resolveAnalyticsOptions, type ResolvedAnalyticsOptions } from './analytics-core.js'
import { BucketState } from './bucket-state.js'
import { resolveGrid, type Grid } from './grid.js'
import { MSG } from './messages.js'
import { buildProfile } from './rowset.js'
import type { FootprintOptions, FootprintProfile } from './types.js'

const LIMIT = 2 ** 52
const EMPTY = new Float64Array(0)
const SESSION_CODE: Readonly<Record<string, number>> = { MAINSESSION: 0, PRE_MARKET: 1, POST_MARKET: 2 }

/** True when `x` looks like TradeColumns (typed-array time column). */
export function isColumns(x: unknown): x is TradeColumns {
  return typeof x === 'object' && x !== null && (x as TradeColumns).time instanceof Float64Array
}

/**
 * The footprint aggregation engine shared by the batch function and the streaming aggregator: one
 * {@link BucketState} per open bucket, prices and volumes as exact integer units at per-engine scales
 * that only grow (a record with more decimals rescales the open buckets once, exactly).
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

  pScale: number
  /** 10^pScale, or NaN when prices must take the exact slow path (scale > 22 or rows too large). */
  pPow: number
  rowUnits: number
  rowUnitsBig: bigint
  vScale = 0
  vPow = 1

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
    const distinct = new Set(sessions ?? [])
    this.sessionType = distinct.size === 1 ? (sessions?.[0] as SessionType) : undefined
    this.analytics = opts.analytics === undefined || opts.analytics === false ? undefined : resolveAnalyticsOptions(opts.analytics)
    this.pScale = this.grid.decimals
    this.rowUnitsBig = BigInt(this.grid.rowUnits)
    this.rowUnits = this.grid.rowUnits
    this.pPow = POW10[this.pScale] as number
  }

  /** Moves to the bucket of time t; false when t is outside [from, to). Throws on a bad or late time. */
  enter(t: number, index: number): boolean {
    if (typeof t !== 'number' || !Number.isFinite(t)) throw new MarketDataError('invalid_time', MSG.time(t), { index, field: 'time' })
    if (t < this.from || t >= this.to) return false
    const start = this.bucketer.locate(t)
    const end = this.bucketer.end
    if (end <= this.watermark) throw new MarketDataError('late_record', MSG.late(t, end, this.watermark), { index, field: 'time' })
    let st = this.states.get(start)
    if (st === undefined) {
      st = new BucketState(start, end)
      this.states.set(start, st)
    }
    this.cur = st
    this.wS = Math.max(start, this.from)
    this.wE = Math.min(end, this.to)
    return true
  }

  /** Grows the price scale so `scale` decimals are exact; rescales every open bucket. */
  private growPriceScale(scale: number): void {
    const k = scale - this.pScale
    for (const st of this.states.values()) st.rescalePrices(k)
    this.pScale = scale
    this.rowUnitsBig = BigInt(this.grid.rowUnits) * 10n ** BigInt(scale - this.grid.decimals)
    const fast = scale <= 22 && this.rowUnitsBig < BigInt(LIMIT)
    this.rowUnits = fast ? Number(this.rowUnitsBig) : Number.NaN
    this.pPow = fast ? (POW10[scale] as number) : Number.NaN
  }

  private growVolumeScale(scale: number): void {
    const k = scale - this.vScale
    for (const st of this.states.values()) st.rescaleVolumes(k)
    this.vScale = scale
    this.vPow = scale <= 22 ? (POW10[scale] as number) : Number.NaN
  }

  /** The exact path for one record (validation, more decimals, units past 2^52). */
  slowTrade(st: BucketState, index: number, price: unknown, volume: unknown, side: 1 | 2): void {
    const pd = parseDecimal(price)
    if (!pd.ok) throw new MarketDataError('invalid_decimal', MSG.price(price, pd.error), { index, field: 'price' })
    const vd = parseDecimal(volume)
    if (!vd.ok) throw new MarketDataError('invalid_volume', MSG.volume(volume, vd.error), { index, field: 'volume' })
    if (vd.value.units < 0n) throw new MarketDataError('invalid_volume', MSG.negativeVolume(volume), { index, field: 'volume' })
    if (pd.value.scale > this.pScale) this.growPriceScale(pd.value.scale)
    if (vd.value.scale > this.vScale) this.growVolumeScale(vd.value.scale)
    const pu = pd.value.units * 10n ** BigInt(this.pScale - pd.value.scale)
    const vu = vd.value.units * 10n ** BigInt(this.vScale - vd.value.scale)
    const k = st.slotOf(Number(floorDivBig(pu, this.rowUnitsBig)))
    st.addPriceBig(pu)
    st.addVolumeBig(k, side, vu)
  }

  /** Columnar fast path. */
  addColumns(c: TradeColumns): void {
    if (!isColumns(c)) throw new MarketDataError('invalid_option', MSG.notTrades())
    const time = c.time
    const price = c.price
    const volume = c.volume
    const side = c.side
    const sess = c.session
    const n = time.length
    if (!(price instanceof Float64Array) || price.length !== n) throw new MarketDataError('invalid_option', MSG.columnsLength('price', n, price?.length ?? 0), { field: 'price' })
    if (!(volume instanceof Float64Array) || volume.length !== n) throw new MarketDataError('invalid_option', MSG.columnsLength('volume', n, volume?.length ?? 0), { field: 'volume' })
    if (!(side instanceof Uint8Array) || side.length !== n) throw new MarketDataError('invalid_option', MSG.columnsLength('side', n, side?.length ?? 0), { field: 'side' })
    if (sess !== undefined && (!(sess instanceof Uint8Array) || sess.length !== n)) throw new MarketDataError('invalid_option', MSG.columnsLength('session', n, sess?.length ?? 0), { field: 'session' })
    const keep = this.keep
    let st = this.cur
    let wS = this.wS
    let wE = this.wE
    let pPow = this.pPow
    let rowUnits = this.rowUnits
    let vPow = this.vPow
    let base = 0
    let cap = 0
    let bl: Float64Array = EMPTY
    let sl: Float64Array = EMPTY
    let bn: Float64Array = EMPTY
    let sn: Float64Array = EMPTY
    let minP = Infinity
    let maxP = -Infinity
    if (st !== null) {
      base = st.base
      cap = st.cap
      bl = st.buy.lo
      sl = st.sell.lo
      bn = st.nb
      sn = st.ns
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
        if (!this.enter(t, i)) continue
        st = this.cur as BucketState
        wS = this.wS
        wE = this.wE
        base = st.base
        cap = st.cap
        bl = st.buy.lo
        sl = st.sell.lo
        bn = st.nb
        sn = st.ns
        minP = st.minP
        maxP = st.maxP
      }
      if (sess !== undefined) {
        const code = sess[i] as number
        if (keep[code] !== 1) {
          if (code > 2) throw new MarketDataError('invalid_session', MSG.session(code), { index: i, field: 'session' })
          continue
        }
      }
      const s = side[i] as number
      if (s !== 1 && s !== 2) throw new MarketDataError('invalid_side', MSG.side(s), { index: i, field: 'side' })
      const p = price[i] as number
      const v = volume[i] as number
      const u = Math.round(p * pPow)
      const vu = Math.round(v * vPow)
      if (u / pPow !== p || vu / vPow !== v || !(u < LIMIT && u > -LIMIT && vu < LIMIT && vu >= 0)) {
        const cs = st as BucketState
        cs.minP = minP
        cs.maxP = maxP
        this.slowTrade(cs, i, p, v, s)
        pPow = this.pPow
        rowUnits = this.rowUnits
        vPow = this.vPow
        base = cs.base
        cap = cs.cap
        bl = cs.buy.lo
        sl = cs.sell.lo
        bn = cs.nb
        sn = cs.ns
        minP = cs.minP
        maxP = cs.maxP
        continue
      }
      const row = Math.floor(u / rowUnits)
      let k = row - base
      if (k < 0 || k >= cap) {
        const cs = st as BucketState
        k = cs.slotOf(row)
        base = cs.base
        cap = cs.cap
        bl = cs.buy.lo
        sl = cs.sell.lo
        bn = cs.nb
        sn = cs.ns
      }
      if (u < minP) minP = u
      if (u > maxP) maxP = u
      if (s === 1) {
        const x = (bl[k] as number) + vu
        bl[k] = x
        if (x > LIMIT) {
          ;(st as BucketState).buy.spill(k)
          ;(st as BucketState).spilled = true
        }
        bn[k] = (bn[k] as number) + 1
      } else {
        const x = (sl[k] as number) + vu
        sl[k] = x
        if (x > LIMIT) {
          ;(st as BucketState).sell.spill(k)
          ;(st as BucketState).spilled = true
        }
        sn[k] = (sn[k] as number) + 1
      }
    }
    if (st !== null) {
      st.minP = minP
      st.maxP = maxP
    }
  }

  /** Object path: Trade objects with decimal strings or numbers. */
  addTrades(trades: Iterable<Trade>): void {
    if (Array.isArray(trades)) {
      for (let i = 0; i < trades.length; i++) this.addTrade(trades[i] as Trade, i)
      return
    }
    if (typeof trades !== 'object' || trades === null || typeof (trades as Iterable<Trade>)[Symbol.iterator] !== 'function') {
      throw new MarketDataError('invalid_option', MSG.notTrades())
    }
    let i = 0
    for (const tr of trades) this.addTrade(tr, i++)
  }

  /** One Trade object (the object path's per-record step; allocation-free for valid records). */
  addTrade(tr: Trade, i: number): void {
    if (typeof tr !== 'object' || tr === null) throw new MarketDataError('invalid_option', MSG.notTrade(), { index: i })
    const t = tr.time
    if (typeof t !== 'number' || !(t >= this.wS && t < this.wE)) {
      if (!this.enter(t, i)) return
    }
    const st = this.cur as BucketState
    const ss = tr.session
    if (ss !== undefined) {
      const code = ss === 'MAINSESSION' ? 0 : ss === 'PRE_MARKET' ? 1 : ss === 'POST_MARKET' ? 2 : -1
      if (code < 0) throw new MarketDataError('invalid_session', MSG.session(ss), { index: i, field: 'session' })
      if (this.keep[code] !== 1) return
    } else if (this.keep[0] !== 1) return
    const sd = tr.side
    const s = sd === 'buy' ? 1 : sd === 'sell' ? 2 : 0
    if (s === 0) throw new MarketDataError('invalid_side', MSG.side(sd), { index: i, field: 'side' })
    const p = tr.price
    const v = tr.volume
    const pPow = this.pPow
    const vPow = this.vPow
    let u: number
    if (typeof p === 'string') u = pPow === pPow ? stringToUnits(p, this.pScale) : Number.NaN
    else if (typeof p === 'number') {
      u = Math.round(p * pPow)
      if (u / pPow !== p) u = Number.NaN
    } else u = Number.NaN
    let vu: number
    if (typeof v === 'string') vu = vPow === vPow ? stringToUnits(v, this.vScale) : Number.NaN
    else if (typeof v === 'number') {
      vu = Math.round(v * vPow)
      if (vu / vPow !== v) vu = Number.NaN
    } else vu = Number.NaN
    if (!(u < LIMIT && u > -LIMIT && vu < LIMIT && vu >= 0)) {
      this.slowTrade(st, i, p, v, s)
      return
    }
    const row = Math.floor(u / this.rowUnits)
    let k = row - st.base
    if (k < 0 || k >= st.cap) k = st.slotOf(row)
    if (u < st.minP) st.minP = u
    if (u > st.maxP) st.maxP = u
    if (s === 1) {
      const lo = st.buy.lo
      const x = (lo[k] as number) + vu
      lo[k] = x
      if (x > LIMIT) {
        st.buy.spill(k)
        st.spilled = true
      }
      st.nb[k] = (st.nb[k] as number) + 1
    } else {
      const lo = st.sell.lo
      const x = (lo[k] as number) + vu
      lo[k] = x
      if (x > LIMIT) {
        st.sell.spill(k)
        st.spilled = true
      }
      st.ns[k] = (st.ns[k] as number) + 1
    }
  }

  private finalize(st: BucketState): FootprintProfile {
    const { high, low } = st.extremes()
    return buildProfile(
      { time: st.start, end: st.end, profileStart: this.from > st.start ? this.from : undefined, sessionType: this.sessionType },
      this.grid,
      st.rowSet(this.vScale),
      { units: high, scale: this.pScale },
      { units: low, scale: this.pScale },
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
