// The streaming candle aggregator: the public face (the shared Aggregator contract) over one CandleEngine.
// Records go to the readers (read-*.ts), closed candles to the engine's sink; checkpoint / restore go
// through checkpoint.ts.
import { withApplied } from '../_lib/applied.js'
import { openCheckpoint, sealCheckpoint } from '../_lib/checkpoint.js'
import { checkOptions } from '../_lib/closed-options.js'
import { firstPastInRecords, isAdvanceTime, pastMaxTime, recordPast } from '../_lib/max-time.js'
import type { Aggregator, AggregatorCheckpoint } from '../aggregator.js'
import { MarketDataError } from '../errors.js'
import type { Bucketer, Timeframe } from '../time/index.js'
import { type Trade, type TradeArraySink, type TradeColumns, createScaledTradeReader } from '../trades/index.js'
import { closeCandle, snapshotOne } from './candle-out.js'
import { type OpenCandleState, readCandleState, writeCandleState } from './checkpoint.js'
import { checkCandleState } from './state-checks.js'
import { checkCandleColumns, checkTradeColumns } from './column-checks.js'
import { choosingKind, closeStream, columnBatch, feed, tradeReader } from './engine-ops.js'
import { CHUNK, CandleEngine, SOURCE_TRADE_OBJECTS } from './engine.js'
import { consumeTrades } from './exact-trades.js'
import { CANDLE_MSG } from './messages.js'
import { setSource, unitsOf } from './open-candle.js'
import { AGGREGATOR_OPTION_KEYS, type CandleAggregatorOptions } from './options.js'
import { candleColumnsIn } from './read-candle-columns.js'
import { candlesIn } from './read-candle-objects.js'
import { tradeColumnsIn } from './read-trade-columns.js'
import { fastTradeObjects, tradeObjectRun } from './read-trade-objects.js'
import type { Candle, CandleColumns, CandleInput } from './types.js'

export type { CandleAggregatorOptions } from './options.js'

/**
 * Streaming candle builder: trades (or candles, for resampling) in time order in, candles out. One
 * aggregator takes either trades (`add`, `addColumns`, `addTrades`) or candles (`addCandle`,
 * `addCandleColumns`, `addCandles`). Records must come in non-decreasing time order; the error names
 * the record's index in the whole stream.
 */
export class CandleAggregator implements TradeArraySink, Aggregator<Trade, Candle> {
  readonly timeframe: Timeframe
  private readonly e: CandleEngine
  /** The options that shape the output, as a checkpoint holds them. */
  private readonly optionsKey: Record<string, unknown>

