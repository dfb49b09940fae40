import { type DecimalInput, exactDouble, parseDecimal, POW10, stringToUnits, UNITS_LIMIT } from '../decimal/index.js'
import { parseDataDecimal } from '../decimal/parse.js'
import { PriceStrings, spellPrice, unitsText } from './format.js'
import { MarketDataError } from '../errors.js'
import { type Bucketer, createBucketer, resolveTimeframe, type Timeframe, type TimeframeInput } from '../time/index.js'
import { NestingGuard } from '../time/nesting.js'
import { checkOptions } from '../_lib/closed-options.js'
import { isTradeColumns, createScaledTradeReader, type ScaledTradeReader, SESSION_NAMES, type SessionType, sessionMask, type Trade, type TradeColumns, type TradeArraySink } from '../trades/index.js'
import { ALL_SESSION_CODES, codeWords, codesKept } from '../trades/codes.js'
import { CANDLE_MSG } from './messages.js'
import { RESAMPLE_OPTION_KEYS, type Candle, type CandleColumns, type CandleInput, type CandleOptions } from './types.js'
import { UnitsColumn } from './units.js'
import { withApplied } from '../_lib/applied.js'
import type { Aggregator, AggregatorCheckpoint } from '../aggregator.js'
import { openCheckpoint, sealCheckpoint } from '../_lib/checkpoint.js'
import { type OpenCandleState, readCandleState, writeCandleState } from './checkpoint.js'
import { firstPastInColumn, firstPastInRecords, headOf, MAX_TIME, pastMaxTime, readMaxTime, recordPast } from '../_lib/max-time.js'
import type { ColumnOut } from './column-out.js'
import { MAX_FAST_VOLUME_SCALE } from '../decimal/exact-sums.js'
import { addFine, type FineSum, sumText, withFine } from './fine-sum.js'
import { candleRun } from './candle-kernel.js'
import { cleanCandleRun, tradeRun } from './trade-kernels.js'
import { checkCandleColumns, checkTradeColumns, codesClean } from './column-checks.js'
import {
  C_CLOSE_AT, C_CLOSED, C_COUNT, C_DAY, C_END, C_HIGH, C_HIGH_AT, C_LEN, C_LOW, C_LOW_AT, C_OPEN, C_PREV_TIME, C_SESSION,
  C_START, C_VALUE, C_VOLUME, LOOP_SLOTS, NO_REC, NO_SESSIONS, REC, REC_CAP, REC_CLOSE_AT, REC_HIGH, REC_LOW, REC_OPEN_AT, REC_SESSION,
  REC_START, REC_TRADES, REC_VALUE, REC_VOLUME, S_CLOSE, S_COUNT, S_HIGH, S_LOW, S_VALUE, S_VOLUME, T_CLOSED, T_COUNT,
  T_DAY, T_END, T_HIGH, T_HIGH_AT, T_LEN, T_LOW, T_LOW_AT, T_OPEN, T_PREV_TIME, T_RUN_PRICE, T_RUN_UNITS, T_RUN_VOLUME,
  T_SESSION, T_START, T_VALUE, T_VOLUME, W_CLOSE, W_HIGH, W_LOW, W_OPEN, W_SESSION, W_TIME, W_TRADES, W_VALUE, W_VOLUME,
} from './loop-slots.js'

/** Records the exact slow path holds: it takes one record at a time (the fast loops take the rest), so small calls allocate little. */
const CHUNK = 1
/**
 * Records a fast loop takes per call: many short calls get the loops optimized as whole functions (one
 * long call runs on on-stack-replacement code, where V8 may box every record's doubles).
 */
const FAST_RUN = 16384

/** Keys of {@link CandleAggregatorOptions}; `restore` and `maxTime` belong to the streaming contract (checkpoint/restore, a bound on time). */
const AGGREGATOR_OPTION_KEYS = [...RESAMPLE_OPTION_KEYS, 'onCandle', 'restore', 'maxTime'] as const

/** Options of {@link createCandleAggregator}. */
export interface CandleAggregatorOptions extends CandleOptions {
  /**
   * Called with each candle as it closes; without it closed candles wait for {@link CandleAggregator.take}.
   * While it runs no candle is open (`current()` is undefined); it may read (`current`, `take`) but not
   * feed the aggregator that calls it (`add*`, `advance`, `finish` throw `invalid_option`, field `onCandle`).
   */
  onCandle?: (candle: Candle) => void
  /**
   * The frame of input candles (resampling; same forms as `timeframe`). Each target bucket must hold whole
   * source buckets, checked per candle in `timeZone`, else `incompatible`; without it the frame is inferred
   * from the smallest gap between candle starts seen so far (see docs/resampling.md).
   */
  sourceTimeframe?: TimeframeInput
  /**
   * Latest record time accepted (UTC epoch ms, inclusive). A record stamped after it is refused with
   * `out_of_range` and changes nothing, so one trade stamped in 2200 cannot move the stream's time and
   * make every later record late. Default: no bound.
   */
  maxTime?: number
  /**
   * A state from {@link CandleAggregator.checkpoint} (after `JSON.stringify` / `JSON.parse` as you like):
   * the aggregator continues exactly where that one stood. The options must shape the output as the
   * checkpointed aggregator's did (timeframe, timeZone, sessions, tickSize decimals), else `invalid_option`
   * naming `restore.options.<name>`; every field of the state is validated.
   */
  restore?: AggregatorCheckpoint
}

/**
 * Extreme units past 2^52 (the exact value is the bigint beside them). The ±Infinity sentinels of an
 * empty candle are not: a huge bigint becomes a finite number through {@link bigUnits}.
 */
const isBig = (u: number): boolean => (u >= UNITS_LIMIT || u <= -UNITS_LIMIT) && u !== Number.POSITIVE_INFINITY && u !== Number.NEGATIVE_INFINITY

/** A bigint's units as a finite number (±MAX_VALUE past the double range), for extremes held beside it. */
const bigUnits = (b: bigint): number => Math.min(Math.max(Number(b), -Number.MAX_VALUE), Number.MAX_VALUE)

/** Units of a validated decimal input at `scale` (>= its decimals), as a number when below 2^52, else via bigint. */
function unitsOf(x: DecimalInput, scale: number): { u: number; b: bigint } {
  const d = parseDataDecimal(x)
  if (!d.ok) return { u: 0, b: 0n }
  const k = scale - d.value.scale
  // (k < 0 only for trailing zeros past the scale: the restore of a checkpoint checked that)
  const b = k >= 0 ? d.value.units * 10n ** BigInt(k) : d.value.units / 10n ** BigInt(-k)
  const u = bigUnits(b)
  return { u, b }
}

/**
 * Streaming candle builder: trades (or candles, for resampling) in time order in, candles out. One
 * aggregator takes either trades (`add`, `addColumns`, `addTrades`) or candles (`addCandle`,
 * `addCandleColumns`, `addCandles`). Records must come in non-decreasing time order; the error names
 * the record's index in the whole stream.
 */
export class CandleAggregator implements TradeArraySink, Aggregator<Trade, Candle> {
  readonly timeframe: Timeframe
  private readonly tick: boolean
  private readonly perTick: number
  private readonly bucketer: Bucketer | undefined
  private readonly mask: number
  private readonly gridDecimals: number | undefined
  private readonly onCandle: ((c: Candle) => void) | undefined
  private readonly maxTime: number | undefined
  /** True while `onCandle` runs. */
  private emitting = false
  private reader: ScaledTradeReader | undefined
  private cols: { t: Float64Array; s: Uint8Array; n: Float64Array; hasValue: Uint8Array; hasTrades: Uint8Array; o: UnitsColumn; h: UnitsColumn; l: UnitsColumn; c: UnitsColumn; v: UnitsColumn; x: UnitsColumn } | undefined
  private mode = 0 // 0 none yet, 1 trades, 2 candles
  private seen = 0
  private last = Number.NEGATIVE_INFINITY
  private floor = Number.NEGATIVE_INFINITY
  private ps = 0
  private vs = 0
  private xs = 0
  // the open candle
  private has = false
  private cTime = 0
  private cEnd = Number.NEGATIVE_INFINITY
  private cSession = 0
  private openRaw: DecimalInput = 0
  private hiRaw: DecimalInput = 0
  private loRaw: DecimalInput = 0
  private closeRaw: DecimalInput = 0
  private hiU = Number.NEGATIVE_INFINITY
  private loU = Number.POSITIVE_INFINITY
  private hiB = 0n
  private loB = 0n
  private count = 0
  private volLo = 0
  private volHi = 0n
  private valLo = 0
  private valHi = 0n
  private noValue = false
  private noTrades = false
  /** Volume and value of the open candle's records finer than the fast sums take (rare; see fine-sum.ts). */
  private fineVol: FineSum | undefined = undefined
  private fineVal: FineSum | undefined = undefined
  private closed: Candle[] = []
  // the chunk being consumed: where raw spellings come from (no closure per chunk: keeps the hot loops monomorphic)
  private srcKind = 0 // 1 trade columns, 2 trade objects, 3 candle columns, 4 candle objects
  private src: unknown = undefined
  private srcBase = 0
  private readonly one: Trade[] = []
  private readonly priceStrings = new PriceStrings()
  /** Loop state handed to and from {@link tradeRun}, {@link cleanCandleRun}, {@link candleRun} and `closeFromScratch` (doubles in a typed array are not boxed). */
  private readonly scratch = new Float64Array(LOOP_SLOTS)
  /** Closed-candle records of candleRun / cleanCandleRun (REC_CAP of REC fields), made when a loop first steps. */
  private rec: Float64Array | undefined = undefined
  /** Set by {@link writeColumnsTo}: closed candles go to these columns instead of Candle objects. */
  private colOut: ColumnOut | undefined = undefined
  /** The nesting rule of candle input (time frames only). */
  private readonly nesting: NestingGuard | undefined

