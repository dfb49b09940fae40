// The open candle's state changes: open it, store a loop's running state into it, move it to new
// scales, its extremes' units. (The state itself is fields of CandleEngine.)
import { type DecimalInput, POW10, UNITS_LIMIT, stringToUnits } from '../decimal/index.js'
import { parseDataDecimal } from '../decimal/parse.js'
import type { Bucketer } from '../time/index.js'
import type { Trade, TradeColumns } from '../trades/index.js'
import { closeCandle } from './candle-out.js'
import { LIMB } from './format.js'
import { type CandleEngine, SOURCE_CANDLE_COLUMNS, SOURCE_TRADE_COLUMNS, SOURCE_TRADE_OBJECTS } from './engine.js'
import type { CandleColumns, CandleInput } from './types.js'

/**
 * Extreme units past 2^52 (the exact value is the bigint beside them). The ±Infinity sentinels of an
 * empty candle are not: a huge bigint becomes a finite number through {@link bigUnits}.
 */
export const isBig = (u: number): boolean =>
  (u >= UNITS_LIMIT || u <= -UNITS_LIMIT) && u !== Number.POSITIVE_INFINITY && u !== Number.NEGATIVE_INFINITY

/** A bigint's units as a finite number (±MAX_VALUE past the double range), for extremes held beside it. */
export const bigUnits = (b: bigint): number => Math.min(Math.max(Number(b), -Number.MAX_VALUE), Number.MAX_VALUE)

/** Units of a validated decimal input at `scale` (>= its decimals), as a number when below 2^52, else via bigint. */
export function unitsOf(x: DecimalInput, scale: number): { u: number; b: bigint } {
  const d = parseDataDecimal(x)
  if (!d.ok) return { u: 0, b: 0n }
  const k = scale - d.value.scale
  // (k < 0 only for trailing zeros past the scale: the restore of a checkpoint checked that)
  const b = k >= 0 ? d.value.units * 10n ** BigInt(k) : d.value.units / 10n ** BigInt(-k)
  const u = bigUnits(b)
  return { u, b }
}

/** Moves the open candle's sums and extremes to new scales (they only grow). */
export function rescale(e: CandleEngine, ps: number, vs: number, xs: number): void {
  if (e.has) {
    // a candle opened by a record not taken yet has no extremes (the ±Infinity sentinels stay)
    if (ps !== e.ps && e.hiU !== Number.NEGATIVE_INFINITY) {
      const h = unitsOf(e.hiRaw, ps)
      const l = unitsOf(e.loRaw, ps)
      e.hiU = h.u
      e.hiB = h.b
      e.loU = l.u
      e.loB = l.b
    }
    if (vs !== e.vs) {
      e.volHi = (e.volHi + BigInt(e.volLo)) * 10n ** BigInt(vs - e.vs)
      e.volLo = 0
    }
    if (xs !== e.xs) {
      e.settleMid()
      e.valHi = (e.valHi + BigInt(e.valLo)) * 10n ** BigInt(xs - e.xs)
      e.valLo = 0
    }
  }
  e.ps = ps
  e.vs = vs
  e.xs = xs
}

/** Opens a candle at record time t (bucket start, or t itself for tick frames). */
export function openCandle(e: CandleEngine, t: number, session: number, openRaw: DecimalInput): void {
  if (e.tick) {
    e.cTime = t
    e.cEnd = Number.POSITIVE_INFINITY
  } else {
    const b = e.bucketer as Bucketer
    e.cTime = b.locate(t)
    e.cEnd = b.end
  }
  e.has = true
  e.cSession = session
  e.openRaw = openRaw
  e.hiU = Number.NEGATIVE_INFINITY
  e.loU = Number.POSITIVE_INFINITY
  e.hiB = 0n
  e.loB = 0n
  e.count = 0
  e.volLo = 0
  e.volHi = 0n
  e.valLo = 0
  e.valHi = 0n
  e.valMid = 0
  e.noValue = false
  e.noTrades = false
  e.fineVol = undefined
  e.fineVal = undefined
}

