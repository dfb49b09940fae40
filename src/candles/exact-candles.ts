// The exact slow path for candle input (resampling): one candle read into exact unit columns and
// taken, after a fast loop stopped at it.
import { MAX_TIME } from '../_lib/max-time.js'
import { MarketDataError } from '../errors.js'
import { orderError } from './engine-ops.js'
import type { CandleEngine, ExactCandleColumns } from './engine.js'
import { begin, offerHigh, offerLow } from './exact-trades.js'
import { addValue, addVolume, bigUnits, raw, rescale } from './open-candle.js'
import { CANDLE_MSG } from './messages.js'
import type { CandleColumns, CandleInput } from './types.js'

export function candleFail(
  index: number,
  field: string,
  msg: string,
  code:
    | 'invalid_decimal'
    | 'invalid_volume'
    | 'invalid_time'
    | 'invalid_session'
    | 'invalid_option' = 'invalid_decimal',
): never {
  throw new MarketDataError(code, msg, { index, field })
}

export function readCandleObjects(e: CandleEngine, candles: ArrayLike<CandleInput>, from: number, k: number): void {
  const c = e.cols as ExactCandleColumns
  const base = e.seen
  for (let i = 0; i < k; i++) {
    const x = candles[from + i] as CandleInput
    if (typeof x !== 'object' || x === null) candleFail(base + i, 'candle', CANDLE_MSG.notCandle(x), 'invalid_option')
    const t = x.time
    if (typeof t !== 'number' || !(t >= -MAX_TIME && t <= MAX_TIME) || Math.floor(t) !== t)
      candleFail(base + i, 'time', CANDLE_MSG.time(t), 'invalid_time')
    c.t[i] = t
    const se = x.session
    const s = se === undefined || se === 'MAINSESSION' ? 0 : se === 'PRE_MARKET' ? 1 : se === 'POST_MARKET' ? 2 : -1
    if (s < 0) candleFail(base + i, 'session', CANDLE_MSG.session(se), 'invalid_session')
    c.s[i] = s
    const tr = x.trades
    if (tr === undefined) c.hasTrades[i] = 0
    else {
      if (typeof tr !== 'number' || !Number.isSafeInteger(tr) || tr < 0)
        candleFail(base + i, 'trades', CANDLE_MSG.trades(tr), 'invalid_option')
      c.hasTrades[i] = 1
      c.n[i] = tr
    }
    c.hasValue[i] = x.value === undefined ? 0 : 1
  }
  const fail =
    (f: string, vol = false) =>
    (i: number): never =>
      candleFail(
        base + i,
        f,
        vol
          ? CANDLE_MSG.volume(f, (candles[from + i] as CandleInput)[f as 'volume'])
          : CANDLE_MSG.price(f, (candles[from + i] as CandleInput)[f as 'open']),
        vol ? 'invalid_volume' : 'invalid_decimal',
      )
  c.o.fromObjects(candles, from, k, 'open', false, false, fail('open'))
  c.h.fromObjects(candles, from, k, 'high', false, false, fail('high'))
  c.l.fromObjects(candles, from, k, 'low', false, false, fail('low'))
  c.c.fromObjects(candles, from, k, 'close', false, false, fail('close'))
  c.v.fromObjects(candles, from, k, 'volume', false, true, fail('volume', true))
  c.x.fromObjects(candles, from, k, 'value', true, false, fail('value'))
  unifyCandleScales(e)
}

export function readCandleColumnChunk(e: CandleEngine, cc: CandleColumns, from: number, k: number): void {
  const c = e.cols as ExactCandleColumns
  const base = e.seen
  const T = cc.time
  const S = cc.session
  const N = cc.trades
  for (let i = 0; i < k; i++) {
    const t = T[from + i] as number
    if (!(t >= -MAX_TIME && t <= MAX_TIME) || Math.floor(t) !== t)
      candleFail(base + i, 'time', CANDLE_MSG.time(t), 'invalid_time')
    c.t[i] = t
    const s = S === undefined ? 0 : (S[from + i] as number)
    if (s > 2) candleFail(base + i, 'session', CANDLE_MSG.session(s), 'invalid_session')
    c.s[i] = s
    if (N !== undefined) {
      const n = N[from + i] as number
      if (!(n >= 0) || !Number.isSafeInteger(n)) candleFail(base + i, 'trades', CANDLE_MSG.trades(n), 'invalid_option')
      c.n[i] = n
    }
  }
  c.hasTrades.fill(N === undefined ? 0 : 1, 0, k)
  c.hasValue.fill(cc.value === undefined ? 0 : 1, 0, k)
  const fail =
    (f: string, src: Float64Array, vol = false) =>
    (i: number): never =>
      candleFail(
        base + i,
        f,
        vol ? CANDLE_MSG.volume(f, src[from + i]) : CANDLE_MSG.price(f, src[from + i]),
        vol ? 'invalid_volume' : 'invalid_decimal',
      )
  c.o.fromNumbers(cc.open, from, k, false, fail('open', cc.open))
  c.h.fromNumbers(cc.high, from, k, false, fail('high', cc.high))
  c.l.fromNumbers(cc.low, from, k, false, fail('low', cc.low))
  c.c.fromNumbers(cc.close, from, k, false, fail('close', cc.close))
  c.v.fromNumbers(cc.volume, from, k, true, fail('volume', cc.volume, true))
  if (cc.value !== undefined) c.x.fromNumbers(cc.value, from, k, false, fail('value', cc.value))
  else c.x.out.fill(0, 0, k)
  unifyCandleScales(e)
}