  constructor(opts: CandleAggregatorOptions) {
    if (typeof opts !== 'object' || opts === null) throw new MarketDataError('invalid_option', 'options: expected an object with a timeframe', { field: 'options' })
    checkOptions(opts, AGGREGATOR_OPTION_KEYS, 'createCandleAggregator')
    this.timeframe = resolveTimeframe(opts.timeframe)
    this.tick = this.timeframe.unit === 'TICK'
    this.perTick = this.timeframe.count
    this.bucketer = this.tick ? undefined : createBucketer(this.timeframe, opts.timeZone === undefined ? {} : { timeZone: opts.timeZone })
    this.mask = sessionMask(opts.sessions)
    if (opts.tickSize !== undefined) {
      const d = parseDecimal(opts.tickSize)
      if (!d.ok || d.value.units <= 0n) throw new MarketDataError('invalid_option', CANDLE_MSG.tickSize(opts.tickSize), { field: 'tickSize' })
      this.gridDecimals = d.value.scale
    }
    this.onCandle = opts.onCandle
    const source = opts.sourceTimeframe === undefined ? undefined : resolveTimeframe(opts.sourceTimeframe, 'sourceTimeframe')
    if (source?.unit === 'TICK') throw new MarketDataError('invalid_option', CANDLE_MSG.tickSource(source.id), { field: 'sourceTimeframe' })
    this.nesting = this.bucketer === undefined ? undefined : new NestingGuard({ target: this.timeframe, timeZone: this.bucketer.timeZone, source })
    this.maxTime = readMaxTime(opts.maxTime)
    const tf = this.timeframe
    this.optionsKey = { timeframe: `${tf.count} ${tf.unit}`, timeZone: opts.timeZone ?? 'UTC', sessions: this.mask, priceDecimals: this.gridDecimals ?? null }
    if (opts.restore !== undefined) this.restoreFrom(opts.restore)
  }

  /** The options that shape the output, as a checkpoint holds them. */
  private readonly optionsKey: Record<string, unknown>

  /**
   * The state as JSON-safe data (see {@link CandleAggregatorOptions.restore}): the open candle, the candles
   * closed and not yet taken, the stream's time and scales. Built on demand from the running state (the
   * per-trade loops keep nothing for it). Not from inside `onCandle` (`invalid_option`).
   *
   * @example
   * const saved = JSON.stringify(agg.checkpoint())
   * const again = createCandleAggregator({ timeframe: '1m', restore: JSON.parse(saved) })
   */
  checkpoint(): AggregatorCheckpoint {
    this.feed()
    const open: OpenCandleState | undefined = this.has
      ? {
          time: this.cTime, session: this.cSession, openRaw: this.openRaw, extremes: this.hiU !== Number.NEGATIVE_INFINITY,
          hiRaw: this.hiRaw, loRaw: this.loRaw, closeRaw: this.closeRaw, count: this.count,
          volLo: this.volLo, volHi: this.volHi, valLo: this.valLo, valHi: this.valHi, noValue: this.noValue, noTrades: this.noTrades,
          fineVol: this.fineVol, fineVal: this.fineVal,
        }
      : undefined
    const state = writeCandleState({ mode: this.mode, seen: this.seen, floor: this.floor, ps: this.ps, vs: this.vs, xs: this.xs, open, closed: this.closed, nesting: this.nesting?.save() })
    return sealCheckpoint('candles', this.optionsKey, this.last, state)
  }

  /** Takes a checkpoint's state (validated first: nothing is set unless all of it is valid). */
  private restoreFrom(x: unknown): void {
    const { watermark, state } = openCheckpoint(x, 'candles', this.optionsKey)
    const s = readCandleState(state, watermark)
    if (s.nesting !== undefined && this.nesting === undefined) state.fail('nesting', 'null (a tick frame has no nesting rule)', state.raw('nesting'))
    const o = s.open
    let end = Number.POSITIVE_INFINITY
    if (o !== undefined && !this.tick) {
      const b = this.bucketer as Bucketer
      if (b.locate(o.time) !== o.time) state.obj('open').fail('time', `the start of a ${this.timeframe.id ?? 'timeframe'} bucket`, o.time)
      end = b.end
    }
    this.mode = s.mode
    this.seen = s.seen
    this.last = watermark
    this.floor = s.floor
    this.ps = s.ps
    this.vs = s.vs
    this.xs = s.xs
    if (s.mode === 1) this.reader = createScaledTradeReader({ chunkSize: CHUNK, priceScale: s.ps, volumeScale: s.vs })
    this.closed = s.closed
    if (s.nesting !== undefined) this.nesting?.restore(s.nesting)
    if (o === undefined) return
    this.has = true
    this.cTime = o.time
    this.cEnd = end
    this.cSession = o.session
    this.openRaw = o.openRaw
    this.hiRaw = o.hiRaw
    this.loRaw = o.loRaw
    this.closeRaw = o.closeRaw
    if (o.extremes) {
      const h = unitsOf(o.hiRaw, s.ps)
      const l = unitsOf(o.loRaw, s.ps)
      this.hiU = h.u
      this.hiB = h.b
      this.loU = l.u
      this.loB = l.b
    }
    this.count = o.count
    this.volLo = o.volLo
    this.volHi = o.volHi
    this.valLo = o.valLo
    this.valHi = o.valHi
    this.noValue = o.noValue
    this.noTrades = o.noTrades
    this.fineVol = o.fineVol
    this.fineVal = o.fineVal
  }

  /** Adds one trade. @example agg.add({ time, price: '5000.25', volume: '1', side: 'buy' }) */
  add(trade: Trade): void {
    this.feed()
    if (this.maxTime !== undefined) this.refusePast(trade)
    const r = this.tradeReader()
    const one = this.one
    one[0] = trade
    if (this.fastObjects(one, 0, 1) === 1) return
    const k = r.readTrade(trade, this.seen)
    this.setSource(2, one, 0)
    this.consumeTrades(r, k)
  }

  /**
   * Adds trades[from, to) of an array (the object fast path).
   *
   * @throws MarketDataError for a refused record; `applied` says how many of trades[from, to) were taken
   * before it (it changed nothing): resume at `from + applied` (after fixing or dropping that record).
   */
  addTrades(trades: ArrayLike<Trade>, from = 0, to = trades.length): void {
    this.feed()
    const s0 = this.seen
    try {
      const past = this.maxTime === undefined ? -1 : firstPastInRecords(trades, from, to, this.maxTime)
      this.objectRun(trades, from, past >= 0 ? past : to, false)
      if (past >= 0) this.refusePast(trades[past])
    } catch (e) {
      throw withApplied(e, this.seen - s0)
    }
  }

  /** Throws `out_of_range` for a record stamped after `maxTime` (set). */
  private refusePast(record: unknown): void {
    const t = recordPast(record, this.maxTime as number)
    if (t !== undefined) throw pastMaxTime(t, this.maxTime as number, this.seen)
  }

  /**
   * Takes the trade objects of an array from `from` up to the first `TradeColumns` batch (or `to`) and
   * returns the index where it stopped: the `TradeArraySink` protocol with which `candlesFromTrades` hands
   * over a whole array without first scanning it for batches (a pass over every object).
   *
   * @example const at = agg.addTradeRun(mixed, 0, mixed.length) // mixed[at] is a TradeColumns batch, or at === mixed.length
   */
  addTradeRun(trades: ArrayLike<Trade | TradeColumns>, from: number, to: number): number {
    this.feed()
    const past = this.maxTime === undefined ? -1 : firstPastInRecords(trades, from, to, this.maxTime)
    const at = this.objectRun(trades as ArrayLike<Trade>, from, past >= 0 ? past : to, true)
    if (at === past) this.refusePast(trades[past])
    return at
  }

  /**
   * The trade objects of trades[from, to): the fused fast loop, and a record it cannot take exactly alone
   * through the scaled reader (which throws for a bad one); with `stopAtBatch` it stops at a `TradeColumns`
   * batch instead (the fast loop stops there too: its time is not a number). Returns where it stopped.
   */
  private objectRun(trades: ArrayLike<Trade>, from: number, to: number, stopAtBatch: boolean): number {
    const r = this.tradeReader()
    let at = from
    while (at < to) {
      const stop = Math.min(to, at + FAST_RUN)
      at = this.fastObjects(trades, at, stop)
      if (at >= stop) continue
      if (stopAtBatch && isTradeColumns(trades[at])) break
      const k = r.readTrades(trades, at, at + 1, this.seen)
      this.setSource(2, trades, at)
      this.consumeTrades(r, k)
      at += k
    }
    return at
  }

  /** Adds a batch of columnar trades (the fast path). @throws MarketDataError with `applied` (see {@link addTrades}). */
  addColumns(columns: TradeColumns): void {
    this.columnBatch(columns, checkTradeColumns, (c) => this.columnsIn(c))
  }

  /**
   * A batch of trade or candle columns: all its rows, or those before the first one stamped after
   * `maxTime` (then `out_of_range`); an error carries the rows applied.
   */
  private columnBatch<C extends TradeColumns | CandleColumns>(columns: C, check: (c: C) => void, take: (c: C) => void): void {
    this.feed()
    const s0 = this.seen
    try {
      const past = this.maxTime === undefined ? -1 : firstPastInColumn(columns, this.maxTime)
      if (past < 0) {
        take(columns)
        return
      }
      check(columns)
      take(headOf(columns, past))
      throw pastMaxTime(columns.time[past] as number, this.maxTime as number, this.seen)
    } catch (e) {
      throw withApplied(e, this.seen - s0)
    }
  }

  private columnsIn(columns: TradeColumns): void {
    const r = this.tradeReader()
    checkTradeColumns(columns)
    const n = columns.time.length
    const sideW = codeWords(columns.side)
    const sessW = columns.session === undefined ? null : codeWords(columns.session)
    for (let at = 0; at < n;) {
      // the fused fast loop runs until a record needs the exact slow path (more decimals, huge units,
      // invalid, out of order); that record's chunk goes through the scaled reader, then the fast loop
      // resumes. A slice whose side and session codes are all valid and kept (checked 4 bytes a word,
      // once) lets the tight loop skip those tests.
      const stop = Math.min(n, at + FAST_RUN)
      const clean = codesClean(columns, sideW, sessW, at, stop, this.mask)
      while (at < stop) {
        at = this.fastColumns(columns, at, stop, clean)
        if (at >= stop) break
        // one record through the exact path (it grows the scales, takes huge units, or throws), then fast again
        const k = r.readColumns(columns, at, at + 1, this.seen)
        this.setSource(1, columns, at)
        this.consumeTrades(r, k)
        at += k
      }
    }
  }

  /** Adds one input candle (resampling). */
  addCandle(candle: CandleInput): void {
    this.feed()
    this.addCandles([candle])
  }