/** Where the raw spellings of the chunk being consumed come from (see {@link raw}). */
export function setSource(e: CandleEngine, kind: number, src: unknown, base: number): void {
  e.srcKind = kind
  e.src = src
  e.srcBase = base
}

/** The input spelling of a price field of chunk entry i. */
export function raw(e: CandleEngine, f: 'open' | 'high' | 'low' | 'close', i: number): DecimalInput {
  const j = e.srcBase + i
  switch (e.srcKind) {
    case SOURCE_TRADE_COLUMNS:
      return (e.src as TradeColumns).price[j] as number
    case SOURCE_TRADE_OBJECTS:
      return ((e.src as ArrayLike<Trade>)[j] as Trade).price
    // one named load per field (a keyed load by a varying name would go megamorphic)
    case SOURCE_CANDLE_COLUMNS: {
      const c = e.src as CandleColumns
      return (f === 'high' ? c.high : f === 'low' ? c.low : f === 'close' ? c.close : c.open)[j] as number
    }
    default: {
      const c = (e.src as ArrayLike<CandleInput>)[j] as CandleInput
      return f === 'high' ? c.high : f === 'low' ? c.low : f === 'close' ? c.close : c.open
    }
  }
}

/**
 * Stores a hot loop's running state of the open candle: the spellings of its high, low and close by
 * chunk index (-1: not changed by this loop) and its extremes' units and sums.
 */
export function keep(
  e: CandleEngine,
  hiI: number,
  loI: number,
  closeI: number,
  hiU: number,
  loU: number,
  volLo: number,
  valLo: number,
  count: number,
): void {
  if (hiI >= 0) e.hiRaw = raw(e, 'high', hiI)
  if (loI >= 0) e.loRaw = raw(e, 'low', loI)
  if (closeI >= 0) e.closeRaw = raw(e, 'close', closeI)
  e.hiU = hiU
  e.loU = loU
  e.volLo = volLo
  e.valLo = valLo
  e.count = count
}

/**
 * A hot loop met the first record of a new candle: closes the open one (after storing the loop's state
 * of it) and opens one at record time t. Once per candle, so the loops stay small. The loops then read
 * the end from `cEnd` (a double field; a call's result kept in the loop variable could make V8 box
 * every record's doubles, as could on-stack-replacement code: see FAST_RUN).
 */
export function nextCandle(
  e: CandleEngine,
  t: number,
  session: number,
  openRaw: DecimalInput,
  hiI: number,
  loI: number,
  closeI: number,
  volLo: number,
  valLo: number,
  count: number,
  runPU = 0,
  runVol = 0,
): void {
  if (e.has) {
    keep(e, hiI, loI, closeI, 0, 0, volLo, valLo, count)
    addRun(e, runPU, runVol)
    closeCandle(e)
  }
  openCandle(e, t, session, openRaw)
}

/** True when a price can open a candle on the fast path (its units at the current scale are exact and below 2^52). */
export function opensCandle(e: CandleEngine, x: DecimalInput): boolean {
  return e.ps <= 22 && Math.abs(unitsFast(x, e.ps, POW10[e.ps] as number)) < UNITS_LIMIT
}

/** The open candle took records without a value / trades column: it has no value / trades. */
export function missingColumns(e: CandleEngine, hasValue: boolean, hasTrades: boolean): void {
  if (!hasValue) e.noValue = true
  if (!hasTrades) e.noTrades = true
}

