import { POW10, UNITS_LIMIT, type ExactDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { createBucketer } from '../time/index.js'
import { validateTradeColumnsShape, type Trade, type TradeColumns } from '../trades/index.js'
import { TPO_MSG } from './messages.js'
import { appliedBefore, withApplied } from '../_lib/applied.js'
import { resolveTpoOptions, type TpoConfig } from './options.js'
import type { PeriodAcc } from './period-acc.js'
import { finishProfiles } from './period-output.js'
import { OpenPeriods } from './open-periods.js'
import { TradeReader } from './trade-reader.js'
import { ExactPath } from './exact-path.js'
import type { TpoAggregator, TpoAggregatorOptions, TpoProfile } from './types.js'
import type { AggregatorCheckpoint } from '../aggregator.js'
import { restoreTpo, tpoCheckpoint } from './checkpoint.js'
import {
  firstPastInColumn,
  firstPastInRecords,
  isAdvanceTime,
  pastMaxTime,
  readMaxTime,
  recordPast,
  timeAt,
} from '../_lib/max-time.js'
import {
  ARG_BLOCK_END,
  ARG_BLOCK_HIGH,
  ARG_BLOCK_LOW,
  ARG_BLOCK_START,
  ARG_PRICE_POW,
  ARG_ROW_BASE,
  ARG_ROW_CAP,
  ARG_ROW_UNITS,
  ARG_SESSION,
  ARG_SLOTS,
  ARG_VOLUME_POW,
  FAST_CHUNK,
  fastExit,
  fastRun,
} from './fast-loop.js'
import { checkOptions } from '../_lib/closed-options.js'
import { TPO_OPTION_KEYS } from './types.js'

const POW10_F = Float64Array.from(POW10)
/** Decimals up to which prices finer than the grid are moved onto the fast paths (see finerPrices). */
const MAX_FINE_SCALE = 15
const CHUNK = 1024
/** Records per `run` call from a column batch. */
const RUN_CHUNK = 8192

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
  /** The open periods, the watermark and the current block slot. */
  private readonly open: OpenPeriods
  private addCount = 0
  private readonly reader = new TradeReader(16)
  /** The exact steps off the fast paths: rows of any price, volumes past 2^52 or finer than the fast sums. */
  private readonly exact: ExactPath
  /** The fast loop's numeric arguments (see {@link fastRun}). */
  private readonly args = new Float64Array(ARG_SLOTS)
  /**
   * The fast paths' price scale as 10^scale (the grid's at first) and the row height in units of it: raised
   * to the decimals of prices finer than the grid (thin markets: 8-decimal prices on a 0.000001 grid), so
   * such prices take the fast loop too (see {@link TpoAggregator.finerPrices}).
   */
  private pp: number
  private ru: number
  /** The decimals of `pp`. */
  private ps: number

  private readonly maxTime: number | undefined

  constructor(opts: TpoAggregatorOptions) {
    this.cfg = resolveTpoOptions(opts)
    this.maxTime = readMaxTime(opts.maxTime)
    this.pp = POW10_F[this.cfg.grid.scale] as number
    this.ru = this.cfg.grid.rowUnits
    this.ps = this.cfg.grid.scale
    this.exact = new ExactPath(this.reader, this.cfg.grid)
    const zone = this.cfg.timeZone === undefined ? {} : { timeZone: this.cfg.timeZone }
    const periodB = createBucketer(this.cfg.period, zone)
    const blockB = createBucketer(this.cfg.block, zone)
    this.open = new OpenPeriods(this.cfg, periodB, blockB)
    if (opts.restore !== undefined) {
      const r = restoreTpo(opts.restore, this.cfg, periodB, blockB)
      this.open.watermark = r.watermark
      this.addCount = r.state.addCount
      this.open.periods = r.state.periods
    }
  }

  get watermark(): number {
    return this.open.watermark
  }

  checkpoint(): AggregatorCheckpoint {
    return tpoCheckpoint(this.cfg, this.open.watermark, { addCount: this.addCount, periods: this.open.periods })
  }

  add(trade: Trade): void {
    const r = this.reader
    if (this.maxTime !== undefined) {
      const t = recordPast(trade, this.maxTime)
      if (t !== undefined) throw pastMaxTime(t, this.maxTime, this.addCount)
    }
    // a refused record does not count: the next one takes its index
    const index = this.addCount
    if (r.write(trade, 0, index)) this.run(r.cols, 0, 1, index)
    else this.addColumns(trade as unknown as TradeColumns)
    this.addCount = index + 1
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
    if (!isAdvanceTime(time, true)) throw new MarketDataError('invalid_time', TPO_MSG.advance(time), { field: 'time' })
    return finishProfiles(this.open.closeUntil(time), this.cfg)
  }

  snapshot(): TpoProfile[] {
    return finishProfiles(this.open.all(), this.cfg)
  }

  flush(): TpoProfile[] {
    return finishProfiles(this.open.closeAll(), this.cfg)
  }

  /** Writes the current block's running extremes and open/close back into its accumulator. */
  private save(
    acc: PeriodAcc | null,
    j: number,
    hi: number,
    lo: number,
    oT: number,
    oP: number,
    cT: number,
    cP: number,
  ): void {
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
      const acc = this.open.cur
      if (acc !== null && !this.open.skip) {
        const VP = acc.volScale < POW10_F.length ? (POW10_F[acc.volScale] as number) : Number.NaN
        const a = this.args
        a[ARG_BLOCK_START] = this.open.bStart
        a[ARG_BLOCK_END] = this.open.bEnd
        a[ARG_SESSION] = this.open.curSk
        a[ARG_PRICE_POW] = this.pp
        a[ARG_ROW_UNITS] = this.ru
        a[ARG_VOLUME_POW] = VP
        // in chunks: the fast loop returns often, so V8 optimises it as a whole function with feedback
        // for its exit code, rather than only by on-stack replacement of one long first loop (that code
        // deoptimised on its first return and left every later call in slower OSR code, about 1.8x)
        const j = this.open.curBlock
        a[ARG_ROW_BASE] = acc.rowBase
        a[ARG_ROW_CAP] = acc.rowCap
        for (;;) {
          const lim = to - i > FAST_CHUNK ? i + FAST_CHUNK : to
          a[ARG_BLOCK_HIGH] = acc.bHi[j] as number
          a[ARG_BLOCK_LOW] = acc.bLo[j] as number
          const at = i
          i = fastRun(c, i, lim, acc.vol.lo, acc, j, a)
          fastExit(c, acc, j, at, i, a)
          if (i < lim || i >= to) break
        }
        if (i >= to) return
      }
      i = this.general(c, i, to, base)
    }
  }

  /**
   * Raises the fast paths' price scale to the decimals of price `p` (a valid price off the grid's scale)
   * when they are at most 15 and its units stay below 2^52: rows are then floor(units / row units) at
   * that scale, the same rows as on the grid. Returns whether the scale moved.
   */
  private finerPrices(p: number): boolean {
    const g = this.cfg.grid
    for (let s = this.ps + 1; s <= MAX_FINE_SCALE; s++) {
      const P = POW10_F[s] as number
      const u = Math.floor(p * P + 0.5)
      if (!(u < UNITS_LIMIT && u > -UNITS_LIMIT)) return false
      if (u / P !== p) continue
      const ru = g.rowUnits * (POW10_F[s - g.scale] as number)
      if (!(ru < UNITS_LIMIT)) return false
      this.pp = P
      this.ru = ru
      this.ps = s
      return true
    }
    return false
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
    let acc = this.open.cur
    let j = this.open.curBlock
    let bS = this.open.bStart
    let bE = this.open.bEnd
    let sk = this.open.curSk
    let skip = this.open.skip
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
    let PP = this.pp
    let RU = this.ru
    let VP = volumePow(acc)
    // read once per call: an import binding read in the loop costs a context load and hole check per access
    const lim = UNITS_LIMIT
    let lastP = Number.NaN
    let k = 0
    let i = from
    for (; i < to; i++) {
      const t = time[i] as number
      const s = sess === undefined ? 0 : (sess[i] as number)
      if (!(t >= bS && t < bE) || s !== sk || Math.floor(t) !== t) {
        this.save(acc, j, hi, lo, oT, oP, cT, cP)
        this.open.enter(t, s, i + base)
        acc = this.open.cur
        j = this.open.curBlock
        bS = this.open.bStart
        bE = this.open.bEnd
        sk = s
        skip = this.open.skip
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
      if (
        VP === 1
          ? !(Math.floor(v) === v && v >= 0 && v < lim)
          : !((u = Math.floor(v * VP + 0.5)) / VP === v && u >= 0 && u < lim)
      ) {
        this.save(acc, j, hi, lo, oT, oP, cT, cP)
        u = this.exact.unitsOf(v, i + base, skip ? null : acc)
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
        const pu = Math.floor(p * PP + 0.5)
        let r = Math.floor(pu / RU)
        if (!(pu / PP === p && pu < lim && pu > -lim)) {
          this.save(acc, j, hi, lo, oT, oP, cT, cP)
          // a record of a filtered-out session is only checked as a decimal (as the footprint does): its
          // row is never used, so a price far outside the grid's range is not an error there
          r = skip ? this.exact.checkPrice(p, i + base) : this.exact.rowOf(p, i + base)
          if (this.finerPrices(p)) {
            PP = this.pp
            RU = this.ru
          }
        }
        k = r - rowBase
        if ((k < 0 || k >= rowCap) && acc !== null) {
          this.save(acc, j, hi, lo, oT, oP, cT, cP)
          acc.ensureRow(r, i + base, () => this.exact.tradedRows(acc as PeriodAcc))
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
      if (x <= lim) vol[ix] = x
      else this.exact.slowAdd(acc as PeriodAcc, ix, u)
      // a block holds main-session trades once one is added (not when a rejected record opened it)
      if (sk === 0) (acc as PeriodAcc).bMain[j] = 1
      i++
      break
    }
    this.save(acc, j, hi, lo, oT, oP, cT, cP)
    return i
  }
}

const EMPTY = new Float64Array(0)

/** 10^(volume scale) of a profile (1 without one; NaN past 10^22: every volume then takes the exact path). */
function volumePow(acc: PeriodAcc | null): number {
  const s = acc === null ? 0 : acc.volScale
  return s < POW10_F.length ? (POW10_F[s] as number) : Number.NaN
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