export function unifyCandleScales(e: CandleEngine): void {
  const c = e.cols as ExactCandleColumns
  const ps = Math.max(c.o.scale, c.h.scale, c.l.scale, c.c.scale, e.ps) | 0
  c.o.raise(ps)
  c.h.raise(ps)
  c.l.raise(ps)
  c.c.raise(ps)
  c.v.raise(e.vs)
  c.x.raise(e.xs)
}

/**
 * Puts the columns' scales back to the aggregator's after a refused candle: the scales its decimals
 * raised while it was read do not outlive it (a refused record changes nothing).
 */
export function unreadCandle(e: CandleEngine): void {
  const c = e.cols as ExactCandleColumns
  c.o.scale = c.h.scale = c.l.scale = c.c.scale = e.ps
  c.v.scale = e.vs
  c.x.scale = e.xs
}

/** The exact path over one chunk read into `cols` (one candle: the fast loop stopped at it). */
export function consumeCandles(e: CandleEngine, k: number): void {
  const c = e.cols as ExactCandleColumns
  const base = e.seen
  for (let i = 0; i < k; i++) {
    const t = c.t[i] as number
    if (t < e.last) {
      e.seen = base + i
      throw orderError(e, t, base + i)
    }
    const o = c.o.out[i] as number
    const h = c.h.out[i] as number
    const l = c.l.out[i] as number
    const cl = c.c.out[i] as number
    if (o === o && h === h && l === l && cl === cl) {
      if (!(l <= o && l <= cl && l <= h)) candleFail(base + i, 'low', CANDLE_MSG.ohlc('low'))
      if (!(o <= h && cl <= h)) candleFail(base + i, 'high', CANDLE_MSG.ohlc('high'))
    } else {
      const ob = c.o.bigAt(i)
      const hb = c.h.bigAt(i)
      const lb = c.l.bigAt(i)
      const cb = c.c.bigAt(i)
      if (!(lb <= ob && lb <= cb && lb <= hb)) candleFail(base + i, 'low', CANDLE_MSG.ohlc('low'))
      if (!(ob <= hb && cb <= hb)) candleFail(base + i, 'high', CANDLE_MSG.ohlc('high'))
    }
    const s = c.s[i] as number
    if (c.hasTrades[i] !== 0 && ((e.mask >> s) & 1) === 1) {
      // the trades count is checked before the candle changes (a refused record changes nothing)
      const opens = e.tick ? e.count >= e.perTick || !e.has : t >= e.cEnd
      if ((opens ? 0 : e.count) + (c.n[i] as number) > Number.MAX_SAFE_INTEGER) {
        e.seen = base + i
        throw new MarketDataError('inexact', CANDLE_MSG.tradesCount(opens ? (c.t[i] as number) : e.cTime), {
          index: base + i,
          field: 'trades',
        })
      }
    }
    // the candle is valid: the aggregator's scales follow its decimals now, never for a refused one
    if (c.o.scale !== e.ps || c.v.scale !== e.vs || c.x.scale !== e.xs) rescale(e, c.o.scale, c.v.scale, c.x.scale)
    if (!begin(e, t, s, i, base + i)) continue
    if (h === h) offerHigh(e, h, undefined, i)
    else {
      const hb = c.h.bigAt(i)
      offerHigh(e, bigUnits(hb), hb, i)
    }
    if (l === l) offerLow(e, l, undefined, i)
    else {
      const lb = c.l.bigAt(i)
      offerLow(e, bigUnits(lb), lb, i)
    }
    e.closeRaw = raw(e, 'close', i)
    const v = c.v.out[i] as number
    if (v === v) addVolume(e, v)
    else addVolume(e, 0, c.v.bigAt(i))
    if (c.hasValue[i] === 0) e.noValue = true
    else {
      const x = c.x.out[i] as number
      if (x === x) addValue(e, x)
      else addValue(e, 0, c.x.bigAt(i))
    }
    if (c.hasTrades[i] === 0) e.noTrades = true
    else {
      e.count += c.n[i] as number
    }
  }
  e.seen = base + k
}
