// Reader of trade columns: the fused validate + convert + aggregate loop around the trade kernels, and
// the exact path for any record it stops at.
import { MAX_TIME } from '../_lib/max-time.js'
import { POW10, UNITS_LIMIT } from '../decimal/index.js'
import { codeWords } from '../trades/codes.js'
import type { TradeColumns } from '../trades/index.js'
import { closeCandle, closeTradeRecords } from './candle-out.js'
import { checkTradeColumns, codesClean } from './column-checks.js'
import { tradeReader } from './engine-ops.js'
import { type CandleEngine, FAST_RUN, SOURCE_TRADE_COLUMNS } from './engine.js'
import { consumeTrades } from './exact-trades.js'
import { LIMB } from './format.js'
import { addRun, foldMid, keep, nextCandle, openCandle, opensCandle, setSource } from './open-candle.js'
import {
  NO_REC,
  NO_SESSIONS,
  REC,
  REC_CAP,
  T_CLOSED,
  T_COUNT,
  T_DAY,
  T_END,
  T_HIGH,
  T_HIGH_AT,
  T_LEN,
  T_LOW,
  T_LOW_AT,
  T_OPEN,
  T_PREV_TIME,
  T_RUN_PRICE,
  T_RUN_UNITS,
  T_RUN_VOLUME,
  T_SESSION,
  T_START,
  T_VALUE,
  T_VALUE_MID,
  T_VOLUME,
} from './loop-slots.js'
import { fracCandleRun } from './frac-kernel.js'
import { cleanCandleRun, tradeRun } from './trade-kernels.js'

/**
 * Trades of a short candle: after one, the decimal-volume loop closes candles and opens the next ones of
 * the day itself (as records), instead of returning at each candle's end (thin markets: a few trades a
 * minute, where the per-candle return and close cost most of the time: thin altcoin 1m went from 7 to 13 M
 * trades/s). After longer candles it returns at each end: stepping saves little there (thin altcoin 1h, 300
 * trades a candle, ran slower with it), and where a candle's end is rare the stepping code first runs only
 * after V8 has optimized the loop, which sent some processes onto slower code for good (busy crypto 5m: 34
 * against 70 M trades/s).
 */
const SHORT_CANDLE = 64
/**
 * Records per fracCandleRun call at most, shorter than FAST_RUN for the same reason: many short calls get
 * the loop optimized as a whole function. With a call a candle (busy crypto 1h: about 100,000 trades) it ran
 * on on-stack-replacement code, 36 against 73 M trades/s in six processes of six.
 */
const FRAC_SLICE = 1024

export function tradeColumnsIn(e: CandleEngine, columns: TradeColumns): void {
  const r = tradeReader(e)
  checkTradeColumns(columns)
  const n = columns.time.length
  const sideW = codeWords(columns.side)
  const sessW = columns.session === undefined ? null : codeWords(columns.session)
  for (let at = 0; at < n; ) {
    // the fused fast loop runs until a record needs the exact slow path (more decimals, huge units,
    // invalid, out of order); that record's chunk goes through the scaled reader, then the fast loop
    // resumes. A slice whose side and session codes are all valid and kept (checked 4 bytes a word,
    // once) lets the tight loop skip those tests.
    const stop = Math.min(n, at + FAST_RUN)
    const clean = codesClean(columns, sideW, sessW, at, stop, e.mask)
    while (at < stop) {
      at = fastTradeColumns(e, columns, at, stop, clean)
      if (at >= stop) break
      // one record through the exact path (it grows the scales, takes huge units, or throws), then fast again
      const k = r.readColumns(columns, at, at + 1, e.seen)
      setSource(e, SOURCE_TRADE_COLUMNS, columns, at)
      consumeTrades(e, r, k)
      at += k
    }
  }
}

/**
 * Fused validate + convert + aggregate loop over columns[from, n) at the current scales; stops at the
 * first record it cannot take exactly on the fast path and returns its index (n when all were taken).
 * The inner loop runs over the records of one candle with no call in it; the outer one opens candles.
 */