  /** Adds candles[from, to) of an array (resampling). @throws MarketDataError with `applied` (see {@link addTrades}). */
  addCandles(candles: ArrayLike<CandleInput>, from = 0, to = candles.length): void {
    this.feed()
    const s0 = this.seen
    try {
      const past = this.maxTime === undefined ? -1 : firstPastInRecords(candles, from, to, this.maxTime)
      this.candlesIn(candles, from, past >= 0 ? past : to)
      if (past >= 0) this.refusePast(candles[past])
    } catch (e) {
      throw withApplied(e, this.seen - s0)
    }
  }

  private candlesIn(candles: ArrayLike<CandleInput>, from: number, to: number): void {
    this.candleColumns()
    if (this.nesting === undefined) this.candleObjectRun(candles, from, to)
    else this.nested(candleTimes(candles, from, to), to - from, (a, b) => this.candleObjectRun(candles, from + a, from + b))
  }

  private candleObjectRun(candles: ArrayLike<CandleInput>, from: number, to: number): void {
    for (let at = from; at < to;) {
      const stop = Math.min(to, at + FAST_RUN)
      at = this.fastCandleObjects(candles, at, stop)
      if (at >= stop) continue
      const k = 1
      this.readCandleObjects(candles, at, k)
      this.setSource(4, candles, at)
      this.consumeCandles(k)
      at += k
    }
  }

  /** Adds a batch of columnar candles (the fast resampling path). @throws MarketDataError with `applied` (see {@link addTrades}). */
  addCandleColumns(columns: CandleColumns): void {
    this.columnBatch(columns, checkCandleColumns, (c) => this.candleColumnsIn(c))
  }

  private candleColumnsIn(columns: CandleColumns): void {
    this.candleColumns()
    const n = columns.time.length
    checkCandleColumns(columns)
    if (this.nesting === undefined) this.candleColumnRun(columns, 0, n)
    else this.nested(columns.time, n, (a, b) => this.candleColumnRun(columns, a, b))
  }

  private candleColumnRun(columns: CandleColumns, from: number, n: number): void {
    const S = columns.session
    const sessW = S === undefined || (this.mask & 7) !== 7 ? null : codeWords(S)
    for (let at = from; at < n;) {
      const stop = Math.min(n, at + FAST_RUN)
      // a slice whose session codes are all valid and kept (tested once, 4 bytes a word) skips the per-candle test
      const clean = S !== undefined && sessW !== null && codesKept(S, sessW, at, stop, ALL_SESSION_CODES)
      while (at < stop) {
        at = this.fastCandleColumns(columns, at, stop, clean)
        if (at >= stop) break
        const k = 1
        this.readCandleColumnChunk(columns, at, k)
        this.setSource(3, columns, at)
        this.consumeCandles(k)
        at += k
      }
    }
  }

  /**
   * Feeds candles[0, n) of a call (their times `times[0, n)`) up to the first one the nesting rule refuses,
   * then throws its refusal. When the aggregator refuses a record itself, the guard is rewound to the
   * records applied, so a refused record changes nothing in either.
   */
  private nested(times: Float64Array, n: number, run: (from: number, to: number) => void): void {
    const g = this.nesting as NestingGuard
    const saved = g.save()
    const seen = this.seen
    const stop = g.scan(times, 0, n, seen)
    try {
      run(0, stop)
    } catch (e) {
      g.restore(saved)
      g.scan(times, 0, Math.min(stop, this.seen - seen), seen)
      throw e
    }
    if (stop < n) throw g.error
  }

  /**
   * Declares that the stream reached `time`: no record before it will come. Closes the open candle when
   * its bucket ends at or before `time` (time frames) and returns every closed candle not taken yet (none
   * with `onCandle`, which received them). A later record before `time` throws `late_record`.
   */
  advance(time: number): Candle[] {
    this.feed()
    if (typeof time !== 'number' || !(time >= -MAX_TIME && time <= MAX_TIME)) throw new MarketDataError('invalid_time', CANDLE_MSG.time(time), { field: 'time' })
    if (this.mode === 2) this.nesting?.advance(time)
    if (time > this.floor) this.floor = time
    if (time > this.last) this.last = time
    if (!this.tick && this.has && time >= this.cEnd) this.closeCandle()
    return this.take()
  }

  /** The stream's time: the latest record or `advance` time (records come in time order; -Infinity at first). */
  get watermark(): number {
    return this.last
  }

  /** The open candle so far, in a list (empty when none is open): {@link current} as the contract's `snapshot`. */
  snapshot(): Candle[] {
    return this.has ? [this.snapshotOne()] : []
  }

  /** Closed candles not yet taken (in time order); empties the queue. */
  take(): Candle[] {
    const out = this.closed
    this.closed = []
    return out
  }

  /** The open candle so far (a snapshot), or undefined. */
  current(): Candle | undefined {
    return this.has ? this.snapshotOne() : undefined
  }

  /**
   * End of stream: closes the open candle and returns every candle not yet taken. The stream's time moves
   * to the closed candle's end (time frames), so a later record for it is `late_record`, never a second
   * candle with the same time; later records for later buckets go on as usual.
   */
  flush(): Candle[] {
    this.feed()
    if (this.mode === 2) this.nesting?.finish()
    if (this.has) {
      const end = this.cEnd
      this.closeCandle()
      if (!this.tick && end > this.floor) {
        this.floor = end
        if (end > this.last) this.last = end
      }
    }
    return this.take()
  }

  /** {@link flush} under its older name. */
  finish(): Candle[] {
    return this.flush()
  }

  // ---- internals -------------------------------------------------------------------------------

  private tradeReader(): ScaledTradeReader {
    if (this.mode === 2) throw new MarketDataError('incompatible', CANDLE_MSG.mixed(), { field: 'add' })
    this.mode = 1
    return (this.reader ??= createScaledTradeReader({ chunkSize: CHUNK }))
  }

  private candleColumns(): NonNullable<CandleAggregator['cols']> {
    if (this.mode === 1) throw new MarketDataError('incompatible', CANDLE_MSG.mixed(), { field: 'add' })
    this.mode = 2
    return (this.cols ??= {
      t: new Float64Array(CHUNK),
      s: new Uint8Array(CHUNK),
      n: new Float64Array(CHUNK),
      hasValue: new Uint8Array(CHUNK),
      hasTrades: new Uint8Array(CHUNK),
      o: new UnitsColumn(CHUNK),
      h: new UnitsColumn(CHUNK),
      l: new UnitsColumn(CHUNK),
      c: new UnitsColumn(CHUNK),
      v: new UnitsColumn(CHUNK),
      x: new UnitsColumn(CHUNK),
    })
  }

  private orderError(t: number, index: number): MarketDataError {
    if (t < this.floor) return new MarketDataError('late_record', CANDLE_MSG.late(t, this.floor), { index, field: 'time' })
    return new MarketDataError('out_of_order', CANDLE_MSG.outOfOrder(t, this.last), { index, field: 'time' })
  }

  /** Moves the open candle's sums and extremes to new scales (they only grow). */
  private rescale(ps: number, vs: number, xs: number): void {
    if (this.has) {
      // a candle opened by a record not taken yet has no extremes (the ±Infinity sentinels stay)
      if (ps !== this.ps && this.hiU !== Number.NEGATIVE_INFINITY) {
        const h = unitsOf(this.hiRaw, ps)
        const l = unitsOf(this.loRaw, ps)
        this.hiU = h.u
        this.hiB = h.b
        this.loU = l.u
        this.loB = l.b
      }
      if (vs !== this.vs) {
        this.volHi = (this.volHi + BigInt(this.volLo)) * 10n ** BigInt(vs - this.vs)
        this.volLo = 0
      }
      if (xs !== this.xs) {
        this.valHi = (this.valHi + BigInt(this.valLo)) * 10n ** BigInt(xs - this.xs)
        this.valLo = 0
      }
    }
    this.ps = ps
    this.vs = vs
    this.xs = xs
  }

  /** Opens a candle at record time t (bucket start, or t itself for tick frames). */
  private openCandle(t: number, session: number, openRaw: DecimalInput): void {
    if (this.tick) {
      this.cTime = t
      this.cEnd = Number.POSITIVE_INFINITY
    } else {
      const b = this.bucketer as Bucketer
      this.cTime = b.locate(t)
      this.cEnd = b.end
    }
    this.has = true
    this.cSession = session
    this.openRaw = openRaw
    this.hiU = Number.NEGATIVE_INFINITY
    this.loU = Number.POSITIVE_INFINITY
    this.hiB = 0n
    this.loB = 0n
    this.count = 0
    this.volLo = 0
    this.volHi = 0n
    this.valLo = 0
    this.valHi = 0n
    this.noValue = false
    this.noTrades = false
    this.fineVol = undefined
    this.fineVal = undefined
  }

  private spell(x: DecimalInput): string {
    return typeof x === 'number' ? this.priceStrings.number(x, this.ps, this.gridDecimals) : spellPrice(x, this.gridDecimals, this.ps, this.priceStrings)
  }

  private snapshotOne(): Candle {
    const open = this.spell(this.openRaw)
    const high = this.spell(this.hiRaw)
    const low = this.spell(this.loRaw)
    const close = this.spell(this.closeRaw)
    const volume = sumText(this.volHi, this.volLo, this.vs, this.fineVol)
    const session = SESSION_NAMES[this.cSession] as SessionType
    // one literal per shape (no property added afterwards): one hidden class, no property-array growth
    if (!this.noValue && !this.noTrades) {
      return { time: this.cTime, open, high, low, close, volume, value: sumText(this.valHi, this.valLo, this.xs, this.fineVal), trades: this.count, session }
    }
    const c: Candle = { time: this.cTime, open, high, low, close, volume }
    if (!this.noValue) c.value = sumText(this.valHi, this.valLo, this.xs, this.fineVal)
    if (!this.noTrades) c.trades = this.count
    c.session = session
    return c
  }

