// Closing a candle into the engine's sink: Candle objects (queued, or handed to `onCandle`) or the
// column sink given at construction (ColumnOut).
import { type DecimalInput, exactDouble } from '../decimal/index.js'
import { SESSION_NAMES, type SessionType } from '../trades/index.js'
import type { ColumnOut } from './column-out.js'
import type { CandleEngine } from './engine.js'
import { sumText, withFine } from './fine-sum.js'
import { limbSumText, spellPrice, unitsText } from './format.js'
import {
  REC,
  REC_CLOSE_AT,
  REC_HIGH,
  REC_LOW,
  REC_OPEN_AT,
  REC_SESSION,
  REC_START,
  REC_TRADES,
  REC_VALUE,
  REC_VALUE_MID,
  REC_VOLUME,
  S_CLOSE,
  S_COUNT,
  S_HIGH,
  S_LOW,
  S_VALUE,
  S_VOLUME,
  W_CLOSE,
  W_HIGH,
  W_LOW,
  W_OPEN,
  W_SESSION,
  W_TIME,
  W_TRADES,
  W_VALUE,
  W_VOLUME,
} from './loop-slots.js'
import type { Candle, CandleColumns } from './types.js'

/** A price spelling of column input (always a number there) as a number. */
export const priceNumber = (x: DecimalInput): number => (typeof x === 'number' ? x : exactDouble(x))

export function spell(e: CandleEngine, x: DecimalInput): string {
  return typeof x === 'number'
    ? e.priceStrings.number(x, e.ps, e.gridDecimals)
    : spellPrice(x, e.gridDecimals, e.ps, e.priceStrings)
}

export function snapshotOne(e: CandleEngine): Candle {
  e.settleMid()
  const open = spell(e, e.openRaw)
  const high = spell(e, e.hiRaw)
  const low = spell(e, e.loRaw)
  const close = spell(e, e.closeRaw)
  const volume = sumText(e.volHi, e.volLo, e.vs, e.fineVol)
  const session = SESSION_NAMES[e.cSession] as SessionType
  // one literal per shape (no property added afterwards): one hidden class, no property-array growth
  if (!e.noValue && !e.noTrades) {
    return {
      time: e.cTime,
      open,
      high,
      low,
      close,
      volume,
      value: sumText(e.valHi, e.valLo, e.xs, e.fineVal),
      trades: e.count,
      session,
    }
  }
  const c: Candle = { time: e.cTime, open, high, low, close, volume }
  if (!e.noValue) c.value = sumText(e.valHi, e.valLo, e.xs, e.fineVal)
  if (!e.noTrades) c.trades = e.count
  c.session = session
  return c
}

/**
 * Closes the open candle from a candle column loop's state: high, low and close are the numbers
 * st[S_HIGH], st[S_LOW], st[S_CLOSE] (their spellings), volume, value and trades below 2^52 st[S_VOLUME],
 * st[S_VALUE], st[S_COUNT] (the bigint parts stay in the fields). Same candle as {@link snapshotOne}, without storing the state first.
 */
export function closeFromScratch(e: CandleEngine): void {
  const st = e.scratch
  if (e.columns !== undefined) {
    // the S_ slots move to the writer's W_ layout: time, open, high, low, close, volume, value, trades, session
    // (each slot is read before it is written: W_k = S_(k - 2) for k >= 2)
    const count = st[S_COUNT] as number
    st[W_TRADES] = count
    st[W_VALUE] = st[S_VALUE] as number
    st[W_VOLUME] = st[S_VOLUME] as number
    st[W_CLOSE] = st[S_CLOSE] as number
    st[W_LOW] = st[S_LOW] as number
    st[W_HIGH] = st[S_HIGH] as number
    st[W_OPEN] = priceNumber(e.openRaw)
    st[W_TIME] = e.cTime
    st[W_SESSION] = e.cSession
    writeOut(e, st)
    e.has = false
    e.cEnd = Number.NEGATIVE_INFINITY
    return
  }
  e.settleMid()
  const ps = e.ps
  const grid = e.gridDecimals
  const pc = e.priceStrings
  const open = spell(e, e.openRaw)
  const high = pc.number(st[S_HIGH] as number, ps, grid)
  const low = pc.number(st[S_LOW] as number, ps, grid)
  const close = pc.number(st[S_CLOSE] as number, ps, grid)
  const volume = sumText(e.volHi, st[S_VOLUME] as number, e.vs, e.fineVol)
  const count = st[S_COUNT] as number
  const session = SESSION_NAMES[e.cSession] as SessionType
  let c: Candle
  if (!e.noValue && !e.noTrades)
    c = {
      time: e.cTime,
      open,
      high,
      low,
      close,
      volume,
      value: sumText(e.valHi, st[S_VALUE] as number, e.xs, e.fineVal),
      trades: count,
      session,
    }
  else {
    c = { time: e.cTime, open, high, low, close, volume }
    if (!e.noValue) c.value = sumText(e.valHi, st[S_VALUE] as number, e.xs, e.fineVal)
    if (!e.noTrades) c.trades = count
    c.session = session
  }
  e.has = false
  e.cEnd = Number.NEGATIVE_INFINITY
  emit(e, c)
}