export function fastTradeColumns(e: CandleEngine, c: TradeColumns, from: number, n: number, clean = false): number {
  const ps = e.ps
  const vs = e.vs
  if (ps > 22 || vs > 22) return from
  const PP = POW10[ps] as number
  const VP = POW10[vs] as number
  const T = c.time
  const P = c.price
  const V = c.volume
  const SD = c.side
  const SS = c.session
  const hasS = SS !== undefined
  const mask = e.mask
  const lim = e.tick ? e.perTick : Number.POSITIVE_INFINITY
  setSource(e, SOURCE_TRADE_COLUMNS, c, 0)
  let last = e.last
  let end = e.cEnd
  let hiU = e.hiU
  let loU = e.loU
  let volLo = e.volLo
  let valLo = e.valLo
  // the high limb of the value sum (weighted by LIMB), folded into valLo / valHi before the state leaves the loop
  let valMid = 0
  let count = e.count
  let hiI = -1
  let loI = -1
  let closeI = -1
  let lastX = Number.NaN
  let lastPU = 0
  let lastV = Number.NaN
  let lastVU = 0
  let runVol = 0
  const st = e.scratch
  // the trade that opened the open candle in this call (-1: opened before): only such a candle, all in
  // these columns, may cleanCandleRun / fracCandleRun close itself and step on to the next ones
  let openIdx = -1
  let i = from
  for (;;) {
    let next = false
    let ns = 0
    // the common trade (in the candle, valid, a kept session, the same price as the last one) runs in
    // tradeRun's tight loop; any other goes once through the full body below, then tradeRun again
    let tEnd = Math.min(end, MAX_TIME + 1)
    for (; i < n; i++) {
      const stop = lim === Number.POSITIVE_INFINITY ? n : Math.min(n, i + (lim - count))
      // tradeRun takes nothing when the price changes (short runs: most trades of busy markets), so it is
      // called only on a repeat: no state stored and read back for a call that takes no trade
      if (clean && VP !== 1 && i < stop && (P[i] === lastX || (lastPU < LIMB && lastPU > -LIMB))) {
        // decimal volumes: the candle, price changes included, in one loop (value in two limbs), and in
        // minute / hour frames the next candles of the day (as cleanCandleRun below). After a price of 2^26
        // units or more only on a repeat: the loop stops at a change whose run passes 2^52
        st[T_PREV_TIME] = last < -MAX_TIME ? -MAX_TIME : last
        st[T_END] = tEnd
        st[T_RUN_VOLUME] = runVol
        st[T_RUN_PRICE] = lastX
        st[T_RUN_UNITS] = lastPU
        st[T_HIGH] = hiU
        st[T_LOW] = loU
        st[T_VOLUME] = volLo
        st[T_VALUE] = valLo
        st[T_VALUE_MID] = valMid
        st[T_HIGH_AT] = hiI
        st[T_LOW_AT] = loI
        st[T_COUNT] = count
        st[T_LEN] = 0
        if (e.lastTrades < SHORT_CANDLE && steps(e, openIdx, st)) {
          st[T_START] = e.cTime
          st[T_OPEN] = openIdx
          st[T_SESSION] = e.cSession
        }
        st[T_CLOSED] = 0
        const j = fracCandleRun(
          T,
          V,
          P,
          SS ?? NO_SESSIONS,
          i,
          Math.min(stop, i + FRAC_SLICE),
          PP,
          VP,
          st,
          records(e, st),
        )
        if (j > i) {
          last = st[T_PREV_TIME] as number
          runVol = st[T_RUN_VOLUME] as number
          lastX = st[T_RUN_PRICE] as number
          lastPU = st[T_RUN_UNITS] as number
          hiU = st[T_HIGH] as number
          loU = st[T_LOW] as number
          volLo = st[T_VOLUME] as number
          valLo = st[T_VALUE] as number
          valMid = st[T_VALUE_MID] as number
          hiI = st[T_HIGH_AT] as number
          loI = st[T_LOW_AT] as number
          count = st[T_COUNT] as number
          closeI = j - 1
          if ((st[T_CLOSED] as number) > 0) {
            openIdx = st[T_OPEN] as number
            stepped(e, P, st, openIdx)
            end = e.cEnd
            tEnd = Math.min(end, MAX_TIME + 1)
          }
          i = j
        }
      } else if (i < stop && ((clean && VP === 1) || P[i] === lastX)) {
        st[T_PREV_TIME] = last < -MAX_TIME ? -MAX_TIME : last
        st[T_END] = tEnd
        st[T_RUN_VOLUME] = runVol
        st[T_RUN_PRICE] = lastX
        if (clean && VP === 1) {
          // the whole candle, price changes included, in one loop (it sums value in valLo only)
          valLo = foldMid(e, valLo, valMid)
          valMid = 0
          st[T_RUN_UNITS] = lastPU
          st[T_HIGH] = hiU
          st[T_LOW] = loU
          st[T_VOLUME] = volLo
          st[T_VALUE] = valLo
          st[T_HIGH_AT] = hiI
          st[T_LOW_AT] = loI
          st[T_COUNT] = count
          st[T_LEN] = 0
          if (steps(e, openIdx, st)) {
            st[T_START] = e.cTime
            st[T_OPEN] = openIdx
            st[T_SESSION] = e.cSession
          }
          st[T_CLOSED] = 0
          const j = cleanCandleRun(T, V, P, SS ?? NO_SESSIONS, i, stop, PP, st, records(e, st))
          if (j > i) {
            last = st[T_PREV_TIME] as number
            runVol = st[T_RUN_VOLUME] as number
            lastX = st[T_RUN_PRICE] as number
            lastPU = st[T_RUN_UNITS] as number
            hiU = st[T_HIGH] as number
            loU = st[T_LOW] as number
            volLo = st[T_VOLUME] as number
            valLo = st[T_VALUE] as number
            hiI = st[T_HIGH_AT] as number
            loI = st[T_LOW_AT] as number
            count = st[T_COUNT] as number
            closeI = j - 1
            if ((st[T_CLOSED] as number) > 0) {
              openIdx = st[T_OPEN] as number
              stepped(e, P, st, openIdx)
              end = e.cEnd
              tEnd = Math.min(end, MAX_TIME + 1)
            }
            i = j
          }
        } else {
          const j = tradeRun(T, SD, SS, V, P, i, stop, mask, VP, st)
          if (j > i) {
            last = st[T_PREV_TIME] as number
            runVol = st[T_RUN_VOLUME] as number
            count += j - i
            closeI = j - 1
            i = j
          }
        }
      }
      if (i >= n) break
      const t = T[i] as number
      if (!(t >= last) || t > MAX_TIME || t < -MAX_TIME || Math.floor(t) !== t) break
      const sd = SD[i] as number
      if (sd !== 1 && sd !== 2) break
      const s = hasS ? (SS[i] as number) : 0
      if (s > 2) break
      const v = V[i] as number
      let vu: number
      if (v === lastV) vu = lastVU
      else {
        vu = Math.floor(v * VP + 0.5)
        if (vu / VP !== v || !(vu < UNITS_LIMIT && vu >= 0)) break
        lastV = v
        lastVU = vu
      }
      const x = P[i] as number
      if (((mask >> s) & 1) === 0) {
        // another session's trade: validated, not taken
        if (x !== lastX) {
          const u = Math.floor(x * PP + 0.5)
          if (u / PP !== x || !(u < UNITS_LIMIT && u > -UNITS_LIMIT)) break
        }
        last = t
        continue
      }
      if (t >= end || count >= lim) {
        next = true
        ns = s
        break
      }
      // a price equal to the last taken one can be neither a new high nor a new low: only a change
      // converts and compares (lastX restarts with each candle)
      // value = sum of price x volume is summed per run of one price: the run's volume times its price
      if (x !== lastX) {
        const u = Math.floor(x * PP + 0.5)
        if (u / PP !== x || !(u < UNITS_LIMIT && u > -UNITS_LIMIT)) break
        if (runVol !== 0) {
          const pv = lastPU * runVol
          if (pv < UNITS_LIMIT && pv > -UNITS_LIMIT) {
            valLo += pv
            if (valLo > UNITS_LIMIT || valLo < -UNITS_LIMIT) {
              e.valHi += BigInt(valLo)
              valLo = 0
            }
          } else if (lastPU < LIMB && lastPU > -LIMB) {
            // runVol <= 2^52: two exact products of its 26-bit halves (LIMB), no bigint per run
            const h = Math.floor(runVol / LIMB)
            valLo += lastPU * (runVol - h * LIMB)
            if (valLo > UNITS_LIMIT || valLo < -UNITS_LIMIT) {
              e.valHi += BigInt(valLo)
              valLo = 0
            }
            valMid += lastPU * h
            if (valMid > UNITS_LIMIT || valMid < -UNITS_LIMIT) {
              valLo = foldMid(e, valLo, valMid)
              valMid = 0
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
    // record i opens a new candle; the inner loop takes it again (its checks pass again). Its price is
    // checked first: a refused record must not close the open candle nor open one (the exact path
    // takes a record this check stops at; once per candle, in a call of its own off the per-trade loop)
    if (!opensCandle(e, P[i] as number)) break
    valLo = foldMid(e, valLo, valMid)
    valMid = 0
    if (e.has) e.lastTrades = count
    nextCandle(e, T[i] as number, ns, P[i] as number, hiI, loI, closeI, volLo, valLo, count, lastPU, runVol)
    end = e.cEnd
    openIdx = i
    lastX = Number.NaN
    runVol = 0
    hiU = Number.NEGATIVE_INFINITY
    loU = Number.POSITIVE_INFINITY
    volLo = valLo = count = 0
    hiI = loI = closeI = -1
  }
  e.seen += i - from
  e.last = last
  valLo = foldMid(e, valLo, valMid)
  if (e.has) {
    keep(e, hiI, loI, closeI, hiU, loU, volLo, valLo, count)
    addRun(e, lastPU, runVol)
    if (count >= lim) closeCandle(e)
  }
  return i
}

/**
 * True when a loop may close the open candle itself and step to the next ones of its day (minute / hour
 * frames): the candle was opened by trade `openIdx` of these columns and has no bigint part; the day's
 * grid then goes into st (T_DAY, T_DAY_END, T_LEN; T_LEN stays 0 otherwise).
 */
function steps(e: CandleEngine, openIdx: number, st: Float64Array): boolean {
  return (
    openIdx >= 0 &&
    !e.tick &&
    e.volHi === 0n &&
    e.valHi === 0n &&
    e.valMid === 0 &&
    e.bucketer?.dayGrid(st, T_DAY) === true
  )
}

/** The records a loop closes candles into when it steps (none when st[T_LEN] is 0). */
function records(e: CandleEngine, st: Float64Array): Float64Array {
  return (st[T_LEN] as number) > 0 ? (e.rec ??= new Float64Array(REC_CAP * REC)) : NO_REC
}

/**
 * A loop closed st[T_CLOSED] candles and opened the one now open (at trade `openIdx`): their candles, then
 * its state.
 */
function stepped(e: CandleEngine, P: Float64Array, st: Float64Array, openIdx: number): void {
  // the candle open before the loop is closed: no callback may see it as open
  e.has = false
  e.cEnd = Number.NEGATIVE_INFINITY
  closeTradeRecords(e, P, st[T_CLOSED] as number)
  openCandle(e, st[T_START] as number, st[T_SESSION] as number, P[openIdx] as number)
}
