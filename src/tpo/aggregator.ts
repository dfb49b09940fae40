import { MAX_FAST_VOLUME_SCALE } from '../decimal/exact-sums.js'
import { POW10, numberToUnits, parseDecimal, type ExactDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { createBucketer, type Bucketer } from '../time/index.js'
import { SESSION_NAMES, validateTradeColumnsShape, type Trade, type TradeColumns } from '../trades/index.js'
import { TPO_MSG } from './messages.js'
import { appliedBefore, withApplied } from '../_lib/applied.js'
import { resolveTpoOptions, type TpoConfig } from './options.js'
import { buildProfile, MAX_TOTAL_ROWS, rowCount, rowOfDecimal, type BlockPart, type TpoParts } from './parts.js'
import { PeriodAcc } from './period-acc.js'
import { TradeReader } from './trade-reader.js'
import type { TpoAggregator, TpoAggregatorOptions, TpoProfile } from './types.js'
import type { AggregatorCheckpoint } from '../aggregator.js'
import { restoreTpo, tpoCheckpoint } from './checkpoint.js'
import { firstPastInColumn, firstPastInRecords, pastMaxTime, readMaxTime, recordPast, timeAt } from '../_lib/max-time.js'
import { checkOptions } from '../_lib/closed-options.js'
import { TPO_OPTION_KEYS } from './types.js'

const MAX_TIME = 8.64e15
// Module-local aliases: the per-trade loop must not go through import bindings (some loaders compile
// them to getters, which costs a call per access).
const toUnits: (x: number, scale: number) => number = numberToUnits
const POW10_F = Float64Array.from(POW10)
/** UNITS_LIMIT as a literal: a module binding costs a context load and hole check per access. */
const LIM = 4503599627370496
const CHUNK = 1024
/** Records per `run` call from a column batch. */
const RUN_CHUNK = 8192
/** Output order of session codes within a period: PRE_MARKET, MAINSESSION, POST_MARKET. */
const SESSION_RANK = [1, 0, 2]

/**
 * The TPO engine. The per-trade loop (`run`) keeps the current block's extremes and open/close in
 * locals, compares each trade's time with the block end computed once per block, maps a price to its
 * row only when the price differs from the previous trade's (exact integer units, floor on the grid;
 * a repeated price cannot move the row nor the block's extremes), converts the volume to scaled
 * integer units, and adds it into a typed-array row sum that spills to bigint past 2^52. Every record is
 * validated before it changes any state. No allocation, big.js or date-fns per trade.
 */
class TpoEngine implements TpoAggregator {
  private readonly cfg: TpoConfig
  private readonly periodB: Bucketer
  private readonly blockB: Bucketer
  private periods = new Map<number, (PeriodAcc | undefined)[]>()
  watermark = -Infinity
  /** Exact units of the volume {@link unitsOf} last answered NaN for (added by {@link slowAdd}), at `bigScale` decimals. */
  private bigUnits = 0n
  private bigScale = 0
  private addCount = 0
  private readonly reader = new TradeReader(16)
  /** The fast loop's numeric arguments (see {@link fastRun}). */
  private readonly args = new Float64Array(6)
  // current slot
  private cur: PeriodAcc | null = null
  private curBlock = -1
  private curSk = -1
  private bStart = Number.NaN
  private bEnd = Number.NaN
  private skip = false
  /** 10^scale of the price grid. */
  private readonly pp: number

  private readonly maxTime: number | undefined

  constructor(opts: TpoAggregatorOptions) {
    this.cfg = resolveTpoOptions(opts)
    this.maxTime = readMaxTime(opts.maxTime)
    this.pp = POW10_F[this.cfg.grid.scale] as number
    const zone = this.cfg.timeZone === undefined ? {} : { timeZone: this.cfg.timeZone }
    this.periodB = createBucketer(this.cfg.period, zone)
    this.blockB = createBucketer(this.cfg.block, zone)
    if (opts.restore !== undefined) {
      const r = restoreTpo(opts.restore, this.cfg, this.periodB, this.blockB)
      this.watermark = r.watermark
      this.addCount = r.state.addCount
      this.periods = r.state.periods
    }
  }

  checkpoint(): AggregatorCheckpoint {
    return tpoCheckpoint(this.cfg, this.watermark, { addCount: this.addCount, periods: this.periods })
  }

  add(trade: Trade): void {
    const r = this.reader
    if (this.maxTime !== undefined) {
      const t = recordPast(trade, this.maxTime)
      if (t !== undefined) throw pastMaxTime(t, this.maxTime, this.addCount++)
    }
    const index = this.addCount++
    if (r.write(trade, 0, index)) this.run(r.cols, 0, 1, index)
    else this.addColumns(trade as unknown as TradeColumns)
  }

  addTrades(trades: ArrayLike<Trade>, from = 0, to = trades.length): void {
    try {
      const past = this.maxTime === undefined ? -1 : firstPastInRecords(trades, from, to, this.maxTime)
      this.tradesIn(trades, from, past >= 0 ? past : to)
      if (past >= 0) throw pastMaxTime(timeAt(trades, past), this.maxTime as number, past)
    } catch (e) {
      // errors name the array index of the refused record
      throw withApplied(e, appliedBefore(e, from))
    }
  }

  private tradesIn(trades: ArrayLike<Trade>, from: number, to: number): void {
    const r = this.reader
    let i = from
    while (i < to) {
      const m = Math.min(CHUNK, to - i)
      const c = r.reserve(m)
      const k = r.fill(trades, i, m)
      // the records before one the reader stops at count, as in a columnar batch
      this.run(c, 0, k, i)
      i += k
      if (k < m) {
        const t = trades[i] as Trade
        // a TradeColumns batch among the trades, else a bad trade: write throws its error
        if (r.write(t, 0, i)) this.run(c, 0, 1, i)
        else this.addColumns(t as unknown as TradeColumns)
        i++
      }
    }
  }

  addColumns(columns: TradeColumns): void {
    const shape = validateTradeColumnsShape(columns)
    if (!shape.ok) throw withApplied(shape.error, 0)
    // a NaN volume or price of the caller's columns is an error, never the exact value of a trade object read before
    this.reader.exactVolume = undefined
    this.reader.exactPrice = undefined
    // in chunks: `run` is then called often enough to be optimised as a whole function, with type
    // feedback for its write-back code, instead of only by on-stack replacement of one long loop (OSR
    // code lacking that feedback deoptimises on every later call; measured 2-3x slower)
    const past = this.maxTime === undefined ? -1 : firstPastInColumn(columns, this.maxTime)
    const n = past >= 0 ? past : columns.time.length
    try {
      if (past >= 0) {
        // the rows before the first one past maxTime count, as before any refused row
        for (let i = 0; i < n; i += RUN_CHUNK) this.run(columns, i, Math.min(n, i + RUN_CHUNK), 0)
        throw pastMaxTime(columns.time[past] as number, this.maxTime as number, past)
      }
      for (let i = 0; i < n; i += RUN_CHUNK) this.run(columns, i, Math.min(n, i + RUN_CHUNK), 0)
    } catch (e) {
      throw withApplied(e, appliedBefore(e, 0))
    }
  }

  advance(time: number): TpoProfile[] {
    if (typeof time !== 'number' || Number.isNaN(time)) throw new MarketDataError('invalid_time', TPO_MSG.advance(time), { field: 'time' })
    if (time > this.watermark) this.watermark = time
    return this.close((acc) => acc.end <= time)
  }

  snapshot(): TpoProfile[] {
    const out: PeriodAcc[] = []
    for (const list of this.periods.values()) for (const acc of list) if (acc !== undefined && acc.n > 0) out.push(acc)
    return this.finish(out)
  }

  flush(): TpoProfile[] {
    // (a period only a refused record opened holds no trade: it moves nothing)
    for (const list of this.periods.values()) for (const acc of list) if (acc !== undefined && acc.end > this.watermark && hasTrades(acc)) this.watermark = acc.end
    return this.close(() => true)
  }

  private close(pred: (acc: PeriodAcc) => boolean): TpoProfile[] {
    const out: PeriodAcc[] = []
    for (const [key, list] of this.periods) {
      const first = list.find((a) => a !== undefined)
      if (first === undefined || !pred(first)) continue
      for (const acc of list) if (acc !== undefined && acc.n > 0) out.push(acc)
      this.periods.delete(key)
      if (this.cur !== null && list.includes(this.cur)) this.leave()
    }
    return this.finish(out)
  }

  private leave(): void {
    this.cur = null
    this.curBlock = -1
    this.curSk = -1
    this.bStart = Number.NaN
    this.bEnd = Number.NaN
  }

  private finish(all: PeriodAcc[]): TpoProfile[] {
    const accs = all.filter(hasTrades)
    accs.sort((a, b) => a.start - b.start || (SESSION_RANK[a.session] ?? 0) - (SESSION_RANK[b.session] ?? 0))
    const parts = accs.map((a) => this.parts(a))
    let total = 0
    for (const p of parts) total += rowCount(p)
    if (total > MAX_TOTAL_ROWS) throw new MarketDataError('invalid_option', TPO_MSG.tooManyRowsInAll(total), { field: 'rowSize' })
    return parts.map(buildProfile)
  }

  /** Reduces a period's running state to {@link TpoParts}. */
  private parts(acc: PeriodAcc): TpoParts {
    const cfg = this.cfg
    const grid = cfg.grid
    // a block a rejected record opened holds no trade (its high is still -Infinity): it does not exist
    const order = Array.from({ length: acc.n }, (_, j) => j).filter((j) => (acc.bHi[j] as number) !== -Infinity).sort((a, b) => (acc.bStart[a] as number) - (acc.bStart[b] as number))
    const blocks: BlockPart[] = []
    let ibStart: number | null = null
    let openJ = -1
    let closeJ = -1
    for (const j of order) {
      const high = acc.blockHigh(j)
      const low = acc.blockLow(j)
      blocks.push({ start: acc.bStart[j] as number, high, low, lowRow: rowOfDecimal(low, grid), highRow: rowOfDecimal(high, grid) })
      if (acc.bMain[j] === 1 && ibStart === null) ibStart = acc.bStart[j] as number
      if (openJ < 0 || (acc.bOpenT[j] as number) < (acc.bOpenT[openJ] as number)) openJ = j
      if (closeJ < 0 || (acc.bCloseT[j] as number) > (acc.bCloseT[closeJ] as number)) closeJ = j
    }
    const n = acc.rowCap
    const buy: bigint[] = new Array(n)
    const sell: bigint[] = new Array(n)
    const vs = acc.outScale()
    for (let i = 0; i < n; i++) {
      buy[i] = acc.sumAt(2 * i, vs)
      sell[i] = acc.sumAt(2 * i + 1, vs)
    }
    return {
      time: acc.start,
      end: acc.end,
      sessionType: acc.session >= 0 ? SESSION_NAMES[acc.session] : undefined,
      blockSize: cfg.block.id,
      grid,
      valueAreaPercent: cfg.valueAreaPercent,
      valueArea: cfg.valueArea,
      initialBalanceMs: cfg.initialBalanceMs,
      initialBalancePeriod: cfg.initialBalancePeriod,
      blocks,
      initialBalanceStart: ibStart,
      open: acc.blockOpen(openJ),
      openTime: acc.bOpenT[openJ] as number,
      close: acc.blockClose(closeJ),
      closeTime: acc.bCloseT[closeJ] as number,
      volumeScale: vs,
      rowLow: acc.rowBase,
      buy,
      sell,
    }
  }

  /** Moves the current slot to the block holding `t` for session code `s`; validates both and changes nothing when it throws. */
  private enter(t: number, s: number, index: number): void {
    if (!(Math.floor(t) === t && t >= -MAX_TIME && t <= MAX_TIME)) throw new MarketDataError('invalid_time', TPO_MSG.time(t), { index, field: 'time' })
    if (s > 2) throw new MarketDataError('invalid_session', TPO_MSG.sessionCode(s), { index, field: 'session' })
    const bs = this.blockB.locate(t)
    const be = this.blockB.end
    if ((this.cfg.sessionMask & (1 << s)) === 0) {
      this.setSlot(null, -1, bs, be, s, true)
      return
    }
    const ps = this.periodB.locate(t)
    const pe = this.periodB.end
    if (pe <= this.watermark) throw new MarketDataError('late_record', TPO_MSG.late(t, pe), { index, field: 'time' })
    let list = this.periods.get(ps)
    if (list === undefined) {
      list = [undefined, undefined, undefined]
      this.periods.set(ps, list)
    }
    const slot = this.cfg.grouped ? s : 0
    let acc = list[slot]
    if (acc === undefined) {
      acc = new PeriodAcc(ps, pe, this.cfg.grouped ? s : -1)
      list[slot] = acc
    }
    const j = acc.block(bs)
    this.setSlot(acc, j, bs, be, s, false)
  }

  private setSlot(acc: PeriodAcc | null, j: number, bs: number, be: number, s: number, skip: boolean): void {
    this.cur = acc
    this.curBlock = j
    this.bStart = bs
    this.bEnd = be
    this.curSk = s
    this.skip = skip
  }

  /** The lowest and highest rows a profile has traded so far, from its blocks' extremes (saved before the call). */
  private tradedRows(acc: PeriodAcc): readonly [number, number] {
    let a = Number.POSITIVE_INFINITY
    let b = Number.NEGATIVE_INFINITY
    const g = this.cfg.grid
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
  private checkPrice(p: number, index: number): number {
    if (p !== p && this.reader.exactPrice !== undefined) return 0
    const d = parseDecimal(p)
    if (!d.ok) throw new MarketDataError('invalid_decimal', TPO_MSG.price(p, d.error), { index, field: 'price' })
    return 0
  }

  /**
   * Row of a price (validated): exact units on the grid, floor division by the row height. A NaN price
   * is the reader's {@link TradeReader.exactPrice} (a decimal a double cannot hold) when it has one.
   */
  private rowOf(p: number, index: number): number {
    const g = this.cfg.grid
    const u = toUnits(p, g.scale)
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
   * more decimals); NaN means "add {@link bigUnits} exactly via bigint" (units past 2^52, or a volume
   * the reader could not carry as a double). A record of a filtered-out session (`acc` null) is only checked.
   */
  private unitsOf(v: number, index: number, acc: PeriodAcc | null): number {
    const exact = this.reader.exactVolume
    this.reader.exactVolume = undefined
    let d: ExactDecimal
    if (v !== v && exact !== undefined) d = exact
    else {
      if (!(v >= 0 && v < Infinity)) throw new MarketDataError('invalid_volume', TPO_MSG.volume(v), { index, field: 'volume' })
      const u = toUnits(v, acc === null ? 0 : acc.volScale)
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
    return b < BIG_LIM ? Number(b) : Number.NaN
  }

  /** The exact add when a sum passes 2^52 or the volume's units do not fit a double ({@link bigUnits}). */
  private slowAdd(acc: PeriodAcc, k: number, u: number): void {
    const sums = acc.vol
    if (u === u) {
      sums.lo[k] = (sums.lo[k] as number) + u
      sums.spill(k)
    } else if (this.bigScale === acc.volScale) sums.addBig(k, this.bigUnits)
    else acc.addFine(k, this.bigUnits, this.bigScale)
  }

  /** Writes the current block's running extremes and open/close back into its accumulator. */
  private save(acc: PeriodAcc | null, j: number, hi: number, lo: number, oT: number, oP: number, cT: number, cP: number): void {
    if (acc === null) return
    acc.bHi[j] = hi
    acc.bLo[j] = lo
    acc.bOpenT[j] = oT
    acc.bOpenP[j] = oP
    acc.bCloseT[j] = cT
    acc.bCloseP[j] = cP
  }

  /**
   * The per-trade loop over records [from, to) of columns; `base` maps a record to its reported index.
   * No try/finally: the block state is written back before every call that may throw (all off the hot
   * path), which keeps every loop variable an unboxed double (a try/finally made V8 box one per trade).
   */
  private run(c: TradeColumns, from: number, to: number, base: number): void {
    let i = from
    while (i < to) {
      const acc = this.cur
      if (acc !== null && !this.skip) {
        const VP = acc.volScale < POW10_F.length ? (POW10_F[acc.volScale] as number) : Number.NaN
        const a = this.args
        a[0] = this.bStart
        a[1] = this.bEnd
        a[2] = this.curSk
        a[3] = this.pp
        a[4] = this.cfg.grid.rowUnits
        a[5] = VP
        // in chunks: the fast loop returns often, so V8 optimises it as a whole function with feedback
        // for its exit code, rather than only by on-stack replacement of one long first loop (that code
        // deoptimised on its first return and left every later call in slower OSR code, about 1.8x)
        const j = this.curBlock
        for (;;) {
          const lim = to - i > FAST_CHUNK ? i + FAST_CHUNK : to
          i = fastRun(c, i, lim, acc, j, a)
          if (i < lim || i >= to) break
        }
        if (i >= to) return
      }
      i = this.general(c, i, to, base)
    }
  }

  /**
   * The general per-trade loop from record `from`: every case (new block or period, skipped sessions,
   * rescaling volumes, prices off the fast path, spills to bigint, bad records). Returns after the first
   * record it adds to a profile (the fast loop then resumes), or at `to`.
   */
  private general(c: TradeColumns, from: number, to: number, base: number): number {
    const time = c.time
    const price = c.price
    const volume = c.volume
    const side = c.side
    const sess = c.session
    let acc = this.cur
    let j = this.curBlock
    let bS = this.bStart
    let bE = this.bEnd
    let sk = this.curSk
    let skip = this.skip
    let hi = 0
    let lo = 0
    let oT = 0
    let oP = 0
    let cT = 0
    let cP = 0
    let vol: Float64Array = EMPTY
    let rowBase = 0
    let rowCap = 0
    if (acc !== null) {
      hi = acc.bHi[j] as number
      lo = acc.bLo[j] as number
      oT = acc.bOpenT[j] as number
      oP = acc.bOpenP[j] as number
      cT = acc.bCloseT[j] as number
      cP = acc.bCloseP[j] as number
      vol = acc.vol.lo
      rowBase = acc.rowBase
      rowCap = acc.rowCap
    }
    const g = this.cfg.grid
    const PP = POW10_F[g.scale] as number
    const RU = g.rowUnits
    let VP = volumePow(acc)
    let lastP = Number.NaN
    let k = 0
    let i = from
    for (; i < to; i++) {
      const t = time[i] as number
      const s = sess === undefined ? 0 : (sess[i] as number)
      if (!(t >= bS && t < bE) || s !== sk || Math.floor(t) !== t) {
        this.save(acc, j, hi, lo, oT, oP, cT, cP)
        this.enter(t, s, i + base)
        acc = this.cur
        j = this.curBlock
        bS = this.bStart
        bE = this.bEnd
        sk = s
        skip = this.skip
        if (acc !== null) {
          hi = acc.bHi[j] as number
          lo = acc.bLo[j] as number
          oT = acc.bOpenT[j] as number
          oP = acc.bOpenP[j] as number
          cT = acc.bCloseT[j] as number
          cP = acc.bCloseP[j] as number
          vol = acc.vol.lo
          rowBase = acc.rowBase
          rowCap = acc.rowCap
        }
        VP = volumePow(acc)
        lastP = Number.NaN
      }
      // validate the whole record before it changes any state
      const v = volume[i] as number
      let u = v
      if (VP === 1 ? !(Math.floor(v) === v && v >= 0 && v < LIM) : !((u = Math.round(v * VP)) / VP === v && u >= 0 && u < LIM)) {
        this.save(acc, j, hi, lo, oT, oP, cT, cP)
        u = this.unitsOf(v, i + base, skip ? null : acc)
        VP = volumePow(acc)
        if (acc !== null) vol = acc.vol.lo
      }
      const sd = side[i] as number
      if (sd !== 1 && sd !== 2) {
        this.save(acc, j, hi, lo, oT, oP, cT, cP)
        throw new MarketDataError('invalid_side', TPO_MSG.sideCode(sd), { index: i + base, field: 'side' })
      }
      const p = price[i] as number
      if (p !== lastP) {
        // exact units at the grid's scale (the check proves the decimal; see numberToUnits), then floor;
        // a repeated price has the same row and cannot move the block's extremes
        const pu = Math.round(p * PP)
        let r = Math.floor(pu / RU)
        if (!(pu / PP === p && pu < LIM && pu > -LIM)) {
          this.save(acc, j, hi, lo, oT, oP, cT, cP)
          // a record of a filtered-out session is only checked as a decimal (as the footprint does): its
          // row is never used, so a price far outside the grid's range is not an error there
          r = skip ? this.checkPrice(p, i + base) : this.rowOf(p, i + base)
        }
        k = r - rowBase
        if ((k < 0 || k >= rowCap) && acc !== null) {
          this.save(acc, j, hi, lo, oT, oP, cT, cP)
          acc.ensureRow(r, i + base, () => this.tradedRows(acc as PeriodAcc))
          vol = acc.vol.lo
          rowBase = acc.rowBase
          rowCap = acc.rowCap
          k = r - rowBase
        }
        lastP = p
        if (p > hi) hi = p
        if (p < lo) lo = p
      }
      if (skip) continue
      if (p !== p) {
        // a price a double cannot hold (checked and placed on its row above): its block keeps it exactly
        this.save(acc, j, hi, lo, oT, oP, cT, cP)
        const a = acc as PeriodAcc
        a.addExactPrice(j, this.reader.exactPrice as ExactDecimal, t)
        hi = a.bHi[j] as number
        lo = a.bLo[j] as number
        oT = a.bOpenT[j] as number
        oP = a.bOpenP[j] as number
        cT = a.bCloseT[j] as number
        cP = a.bCloseP[j] as number
      } else if (t >= cT) {
        if (cT === -Infinity) {
          oT = t
          oP = p
        }
        cT = t
        cP = p
      } else if (t < oT) {
        oT = t
        oP = p
      }
      // buy (side 1) at 2k, sell (side 2) at 2k + 1: indexed, not branched on
      const ix = 2 * k - 1 + sd
      const x = (vol[ix] as number) + u
      if (x <= LIM) vol[ix] = x
      else this.slowAdd(acc as PeriodAcc, ix, u)
      // a block holds main-session trades once one is added (not when a rejected record opened it)
      if (sk === 0) (acc as PeriodAcc).bMain[j] = 1
      i++
      break
    }
    this.save(acc, j, hi, lo, oT, oP, cT, cP)
    return i
  }
}

/** Records per fast-loop call at most (2^11: with volumes below 2^40 units, a run's sums stay below 2^51). */
const FAST_CHUNK = 2048
/** Volume units the fast loop takes (2^40); larger volumes go through the general loop. */
const FAST_VOL = 1099511627776

/**
 * The fast per-trade loop: records of the current block `j` of `acc` (same session, integral time),
 * volumes at the current scale below 2^40 units, side codes 1/2, prices on the grid inside the allocated
 * rows. Stops, having changed nothing for it, at the first record that is not such a record (the general
 * loop takes it) and returns its index. Every check happens before any state changes.
 *
 * Volumes are summed per run of one price (`tot`, and `sell` of it), in registers, and added into the
 * run's row only when the price changes or the loop ends: a repeated price cannot move the row nor the
 * block's extremes. Runs of 4 records that repeat the price, keep the time order and pass every check
 * at once are taken together (one branch per check and field for 4 records; whole lots and volumes with
 * decimals in two copies of that loop, so the whole-lot one stays lean); any other record goes through
 * the one-record step below, which also closes unsorted runs and moves rows.
 * At most {@link FAST_CHUNK} records per call with volumes below 2^40 units keep a run's sums below 2^51,
 * so they are exact; a row sum that would pass 2^52 stops the loop, and its exit adds exactly.
 *
 * `a` holds the numeric arguments (block start and end, session code, 10^price scale, row height in
 * units, 10^volume scale) as raw doubles: as plain arguments V8 kept them tagged, unboxed them on every
 * trade and boxed a double per trade.
 */
function fastRun(c: TradeColumns, from: number, to: number, acc: PeriodAcc, j: number, a: Float64Array): number {
  const bS = a[0] as number
  const bE = a[1] as number
  const sk = (a[2] as number) | 0
  const PP = a[3] as number
  const RU = a[4] as number
  const VP = a[5] as number
  const time = c.time
  const price = c.price
  const volume = c.volume
  const side = c.side
  const sess = c.session
  const vol = acc.vol.lo
  const rowBase = acc.rowBase
  const rowCap = acc.rowCap
  let hi = acc.bHi[j] as number
  let lo = acc.bLo[j] as number
  let lastP = Number.NaN
  // the pending run of price lastP: 2 * (its row - rowBase), its volume units, those of its sells
  let k = 0
  let tot = 0
  let sell = 0
  // open/close per run of non-decreasing times [rs, i) (see closeRun), so not per trade
  let rs = from
  let prevT = bS
  let i = from
  for (;;) {
    if (VP === 1) {
      for (; i + 3 < to; i += 4) {
        const t0 = time[i] as number
        const t1 = time[i + 1] as number
        const t2 = time[i + 2] as number
        const t3 = time[i + 3] as number
        if (!(t0 >= prevT && t1 >= t0 && t2 >= t1 && t3 >= t2 && t3 < bE)) break
        if (!(Math.floor(t0) === t0 && Math.floor(t1) === t1 && Math.floor(t2) === t2 && Math.floor(t3) === t3)) break
        if (!(price[i] === lastP && price[i + 1] === lastP && price[i + 2] === lastP && price[i + 3] === lastP)) break
        const v0 = volume[i] as number
        const v1 = volume[i + 1] as number
        const v2 = volume[i + 2] as number
        const v3 = volume[i + 3] as number
        // whole units, none negative, and their sum below 2^34 (so each is)
        const vs = v0 + v1 + v2 + v3
        if (!(Math.floor(v0) === v0 && Math.floor(v1) === v1 && Math.floor(v2) === v2 && Math.floor(v3) === v3)) break
        if (!(v0 >= 0 && v1 >= 0 && v2 >= 0 && v3 >= 0 && vs < 17179869184)) break
        // side code - 1 is 0 (buy) or 1 (sell) for each exactly when their OR is
        const s0 = (side[i] as number) - 1
        const s1 = (side[i + 1] as number) - 1
        const s2 = (side[i + 2] as number) - 1
        const s3 = (side[i + 3] as number) - 1
        if ((s0 | s1 | s2 | s3) >>> 0 > 1) break
        if (sess !== undefined && (((sess[i] as number) ^ sk) | ((sess[i + 1] as number) ^ sk) | ((sess[i + 2] as number) ^ sk) | ((sess[i + 3] as number) ^ sk)) !== 0) break
        tot += vs
        sell += v0 * s0 + v1 * s1 + v2 * s2 + v3 * s3
        prevT = t3
      }
    } else {
      // volumes with decimals: the same, volumes scaled to units (a separate loop keeps the whole-lot one lean)
      for (; i + 3 < to; i += 4) {
        const t0 = time[i] as number
        const t1 = time[i + 1] as number
        const t2 = time[i + 2] as number
        const t3 = time[i + 3] as number
        if (!(t0 >= prevT && t1 >= t0 && t2 >= t1 && t3 >= t2 && t3 < bE)) break
        if (!(Math.floor(t0) === t0 && Math.floor(t1) === t1 && Math.floor(t2) === t2 && Math.floor(t3) === t3)) break
        if (!(price[i] === lastP && price[i + 1] === lastP && price[i + 2] === lastP && price[i + 3] === lastP)) break
        const w0 = volume[i] as number
        const w1 = volume[i + 1] as number
        const w2 = volume[i + 2] as number
        const w3 = volume[i + 3] as number
        // units at the volume scale, each proved exact (see numberToUnits), none negative, sum below 2^34
        const v0 = Math.round(w0 * VP)
        const v1 = Math.round(w1 * VP)
        const v2 = Math.round(w2 * VP)
        const v3 = Math.round(w3 * VP)
        const vs = v0 + v1 + v2 + v3
        if (!(v0 / VP === w0 && v1 / VP === w1 && v2 / VP === w2 && v3 / VP === w3)) break
        if (!(v0 >= 0 && v1 >= 0 && v2 >= 0 && v3 >= 0 && vs < 17179869184)) break
        // side code - 1 is 0 (buy) or 1 (sell) for each exactly when their OR is
        const s0 = (side[i] as number) - 1
        const s1 = (side[i + 1] as number) - 1
        const s2 = (side[i + 2] as number) - 1
        const s3 = (side[i + 3] as number) - 1
        if ((s0 | s1 | s2 | s3) >>> 0 > 1) break
        if (sess !== undefined && (((sess[i] as number) ^ sk) | ((sess[i + 1] as number) ^ sk) | ((sess[i + 2] as number) ^ sk) | ((sess[i + 3] as number) ^ sk)) !== 0) break
        tot += vs
        sell += v0 * s0 + v1 * s1 + v2 * s2 + v3 * s3
        prevT = t3
      }
    }
    if (i >= to) break
    // one record
    const t = time[i] as number
    if (!(t < bE) || Math.floor(t) !== t) break
    if (t < prevT) {
      // unsorted input: close the run [rs, i) in place (no call in the loop: a call makes V8 spill and
      // reload the loop's registers around it)
      if (!(t >= bS)) break
      if (i > rs) {
        const tf = time[rs] as number
        if (tf < (acc.bOpenT[j] as number)) {
          acc.bOpenT[j] = tf
          acc.bOpenP[j] = price[rs] as number
        }
        const tl = time[i - 1] as number
        if (tl >= (acc.bCloseT[j] as number)) {
          acc.bCloseT[j] = tl
          acc.bCloseP[j] = price[i - 1] as number
        }
      }
      rs = i
    }
    if ((sess === undefined ? 0 : (sess[i] as number)) !== sk) break
    const v = volume[i] as number
    let u = v
    if (VP === 1) {
      if (!(Math.floor(v) === v && v >= 0 && v < FAST_VOL)) break
    } else {
      u = Math.round(v * VP)
      if (!(u / VP === v && u >= 0 && u < FAST_VOL)) break
    }
    const sd = (side[i] as number) - 1
    if (sd >>> 0 > 1) break // side code 1 or 2 (one unsigned compare)
    const p = price[i] as number
    if (p !== lastP) {
      // exact units at the grid's scale (the check proves the decimal; see numberToUnits), then floor
      const pu = Math.round(p * PP)
      if (!(pu / PP === p && pu < LIM && pu > -LIM)) break
      const kk = Math.floor(pu / RU) - rowBase
      if (!(kk >= 0 && kk < rowCap)) break
      // the pending run goes into its row: buy at k, sell at k + 1
      const xb = (vol[k] as number) + (tot - sell)
      const xs = (vol[k + 1] as number) + sell
      if (!(xb <= LIM && xs <= LIM)) break
      vol[k] = xb
      vol[k + 1] = xs
      tot = 0
      sell = 0
      k = 2 * kk
      lastP = p
      if (p > hi) hi = p
      if (p < lo) lo = p
    }
    tot += u
    sell += u * sd
    prevT = t
    i++
  }
  // the exit work is a call: code after the loop that has not run before V8 optimises the loop (on stack)
  // has no type feedback, and inline it would deoptimise that code on its first exit
  return fastExit(c, acc, j, from, rs, i, sk, hi, lo, k, tot, sell)
}

/**
 * Moves block `j`'s open/close by the run of non-decreasing times [rs, i): its first record is its
 * earliest (first among equal times), its last the latest (last among equal times), so only those two
 * can be the open or the close. Exactly what per-trade updates in time order would give.
 */
function closeRun(c: TradeColumns, acc: PeriodAcc, j: number, rs: number, i: number): void {
  if (i <= rs) return
  const tf = c.time[rs] as number
  if (tf < (acc.bOpenT[j] as number)) {
    acc.bOpenT[j] = tf
    acc.bOpenP[j] = c.price[rs] as number
  }
  const tl = c.time[i - 1] as number
  if (tl >= (acc.bCloseT[j] as number)) {
    acc.bCloseT[j] = tl
    acc.bCloseP[j] = c.price[i - 1] as number
  }
}

/**
 * Closes the fast loop's last time run, adds its pending price run into row sums `k` (buy) and `k + 1`
 * (sell) exactly (spilling past 2^52), and writes the block's extremes back; returns `i`.
 */
function fastExit(c: TradeColumns, acc: PeriodAcc, j: number, from: number, rs: number, i: number, sk: number, hi: number, lo: number, k: number, tot: number, sell: number): number {
  closeRun(c, acc, j, rs, i)
  if (tot !== 0) {
    acc.vol.add(k, tot - sell)
    acc.vol.add(k + 1, sell)
  }
  acc.bHi[j] = hi
  acc.bLo[j] = lo
  // unconditional store: a store first reached after V8 optimised this code would deoptimise it
  acc.bMain[j] = (acc.bMain[j] as number) | (sk === 0 && i > from ? 1 : 0)
  return i
}

const EMPTY = new Float64Array(0)
const BIG_LIM = BigInt(LIM)

/** 10^(volume scale) of a profile (1 without one; NaN past 10^22: every volume then takes the exact path). */
function volumePow(acc: PeriodAcc | null): number {
  const s = acc === null ? 0 : acc.volScale
  return s < POW10_F.length ? (POW10_F[s] as number) : Number.NaN
}

function hasTrades(acc: PeriodAcc): boolean {
  for (let j = 0; j < acc.n; j++) if ((acc.bHi[j] as number) !== -Infinity) return true
  return false
}


/**
 * A streaming TPO aggregator: feed trades with `add` / `addTrades` / `addColumns` (periods may receive
 * trades in any order while open), call `advance(t)` to close the periods that end at or before `t`
 * (later trades for them throw `late_record`), `snapshot()` for the developing profiles, and `flush()`
 * at the end. Gives the same profiles as {@link tpoProfiles} on the same trades. `checkpoint()` +
 * `restore` continue a stream after a restart; `maxTime` bounds record times (docs/streaming.md).
 *
 * @param opts - the options of {@link tpoProfiles}, plus `maxTime` and `restore`
 * @returns the aggregator
 * @throws MarketDataError `invalid_option` for a bad option or a refused `restore` state (naming the field)
 *
 * @param opts - options, see {@link TpoOptions}
 * @returns the `TpoAggregator`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * const agg = createTpoAggregator({ timeframe: '1d', tickSize: '0.25' })
 * agg.addColumns(batch)
 * const closed = agg.advance(Date.UTC(2026, 5, 2))
 * const rest = agg.flush()
 */
export function createTpoAggregator(opts: TpoAggregatorOptions): TpoAggregator {
  checkOptions(opts, [...TPO_OPTION_KEYS, 'restore', 'maxTime'], 'createTpoAggregator')
  return new TpoEngine(opts)
}
