// Reader of candle objects (resampling): the nesting check, the fused fast loop, and the exact path for
// any candle it stops at. Its sum steps repeat the candle-columns reader's on purpose (running sums in
// locals, see read-trade-objects.ts).
import { MAX_TIME } from '../_lib/max-time.js'
import { POW10, UNITS_LIMIT } from '../decimal/index.js'
import { exactCandleColumns } from './engine-ops.js'
import { type CandleEngine, FAST_RUN, SOURCE_CANDLE_OBJECTS } from './engine.js'
import { consumeCandles, readCandleObjects, unreadCandle } from './exact-candles.js'
import { keep, nextCandle, setSource, unitsFast } from './open-candle.js'
import { nested } from './read-candle-columns.js'
import type { CandleInput } from './types.js'

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

export function candlesIn(e: CandleEngine, candles: ArrayLike<CandleInput>, from: number, to: number): void {
  exactCandleColumns(e)
  if (e.nesting === undefined) candleObjectRun(e, candles, from, to)
  else nested(e, candleTimes(candles, from, to), to - from, (a, b) => candleObjectRun(e, candles, from + a, from + b))
}

export function candleObjectRun(e: CandleEngine, candles: ArrayLike<CandleInput>, from: number, to: number): void {
  for (let at = from; at < to; ) {
    const stop = Math.min(to, at + FAST_RUN)
    at = fastCandleObjects(e, candles, at, stop)
    if (at >= stop) continue
    const k = 1
    try {
      readCandleObjects(e, candles, at, k)
      setSource(e, SOURCE_CANDLE_OBJECTS, candles, at)
      consumeCandles(e, k)
    } catch (err) {
      unreadCandle(e)
      throw err
    }
    at += k
  }
}

/**
 * Fused validate + convert + aggregate loop over candle objects[from, n) at the current scales;
 * returns the index of the first candle it cannot take (it then goes alone through the exact path).
 */
export function fastCandleObjects(e: CandleEngine, c: ArrayLike<CandleInput>, from: number, n: number): number {
  const ps = e.ps
  const vs = e.vs
  const xs = e.xs
  if (ps > 22 || vs > 22 || xs > 22) return from
  const PP = POW10[ps] as number
  const VP = POW10[vs] as number
  const XP = POW10[xs] as number
  const mask = e.mask
  const conv = unitsFast
  setSource(e, SOURCE_CANDLE_OBJECTS, c, 0)
  let last = e.last
  let end = e.cEnd
  let hiU = e.hiU
  let loU = e.loU
  let volLo = e.volLo
  let valLo = e.valLo
  let count = e.count
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
    if (nt !== undefined && (typeof nt !== 'number' || !(nt >= 0 && nt <= 9007199254740991) || Math.floor(nt) !== nt))
      break
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
      nextCandle(e, t, s, cd.open, hiI, loI, closeI, volLo, valLo, count)
      end = e.cEnd
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
      e.volHi += BigInt(volLo)
      volLo = 0
    }
    if (xv !== undefined) {
      valLo += xu
      if (valLo > UNITS_LIMIT || valLo < -UNITS_LIMIT) {
        e.valHi += BigInt(valLo)
        valLo = 0
      }
    } else e.noValue = true
    if (nt !== undefined) count += nt
    else e.noTrades = true
  }
  e.seen += i - from
  e.last = last
  if (e.has) keep(e, hiI, loI, closeI, hiU, loU, volLo, valLo, count)
  return i
}