  /**
   * Closes the open candle from a candle column loop's state: high, low and close are the numbers
   * st[S_HIGH], st[S_LOW], st[S_CLOSE] (their spellings), volume, value and trades below 2^52 st[S_VOLUME],
   * st[S_VALUE], st[S_COUNT] (the bigint parts stay in the fields). Same candle as {@link snapshot}, without storing the state first.
   */
  private closeFromScratch(): void {
    const st = this.scratch
    if (this.colOut !== undefined) {
      // the S_ slots move to the writer's W_ layout: time, open, high, low, close, volume, value, trades, session
      // (each slot is read before it is written: W_k = S_(k - 2) for k >= 2)
      const count = st[S_COUNT] as number
      st[W_TRADES] = count
      st[W_VALUE] = st[S_VALUE] as number
      st[W_VOLUME] = st[S_VOLUME] as number
      st[W_CLOSE] = st[S_CLOSE] as number
      st[W_LOW] = st[S_LOW] as number
      st[W_HIGH] = st[S_HIGH] as number
      st[W_OPEN] = priceNumber(this.openRaw)
      st[W_TIME] = this.cTime
      st[W_SESSION] = this.cSession
      this.writeOut(st)
      this.has = false
      this.cEnd = Number.NEGATIVE_INFINITY
      return
    }
    const ps = this.ps
    const grid = this.gridDecimals
    const pc = this.priceStrings
    const open = this.spell(this.openRaw)
    const high = pc.number(st[S_HIGH] as number, ps, grid)
    const low = pc.number(st[S_LOW] as number, ps, grid)
    const close = pc.number(st[S_CLOSE] as number, ps, grid)
    const volume = sumText(this.volHi, st[S_VOLUME] as number, this.vs, this.fineVol)
    const count = st[S_COUNT] as number
    const session = SESSION_NAMES[this.cSession] as SessionType
    let c: Candle
    if (!this.noValue && !this.noTrades) c = { time: this.cTime, open, high, low, close, volume, value: sumText(this.valHi, st[S_VALUE] as number, this.xs, this.fineVal), trades: count, session }
    else {
      c = { time: this.cTime, open, high, low, close, volume }
      if (!this.noValue) c.value = sumText(this.valHi, st[S_VALUE] as number, this.xs, this.fineVal)
      if (!this.noTrades) c.trades = count
      c.session = session
    }
    this.has = false
    this.cEnd = Number.NEGATIVE_INFINITY
    this.emit(c)
  }

  /** Writes the open candle in the writer's W_ layout to the column sink, its fine sums folded in. */
  private writeOut(st: Float64Array): void {
    const out = this.colOut as ColumnOut
    const fv = this.fineVol
    const fx = this.fineVal
    if (fv === undefined && fx === undefined) {
      out.write(st, this.volHi, this.vs, this.valHi, this.xs)
      return
    }
    const v = withFine(this.volHi, st[W_VOLUME] as number, this.vs, fv ?? { units: 0n, scale: 0 })
    const x = withFine(this.valHi, st[W_VALUE] as number, this.xs, fx ?? { units: 0n, scale: 0 })
    st[W_VOLUME] = 0
    st[W_VALUE] = 0
    out.write(st, v.units, v.scale, x.units, x.scale)
  }

  private closeCandle(): void {
    if (this.colOut !== undefined) {
      const st = this.scratch
      st[W_TIME] = this.cTime
      st[W_OPEN] = priceNumber(this.openRaw)
      st[W_HIGH] = priceNumber(this.hiRaw)
      st[W_LOW] = priceNumber(this.loRaw)
      st[W_CLOSE] = priceNumber(this.closeRaw)
      st[W_VOLUME] = this.volLo
      st[W_VALUE] = this.valLo
      st[W_TRADES] = this.count
      st[W_SESSION] = this.cSession
      this.writeOut(st)
      this.has = false
      this.cEnd = Number.NEGATIVE_INFINITY
      return
    }
    const c = this.snapshotOne()
    this.has = false
    this.cEnd = Number.NEGATIVE_INFINITY
    this.emit(c)
  }

  /** Where the raw spellings of the chunk being consumed come from (see {@link raw}). */
  private setSource(kind: number, src: unknown, base: number): void {
    this.srcKind = kind
    this.src = src
    this.srcBase = base
  }

  /** The input spelling of a price field of chunk entry i. */
  private raw(f: 'open' | 'high' | 'low' | 'close', i: number): DecimalInput {
    const j = this.srcBase + i
    switch (this.srcKind) {
      case 1:
        return (this.src as TradeColumns).price[j] as number
      case 2:
        return ((this.src as ArrayLike<Trade>)[j] as Trade).price
      // one named load per field (a keyed load by a varying name would go megamorphic)
      case 3: {
        const c = this.src as CandleColumns
        return (f === 'high' ? c.high : f === 'low' ? c.low : f === 'close' ? c.close : c.open)[j] as number
      }
      default: {
        const c = (this.src as ArrayLike<CandleInput>)[j] as CandleInput
        return f === 'high' ? c.high : f === 'low' ? c.low : f === 'close' ? c.close : c.open
      }
    }
  }

  /**
   * Stores a hot loop's running state of the open candle: the spellings of its high, low and close by
   * chunk index (-1: not changed by this loop) and its extremes' units and sums.
   */
  private keep(hiI: number, loI: number, closeI: number, hiU: number, loU: number, volLo: number, valLo: number, count: number): void {
    if (hiI >= 0) this.hiRaw = this.raw('high', hiI)
    if (loI >= 0) this.loRaw = this.raw('low', loI)
    if (closeI >= 0) this.closeRaw = this.raw('close', closeI)
    this.hiU = hiU
    this.loU = loU
    this.volLo = volLo
    this.valLo = valLo
    this.count = count
  }

  /**
   * A hot loop met the first record of a new candle: closes the open one (after storing the loop's state
   * of it) and opens one at record time t. Once per candle, so the loops stay small. The loops then read
   * the end from `cEnd` (a double field; a call's result kept in the loop variable could make V8 box
   * every record's doubles, as could on-stack-replacement code: see FAST_RUN).
   */
  private nextCandle(t: number, session: number, openRaw: DecimalInput, hiI: number, loI: number, closeI: number, volLo: number, valLo: number, count: number, runPU = 0, runVol = 0): void {
    if (this.has) {
      this.keep(hiI, loI, closeI, 0, 0, volLo, valLo, count)
      this.addRun(runPU, runVol)
      this.closeCandle()
    }
    this.openCandle(t, session, openRaw)
  }

  /**
   * Fused validate + convert + aggregate loop over columns[from, n) at the current scales; stops at the
   * first record it cannot take exactly on the fast path and returns its index (n when all were taken).
   * The inner loop runs over the records of one candle with no call in it; the outer one opens candles.
   */
  private fastColumns(c: TradeColumns, from: number, n: number, clean = false): number {
    const ps = this.ps
    const vs = this.vs
    if (ps > 22 || vs > 22) return from
    const PP = POW10[ps] as number
    const VP = POW10[vs] as number
    const T = c.time
    const P = c.price
    const V = c.volume
    const SD = c.side
    const SS = c.session
    const hasS = SS !== undefined
    const mask = this.mask
    const lim = this.tick ? this.perTick : Number.POSITIVE_INFINITY
    this.setSource(1, c, 0)
    let last = this.last
    let end = this.cEnd
    let hiU = this.hiU
    let loU = this.loU
    let volLo = this.volLo
    let valLo = this.valLo
    let count = this.count
    let hiI = -1
    let loI = -1
    let closeI = -1
    let lastX = Number.NaN
    let lastPU = 0
    let lastV = Number.NaN
    let lastVU = 0
    let runVol = 0
    const st = this.scratch
    // the trade that opened the open candle in this call (-1: opened before): only such a candle, all in
    // these columns, may cleanCandleRun close itself and step on to the next ones
    let openIdx = -1
    const b = this.bucketer
    let i = from
    for (;;) {
      let next = false
      let ns = 0
      // the common trade (in the candle, valid, a kept session, the same price as the last one) runs in
      // tradeRun's tight loop; any other goes once through the full body below, then tradeRun again
      let tEnd = Math.min(end, MAX_TIME + 1)
      for (; i < n; i++) {
        const stop = lim === Number.POSITIVE_INFINITY ? n : Math.min(n, i + (lim - count))
        if (i < stop) {
          st[T_PREV_TIME] = last < -MAX_TIME ? -MAX_TIME : last
          st[T_END] = tEnd
          st[T_RUN_VOLUME] = runVol
          st[T_RUN_PRICE] = lastX
          if (clean && VP === 1) {
            // the whole candle, price changes included, in one loop
            st[T_RUN_UNITS] = lastPU
            st[T_HIGH] = hiU
            st[T_LOW] = loU
            st[T_VOLUME] = volLo
            st[T_VALUE] = valLo
            st[T_HIGH_AT] = hiI
            st[T_LOW_AT] = loI
            st[T_COUNT] = count
            st[T_LEN] = 0
            if (openIdx >= 0 && !this.tick && this.volHi === 0n && this.valHi === 0n && b !== undefined && b.dayGrid(st, T_DAY)) {
              st[T_START] = this.cTime
              st[T_OPEN] = openIdx
              st[T_SESSION] = this.cSession
            }
            st[T_CLOSED] = 0
            const j = cleanCandleRun(T, V, P, SS ?? NO_SESSIONS, i, stop, PP, st, (st[T_LEN] as number) > 0 ? (this.rec ??= new Float64Array(REC_CAP * REC)) : NO_REC)
            if (j > i) {
              last = st[T_PREV_TIME] as number
              runVol = st[T_RUN_VOLUME] as number
              lastX = st[T_RUN_PRICE] as number
              lastPU = st[T_RUN_UNITS] as number
              hiU = st[T_HIGH] as number
              loU = st[T_LOW] as number
              volLo = st[T_VOLUME] as number
              valLo = st[T_VALUE] as number
              hiI = st[T_HIGH_AT] as number
              loI = st[T_LOW_AT] as number
              count = st[T_COUNT] as number
              closeI = j - 1
              const k = st[T_CLOSED] as number
              if (k > 0) {
                // cleanCandleRun closed k candles and opened the one now open: their candles, then its state
                openIdx = st[T_OPEN] as number
                // the candle open before the loop is closed: no callback may see it as open
                this.has = false
                this.cEnd = Number.NEGATIVE_INFINITY
                this.closeTradeRecords(P, k)
                this.openCandle(st[T_START] as number, st[T_SESSION] as number, P[openIdx] as number)
                end = this.cEnd
                tEnd = Math.min(end, MAX_TIME + 1)
              }
              i = j
            }
          } else {
            const j = tradeRun(T, SD, SS, V, P, i, stop, mask, VP, st)
            if (j > i) {
              last = st[T_PREV_TIME] as number
              runVol = st[T_RUN_VOLUME] as number
              count += j - i
              closeI = j - 1
              i = j
            }
          }
        }
        if (i >= n) break
        const t = T[i] as number
        if (!(t >= last) || t > MAX_TIME || t < -MAX_TIME || Math.floor(t) !== t) break
        const sd = SD[i] as number
        if (sd !== 1 && sd !== 2) break
        const s = hasS ? (SS[i] as number) : 0
        if (s > 2) break
        const v = V[i] as number
        let vu: number
        if (v === lastV) vu = lastVU
        else {
          vu = Math.round(v * VP)
          if (vu / VP !== v || !(vu < UNITS_LIMIT && vu >= 0)) break
          lastV = v
          lastVU = vu
        }
        const x = P[i] as number
        if (((mask >> s) & 1) === 0) {
          // another session's trade: validated, not taken
          if (x !== lastX) {
            const u = Math.round(x * PP)
            if (u / PP !== x || !(u < UNITS_LIMIT && u > -UNITS_LIMIT)) break
          }
          last = t
          continue
        }
        if (t >= end || count >= lim) {
          next = true
          ns = s
          break
        }
        // a price equal to the last taken one can be neither a new high nor a new low: only a change
        // converts and compares (lastX restarts with each candle)
        // value = sum of price x volume is summed per run of one price: the run's volume times its price
        if (x !== lastX) {
          const u = Math.round(x * PP)
          if (u / PP !== x || !(u < UNITS_LIMIT && u > -UNITS_LIMIT)) break
          if (runVol !== 0) {
            const pv = lastPU * runVol
            if (pv < UNITS_LIMIT && pv > -UNITS_LIMIT) {
              valLo += pv
              if (valLo > UNITS_LIMIT || valLo < -UNITS_LIMIT) {
                this.valHi += BigInt(valLo)
                valLo = 0
              }
            } else this.valHi += BigInt(lastPU) * BigInt(runVol)
            volLo += runVol
            if (volLo > UNITS_LIMIT) {
              this.volHi += BigInt(volLo)
              volLo = 0
            }
            runVol = 0
          }
          lastX = x
          lastPU = u
          if (u > hiU) {
            hiU = u
            hiI = i
          }
          if (u < loU) {
            loU = u
            loI = i
          }
        }
        last = t
        runVol += vu
        if (runVol > UNITS_LIMIT) {
          this.valHi += BigInt(lastPU) * BigInt(runVol)
          this.volHi += BigInt(runVol)
          runVol = 0
        }
        closeI = i
        count++
      }
      if (!next) break
      // record i opens a new candle; the inner loop takes it again (its checks pass again). Its price is
      // checked first: a refused record must not close the open candle nor open one (the exact path
      // takes a record this check stops at; once per candle, in a call of its own off the per-trade loop)
      if (!this.opensCandle(P[i] as number)) break
      this.nextCandle(T[i] as number, ns, P[i] as number, hiI, loI, closeI, volLo, valLo, count, lastPU, runVol)
      end = this.cEnd
      openIdx = i
      lastX = Number.NaN
      runVol = 0
      hiU = Number.NEGATIVE_INFINITY
      loU = Number.POSITIVE_INFINITY
      volLo = valLo = count = 0
      hiI = loI = closeI = -1
    }
    this.seen += i - from
    this.last = last
    if (this.has) {
      this.keep(hiI, loI, closeI, hiU, loU, volLo, valLo, count)
      this.addRun(lastPU, runVol)
      if (count >= lim) this.closeCandle()
    }
    return i
  }