/** Writes the open candle in the writer's W_ layout to the column sink, its fine sums folded in. */
export function writeOut(e: CandleEngine, st: Float64Array): void {
  const out = e.columns as ColumnOut
  const fv = e.fineVol
  const fx = e.fineVal
  if (fv === undefined && fx === undefined) {
    out.write(st, e.volHi, e.vs, e.valHi, e.xs, e.valMid)
    return
  }
  e.settleMid()
  const v = withFine(e.volHi, st[W_VOLUME] as number, e.vs, fv ?? { units: 0n, scale: 0 })
  const x = withFine(e.valHi, st[W_VALUE] as number, e.xs, fx ?? { units: 0n, scale: 0 })
  st[W_VOLUME] = 0
  st[W_VALUE] = 0
  out.write(st, v.units, v.scale, x.units, x.scale)
}

export function closeCandle(e: CandleEngine): void {
  if (e.columns !== undefined) {
    const st = e.scratch
    st[W_TIME] = e.cTime
    st[W_OPEN] = priceNumber(e.openRaw)
    st[W_HIGH] = priceNumber(e.hiRaw)
    st[W_LOW] = priceNumber(e.loRaw)
    st[W_CLOSE] = priceNumber(e.closeRaw)
    st[W_VOLUME] = e.volLo
    st[W_VALUE] = e.valLo
    st[W_TRADES] = e.count
    st[W_SESSION] = e.cSession
    writeOut(e, st)
    e.has = false
    e.cEnd = Number.NEGATIVE_INFINITY
    return
  }
  const c = snapshotOne(e)
  e.has = false
  e.cEnd = Number.NEGATIVE_INFINITY
  emit(e, c)
}

/**
 * Closes the k candles cleanCandleRun closed itself, in order, from its records (see REC): each was
 * opened by a trade of these columns and holds only their trades, with sums below 2^52 (no bigint part).
 * The same candles as {@link snapshotOne}: prices spelled from the trades' numbers, sums from their units
 * (with columns out, the numbers themselves go into the columns).
 * With `onCandle`, every candle is made before the first call (callbacks may not feed the aggregator,
 * and a callback that throws leaves the rest unsent, as the per-candle path does).
 */
export function closeTradeRecords(e: CandleEngine, P: Float64Array, k: number): void {
  const r = e.rec as Float64Array
  const pc = e.priceStrings
  const ps = e.ps
  const grid = e.gridDecimals
  const vs = e.vs
  const xs = e.xs
  if (e.columns !== undefined) {
    // columns out: the records go straight into the columns, prices read from the trades' numbers
    e.columns.writeRecords(r, k, REC, P, P, vs, xs, P)
    return
  }
  const cb = e.onCandle
  const made: Candle[] = cb === undefined ? e.closed : []
  for (let q = 0, at = 0; q < k; q++, at += REC) {
    const c: Candle = {
      time: r[at + REC_START] as number,
      open: pc.number(P[r[at + REC_OPEN_AT] as number] as number, ps, grid),
      high: pc.number(P[r[at + REC_HIGH] as number] as number, ps, grid),
      low: pc.number(P[r[at + REC_LOW] as number] as number, ps, grid),
      close: pc.number(P[r[at + REC_CLOSE_AT] as number] as number, ps, grid),
      volume: unitsText(r[at + REC_VOLUME] as number, vs),
      value:
        r[at + REC_VALUE_MID] === 0
          ? unitsText(r[at + REC_VALUE] as number, xs)
          : limbSumText(0n, r[at + REC_VALUE_MID] as number, r[at + REC_VALUE] as number, xs),
      trades: r[at + REC_TRADES] as number,
      session: SESSION_NAMES[r[at + REC_SESSION] as number] as SessionType,
    }
    made.push(c)
  }
  if (cb !== undefined) for (const c of made) emit(e, c)
}

/**
 * Closes the k buckets candleRun closed itself, in order, from its records (see REC): each was opened
 * by a candle of these columns and holds only their candles, with sums below 2^52.
 */
export function closeRecords(e: CandleEngine, c: CandleColumns, k: number, hasX: boolean, hasN: boolean): void {
  const r = e.rec as Float64Array
  const O = c.open
  const C = c.close
  if (e.columns !== undefined) {
    // columns out: the records go straight into the columns (what closeFromScratch would write for each)
    e.columns.writeRecords(r, k, REC, O, C, e.vs, e.xs)
    e.has = false
    e.cEnd = Number.NEGATIVE_INFINITY
    return
  }
  const st = e.scratch
  for (let q = 0; q < k; q++) {
    const at = q * REC
    e.cTime = r[at + REC_START] as number
    e.openRaw = O[r[at + REC_OPEN_AT] as number] as number
    e.cSession = r[at + REC_SESSION] as number
    e.has = true
    e.noValue = !hasX
    e.noTrades = !hasN
    st[S_HIGH] = r[at + REC_HIGH] as number
    st[S_LOW] = r[at + REC_LOW] as number
    st[S_CLOSE] = C[r[at + REC_CLOSE_AT] as number] as number
    st[S_VOLUME] = r[at + REC_VOLUME] as number
    st[S_VALUE] = r[at + REC_VALUE] as number
    st[S_COUNT] = r[at + REC_TRADES] as number
    closeFromScratch(e)
  }
}

/** Hands a closed candle to `onCandle` (no candle is open meanwhile, and feeding is refused), else queues it. */
export function emit(e: CandleEngine, c: Candle): void {
  const cb = e.onCandle
  if (cb === undefined) {
    e.closed.push(c)
    return
  }
  e.emitting = true
  try {
    cb(c)
  } finally {
    e.emitting = false
  }
}
