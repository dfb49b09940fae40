// Reader of candle columns (resampling): the nesting check, the fused fast loop around candleRun, and
// the exact path for any candle it stops at.
import { MAX_TIME } from '../_lib/max-time.js'
import { POW10, UNITS_LIMIT } from '../decimal/index.js'
import type { NestingGuard } from '../time/nesting.js'
import { ALL_SESSION_CODES, codeWords, codesKept } from '../trades/codes.js'
import { candleRun } from './candle-kernel.js'
import { closeFromScratch, closeRecords } from './candle-out.js'
import { checkCandleColumns } from './column-checks.js'
import { exactCandleColumns } from './engine-ops.js'
import { type CandleEngine, FAST_RUN, SOURCE_CANDLE_COLUMNS } from './engine.js'
import { consumeCandles, readCandleColumnChunk, unreadCandle } from './exact-candles.js'
import {
  C_CLOSED,
  C_CLOSE_AT,
  C_COUNT,
  C_DAY,
  C_END,
  C_HIGH,
  C_HIGH_AT,
  C_LEN,
  C_LOW,
  C_LOW_AT,
  C_OPEN,
  C_PREV_TIME,
  C_SESSION,
  C_START,
  C_VALUE,
  C_VOLUME,
  REC,
  REC_CAP,
  S_CLOSE,
  S_COUNT,
  S_HIGH,
  S_LOW,
  S_VALUE,
  S_VOLUME,
} from './loop-slots.js'
import { extremeUnits, isBig, keep, missingColumns, nextCandle, setSource } from './open-candle.js'
import type { CandleColumns } from './types.js'

export function candleColumnsIn(e: CandleEngine, columns: CandleColumns): void {
  exactCandleColumns(e)
  const n = columns.time.length
  checkCandleColumns(columns)
  if (e.nesting === undefined) candleColumnRun(e, columns, 0, n)
  else nested(e, columns.time, n, (a, b) => candleColumnRun(e, columns, a, b))
}

export function candleColumnRun(e: CandleEngine, columns: CandleColumns, from: number, n: number): void {
  const S = columns.session
  const sessW = S === undefined || (e.mask & 7) !== 7 ? null : codeWords(S)
  for (let at = from; at < n; ) {
    const stop = Math.min(n, at + FAST_RUN)
    // a slice whose session codes are all valid and kept (tested once, 4 bytes a word) skips the per-candle test
    const clean = S !== undefined && sessW !== null && codesKept(S, sessW, at, stop, ALL_SESSION_CODES)
    while (at < stop) {
      at = fastCandleColumns(e, columns, at, stop, clean)
      if (at >= stop) break
      const k = 1
      try {
        readCandleColumnChunk(e, columns, at, k)
        setSource(e, SOURCE_CANDLE_COLUMNS, columns, at)
        consumeCandles(e, k)
      } catch (err) {
        unreadCandle(e)
        throw err
      }
      at += k
    }
  }
}

/**
 * Feeds candles[0, n) of a call (their times `times[0, n)`) up to the first one the nesting rule refuses,
 * then throws its refusal. When the aggregator refuses a record itself, the guard is rewound to the
 * records applied, so a refused record changes nothing in either.
 */
export function nested(e: CandleEngine, times: Float64Array, n: number, run: (from: number, to: number) => void): void {
  const g = e.nesting as NestingGuard
  const saved = g.save()
  const seen = e.seen
  const stop = g.scan(times, 0, n, seen)
  try {
    run(0, stop)
  } catch (err) {
    g.restore(saved)
    g.scan(times, 0, Math.min(stop, e.seen - seen), seen)
    throw err
  }
  if (stop < n) throw g.error
}

/**
 * Fused validate + convert + aggregate loop over candle columns[from, n) at the current scales; stops
 * at the first candle it cannot take exactly on the fast path and returns its index. Prices stay
 * doubles: double order is decimal order, and below 2^52 units the double of hiU / 10^ps stands for
 * exactly that decimal (the 2^52 printing bound), so only the extremes still open at the end become
 * units. Volume, value and trades are summed exactly in units.
 */