  /** True when a price can open a candle on the fast path (its units at the current scale are exact and below 2^52). */
  private opensCandle(x: DecimalInput): boolean {
    return this.ps <= 22 && Math.abs(CandleAggregator.unitsFast(x, this.ps, POW10[this.ps] as number)) < UNITS_LIMIT
  }

  /**
   * Fused validate + convert + aggregate loop over trade objects[from, n) at the current scales (the
   * object twin of {@link fastColumns}); returns the index of the first record it cannot take.
   */
  private fastObjects(c: ArrayLike<Trade>, from: number, n: number): number {
    const ps = this.ps
    const vs = this.vs
    if (ps > 22 || vs > 22) return from
    const PP = POW10[ps] as number
    const VP = POW10[vs] as number
    const mask = this.mask
    const lim = this.tick ? this.perTick : Number.POSITIVE_INFINITY
    this.setSource(2, c, 0)
    let last = this.last
    let end = this.cEnd
    let hiU = this.hiU
    let loU = this.loU
    let volLo = this.volLo
    let valLo = this.valLo
    let count = this.count
    let hiI = -1
    let loI = -1
    let closeI = -1
    let lastX: DecimalInput = Number.NaN
    let lastPU = 0
    let lastV: DecimalInput = Number.NaN
    let lastVU = 0
    let runVol = 0
    let i = from
    for (;;) {
      let next = false
      let ns = 0
      for (; i < n; i++) {
        const tr = c[i] as Trade
        if (typeof tr !== 'object' || tr === null) break
        const t = tr.time
        if (typeof t !== 'number' || !(t >= last) || t > MAX_TIME || t < -MAX_TIME || Math.floor(t) !== t) break
        const sd = tr.side
        if (sd !== 'buy' && sd !== 'sell') break
        const se = tr.session
        const s = se === undefined || se === 'MAINSESSION' ? 0 : se === 'PRE_MARKET' ? 1 : se === 'POST_MARKET' ? 2 : 3
        if (s === 3) break
        const v = tr.volume
        let vu: number
        if (v === lastV) vu = lastVU
        else {
          if (typeof v === 'string') vu = stringToUnits(v, vs)
          else if (typeof v === 'number') {
            vu = Math.round(v * VP)
            if (vu / VP !== v) vu = Number.NaN
          } else break
          if (!(vu < UNITS_LIMIT && vu >= 0)) break
          lastV = v
          lastVU = vu
        }
        const x = tr.price
        if (((mask >> s) & 1) === 0) {
          // another session's trade: validated, not taken
          if (x !== lastX && !(Math.abs(CandleAggregator.unitsFast(x, ps, PP)) < UNITS_LIMIT)) break
          last = t
          continue
        }
        if (t >= end || count >= lim) {
          next = true
          ns = s
          break
        }
        // as in fastColumns: a price is converted and compared only when it changes; value per run of one price
        if (x !== lastX) {
          const u = CandleAggregator.unitsFast(x, ps, PP)
          if (!(u < UNITS_LIMIT && u > -UNITS_LIMIT)) break
          if (runVol !== 0) {
            const pv = lastPU * runVol
            if (pv < UNITS_LIMIT && pv > -UNITS_LIMIT) {
              valLo += pv
              if (valLo > UNITS_LIMIT || valLo < -UNITS_LIMIT) {
                this.valHi += BigInt(valLo)
                valLo = 0
              }
            } else this.valHi += BigInt(lastPU) * BigInt(runVol)
            volLo += runVol
            if (volLo > UNITS_LIMIT) {
              this.volHi += BigInt(volLo)
              volLo = 0
            }
            runVol = 0
          }
          lastX = x
          lastPU = u
          if (u > hiU) {
            hiU = u
            hiI = i
          }
          if (u < loU) {
            loU = u
            loI = i
          }
        }
        last = t
        runVol += vu
        if (runVol > UNITS_LIMIT) {
          this.valHi += BigInt(lastPU) * BigInt(runVol)
          this.volHi += BigInt(runVol)
          runVol = 0
        }
        closeI = i
        count++
      }
      if (!next) break
      const tr = c[i] as Trade
      // as in fastColumns: a record that opens a new candle has its price checked first (the exact path
      // takes a record this check refuses; a call of its own keeps the per-trade loop as it was)
      if (!this.opensCandle(tr.price)) break
      this.nextCandle(tr.time, ns, tr.price, hiI, loI, closeI, volLo, valLo, count, lastPU, runVol)
      end = this.cEnd
      lastX = Number.NaN
      runVol = 0
      hiU = Number.NEGATIVE_INFINITY
      loU = Number.POSITIVE_INFINITY
      volLo = valLo = count = 0
      hiI = loI = closeI = -1
    }
    this.seen += i - from
    this.last = last
    if (this.has) {
      this.keep(hiI, loI, closeI, hiU, loU, volLo, valLo, count)
      this.addRun(lastPU, runVol)
      if (count >= lim) this.closeCandle()
    }
    return i
  }

