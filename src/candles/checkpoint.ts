// The candle aggregator's state as checkpoint data, and its validation on restore (every field checked).
import type { DecimalInput } from '../decimal/index.js'
import { parseDataDecimal } from '../decimal/parse.js'
import type { Fields } from '../_lib/checkpoint.js'
import { MAX_STATE_SCALE, jsonNumber } from '../_lib/checkpoint.js'
import { MAX_TIME } from '../_lib/max-time.js'
import type { Candle } from './types.js'
import { readClosedCandle } from './state-checks.js'
import type { FineSum } from './fine-sum.js'
import type { NestingState } from '../time/nesting.js'

/** The open candle of a checkpoint (its extremes' units are recomputed from the spellings on restore). */
export interface OpenCandleState {
  time: number
  session: number
  openRaw: DecimalInput
  /** False while the candle holds no record yet (then the spellings below are unused). */
  extremes: boolean
  hiRaw: DecimalInput
  loRaw: DecimalInput
  closeRaw: DecimalInput
  count: number
  volLo: number
  volHi: bigint
  valLo: number
  valHi: bigint
  noValue: boolean
  noTrades: boolean
  /** Volume / value of records finer than the fast sums take, at their own scale (absent: none). */
  fineVol: FineSum | undefined
  fineVal: FineSum | undefined
}

/** Everything but the watermark (the stream's last time), which the envelope holds. */
export interface CandleState {
  mode: number
  seen: number
  floor: number
  ps: number
  vs: number
  xs: number
  open: OpenCandleState | undefined
  closed: Candle[]
  /** The nesting guard of candle input (time frames; undefined: none, or a state written before it was kept). */
  nesting: NestingState | undefined
}

/** True when a decimal has at most `scale` decimals (trailing zeros not counted). */
function atScale(x: DecimalInput, scale: number): boolean {
  const d = parseDataDecimal(x)
  if (!d.ok) return false
  let { units, scale: s } = d.value
  while (s > scale && units % 10n === 0n) {
    units /= 10n
    s--
  }
  return s <= scale
}

/** The state as JSON-safe data. */
export function writeCandleState(s: CandleState): Record<string, unknown> {
  const o = s.open
  return {
    mode: s.mode,
    seen: s.seen,
    floor: jsonNumber(s.floor),
    ps: s.ps,
    vs: s.vs,
    xs: s.xs,
    open:
      o === undefined
        ? null
        : {
            ...o,
            volHi: String(o.volHi),
            valHi: String(o.valHi),
            fineVol: fineJson(o.fineVol),
            fineVal: fineJson(o.fineVal),
          },
    closed: s.closed.map((c) => ({ ...c })),
    nesting: s.nesting === undefined ? null : nestingJson(s.nesting),
  }
}

/** NaN ("none yet") as null, the infinities as strings. */
const orNull = (x: number): number | string | null => (x === x ? jsonNumber(x) : null)

function nestingJson(n: NestingState): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(n)) out[k] = orNull(v)
  return out
}

/** An integer in [min, max], or NaN written as null. */
function intOrNaN(f: Fields, key: string, min: number, max: number): number {
  return f.raw(key) === null ? Number.NaN : f.int(key, min, max)
}

/** A smallest gap: an integer >= 1, or Infinity (no gap yet). */
function gap(f: Fields, key: string, max: number): number {
  const x = f.num(key, 'pos')
  if (x !== Number.POSITIVE_INFINITY && !(Number.isInteger(x) && x >= 1 && x <= max))
    f.fail(key, `an integer 1..${max} or "Infinity"`, x)
  return x
}

/**
 * The nesting guard's state (absent or null: none; a state written before the guard's state was kept
 * restores with a fresh guard, as it did). Times at or before the watermark, the index before `seen`.
 */