export function fastCandleColumns(
  e: CandleEngine,
  c: CandleColumns,
  from: number,
  n: number,
  cleanSessions = false,
): number {
  const ps = e.ps
  const vs = e.vs
  const xs = e.xs
  if (ps > 22 || vs > 22 || xs > 22) return from
  if (e.has && (isBig(e.hiU) || isBig(e.loU))) return from
  const PP = POW10[ps] as number
  const VP = POW10[vs] as number
  const XP = POW10[xs] as number
  const T = c.time
  const O = c.open
  const H = c.high
  const Lw = c.low
  const C = c.close
  const V = c.volume
  const X = c.value
  const NT = c.trades
  const SS = c.session
  const hasX = X !== undefined
  const hasN = NT !== undefined
  const hasS = SS !== undefined
  const mask = e.mask
  const MAXV = Number.MAX_VALUE
  setSource(e, SOURCE_CANDLE_COLUMNS, c, 0)
  let last = e.last
  let end = e.cEnd
  let hiX = e.has ? e.hiU / PP : Number.NEGATIVE_INFINITY
  let loX = e.has ? e.loU / PP : Number.POSITIVE_INFINITY
  let volLo = e.volLo
  let valLo = e.valLo
  let count = e.count
  let hiI = -1
  let loI = -1
  let closeI = -1
  // the index of the candle that opened the open bucket in this call (-1: opened before): only such a
  // bucket, all in these columns, may candleRun close itself and step on to the next ones
  let openIdx = -1
  const st = e.scratch
  const b = e.bucketer
  let i = from
  for (;;) {
    let next = false
    let ns = 0
    for (; i < n; i++) {
      // the common candle runs in the tight loop of candleRun; the body below takes any other, one at a time
      st[C_PREV_TIME] = last < -MAX_TIME ? -MAX_TIME : last
      st[C_END] = Math.min(end, MAX_TIME + 1)
      st[C_HIGH] = hiX
      st[C_LOW] = loX
      st[C_VOLUME] = volLo
      st[C_VALUE] = valLo
      st[C_COUNT] = count
      st[C_LEN] = 0
      if (openIdx >= 0 && e.volHi === 0n && e.valHi === 0n && e.valMid === 0 && b?.dayGrid(st, C_DAY)) {
        st[C_START] = e.cTime
        st[C_OPEN] = openIdx
        st[C_SESSION] = e.cSession
        st[C_CLOSE_AT] = closeI
      }
      st[C_CLOSED] = 0
      const j = candleRun(c, i, n, mask, VP, XP, st, cleanSessions, (e.rec ??= new Float64Array(REC_CAP * REC)))
      if (j > i) {
        last = st[C_PREV_TIME] as number
        volLo = st[C_VOLUME] as number
        valLo = st[C_VALUE] as number
        count = st[C_COUNT] as number
        if ((st[C_HIGH_AT] as number) >= 0) {
          hiX = st[C_HIGH] as number
          hiI = st[C_HIGH_AT] as number
        }
        if ((st[C_LOW_AT] as number) >= 0) {
          loX = st[C_LOW] as number
          loI = st[C_LOW_AT] as number
        }
        closeI = st[C_CLOSE_AT] as number
        const k = st[C_CLOSED] as number
        if (k > 0) {
          // candleRun closed k buckets and opened the one now open: their candles, then its state
          end = st[C_END] as number
          const start = st[C_START] as number
          const session = st[C_SESSION] as number
          openIdx = st[C_OPEN] as number
          closeRecords(e, c, k, hasX, hasN)
          e.cTime = start
          e.cEnd = end
          e.openRaw = O[openIdx] as number
          e.cSession = session
          e.has = true
          e.hiU = Number.NEGATIVE_INFINITY
          e.loU = Number.POSITIVE_INFINITY
          e.noValue = false
          e.noTrades = false
        }
        i = j
        if (i >= n) break
      }
      const t = T[i] as number
      if (!(t >= last) || t > MAX_TIME || t < -MAX_TIME || Math.floor(t) !== t) break
      const s = hasS ? (SS[i] as number) : 0
      if (s > 2) break
      let nt = 0
      if (hasN) {
        nt = NT[i] as number
        if (!(nt >= 0 && nt <= 9007199254740991) || Math.floor(nt) !== nt) break
      }
      const o = O[i] as number
      const h = H[i] as number
      const l = Lw[i] as number
      const cl = C[i] as number
      if (!(l <= o && l <= cl && o <= h && cl <= h && h <= MAXV && l >= -MAXV)) break
      const v = V[i] as number
      const vu = Math.floor(v * VP + 0.5)
      if (vu / VP !== v || !(vu < UNITS_LIMIT && vu >= 0)) break
      let xu = 0
      if (hasX) {
        const x = X[i] as number
        xu = Math.floor(x * XP + 0.5)
        if (xu / XP !== x || !(xu < UNITS_LIMIT && xu > -UNITS_LIMIT)) break
      }
      // a trade count the open candle cannot hold exactly: the exact path refuses it
      if (t < end && count + nt > 9007199254740991) break
      last = t
      if (((mask >> s) & 1) === 0) continue
      if (t >= end) {
        next = true
        ns = s
        break
      }
      if (h > hiX) {
        hiX = h
        hiI = i
      }
      if (l < loX) {
        loX = l
        loI = i
      }
      closeI = i
      volLo += vu
      if (volLo > UNITS_LIMIT) {
        e.volHi += BigInt(volLo)
        volLo = 0
      }
      valLo += xu
      if (valLo > UNITS_LIMIT || valLo < -UNITS_LIMIT) {
        e.valHi += BigInt(valLo)
        valLo = 0
      }
      count += nt
    }
    if (!next) break
    if (closeI >= 0) missingColumns(e, hasX, hasN)
    if (e.has && hiI >= 0 && loI >= 0 && closeI >= 0) {
      // this loop saw the open candle's extremes and close: it closes from these values (through the
      // scratch array: double arguments of a call would be boxed), the spellings being the doubles
      st[S_HIGH] = hiX
      st[S_LOW] = loX
      st[S_CLOSE] = C[closeI] as number
      st[S_VOLUME] = volLo
      st[S_VALUE] = valLo
      st[S_COUNT] = count
      closeFromScratch(e)
    }
    nextCandle(e, T[i] as number, ns, O[i] as number, hiI, loI, closeI, volLo, valLo, count)
    end = e.cEnd
    openIdx = i
    hiX = Number.NEGATIVE_INFINITY
    loX = Number.POSITIVE_INFINITY
    volLo = valLo = count = 0
    hiI = loI = closeI = -1
  }
  e.seen += i - from
  e.last = last
  if (e.has) {
    if (closeI >= 0) missingColumns(e, hasX, hasN)
    keep(e, hiI, loI, closeI, e.hiU, e.loU, volLo, valLo, count)
    if (hiI >= 0 || loI >= 0) extremeUnits(e, hiI >= 0, loI >= 0, PP)
  }
  return i
}