  /**
   * Fused validate + convert + aggregate loop over candle columns[from, n) at the current scales; stops
   * at the first candle it cannot take exactly on the fast path and returns its index. Prices stay
   * doubles: double order is decimal order, and below 2^52 units the double of hiU / 10^ps stands for
   * exactly that decimal (the 2^52 printing bound), so only the extremes still open at the end become
   * units. Volume, value and trades are summed exactly in units.
   */
  private fastCandleColumns(c: CandleColumns, from: number, n: number, cleanSessions = false): number {
    const ps = this.ps
    const vs = this.vs
    const xs = this.xs
    if (ps > 22 || vs > 22 || xs > 22) return from
    if (this.has && (isBig(this.hiU) || isBig(this.loU))) return from
    const PP = POW10[ps] as number
    const VP = POW10[vs] as number
    const XP = POW10[xs] as number
    const T = c.time
    const O = c.open
    const H = c.high
    const Lw = c.low
    const C = c.close
    const V = c.volume
    const X = c.value
    const NT = c.trades
    const SS = c.session
    const hasX = X !== undefined
    const hasN = NT !== undefined
    const hasS = SS !== undefined
    const mask = this.mask
    const MAXV = Number.MAX_VALUE
    this.setSource(3, c, 0)
    let last = this.last
    let end = this.cEnd
    let hiX = this.has ? this.hiU / PP : Number.NEGATIVE_INFINITY
    let loX = this.has ? this.loU / PP : Number.POSITIVE_INFINITY
    let volLo = this.volLo
    let valLo = this.valLo
    let count = this.count
    let hiI = -1
    let loI = -1
    let closeI = -1
    // the index of the candle that opened the open bucket in this call (-1: opened before): only such a
    // bucket, all in these columns, may candleRun close itself and step on to the next ones
    let openIdx = -1
    const st = this.scratch
    const b = this.bucketer
    let i = from
    for (;;) {
      let next = false
      let ns = 0
      for (; i < n; i++) {
        // the common candle runs in the tight loop of candleRun; the body below takes any other, one at a time
        st[C_PREV_TIME] = last < -MAX_TIME ? -MAX_TIME : last
        st[C_END] = Math.min(end, MAX_TIME + 1)
        st[C_HIGH] = hiX
        st[C_LOW] = loX
        st[C_VOLUME] = volLo
        st[C_VALUE] = valLo
        st[C_COUNT] = count
        st[C_LEN] = 0
        if (openIdx >= 0 && this.volHi === 0n && this.valHi === 0n && b !== undefined && b.dayGrid(st, C_DAY)) {
          st[C_START] = this.cTime
          st[C_OPEN] = openIdx
          st[C_SESSION] = this.cSession
          st[C_CLOSE_AT] = closeI
        }
        st[C_CLOSED] = 0
        const j = candleRun(c, i, n, mask, VP, XP, st, cleanSessions, (this.rec ??= new Float64Array(REC_CAP * REC)))
        if (j > i) {
          last = st[C_PREV_TIME] as number
          volLo = st[C_VOLUME] as number
          valLo = st[C_VALUE] as number
          count = st[C_COUNT] as number
          if ((st[C_HIGH_AT] as number) >= 0) {
            hiX = st[C_HIGH] as number
            hiI = st[C_HIGH_AT] as number
          }
          if ((st[C_LOW_AT] as number) >= 0) {
            loX = st[C_LOW] as number
            loI = st[C_LOW_AT] as number
          }
          closeI = st[C_CLOSE_AT] as number
          const k = st[C_CLOSED] as number
          if (k > 0) {
            // candleRun closed k buckets and opened the one now open: their candles, then its state
            end = st[C_END] as number
            const start = st[C_START] as number
            const session = st[C_SESSION] as number
            openIdx = st[C_OPEN] as number
            this.closeRecords(c, k, hasX, hasN)
            this.cTime = start
            this.cEnd = end
            this.openRaw = O[openIdx] as number
            this.cSession = session
            this.has = true
            this.hiU = Number.NEGATIVE_INFINITY
            this.loU = Number.POSITIVE_INFINITY
            this.noValue = false
            this.noTrades = false
          }
          i = j
          if (i >= n) break
        }
        const t = T[i] as number
        if (!(t >= last) || t > MAX_TIME || t < -MAX_TIME || Math.floor(t) !== t) break
        const s = hasS ? (SS[i] as number) : 0
        if (s > 2) break
        let nt = 0
        if (hasN) {
          nt = NT[i] as number
          if (!(nt >= 0 && nt <= 9007199254740991) || Math.floor(nt) !== nt) break
        }
        const o = O[i] as number
        const h = H[i] as number
        const l = Lw[i] as number
        const cl = C[i] as number
        if (!(l <= o && l <= cl && o <= h && cl <= h && h <= MAXV && l >= -MAXV)) break
        const v = V[i] as number
        const vu = Math.round(v * VP)
        if (vu / VP !== v || !(vu < UNITS_LIMIT && vu >= 0)) break
        let xu = 0
        if (hasX) {
          const x = X[i] as number
          xu = Math.round(x * XP)
          if (xu / XP !== x || !(xu < UNITS_LIMIT && xu > -UNITS_LIMIT)) break
        }
        // a trade count the open candle cannot hold exactly: the exact path refuses it
        if (t < end && count + nt > 9007199254740991) break
        last = t
        if (((mask >> s) & 1) === 0) continue
        if (t >= end) {
          next = true
          ns = s
          break
        }
        if (h > hiX) {
          hiX = h
          hiI = i
        }
        if (l < loX) {
          loX = l
          loI = i
        }
        closeI = i
        volLo += vu
        if (volLo > UNITS_LIMIT) {
          this.volHi += BigInt(volLo)
          volLo = 0
        }
        valLo += xu
        if (valLo > UNITS_LIMIT || valLo < -UNITS_LIMIT) {
          this.valHi += BigInt(valLo)
          valLo = 0
        }
        count += nt
      }
      if (!next) break
      if (closeI >= 0) this.missingColumns(hasX, hasN)
      if (this.has && hiI >= 0 && loI >= 0 && closeI >= 0) {
        // this loop saw the open candle's extremes and close: it closes from these values (through the
        // scratch array: double arguments of a call would be boxed), the spellings being the doubles
        st[S_HIGH] = hiX
        st[S_LOW] = loX
        st[S_CLOSE] = C[closeI] as number
        st[S_VOLUME] = volLo
        st[S_VALUE] = valLo
        st[S_COUNT] = count
        this.closeFromScratch()
      }
      this.nextCandle(T[i] as number, ns, O[i] as number, hiI, loI, closeI, volLo, valLo, count)
      end = this.cEnd
      openIdx = i
      hiX = Number.NEGATIVE_INFINITY
      loX = Number.POSITIVE_INFINITY
      volLo = valLo = count = 0
      hiI = loI = closeI = -1
    }
    this.seen += i - from
    this.last = last
    if (this.has) {
      if (closeI >= 0) this.missingColumns(hasX, hasN)
      this.keep(hiI, loI, closeI, this.hiU, this.loU, volLo, valLo, count)
      if (hiI >= 0 || loI >= 0) this.extremeUnits(hiI >= 0, loI >= 0, PP)
    }
    return i
  }

  /**
   * Closes the k candles cleanCandleRun closed itself, in order, from its records (see REC): each was
   * opened by a trade of these columns and holds only their trades, with sums below 2^52 (no bigint part).
   * The same candles as {@link snapshot}: prices spelled from the trades' numbers, sums from their units
   * (with columns out, the numbers themselves go into the columns).
   * With `onCandle`, every candle is made before the first call (callbacks may not feed the aggregator,
   * and a callback that throws leaves the rest unsent, as the per-candle path does).
   */
  private closeTradeRecords(P: Float64Array, k: number): void {
    const r = this.rec as Float64Array
    const pc = this.priceStrings
    const ps = this.ps
    const grid = this.gridDecimals
    const vs = this.vs
    const xs = this.xs
    if (this.colOut !== undefined) {
      // columns out: the records go straight into the columns, prices read from the trades' numbers
      this.colOut.writeRecords(r, k, REC, P, P, vs, xs, P)
      return
    }
    const cb = this.onCandle
    const made: Candle[] = cb === undefined ? this.closed : []
    for (let q = 0, at = 0; q < k; q++, at += REC) {
      const c: Candle = {
        time: r[at + REC_START] as number,
        open: pc.number(P[r[at + REC_OPEN_AT] as number] as number, ps, grid),
        high: pc.number(P[r[at + REC_HIGH] as number] as number, ps, grid),
        low: pc.number(P[r[at + REC_LOW] as number] as number, ps, grid),
        close: pc.number(P[r[at + REC_CLOSE_AT] as number] as number, ps, grid),
        volume: unitsText(r[at + REC_VOLUME] as number, vs),
        value: unitsText(r[at + REC_VALUE] as number, xs),
        trades: r[at + REC_TRADES] as number,
        session: SESSION_NAMES[r[at + REC_SESSION] as number] as SessionType,
      }
      made.push(c)
    }
    if (cb !== undefined) for (const c of made) this.emit(c)
  }

  /** Hands a closed candle to `onCandle` (no candle is open meanwhile, and feeding is refused), else queues it. */
  private emit(c: Candle): void {
    const cb = this.onCandle
    if (cb === undefined) {
      this.closed.push(c)
      return
    }
    this.emitting = true
    try {
      cb(c)
    } finally {
      this.emitting = false
    }
  }

  /** Refuses a call that feeds the aggregator from inside its own `onCandle`: the loop that called it is mid-way. */
  private feed(): void {
    if (this.emitting) throw new MarketDataError('invalid_option', CANDLE_MSG.reentrant(), { field: 'onCandle' })
  }

  /**
   * Closes the k buckets candleRun closed itself, in order, from its records (see REC): each was opened
   * by a candle of these columns and holds only their candles, with sums below 2^52.
   */
  private closeRecords(c: CandleColumns, k: number, hasX: boolean, hasN: boolean): void {
    const r = this.rec as Float64Array
    const O = c.open
    const C = c.close
    if (this.colOut !== undefined) {
      // columns out: the records go straight into the columns (what closeFromScratch would write for each)
      this.colOut.writeRecords(r, k, REC, O, C, this.vs, this.xs)
      this.has = false
      this.cEnd = Number.NEGATIVE_INFINITY
      return
    }
    const st = this.scratch
    for (let q = 0; q < k; q++) {
      const at = q * REC
      this.cTime = r[at + REC_START] as number
      this.openRaw = O[r[at + REC_OPEN_AT] as number] as number
      this.cSession = r[at + REC_SESSION] as number
      this.has = true
      this.noValue = !hasX
      this.noTrades = !hasN
      st[S_HIGH] = r[at + REC_HIGH] as number
      st[S_LOW] = r[at + REC_LOW] as number
      st[S_CLOSE] = C[r[at + REC_CLOSE_AT] as number] as number
      st[S_VOLUME] = r[at + REC_VOLUME] as number
      st[S_VALUE] = r[at + REC_VALUE] as number
      st[S_COUNT] = r[at + REC_TRADES] as number
      this.closeFromScratch()
    }
  }

  /** The open candle took records without a value / trades column: it has no value / trades. */
  private missingColumns(hasValue: boolean, hasTrades: boolean): void {
    if (!hasValue) this.noValue = true
    if (!hasTrades) this.noTrades = true
  }

  /** hiU / loU (units at ps) of the open candle's numeric high / low spellings, exactly (the scale grows when needed). */
  private extremeUnits(hi: boolean, lo: boolean, PP: number): void {
    let exact = true
    if (hi) {
      const h = this.hiRaw as number
      const u = Math.round(h * PP)
      if (u / PP === h && u < UNITS_LIMIT && u > -UNITS_LIMIT) this.hiU = u
      else exact = false
    }
    if (lo) {
      const l = this.loRaw as number
      const u = Math.round(l * PP)
      if (u / PP === l && u < UNITS_LIMIT && u > -UNITS_LIMIT) this.loU = u
      else exact = false
    }
    if (exact) return
    let ps = this.ps
    for (const x of [this.hiRaw, this.loRaw]) {
      const d = parseDataDecimal(x)
      if (d.ok && d.value.scale > ps) ps = d.value.scale
    }
    if (ps !== this.ps) this.rescale(ps, this.vs, this.xs)
    const h = unitsOf(this.hiRaw, ps)
    const l = unitsOf(this.loRaw, ps)
    this.hiU = h.u
    this.hiB = h.b
    this.loU = l.u
    this.loB = l.b
  }