function readNesting(f: Fields, last: number, seen: number): NestingState | undefined {
  const x = f.raw('nesting')
  if (x === undefined || x === null) return undefined
  const g = f.obj('nesting')
  const n: NestingState = {
    level: g.int('level', 0, 2),
    gMs: gap(g, 'gMs', 2 * MAX_TIME),
    gDays: gap(g, 'gDays', 2e8),
    gMonths: gap(g, 'gMonths', 7e6),
    inferredT: g.time('inferredT', 'neg'),
    lastDay: intOrNaN(g, 'lastDay', -1e8, 1e8),
    lastMonth: intOrNaN(g, 'lastMonth', -4e6, 4e6),
    tStart: g.raw('tStart') === null ? Number.NaN : g.time('tStart'),
    tEnd: g.time('tEnd', 'neg'),
    sEnd: g.time('sEnd', 'both'),
    lastT: g.time('lastT', 'neg'),
    lastIndex: g.int('lastIndex', -1, Math.max(-1, seen - 1)),
  }
  for (const k of ['inferredT', 'lastT'] as const)
    if (n[k] > last) g.fail(k, `a time at or before the watermark ${last}`, n[k])
  return n
}

/** A fine sum as JSON (`null`: none). */
function fineJson(f: FineSum | undefined): { units: string; scale: number } | null {
  return f === undefined ? null : { units: String(f.units), scale: f.scale }
}

/**
 * A fine sum of the open candle: `{ units, scale }`, `null` for none. A state written before fine sums
 * existed has no such field: it held none (its scale was raised instead), so absent reads as none.
 */
function readFine(o: Fields, key: string, nonNegative: boolean, maxScale: number): FineSum | undefined {
  const x = o.raw(key)
  if (x === undefined || x === null) return undefined
  const f = o.obj(key)
  return { units: f.big('units', nonNegative), scale: f.int('scale', 0, maxScale) }
}

/** Reads and validates a state written by {@link writeCandleState}; `last` is the envelope's watermark. */
export function readCandleState(f: Fields, last: number): CandleState {
  const mode = f.int('mode', 0, 2)
  const seen = f.int('seen', 0, Number.MAX_SAFE_INTEGER)
  const floor = f.time('floor', 'neg')
  if (floor > last) f.fail('floor', `a time at or before the watermark ${last}`, floor)
  const ps = f.int('ps', 0, MAX_STATE_SCALE)
  const vs = f.int('vs', 0, MAX_STATE_SCALE)
  const xs = f.int('xs', 0, 2 * MAX_STATE_SCALE)
  let open: OpenCandleState | undefined
  if (f.raw('open') !== null) {
    const o = f.obj('open')
    open = {
      time: o.time('time'),
      session: o.int('session', 0, 2),
      openRaw: o.decimal('openRaw'),
      extremes: o.bool('extremes'),
      hiRaw: o.decimal('hiRaw'),
      loRaw: o.decimal('loRaw'),
      closeRaw: o.decimal('closeRaw'),
      count: o.int('count', 0, Number.MAX_SAFE_INTEGER),
      volLo: o.int('volLo', 0, 2 ** 53),
      volHi: o.big('volHi', true),
      valLo: o.int('valLo', -(2 ** 53), 2 ** 53),
      valHi: o.big('valHi'),
      noValue: o.bool('noValue'),
      noTrades: o.bool('noTrades'),
      fineVol: readFine(o, 'fineVol', true, MAX_STATE_SCALE),
      fineVal: readFine(o, 'fineVal', false, 2 * MAX_STATE_SCALE),
    }
    if (open.time > last) o.fail('time', `a time at or before the watermark ${last}`, open.time)
    // prices are held in units of 10^-ps: a spelling with more decimals cannot come from this state
    for (const k of ['openRaw', 'hiRaw', 'loRaw', 'closeRaw'] as const)
      if (!atScale(open[k], ps)) o.fail(k, `a decimal with at most ps = ${ps} decimals`, open[k])
    if (mode === 0) f.fail('mode', '1 (trades) or 2 (candles) while a candle is open', mode)
  }
  const list = f.arr('closed')
  const closed: Candle[] = []
  for (let i = 0; i < list.length; i++) closed.push(readClosedCandle(f.item('closed', list, i)))
  return { mode, seen, floor, ps, vs, xs, open, closed, nesting: readNesting(f, last, seen) }
}