  constructor(opts: CandleAggregatorOptions) {
    if (typeof opts !== 'object' || opts === null)
      throw new MarketDataError('invalid_option', 'options: expected an object with a timeframe', { field: 'options' })
    checkOptions(opts, AGGREGATOR_OPTION_KEYS, 'createCandleAggregator')
    this.e = new CandleEngine(opts)
    const tf = (this.timeframe = this.e.timeframe)
    this.optionsKey = {
      timeframe: `${tf.count} ${tf.unit}`,
      timeZone: opts.timeZone ?? 'UTC',
      sessions: this.e.mask,
      priceDecimals: this.e.gridDecimals ?? null,
    }
    if (opts.restore !== undefined) this.restoreFrom(opts.restore)
  }

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
    feed(this.e)
    this.e.settleMid()
    const open: OpenCandleState | undefined = this.e.has
      ? {
          time: this.e.cTime,
          session: this.e.cSession,
          openRaw: this.e.openRaw,
          extremes: this.e.hiU !== Number.NEGATIVE_INFINITY,
          hiRaw: this.e.hiRaw,
          loRaw: this.e.loRaw,
          closeRaw: this.e.closeRaw,
          count: this.e.count,
          volLo: this.e.volLo,
          volHi: this.e.volHi,
          valLo: this.e.valLo,
          valHi: this.e.valHi,
          noValue: this.e.noValue,
          noTrades: this.e.noTrades,
          fineVol: this.e.fineVol,
          fineVal: this.e.fineVal,
        }
      : undefined
    const state = writeCandleState({
      mode: this.e.mode,
      seen: this.e.seen,
      floor: this.e.floor,
      ps: this.e.ps,
      vs: this.e.vs,
      xs: this.e.xs,
      open,
      closed: this.e.closed,
      nesting: this.e.nesting?.save(),
    })
    return sealCheckpoint('candles', this.optionsKey, this.e.last, state)
  }

  /** Takes a checkpoint's state (validated first: nothing is set unless all of it is valid). */
  private restoreFrom(x: unknown): void {
    const { watermark, state } = openCheckpoint(x, 'candles', this.optionsKey)
    const s = readCandleState(state, watermark)
    if (s.nesting !== undefined && this.e.nesting === undefined)
      state.fail('nesting', 'null (a tick frame has no nesting rule)', state.raw('nesting'))
    const o = s.open
    let end = Number.POSITIVE_INFINITY
    if (o !== undefined && !this.e.tick) {
      const b = this.e.bucketer as Bucketer
      if (b.locate(o.time) !== o.time)
        state.obj('open').fail('time', `the start of a ${this.e.timeframe.id ?? 'timeframe'} bucket`, o.time)
      end = b.end
    }
    this.e.mode = s.mode
    this.e.seen = s.seen
    this.e.last = watermark
    this.e.floor = s.floor
    this.e.ps = s.ps
    this.e.vs = s.vs
    this.e.xs = s.xs
    if (s.mode === 1) this.e.reader = createScaledTradeReader({ chunkSize: CHUNK, priceScale: s.ps, volumeScale: s.vs })
    this.e.closed = s.closed
    if (s.nesting !== undefined) this.e.nesting?.restore(s.nesting)
    if (o !== undefined) this.restoreOpen(o, s.ps, end)
    // what the state means: an aggregator is returned only for a state some stream could have produced
    checkCandleState(state, this.e, {
      tick: this.e.tick,
      perTick: this.e.perTick,
      mask: this.e.mask,
      bucketer: this.e.tick ? undefined : (this.e.bucketer as Bucketer),
    })
  }

  /** Sets the open candle of a restored state. */
  private restoreOpen(o: OpenCandleState, ps: number, end: number): void {
    this.e.has = true
    this.e.cTime = o.time
    this.e.cEnd = end
    this.e.cSession = o.session
    this.e.openRaw = o.openRaw
    this.e.hiRaw = o.hiRaw
    this.e.loRaw = o.loRaw
    this.e.closeRaw = o.closeRaw
    if (o.extremes) {
      const h = unitsOf(o.hiRaw, ps)
      const l = unitsOf(o.loRaw, ps)
      this.e.hiU = h.u
      this.e.hiB = h.b
      this.e.loU = l.u
      this.e.loB = l.b
    }
    this.e.count = o.count
    this.e.volLo = o.volLo
    this.e.volHi = o.volHi
    this.e.valLo = o.valLo
    this.e.valHi = o.valHi
    this.e.valMid = 0
    this.e.noValue = o.noValue
    this.e.noTrades = o.noTrades
    this.e.fineVol = o.fineVol
    this.e.fineVal = o.fineVal
  }

  /** Adds one trade. @example agg.add({ time, price: '5000.25', volume: '1', side: 'buy' }) */
  add(trade: Trade): void {
    const e = this.e
    feed(e)
    if (e.maxTime !== undefined) this.refusePast(trade)
    if (e.mode === 0) choosingKind(e, () => this.addOne(trade))
    else this.addOne(trade)
  }

  private addOne(trade: Trade): void {
    const e = this.e
    const r = tradeReader(e)
    const one = e.one
    one[0] = trade
    if (fastTradeObjects(e, one, 0, 1) === 1) return
    const k = r.readTrade(trade, e.seen)
    setSource(e, SOURCE_TRADE_OBJECTS, one, 0)
    consumeTrades(e, r, k)
  }

  /**
   * Adds trades[from, to) of an array (the object fast path).
   *
   * @throws MarketDataError for a refused record; `applied` says how many of trades[from, to) were taken
   * before it (it changed nothing): resume at `from + applied` (after fixing or dropping that record).
   */
  addTrades(trades: ArrayLike<Trade>, from = 0, to = trades.length): void {
    feed(this.e)
    const s0 = this.e.seen
    try {
      const past = this.e.maxTime === undefined ? -1 : firstPastInRecords(trades, from, to, this.e.maxTime)
      choosingKind(this.e, () => tradeObjectRun(this.e, trades, from, past >= 0 ? past : to, false))
      if (past >= 0) this.refusePast(trades[past])
    } catch (e) {
      throw withApplied(e, this.e.seen - s0)
    }
  }

  /** Throws `out_of_range` for a record stamped after `maxTime` (set). */
  private refusePast(record: unknown): void {
    const t = recordPast(record, this.e.maxTime as number)
    if (t !== undefined) throw pastMaxTime(t, this.e.maxTime as number, this.e.seen)
  }

  /**
   * Takes the trade objects of an array from `from` up to the first `TradeColumns` batch (or `to`) and
   * returns the index where it stopped: the `TradeArraySink` protocol with which `candlesFromTrades` hands
   * over a whole array without first scanning it for batches (a pass over every object).
   *
   * @example const at = agg.addTradeRun(mixed, 0, mixed.length) // mixed[at] is a TradeColumns batch, or at === mixed.length
   */
  addTradeRun(trades: ArrayLike<Trade | TradeColumns>, from: number, to: number): number {
    feed(this.e)
    const past = this.e.maxTime === undefined ? -1 : firstPastInRecords(trades, from, to, this.e.maxTime)
    const at = choosingKind(this.e, () =>
      tradeObjectRun(this.e, trades as ArrayLike<Trade>, from, past >= 0 ? past : to, true),
    )
    if (at === past) this.refusePast(trades[past])
    return at
  }

  /** Adds a batch of columnar trades (the fast path). @throws MarketDataError with `applied` (see {@link addTrades}). */
  addColumns(columns: TradeColumns): void {
    columnBatch(this.e, columns, checkTradeColumns, (c) => tradeColumnsIn(this.e, c))
  }

  /** Adds one input candle (resampling). */
  addCandle(candle: CandleInput): void {
    feed(this.e)
    this.addCandles([candle])
  }

  /** Adds candles[from, to) of an array (resampling). @throws MarketDataError with `applied` (see {@link addTrades}). */
  addCandles(candles: ArrayLike<CandleInput>, from = 0, to = candles.length): void {
    feed(this.e)
    const s0 = this.e.seen
    try {
      const past = this.e.maxTime === undefined ? -1 : firstPastInRecords(candles, from, to, this.e.maxTime)
      choosingKind(this.e, () => candlesIn(this.e, candles, from, past >= 0 ? past : to))
      if (past >= 0) this.refusePast(candles[past])
    } catch (e) {
      throw withApplied(e, this.e.seen - s0)
    }
  }

  /** Adds a batch of columnar candles (the fast resampling path). @throws MarketDataError with `applied` (see {@link addTrades}). */
  addCandleColumns(columns: CandleColumns): void {
    columnBatch(this.e, columns, checkCandleColumns, (c) => candleColumnsIn(this.e, c))
  }

  /**
   * Declares that the stream reached `time`: no record before it will come. Closes the open candle when
   * its bucket ends at or before `time` (time frames) and returns every closed candle not taken yet (none
   * with `onCandle`, which received them). A later record before `time` throws `late_record`.
   */
  advance(time: number): Candle[] {
    feed(this.e)
    if (!isAdvanceTime(time, false)) throw new MarketDataError('invalid_time', CANDLE_MSG.time(time), { field: 'time' })
    if (this.e.mode === 2) this.e.nesting?.advance(time)
    if (time > this.e.floor) this.e.floor = time
    if (time > this.e.last) this.e.last = time
    if (!this.e.tick && this.e.has && time >= this.e.cEnd) closeCandle(this.e)
    return this.take()
  }

  /** The stream's time: the latest record or `advance` time (records come in time order; -Infinity at first). */
  get watermark(): number {
    return this.e.last
  }

  /** The open candle so far, in a list (empty when none is open): {@link current} as the contract's `snapshot`. */
  snapshot(): Candle[] {
    return this.e.has ? [snapshotOne(this.e)] : []
  }

  /** Closed candles not yet taken (in time order); empties the queue. */
  take(): Candle[] {
    const out = this.e.closed
    this.e.closed = []
    return out
  }

  /** The open candle so far (a snapshot), or undefined. */
  current(): Candle | undefined {
    return this.e.has ? snapshotOne(this.e) : undefined
  }

  /**
   * End of stream: closes the open candle and returns every candle not yet taken. The stream's time moves
   * to the closed candle's end (time frames), so a later record for it is `late_record`, never a second
   * candle with the same time; later records for later buckets go on as usual.
   */
  flush(): Candle[] {
    closeStream(this.e)
    return this.take()
  }

  /** {@link flush} under its older name. */
  finish(): Candle[] {
    return this.flush()
  }
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
