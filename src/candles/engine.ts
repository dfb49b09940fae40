// The candle engine's state: the stream (mode, records seen, time, scales), the open candle, the sink
// closed candles go to, and the buffers the loops share. The operations on it are functions in the
// files beside this one (readers, kernels, the exact path, candle-out); CandleAggregator is the public
// face over one engine.
import type { DecimalInput } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { type Bucketer, createBucketer, resolveTimeframe, type Timeframe } from '../time/index.js'
import { NestingGuard } from '../time/nesting.js'
import { readMaxTime } from '../_lib/max-time.js'
import { type ScaledTradeReader, sessionMask, type Trade } from '../trades/index.js'
import { parseDecimal } from '../decimal/index.js'
import type { ColumnOut } from './column-out.js'
import type { FineSum } from './fine-sum.js'
import { LIMB_BIG, PriceStrings } from './format.js'
import { LOOP_SLOTS } from './loop-slots.js'
import { CANDLE_MSG } from './messages.js'
import type { CandleAggregatorOptions } from './options.js'
import type { Candle } from './types.js'
import type { UnitsColumn } from './units.js'

/** Records the exact slow path holds: it takes one record at a time (the fast loops take the rest), so small calls allocate little. */
export const CHUNK = 1
/**
 * Records a fast loop takes per call: many short calls get the loops optimized as whole functions (one
 * long call runs on on-stack-replacement code, where V8 may box every record's doubles).
 */
export const FAST_RUN = 16384

/** Where the exact path reads the spellings of the record it takes (see `setSource`, `raw`). */
export const SOURCE_TRADE_COLUMNS = 1
export const SOURCE_TRADE_OBJECTS = 2
export const SOURCE_CANDLE_COLUMNS = 3
export const SOURCE_CANDLE_OBJECTS = 4

/** The exact path's buffer of one candle read into units (see exact-candles.ts). */
export interface ExactCandleColumns {
  t: Float64Array
  s: Uint8Array
  n: Float64Array
  hasValue: Uint8Array
  hasTrades: Uint8Array
  o: UnitsColumn
  h: UnitsColumn
  l: UnitsColumn
  c: UnitsColumn
  v: UnitsColumn
  x: UnitsColumn
}

/**
 * One candle stream's state. Fields are read and written by the engine's functions (internal: not
 * exported from the package); the sink is fixed at construction: Candle objects (queued, or handed to
 * `onCandle`), or `columns` when given.
 */
export class CandleEngine {
  readonly timeframe: Timeframe
  readonly tick: boolean
  readonly perTick: number
  readonly bucketer: Bucketer | undefined
  readonly mask: number
  readonly gridDecimals: number | undefined
  readonly onCandle: ((c: Candle) => void) | undefined
  readonly maxTime: number | undefined
  /** The nesting rule of candle input (time frames only). */
  readonly nesting: NestingGuard | undefined
  /** The column sink (closed candles as numbers), or undefined: Candle objects. */
  readonly columns: ColumnOut | undefined
  /** True while `onCandle` runs. */
  emitting = false
  reader: ScaledTradeReader | undefined
  cols: ExactCandleColumns | undefined
  /** 0 none yet, 1 trades, 2 candles. */
  mode = 0
  seen = 0
  last = Number.NEGATIVE_INFINITY
  /**
   * Trades of the last candle the columnar trade loop closed (Infinity: none yet). The decimal-volume loop
   * steps from candle to candle itself only after a short one (see SHORT_CANDLE in read-trade-columns.ts).
   */
  lastTrades = Number.POSITIVE_INFINITY
  floor = Number.NEGATIVE_INFINITY
  /** Scales (decimals) of prices, volumes and values (price x volume). */
  ps = 0
  vs = 0
  xs = 0
  // the open candle: its bucket, spellings, extremes in units (bigint beside past 2^52), sums as a
  // number part below 2^52 and a bigint part, flags for input candles without value / trades
  has = false
  cTime = 0
  cEnd = Number.NEGATIVE_INFINITY
  cSession = 0
  openRaw: DecimalInput = 0
  hiRaw: DecimalInput = 0
  loRaw: DecimalInput = 0
  closeRaw: DecimalInput = 0
  hiU = Number.NEGATIVE_INFINITY
  loU = Number.POSITIVE_INFINITY
  hiB = 0n
  loB = 0n
  count = 0
  volLo = 0
  volHi = 0n
  valLo = 0
  valHi = 0n
  /**
   * The value sum's high limb not yet in `valHi`: value = valHi + valMid * 2^26 + valLo (|valMid| <= 2^52). The
   * decimal-volume loops carry into it instead of making a bigint a candle; the column writer prints from it,
   * and every other reader of `valHi` first moves it there ({@link CandleEngine.settleMid}).
   */
  valMid = 0
  noValue = false
  noTrades = false
  /** Volume and value of the open candle's records finer than the fast sums take (rare; see fine-sum.ts). */
  fineVol: FineSum | undefined = undefined
  fineVal: FineSum | undefined = undefined
  closed: Candle[] = []
  // the chunk being consumed: where raw spellings come from (no closure per chunk: keeps the hot loops monomorphic)
  srcKind = 0
  src: unknown = undefined
  srcBase = 0
  readonly one: Trade[] = []
  readonly priceStrings = new PriceStrings()
  /** Loop state handed to and from the kernels and `closeFromScratch` (slots: loop-slots.ts). */
  readonly scratch = new Float64Array(LOOP_SLOTS)
  /** Closed-candle records of candleRun / cleanCandleRun (REC_CAP of REC fields), made when a loop first steps. */
  rec: Float64Array | undefined = undefined

  /** Resolves the options (checked for unknown keys by the caller); `columns`: the column sink. */
  constructor(opts: CandleAggregatorOptions, columns?: ColumnOut) {
    this.columns = columns
    this.timeframe = resolveTimeframe(opts.timeframe)
    this.tick = this.timeframe.unit === 'TICK'
    this.perTick = this.timeframe.count
    this.bucketer = this.tick
      ? undefined
      : createBucketer(this.timeframe, opts.timeZone === undefined ? {} : { timeZone: opts.timeZone })
    this.mask = sessionMask(opts.sessions)
    if (opts.tickSize !== undefined) {
      const d = parseDecimal(opts.tickSize)
      if (!d.ok || d.value.units <= 0n)
        throw new MarketDataError('invalid_option', CANDLE_MSG.tickSize(opts.tickSize), { field: 'tickSize' })
      this.gridDecimals = d.value.scale
    }
    this.onCandle = opts.onCandle
    const source =
      opts.sourceTimeframe === undefined ? undefined : resolveTimeframe(opts.sourceTimeframe, 'sourceTimeframe')
    if (source?.unit === 'TICK')
      throw new MarketDataError('invalid_option', CANDLE_MSG.tickSource(source.id), { field: 'sourceTimeframe' })
    this.nesting =
      this.bucketer === undefined
        ? undefined
        : new NestingGuard({ target: this.timeframe, timeZone: this.bucketer.timeZone, source })
    this.maxTime = readMaxTime(opts.maxTime)
  }

  /** Moves the open candle's high limb `valMid` into its bigint part (before `valHi` is read or rescaled). */
  settleMid(): void {
    if (this.valMid === 0) return
    this.valHi += BigInt(this.valMid) * LIMB_BIG
    this.valMid = 0
  }
}