/** hiU / loU (units at ps) of the open candle's numeric high / low spellings, exactly (the scale grows when needed). */
export function extremeUnits(e: CandleEngine, hi: boolean, lo: boolean, PP: number): void {
  let exact = true
  if (hi) {
    const h = e.hiRaw as number
    const u = Math.floor(h * PP + 0.5)
    if (u / PP === h && u < UNITS_LIMIT && u > -UNITS_LIMIT) e.hiU = u
    else exact = false
  }
  if (lo) {
    const l = e.loRaw as number
    const u = Math.floor(l * PP + 0.5)
    if (u / PP === l && u < UNITS_LIMIT && u > -UNITS_LIMIT) e.loU = u
    else exact = false
  }
  if (exact) return
  let ps = e.ps
  for (const x of [e.hiRaw, e.loRaw]) {
    const d = parseDataDecimal(x)
    if (d.ok && d.value.scale > ps) ps = d.value.scale
  }
  if (ps !== e.ps) rescale(e, ps, e.vs, e.xs)
  const h = unitsOf(e.hiRaw, ps)
  const l = unitsOf(e.loRaw, ps)
  e.hiU = h.u
  e.hiB = h.b
  e.loU = l.u
  e.loB = l.b
}

/** Units of a decimal input at scale (fast path only): NaN when it does not convert exactly below 2^52. */
export function unitsFast(x: unknown, scale: number, P: number): number {
  if (typeof x === 'string') return stringToUnits(x, scale)
  if (typeof x === 'number') {
    const u = Math.floor(x * P + 0.5)
    return u / P === x && u < UNITS_LIMIT && u > -UNITS_LIMIT ? u : Number.NaN
  }
  return Number.NaN
}

/** Adds a run of trades at one price: volume units `vol` (< 2^53) at price units `pu` (|pu| < 2^52). */
export function addRun(e: CandleEngine, pu: number, vol: number): void {
  if (vol === 0) return
  const pv = pu * vol
  if (pv < UNITS_LIMIT && pv > -UNITS_LIMIT) addValue(e, pv)
  else if (pu < LIMB && pu > -LIMB && vol <= UNITS_LIMIT) {
    // two exact products of 26-bit halves instead of a bigint product (see LIMB)
    const h = Math.floor(vol / LIMB)
    addValue(e, pu * (vol - h * LIMB))
    e.valLo = foldMid(e, e.valLo, pu * h)
  } else addValue(e, 0, BigInt(pu) * BigInt(vol))
  addVolume(e, vol)
}

/**
 * The value sum's number part `lo` plus `mid * LIMB` (the high limb's sum, |mid| <= 2^52): returned as the
 * new number part when the total stays below 2^52 (then it is exact: a power-of-two multiple is exact and
 * an integer sum below 2^53 too; a total at or past 2^52 rounds to at or past it), else `mid` goes into the
 * open candle's high limb (`valMid`, a bigint only when that would pass 2^52) and `lo` comes back unchanged.
 */
export function foldMid(e: CandleEngine, lo: number, mid: number): number {
  if (mid === 0) return lo
  const w = lo + mid * LIMB
  if (w < UNITS_LIMIT && w > -UNITS_LIMIT) return w
  const m = e.valMid + mid
  if (m <= UNITS_LIMIT && m >= -UNITS_LIMIT) e.valMid = m
  else {
    e.settleMid()
    e.valMid = mid
  }
  return lo
}

/** Adds volume units (a number below 2^52, or the exact bigint). */
export function addVolume(e: CandleEngine, u: number, b?: bigint): void {
  if (b !== undefined) e.volHi += b
  else {
    const v = e.volLo + u
    if (v > UNITS_LIMIT) {
      e.volHi += BigInt(v)
      e.volLo = 0
    } else e.volLo = v
  }
}

/** Adds value units (a number below 2^52 in magnitude, or the exact bigint). */
export function addValue(e: CandleEngine, u: number, b?: bigint): void {
  if (b !== undefined) e.valHi += b
  else {
    const x = e.valLo + u
    if (x > UNITS_LIMIT || x < -UNITS_LIMIT) {
      e.valHi += BigInt(x)
      e.valLo = 0
    } else e.valLo = x
  }
}
