import { POW10, UNITS_LIMIT } from '../decimal/index.js'
import { MAX_FAST_VOLUME_SCALE } from '../decimal/exact-sums.js'
import { MAX_TIME } from '../_lib/max-time.js'
import { MarketDataError } from '../errors.js'
import { createScaledTradeReader, type ScaledTradeReader } from '../trades/index.js'
import { BucketState, type BoundSpec } from './bucket-state.js'
import { resolveEngineOptions, type EngineOptions } from './engine-options.js'
import type { Grid } from './grid.js'
import { Slot } from './kernel-slots.js'
import { OpenBuckets } from './open-buckets.js'
import { FOOTPRINT_MSG } from './messages.js'
import type { FootprintOptions } from './types.js'

/** Where an engine's buckets go when they close (or are looked at): one output a bucket that holds trades. */
export interface BucketSink<Out> {
  /** The output of one bucket that holds trades, read at the engine's current scales. */
  build(bucket: BucketState, engine: FootprintEngine<Out>): Out
}

/**
 * The footprint aggregation engine shared by the batch functions and the streaming aggregator: the open
 * buckets (one {@link BucketState} each, the current one cached with its time window), the scales, and the
 * watermark. Records come in through the readers (`read-columns.ts`, `read-objects.ts`), whose call-free
 * kernels take the common records; every other record is validated and turned into exact integer units by
 * the shared {@link ScaledTradeReader} and added on the exact path (`exact-path.ts`), whose scales only
 * grow (the open buckets are then rescaled once, exactly). Closed buckets go to the sink given at
 * construction.
 */
export class FootprintEngine<Out> {
  readonly options: EngineOptions
  readonly grid: Grid
  /** The resolved options that shape the output (what a checkpoint must match). */
  readonly optionsKey: Record<string, unknown>
  private readonly sink: BucketSink<Out>
  reader: ScaledTradeReader
  /** Loop state handed to and from the kernels ({@link Slot}). */
  readonly loop = new Float64Array(Slot.Length)
  readonly bounds: BoundSpec
  /** Approximate row of a double price (verified against the bucket's bounds): floor((p - bnd[0]) * inv + half). */
  readonly rowInverse: number
  readonly rowHalf: number
  pScale: number
  /** Row height in price units (NaN when it reaches 2^52: every record takes the exact slow path). */
  rowUnits: number
  rowUnitsBig: bigint
  vScale = 0
  /** The reader's current record has more decimals than the fast sums take: it is added on its own. */
  fine = false

  private readonly states = new OpenBuckets()
  /** Scratch of {@link close}: the buckets it closes. */
  private readonly ended: BucketState[] = []
  /** The bucket of the latest record, and its time window [windowStart, windowEnd) clipped to from / to. */
  current: BucketState | null = null
  windowStart = Number.NaN
  windowEnd = Number.NaN
  /** The bucket the last {@link enterAt} opened, with the current bucket and window before it (see undoEnter). */
  private opened: { st: BucketState; prev: BucketState | null; ws: number; we: number } | null = null
  watermark = -Infinity

  constructor(opts: FootprintOptions, fn: string, sink: BucketSink<Out>) {
    const o = (this.options = resolveEngineOptions(opts, fn))
    const g = (this.grid = o.grid)
    this.optionsKey = o.optionsKey
    this.sink = sink
    this.pScale = g.decimals
    this.rowUnitsBig = BigInt(g.rowUnits)
    this.rowUnits = g.rowUnits
    // (the engine hands the reader one record at a time: its buffers need no more room)
    this.reader = createScaledTradeReader({ chunkSize: 1, priceScale: this.pScale })
    this.bounds = {
      rowUnits: g.rowUnits,
      pow: g.decimals <= 22 ? (POW10[g.decimals] as number) : Number.NaN,
      spare: [],
      shells: [],
    }
    this.rowInverse = 1 / Number(g.rowSizeValue)
    this.rowHalf = 0.5 / g.rowSize
  }

  /** The open buckets that hold trades, in time order (for a checkpoint; read only). */
  openBuckets(): BucketState[] {
    return this.states
      .values()
      .filter((st) => !st.isEmpty())
      .sort((a, b) => a.start - b.start)
  }

  /**
   * Starts this new engine from a checkpoint's scales and watermark; returns an empty bucket for each
   * start given (the caller fills it). Throws `invalid_option` naming `field` for a start that is not a
   * bucket start of this frame or whose bucket the watermark has closed.
   */
  restore(
    pScale: number,
    vScale: number,
    watermark: number,
    starts: readonly number[],
    field: (i: number) => string,
  ): BucketState[] {
    this.reader = createScaledTradeReader({ chunkSize: 1, priceScale: pScale, volumeScale: vScale })
    this.setPriceScale(pScale)
    this.vScale = vScale
    this.watermark = watermark
    const bucketer = this.options.bucketer
    return starts.map((start, i) => {
      const ok = bucketer.locate(start) === start && bucketer.end > watermark && this.states.get(start) === undefined
      if (!ok)
        throw new MarketDataError(
          'invalid_option',
          `${field(i)}: ${start} is not the start of an open ${this.options.timeframe.id ?? 'timeframe'} bucket after the watermark (each bucket once)`,
          { field: field(i) },
        )
      const st = new BucketState(start, bucketer.end, this.bounds)
      this.states.add(st)
      return st
    })
  }