  /** Units of a decimal input at scale (fast path only): NaN when it does not convert exactly below 2^52. */
  private static unitsFast(x: unknown, scale: number, P: number): number {
    if (typeof x === 'string') return stringToUnits(x, scale)
    if (typeof x === 'number') {
      const u = Math.round(x * P)
      return u / P === x && u < UNITS_LIMIT && u > -UNITS_LIMIT ? u : Number.NaN
    }
    return Number.NaN
  }

  /**
   * Fused validate + convert + aggregate loop over candle objects[from, n) at the current scales;
   * returns the index of the first candle it cannot take (it then goes alone through the exact path).
   */
  private fastCandleObjects(c: ArrayLike<CandleInput>, from: number, n: number): number {
    const ps = this.ps
    const vs = this.vs
    const xs = this.xs
    if (ps > 22 || vs > 22 || xs > 22) return from
    const PP = POW10[ps] as number
    const VP = POW10[vs] as number
    const XP = POW10[xs] as number
    const mask = this.mask
    const conv = CandleAggregator.unitsFast
    this.setSource(4, c, 0)
    let last = this.last
    let end = this.cEnd
    let hiU = this.hiU
    let loU = this.loU
    let volLo = this.volLo
    let valLo = this.valLo
    let count = this.count
    let hiI = -1
    let loI = -1
    let closeI = -1
    let i = from
    // one loop with the candle change inline: re-reading a record's six decimal strings would cost more than the call
    for (; i < n; i++) {
      const cd = c[i] as CandleInput
      if (typeof cd !== 'object' || cd === null) break
      const t = cd.time
      if (typeof t !== 'number' || !(t >= last) || t > MAX_TIME || t < -MAX_TIME || Math.floor(t) !== t) break
      const se = cd.session
      const s = se === undefined || se === 'MAINSESSION' ? 0 : se === 'PRE_MARKET' ? 1 : se === 'POST_MARKET' ? 2 : 3
      if (s === 3) break
      const nt = cd.trades
      if (nt !== undefined && (typeof nt !== 'number' || !(nt >= 0 && nt <= 9007199254740991) || Math.floor(nt) !== nt)) break
      const ou = conv(cd.open, ps, PP)
      const hu = conv(cd.high, ps, PP)
      const lu = conv(cd.low, ps, PP)
      const cu = conv(cd.close, ps, PP)
      if (!(lu <= ou && lu <= cu && ou <= hu && cu <= hu)) break
      const vu = conv(cd.volume, vs, VP)
      if (!(vu >= 0)) break
      const xv = cd.value
      let xu = 0
      if (xv !== undefined) {
        xu = conv(xv, xs, XP)
        if (xu !== xu) break
      }
      // a trade count the open candle cannot hold exactly: the exact path refuses it
      if (nt !== undefined && t < end && count + nt > 9007199254740991) break
      last = t
      if (((mask >> s) & 1) === 0) continue
      if (t >= end) {
        this.nextCandle(t, s, cd.open, hiI, loI, closeI, volLo, valLo, count)
        end = this.cEnd
        hiU = Number.NEGATIVE_INFINITY
        loU = Number.POSITIVE_INFINITY
        volLo = valLo = count = 0
        hiI = loI = closeI = -1
      }
      if (hu > hiU) {
        hiU = hu
        hiI = i
      }
      if (lu < loU) {
        loU = lu
        loI = i
      }
      closeI = i
      volLo += vu
      if (volLo > UNITS_LIMIT) {
        this.volHi += BigInt(volLo)
        volLo = 0
      }
      if (xv !== undefined) {
        valLo += xu
        if (valLo > UNITS_LIMIT || valLo < -UNITS_LIMIT) {
          this.valHi += BigInt(valLo)
          valLo = 0
        }
      } else this.noValue = true
      if (nt !== undefined) count += nt
      else this.noTrades = true
    }
    this.seen += i - from
    this.last = last
    if (this.has) this.keep(hiI, loI, closeI, hiU, loU, volLo, valLo, count)
    return i
  }

  // ---- the exact path: one record at a time, after the fast loop stopped at it ---------------------

  /**
   * The exact path's start of a record (entry i of the chunk, `index` in the stream): order check, session
   * filter, candle change. False when the record's session is filtered out.
   */
  private begin(t: number, s: number, i: number, index: number): boolean {
    if (t < this.last) {
      this.seen = index
      throw this.orderError(t, index)
    }
    this.last = t
    if (((this.mask >> s) & 1) === 0) return false
    if (this.tick ? this.count >= this.perTick || !this.has : t >= this.cEnd) this.nextCandle(t, s, this.raw('open', i), -1, -1, -1, this.volLo, this.valLo, this.count)
    return true
  }

  /** Offers entry i's high in units (`b`: the exact bigint when the units are past 2^52). */
  private offerHigh(u: number, b: bigint | undefined, i: number): void {
    if (b === undefined ? u > this.hiU : isBig(this.hiU) ? b > this.hiB : u > this.hiU) {
      this.hiU = u
      if (b !== undefined) this.hiB = b
      this.hiRaw = this.raw('high', i)
    }
  }

  /** Offers entry i's low in units (`b`: the exact bigint when the units are past 2^52). */
  private offerLow(u: number, b: bigint | undefined, i: number): void {
    if (b === undefined ? u < this.loU : isBig(this.loU) ? b < this.loB : u < this.loU) {
      this.loU = u
      if (b !== undefined) this.loB = b
      this.loRaw = this.raw('low', i)
    }
  }

  /** Adds a run of trades at one price: volume units `vol` (< 2^53) at price units `pu` (|pu| < 2^52). */
  private addRun(pu: number, vol: number): void {
    if (vol === 0) return
    const pv = pu * vol
    if (pv < UNITS_LIMIT && pv > -UNITS_LIMIT) this.addValue(pv)
    else this.addValue(0, BigInt(pu) * BigInt(vol))
    this.addVolume(vol)
  }

  /** Adds volume units (a number below 2^52, or the exact bigint). */
  private addVolume(u: number, b?: bigint): void {
    if (b !== undefined) this.volHi += b
    else {
      const v = this.volLo + u
      if (v > UNITS_LIMIT) {
        this.volHi += BigInt(v)
        this.volLo = 0
      } else this.volLo = v
    }
  }

  /** Adds value units (a number below 2^52 in magnitude, or the exact bigint). */
  private addValue(u: number, b?: bigint): void {
    if (b !== undefined) this.valHi += b
    else {
      const x = this.valLo + u
      if (x > UNITS_LIMIT || x < -UNITS_LIMIT) {
        this.valHi += BigInt(x)
        this.valLo = 0
      } else this.valLo = x
    }
  }

  /**
   * The exact path over the reader's chunk. A volume finer than the fast sums take (more than
   * MAX_FAST_VOLUME_SCALE decimals, past the aggregator's scale) is summed apart at its own scale
   * (`fineVol` / `fineVal`) and the reader goes back to the aggregator's scale: the record costs only
   * itself, the later trades stay on the fast loops (decision 0143).
   */
  private consumeTrades(r: ScaledTradeReader, k: number): void {
    const fine = r.volumeScale > this.vs && r.volumeScale > MAX_FAST_VOLUME_SCALE
    const vs = fine ? this.vs : r.volumeScale
    try {
      if (r.priceScale !== this.ps || vs !== this.vs) this.rescale(r.priceScale, vs, r.priceScale + vs)
      if (fine) this.consumeFine(r, k)
      else this.consumeScaled(r, k)
    } finally {
      if (fine) r.volumeScale = this.vs
    }
    if (this.tick && this.has && this.count >= this.perTick) this.closeCandle()
  }

  /** {@link consumeTrades} for a chunk whose volumes are finer than the aggregator's scale: exact, apart. */
  private consumeFine(r: ScaledTradeReader, k: number): void {
    const base = this.seen
    const fs = r.volumeScale
    for (let i = 0; i < k; i++) {
      if (!this.begin(r.time[i] as number, r.session[i] as number, i, base + i)) continue
      const pb = r.priceBig(i)
      const pa = r.price[i] as number
      if (pa === pa) {
        this.offerHigh(pa, undefined, i)
        this.offerLow(pa, undefined, i)
      } else {
        const pu = bigUnits(pb)
        this.offerHigh(pu, pb, i)
        this.offerLow(pu, pb, i)
      }
      const vb = r.volumeBig(i)
      this.fineVol = addFine(this.fineVol, vb, fs)
      this.fineVal = addFine(this.fineVal, pb * vb, this.ps + fs)
      this.closeRaw = this.raw('close', i)
      this.count++
    }
    this.seen = base + k
  }

  /** {@link consumeTrades} at the aggregator's scales. */
  private consumeScaled(r: ScaledTradeReader, k: number): void {
    const base = this.seen
    for (let i = 0; i < k; i++) {
      if (!this.begin(r.time[i] as number, r.session[i] as number, i, base + i)) continue
      const p = r.price[i] as number
      const v = r.volume[i] as number
      if (p === p) {
        this.offerHigh(p, undefined, i)
        this.offerLow(p, undefined, i)
        if (v === v) {
          const x = p * v
          if (x < UNITS_LIMIT && x > -UNITS_LIMIT) this.addValue(x)
          else this.addValue(0, BigInt(p) * BigInt(v))
          this.addVolume(v)
        } else {
          const vb = r.volumeBig(i)
          this.addValue(0, BigInt(p) * vb)
          this.addVolume(0, vb)
        }
      } else {
        const pb = r.priceBig(i)
        const pa = bigUnits(pb)
        this.offerHigh(pa, pb, i)
        this.offerLow(pa, pb, i)
        const vb = r.volumeBig(i)
        this.addValue(0, pb * vb)
        this.addVolume(0, vb)
      }
      this.closeRaw = this.raw('close', i)
      this.count++
    }
    this.seen = base + k
  }

  // ---- candles in (resampling) -----------------------------------------------------------------

  private candleFail(index: number, field: string, msg: string, code: 'invalid_decimal' | 'invalid_volume' | 'invalid_time' | 'invalid_session' | 'invalid_option' = 'invalid_decimal'): never {
    throw new MarketDataError(code, msg, { index, field })
  }

