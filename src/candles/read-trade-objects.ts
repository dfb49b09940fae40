// Reader of trade objects: the fused fast loop (the object twin of the columns reader), and the exact
// path for any record it stops at. Its price-change and candle-change steps are a copy of the columns
// reader's on purpose: they update the loop's running sums in locals, which a shared helper could only
// reach through an object or the loop-state array, at a cost on every trade.
import { MAX_TIME } from '../_lib/max-time.js'
import { type DecimalInput, POW10, UNITS_LIMIT, stringToUnits } from '../decimal/index.js'
import { type Trade, isTradeColumns } from '../trades/index.js'
import { closeCandle } from './candle-out.js'
import { tradeReader } from './engine-ops.js'
import { type CandleEngine, FAST_RUN, SOURCE_TRADE_OBJECTS } from './engine.js'
import { consumeTrades } from './exact-trades.js'
import { addRun, keep, nextCandle, opensCandle, setSource, unitsFast } from './open-candle.js'

/**
 * The trade objects of trades[from, to): the fused fast loop, and a record it cannot take exactly alone
 * through the scaled reader (which throws for a bad one); with `stopAtBatch` it stops at a `TradeColumns`
 * batch instead (the fast loop stops there too: its time is not a number). Returns where it stopped.
 */
export function tradeObjectRun(
  e: CandleEngine,
  trades: ArrayLike<Trade>,
  from: number,
  to: number,
  stopAtBatch: boolean,
): number {
  const r = tradeReader(e)
  let at = from
  while (at < to) {
    const stop = Math.min(to, at + FAST_RUN)
    at = fastTradeObjects(e, trades, at, stop)
    if (at >= stop) continue
    if (stopAtBatch && isTradeColumns(trades[at])) break
    const k = r.readTrades(trades, at, at + 1, e.seen)
    setSource(e, SOURCE_TRADE_OBJECTS, trades, at)
    consumeTrades(e, r, k)
    at += k
  }
  return at
}

/**
 * Fused validate + convert + aggregate loop over trade objects[from, n) at the current scales (the
 * object twin of {@link fastTradeColumns}); returns the index of the first record it cannot take.
 */
export function fastTradeObjects(e: CandleEngine, c: ArrayLike<Trade>, from: number, n: number): number {
  const ps = e.ps
  const vs = e.vs
  if (ps > 22 || vs > 22) return from
  const PP = POW10[ps] as number
  const VP = POW10[vs] as number
  const mask = e.mask
  const lim = e.tick ? e.perTick : Number.POSITIVE_INFINITY
  setSource(e, SOURCE_TRADE_OBJECTS, c, 0)
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
        if (x !== lastX && !(Math.abs(unitsFast(x, ps, PP)) < UNITS_LIMIT)) break
        last = t
        continue
      }
      if (t >= end || count >= lim) {
        next = true
        ns = s
        break
      }
      // as in fastTradeColumns: a price is converted and compared only when it changes; value per run of one price
      if (x !== lastX) {
        const u = unitsFast(x, ps, PP)
        if (!(u < UNITS_LIMIT && u > -UNITS_LIMIT)) break
        if (runVol !== 0) {
          const pv = lastPU * runVol
          if (pv < UNITS_LIMIT && pv > -UNITS_LIMIT) {
            valLo += pv
            if (valLo > UNITS_LIMIT || valLo < -UNITS_LIMIT) {
              e.valHi += BigInt(valLo)
              valLo = 0
            }
          } else e.valHi += BigInt(lastPU) * BigInt(runVol)
          volLo += runVol
          if (volLo > UNITS_LIMIT) {
            e.volHi += BigInt(volLo)
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
        e.valHi += BigInt(lastPU) * BigInt(runVol)
        e.volHi += BigInt(runVol)
        runVol = 0
      }
      closeI = i
      count++
    }
    if (!next) break
    const tr = c[i] as Trade
    // as in fastTradeColumns: a record that opens a new candle has its price checked first (the exact path
    // takes a record this check refuses; a call of its own keeps the per-trade loop as it was)
    if (!opensCandle(e, tr.price)) break
    nextCandle(e, tr.time, ns, tr.price, hiI, loI, closeI, volLo, valLo, count, lastPU, runVol)
    end = e.cEnd
    lastX = Number.NaN
    runVol = 0
    hiU = Number.NEGATIVE_INFINITY
    loU = Number.POSITIVE_INFINITY
    volLo = valLo = count = 0
    hiI = loI = closeI = -1
  }
  e.seen += i - from
  e.last = last
  if (e.has) {
    keep(e, hiI, loI, closeI, hiU, loU, volLo, valLo, count)
    addRun(e, lastPU, runVol)
    if (count >= lim) closeCandle(e)
  }
  return i
}