  /** Moves to the bucket of time t; false when t is outside [from, to). Throws on a bad or late time. */
  enter(t: number, index: number): boolean {
    const { from, to, bucketer } = this.options
    if (t < from || t >= to) return false
    const start = bucketer.locate(t)
    const end = bucketer.end
    if (end <= this.watermark)
      throw new MarketDataError('late_record', FOOTPRINT_MSG.late(t, end, this.watermark), { index, field: 'time' })
    let st = this.states.get(start)
    if (st === undefined) {
      st = BucketState.open(start, end, this.bounds)
      this.states.add(st)
    }
    this.current = st
    this.windowStart = Math.max(start, from)
    this.windowEnd = Math.min(end, to)
    return true
  }

  /**
   * The columnar reader's way into the bucket of a record the kernel stopped at because its time `t` lies
   * outside the current window: when t is a whole ms inside [from, to) whose bucket the watermark has not
   * closed, moves there and, for a bucket without rows yet, lays its rows around price `p` (a double), so
   * the kernel takes the record on its next call instead of the exact path. Returns false otherwise (the
   * exact path then judges the record). Nothing is counted here, and the kernel still checks every field.
   */
  enterAt(t: number, p: number): boolean {
    const { from, to, bucketer } = this.options
    if (!(t >= from && t < to && t >= -MAX_TIME && t <= MAX_TIME && Math.floor(t) === t)) return false
    const start = bucketer.locate(t)
    if (bucketer.end <= this.watermark) return false
    const opened = this.states.get(start) === undefined
    const before = { prev: this.current, ws: this.windowStart, we: this.windowEnd }
    this.enter(t, 0)
    const st = this.current as BucketState
    this.opened = opened ? { st, ...before } : null
    const row = Math.floor(p * this.rowInverse)
    if (st.cap === 0 && !st.isSparse() && this.rowUnits === this.rowUnits && Number.isSafeInteger(row)) st.slotOf(row)
    return true
  }

  /**
   * Undoes the last {@link enterAt} when it opened a bucket that is still empty: the record it was entered
   * for was refused, and a refused record leaves nothing behind (no empty bucket laid out around its price,
   * which would send later records another, equal but differently kept, way).
   */
  undoEnter(): void {
    const o = this.opened
    this.opened = null
    if (o === null || this.current !== o.st || !o.st.isEmpty()) return
    this.states.remove(o.st)
    o.st.release()
    this.current = o.prev
    this.windowStart = o.ws
    this.windowEnd = o.we
  }

  /** Loads the current bucket's window and the row guess into the loop state for a kernel. */
  loadWindow(): Float64Array {
    const loop = this.loop
    loop[Slot.WindowStart] = this.windowStart
    loop[Slot.WindowEnd] = this.windowEnd
    loop[Slot.RowInverse] = this.rowInverse
    loop[Slot.RowHalf] = this.rowHalf
    loop[Slot.VolumePow] = this.vScale <= 22 ? (POW10[this.vScale] as number) : Number.NaN
    return loop
  }

  /** Follows the reader's scales (they only grow), rescaling every open bucket exactly. */
  syncScales(): void {
    const r = this.reader
    if (r.priceScale !== this.pScale) {
      const k = r.priceScale - this.pScale
      for (const st of this.states.values()) st.rescalePrices(k)
      this.setPriceScale(r.priceScale)
    }
    // a volume finer than the fast sums take (more than MAX_FAST_VOLUME_SCALE decimals) is added on
    // its own at its scale (see addExactEntry): the engine's scale stays, so the later trades stay fast
    this.fine = r.volumeScale > this.vScale && r.volumeScale > MAX_FAST_VOLUME_SCALE
    if (r.volumeScale !== this.vScale && !this.fine) {
      const k = r.volumeScale - this.vScale
      for (const st of this.states.values()) st.rescaleVolumes(k)
      this.vScale = r.volumeScale
    }
  }

  private setPriceScale(pScale: number): void {
    this.pScale = pScale
    this.rowUnitsBig = BigInt(this.grid.rowUnits) * 10n ** BigInt(pScale - this.grid.decimals)
    this.rowUnits = this.rowUnitsBig < BigInt(UNITS_LIMIT) ? Number(this.rowUnitsBig) : Number.NaN
  }

  /**
   * Closes the buckets whose end is <= upTo: removes them, hands them to the sink and appends its outputs,
   * in time order, to `out` (a new array when not given), which it returns.
   */
  close(upTo: number, out: Out[] = []): Out[] {
    const done = this.ended
    done.length = 0
    this.states.takeEnded(upTo, done)
    // buckets usually open in time order: sorting is then skipped
    for (let k = 1; k < done.length; k++) {
      if ((done[k - 1] as BucketState).start > (done[k] as BucketState).start) {
        done.sort((a, b) => a.start - b.start)
        break
      }
    }
    for (const st of done) {
      if (st === this.current) {
        this.current = null
        this.windowStart = Number.NaN
        this.windowEnd = Number.NaN
      }
      if (!st.isEmpty()) out.push(this.sink.build(st, this))
      st.release()
    }
    done.length = 0
    return out
  }

  /** The open buckets' outputs, without closing them. */
  snapshot(): Out[] {
    return this.openBuckets().map((st) => this.sink.build(st, this))
  }
}