  private readCandleObjects(candles: ArrayLike<CandleInput>, from: number, k: number): void {
    const c = this.cols as NonNullable<CandleAggregator['cols']>
    const base = this.seen
    for (let i = 0; i < k; i++) {
      const x = candles[from + i] as CandleInput
      if (typeof x !== 'object' || x === null) this.candleFail(base + i, 'candle', CANDLE_MSG.notCandle(x), 'invalid_option')
      const t = x.time
      if (typeof t !== 'number' || !(t >= -MAX_TIME && t <= MAX_TIME) || Math.floor(t) !== t) this.candleFail(base + i, 'time', CANDLE_MSG.time(t), 'invalid_time')
      c.t[i] = t
      const se = x.session
      const s = se === undefined || se === 'MAINSESSION' ? 0 : se === 'PRE_MARKET' ? 1 : se === 'POST_MARKET' ? 2 : -1
      if (s < 0) this.candleFail(base + i, 'session', CANDLE_MSG.session(se), 'invalid_session')
      c.s[i] = s
      const tr = x.trades
      if (tr === undefined) c.hasTrades[i] = 0
      else {
        if (typeof tr !== 'number' || !Number.isSafeInteger(tr) || tr < 0) this.candleFail(base + i, 'trades', CANDLE_MSG.trades(tr), 'invalid_option')
        c.hasTrades[i] = 1
        c.n[i] = tr
      }
      c.hasValue[i] = x.value === undefined ? 0 : 1
    }
    const fail = (f: string, vol = false) => (i: number): never => this.candleFail(base + i, f, vol ? CANDLE_MSG.volume(f, (candles[from + i] as CandleInput)[f as 'volume']) : CANDLE_MSG.price(f, (candles[from + i] as CandleInput)[f as 'open']), vol ? 'invalid_volume' : 'invalid_decimal')
    c.o.fromObjects(candles, from, k, 'open', false, false, fail('open'))
    c.h.fromObjects(candles, from, k, 'high', false, false, fail('high'))
    c.l.fromObjects(candles, from, k, 'low', false, false, fail('low'))
    c.c.fromObjects(candles, from, k, 'close', false, false, fail('close'))
    c.v.fromObjects(candles, from, k, 'volume', false, true, fail('volume', true))
    c.x.fromObjects(candles, from, k, 'value', true, false, fail('value'))
    this.unifyCandleScales()
  }

  private readCandleColumnChunk(cc: CandleColumns, from: number, k: number): void {
    const c = this.cols as NonNullable<CandleAggregator['cols']>
    const base = this.seen
    const T = cc.time
    const S = cc.session
    const N = cc.trades
    for (let i = 0; i < k; i++) {
      const t = T[from + i] as number
      if (!(t >= -MAX_TIME && t <= MAX_TIME) || Math.floor(t) !== t) this.candleFail(base + i, 'time', CANDLE_MSG.time(t), 'invalid_time')
      c.t[i] = t
      const s = S === undefined ? 0 : (S[from + i] as number)
      if (s > 2) this.candleFail(base + i, 'session', CANDLE_MSG.session(s), 'invalid_session')
      c.s[i] = s
      if (N !== undefined) {
        const n = N[from + i] as number
        if (!(n >= 0) || !Number.isSafeInteger(n)) this.candleFail(base + i, 'trades', CANDLE_MSG.trades(n), 'invalid_option')
        c.n[i] = n
      }
    }
    c.hasTrades.fill(N === undefined ? 0 : 1, 0, k)
    c.hasValue.fill(cc.value === undefined ? 0 : 1, 0, k)
    const fail = (f: string, src: Float64Array, vol = false) => (i: number): never => this.candleFail(base + i, f, vol ? CANDLE_MSG.volume(f, src[from + i]) : CANDLE_MSG.price(f, src[from + i]), vol ? 'invalid_volume' : 'invalid_decimal')
    c.o.fromNumbers(cc.open, from, k, false, fail('open', cc.open))
    c.h.fromNumbers(cc.high, from, k, false, fail('high', cc.high))
    c.l.fromNumbers(cc.low, from, k, false, fail('low', cc.low))
    c.c.fromNumbers(cc.close, from, k, false, fail('close', cc.close))
    c.v.fromNumbers(cc.volume, from, k, true, fail('volume', cc.volume, true))
    if (cc.value !== undefined) c.x.fromNumbers(cc.value, from, k, false, fail('value', cc.value))
    else c.x.out.fill(0, 0, k)
    this.unifyCandleScales()
  }

  private unifyCandleScales(): void {
    const c = this.cols as NonNullable<CandleAggregator['cols']>
    const ps = Math.max(c.o.scale, c.h.scale, c.l.scale, c.c.scale, this.ps) | 0
    c.o.raise(ps)
    c.h.raise(ps)
    c.l.raise(ps)
    c.c.raise(ps)
    c.v.raise(this.vs)
    c.x.raise(this.xs)
    if (ps !== this.ps || c.v.scale !== this.vs || c.x.scale !== this.xs) this.rescale(ps, c.v.scale, c.x.scale)
  }

  /** The exact path over one chunk read into `cols` (one candle: the fast loop stopped at it). */
  private consumeCandles(k: number): void {
    const c = this.cols as NonNullable<CandleAggregator['cols']>
    const base = this.seen
    for (let i = 0; i < k; i++) {
      const t = c.t[i] as number
      if (t < this.last) {
        this.seen = base + i
        throw this.orderError(t, base + i)
      }
      const o = c.o.out[i] as number
      const h = c.h.out[i] as number
      const l = c.l.out[i] as number
      const cl = c.c.out[i] as number
      if (o === o && h === h && l === l && cl === cl) {
        if (!(l <= o && l <= cl && l <= h)) this.candleFail(base + i, 'low', CANDLE_MSG.ohlc('low'))
        if (!(o <= h && cl <= h)) this.candleFail(base + i, 'high', CANDLE_MSG.ohlc('high'))
      } else {
        const ob = c.o.bigAt(i)
        const hb = c.h.bigAt(i)
        const lb = c.l.bigAt(i)
        const cb = c.c.bigAt(i)
        if (!(lb <= ob && lb <= cb && lb <= hb)) this.candleFail(base + i, 'low', CANDLE_MSG.ohlc('low'))
        if (!(ob <= hb && cb <= hb)) this.candleFail(base + i, 'high', CANDLE_MSG.ohlc('high'))
      }
      const s = c.s[i] as number
      if (c.hasTrades[i] !== 0 && ((this.mask >> s) & 1) === 1) {
        // the trades count is checked before the candle changes (a refused record changes nothing)
        const opens = this.tick ? this.count >= this.perTick || !this.has : t >= this.cEnd
        if ((opens ? 0 : this.count) + (c.n[i] as number) > Number.MAX_SAFE_INTEGER) {
          this.seen = base + i
          throw new MarketDataError('inexact', CANDLE_MSG.tradesCount(opens ? c.t[i] as number : this.cTime), { index: base + i, field: 'trades' })
        }
      }
      if (!this.begin(t, s, i, base + i)) continue
      if (h === h) this.offerHigh(h, undefined, i)
      else {
        const hb = c.h.bigAt(i)
        this.offerHigh(bigUnits(hb), hb, i)
      }
      if (l === l) this.offerLow(l, undefined, i)
      else {
        const lb = c.l.bigAt(i)
        this.offerLow(bigUnits(lb), lb, i)
      }
      this.closeRaw = this.raw('close', i)
      const v = c.v.out[i] as number
      if (v === v) this.addVolume(v)
      else this.addVolume(0, c.v.bigAt(i))
      if (c.hasValue[i] === 0) this.noValue = true
      else {
        const x = c.x.out[i] as number
        if (x === x) this.addValue(x)
        else this.addValue(0, c.x.bigAt(i))
      }
      if (c.hasTrades[i] === 0) this.noTrades = true
      else {
        this.count += c.n[i] as number
      }
    }
    this.seen = base + k
  }
}


/** The times of candle objects[from, to), read without throwing (NaN for one that cannot be read: the aggregator refuses it). */
function candleTimes(candles: ArrayLike<CandleInput>, from: number, to: number): Float64Array {
  const out = new Float64Array(to - from)
  for (let i = from; i < to; i++) {
    try {
      const c = candles[i]
      const t = typeof c === 'object' && c !== null ? c.time : Number.NaN
      out[i - from] = typeof t === 'number' ? t : Number.NaN
    } catch {
      out[i - from] = Number.NaN
    }
  }
  return out
}

/** A price spelling of column input (always a number there) as a number. */
const priceNumber = (x: DecimalInput): number => (typeof x === 'number' ? x : exactDouble(x))

/**
 * Makes `agg` write each closed candle to `out` (numbers) instead of queueing `Candle` objects: the
 * engine of `resampleCandleColumns` and `candleColumnsFromTrades`. Internal (not exported from the package).
 */
export function writeColumnsTo(agg: CandleAggregator, out: ColumnOut): void {
  agg['colOut'] = out
}

/**
 * Creates a streaming candle aggregator (the {@link Aggregator} contract, docs/streaming.md). Feed trades
 * with `add` / `addTrades` / `addColumns` (or candles with `addCandle` / `addCandles` / `addCandleColumns`
 * to resample a stream); closed candles are handed to `onCandle` or queue until `advance(T)` (or `take()`)
 * returns them, as soon as a record (or `advance(T)`) passes their end; `snapshot()` / `current()` is the
 * open candle so far; `flush()` closes it. `checkpoint()` + `restore` continue a stream after a restart.
 *
 * @param opts - the frame and options of {@link candlesFromTrades}, plus `onCandle`, `maxTime`, `restore`
 * @returns the aggregator
 * @throws MarketDataError `invalid_option` for a bad option or a refused `restore` state (naming the field)
 *
 * @param opts - options, see {@link CandleAggregatorOptions}
 * @returns the `CandleAggregator`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * const agg = createCandleAggregator({ timeframe: '1m' })
 * agg.add({ time: Date.UTC(2026, 4, 29, 10, 0, 5), price: '5000.25', volume: '2', side: 'buy' })
 * agg.advance(Date.UTC(2026, 4, 29, 10, 1)) // [{ time: ..., open: '5000.25', ..., volume: '2', value: '10000.5', trades: 1, session: 'MAINSESSION' }]
 */
export function createCandleAggregator(opts: CandleAggregatorOptions): CandleAggregator {
  return new CandleAggregator(opts)
}
