// What a restored candle state means, checked: the check of a checkpoint is an unkeyed hash (it catches
// accidents, not a forger), so restore also refuses every state no stream of records could have produced.
// Run once on restore, after the fields were read one by one; the record loops never pay for it.
import { Fields } from '../_lib/checkpoint.js'
import type { ExactDecimal } from '../decimal/index.js'
import type { Bucketer } from '../time/index.js'
import { SESSION_NAMES, type SessionType } from '../trades/types.js'
import { snapshotOne } from './candle-out.js'
import type { CandleEngine } from './engine.js'
import type { Candle } from './types.js'
import { compareDecimals } from './validate.js'

/** A closed candle's decimals, exact (read from the state's plain decimal text). */
interface CandleNumbers {
  open: ExactDecimal
  high: ExactDecimal
  low: ExactDecimal
  close: ExactDecimal
  volume: ExactDecimal
  value: ExactDecimal | undefined
}

const mul = (a: ExactDecimal, b: ExactDecimal): ExactDecimal => ({ units: a.units * b.units, scale: a.scale + b.scale })

/** A candle's decimals, exact (plain decimal text of any length: outputs are never in exponent form). */
function numbersOf(c: Fields): CandleNumbers {
  return {
    open: c.plain('open'),
    high: c.plain('high'),
    low: c.plain('low'),
    close: c.plain('close'),
    volume: c.plain('volume', true),
    value: c.raw('value') === undefined ? undefined : c.plain('value'),
  }
}

/**
 * Reads a closed candle of a state: every field checked on its own (prices and sums plain decimals of any
 * length, outputs being never in exponent form), and a new candle built of those fields alone.
 */
export function readClosedCandle(c: Fields): Candle {
  numbersOf(c)
  const candle: Candle = {
    time: c.time('time'),
    open: c.raw('open') as string,
    high: c.raw('high') as string,
    low: c.raw('low') as string,
    close: c.raw('close') as string,
    volume: c.raw('volume') as string,
  }
  if (c.raw('value') !== undefined) candle.value = c.raw('value') as string
  if (c.raw('trades') !== undefined) candle.trades = c.int('trades', 0, Number.MAX_SAFE_INTEGER)
  const s = c.raw('session')
  if (s !== undefined) {
    if (!SESSION_NAMES.includes(s as SessionType)) c.fail('session', 'a session type', s)
    candle.session = s as SessionType
  }
  return candle
}

/**
 * The first rule a candle breaks, or undefined: low <= open, close <= high; from trades also a value between
 * low x volume and high x volume (each trade's price lies between them, its volume is >= 0).
 */
function candleRuleBroken(
  n: CandleNumbers,
  fromTrades: boolean,
): { field: 'open' | 'high' | 'low' | 'close' | 'value'; rule: string } | undefined {
  if (compareDecimals(n.low, n.high) > 0) return { field: 'low', rule: 'a price at or below high' }
  for (const k of ['open', 'close'] as const)
    if (compareDecimals(n[k], n.low) < 0 || compareDecimals(n[k], n.high) > 0)
      return { field: k, rule: 'a price between low and high' }
  if (!fromTrades) return undefined
  const value = 'a value between low x volume and high x volume (the sum of price x volume of its trades)'
  if (n.value === undefined) return { field: 'value', rule: value }
  if (compareDecimals(n.value, mul(n.low, n.volume)) < 0 || compareDecimals(n.value, mul(n.high, n.volume)) > 0)
    return { field: 'value', rule: value }
  return undefined
}

/** What the restoring aggregator's frame says of a state's candles. */
export interface CandleFrame {
  tick: boolean
  perTick: number
  mask: number
  bucketer: Bucketer | undefined
}

/**
 * Checks a restored state whole: the open candle (as its snapshot reads it) and the closed ones keep the
 * candle rules; closed candles are in time order, aligned to the frame, ended by the watermark, before the
 * open one, of a kept session; candles from trades count between 1 and the records taken, in all at most
 * the records taken (tick frames: at most a candle's trade count). `f` is the state's reader, `e` the
 * engine restored from it (the state's fields already read one by one).
 */
export function checkCandleState(f: Fields, e: CandleEngine, frame: CandleFrame): void {
  const closed = e.closed
  const closedRaw = f.arr('closed')
  const fromTrades = e.mode === 1
  if (e.mode === 0 && (e.seen !== 0 || e.has || closed.length > 0))
    f.fail('mode', '1 (trades) or 2 (candles): the state holds records', e.mode)
  let total = 0
  let prev = Number.NEGATIVE_INFINITY
  const kept = (s: Candle['session']) => ((frame.mask >> SESSION_NAMES.indexOf(s ?? 'MAINSESSION')) & 1) === 1
  // a candle from trades counts at least the trade that opened it, at most the records taken (a tick frame's count)
  const most = frame.tick ? Math.min(frame.perTick, e.seen) : e.seen
  const counts = (c: Fields, key: string, trades: number | undefined) => {
    if (trades === undefined || trades < 1 || trades > most) c.fail(key, `a trade count 1..${most}`, trades)
    total += trades
  }
  closed.forEach((candle, i) => {
    const c = f.item('closed', closedRaw, i)
    const n = numbersOf(c)
    const broken = candleRuleBroken(n, fromTrades)
    if (broken !== undefined) c.fail(broken.field, broken.rule, c.raw(broken.field))
    const t = candle.time
    // tick candles may share a time (trades at one instant); time-frame candles are one a bucket
    if (frame.tick ? t < prev : t <= prev) c.fail('time', 'a time after the previous closed candle', t)
    prev = t
    const b = frame.bucketer
    if (b !== undefined && b.locate(t) !== t) c.fail('time', 'the start of a bucket of the frame', t)
    if ((b === undefined ? t : b.end) > e.last) c.fail('time', `a candle ended by the watermark ${e.last}`, t)
    if (e.has && (frame.tick ? t > e.cTime : t >= e.cTime))
      c.fail('time', `a time before the open candle's ${e.cTime}`, t)
    if (!kept(candle.session)) c.fail('session', 'a session the options keep', candle.session)
    if (fromTrades) counts(c, 'trades', candle.trades)
  })
  if (e.has) {
    // the open candle as its snapshot reads it: the spellings and sums the state gave, combined
    const o = f.obj('open')
    if (e.hiU === Number.NEGATIVE_INFINITY)
      o.fail('extremes', 'true (an open candle holds the record that opened it)', false)
    const n = numbersOf(new Fields(snapshotOne(e) as unknown as Record<string, unknown>, o.path))
    const raw = { open: 'openRaw', high: 'hiRaw', low: 'loRaw', close: 'closeRaw', value: 'valLo' } as const
    const broken = candleRuleBroken(n, fromTrades)
    if (broken !== undefined)
      o.fail(
        raw[broken.field],
        broken.rule.replace(/\b(low|high)\b/g, (w) => raw[w as 'low']),
        o.raw(raw[broken.field]),
      )
    if (fromTrades) {
      if (e.noValue || e.noTrades) o.fail(e.noValue ? 'noValue' : 'noTrades', 'false (a candle from trades)', true)
      counts(o, 'count', e.count)
    }
    if (((frame.mask >> e.cSession) & 1) !== 1) o.fail('session', 'a session the options keep', e.cSession)
  }
  if (fromTrades && total > e.seen) f.fail('seen', `at least the ${total} trades its candles count`, e.seen)
}
