// The engine's stream-level steps shared by the aggregator and the column functions: feeding guard,
// record order errors, the batch wrapper (maxTime and `applied`), the exact readers' buffers.
import { withApplied } from '../_lib/applied.js'
import { firstPastInColumn, headOf, pastMaxTime } from '../_lib/max-time.js'
import { MarketDataError } from '../errors.js'
import { type ScaledTradeReader, type TradeColumns, createScaledTradeReader } from '../trades/index.js'
import { closeCandle } from './candle-out.js'
import { CHUNK, type CandleEngine, type ExactCandleColumns } from './engine.js'
import { CANDLE_MSG } from './messages.js'
import type { CandleColumns } from './types.js'
import { UnitsColumn } from './units.js'

/** Refuses a call that feeds the aggregator from inside its own `onCandle`: the loop that called it is mid-way. */
export function feed(e: CandleEngine): void {
  if (e.emitting) throw new MarketDataError('invalid_option', CANDLE_MSG.reentrant(), { field: 'onCandle' })
}

export function orderError(e: CandleEngine, t: number, index: number): MarketDataError {
  if (t < e.floor) return new MarketDataError('late_record', CANDLE_MSG.late(t, e.floor), { index, field: 'time' })
  return new MarketDataError('out_of_order', CANDLE_MSG.outOfOrder(t, e.last), { index, field: 'time' })
}

export function tradeReader(e: CandleEngine): ScaledTradeReader {
  if (e.mode === 2) throw new MarketDataError('incompatible', CANDLE_MSG.mixed(), { field: 'add' })
  e.mode = 1
  return (e.reader ??= createScaledTradeReader({ chunkSize: CHUNK }))
}

/**
 * Runs `take` (a call that may choose the aggregator's input kind): when it took no record (a refused
 * record, an empty batch) the kind stays open, so a refused trade never makes the candles that follow
 * `incompatible`. Only the first records of a stream pay for this; once chosen, the kind is final.
 */
export function choosingKind<T>(e: CandleEngine, take: () => T): T {
  if (e.mode !== 0) return take()
  const seen = e.seen
  try {
    return take()
  } finally {
    if (e.seen === seen) e.mode = 0
  }
}

export function exactCandleColumns(e: CandleEngine): ExactCandleColumns {
  if (e.mode === 1) throw new MarketDataError('incompatible', CANDLE_MSG.mixed(), { field: 'add' })
  e.mode = 2
  return (e.cols ??= {
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

/**
 * A batch of trade or candle columns: all its rows, or those before the first one stamped after
 * `maxTime` (then `out_of_range`); an error carries the rows applied.
 */
export function columnBatch<C extends TradeColumns | CandleColumns>(
  e: CandleEngine,
  columns: C,
  check: (c: C) => void,
  take: (c: C) => void,
): void {
  feed(e)
  const s0 = e.seen
  try {
    const past = e.maxTime === undefined ? -1 : firstPastInColumn(columns, e.maxTime)
    if (past < 0) {
      choosingKind(e, () => take(columns))
      return
    }
    check(columns)
    choosingKind(e, () => take(headOf(columns, past)))
    throw pastMaxTime(columns.time[past] as number, e.maxTime as number, e.seen)
  } catch (err) {
    throw withApplied(err, e.seen - s0)
  }
}

/**
 * End of stream for the engine: the nesting rule's last check (candle input), then the open candle closes
 * and the stream's time moves to its end (time frames). The closed candles wait in the sink.
 */
export function closeStream(e: CandleEngine): void {
  feed(e)
  if (e.mode === 2) e.nesting?.finish()
  if (e.has) {
    const end = e.cEnd
    closeCandle(e)
    if (!e.tick && end > e.floor) {
      e.floor = end
      if (end > e.last) e.last = end
    }
  }
}
