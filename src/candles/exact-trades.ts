// The exact slow path for trades: one record at a time through the scaled reader, after a fast loop
// stopped at it (more decimals, units past 2^52, a bad record, a new candle the fast check refused).
import { MAX_FAST_VOLUME_SCALE } from '../decimal/exact-sums.js'
import { UNITS_LIMIT } from '../decimal/index.js'
import type { ScaledTradeReader } from '../trades/index.js'
import { closeCandle } from './candle-out.js'
import { orderError } from './engine-ops.js'
import type { CandleEngine } from './engine.js'
import { addFine } from './fine-sum.js'
import { addValue, addVolume, bigUnits, isBig, nextCandle, raw, rescale } from './open-candle.js'

/**
 * The exact path's start of a record (entry i of the chunk, `index` in the stream): order check, session
 * filter, candle change. False when the record's session is filtered out.
 */
export function begin(e: CandleEngine, t: number, s: number, i: number, index: number): boolean {
  if (t < e.last) {
    e.seen = index
    throw orderError(e, t, index)
  }
  e.last = t
  if (((e.mask >> s) & 1) === 0) return false
  if (e.tick ? e.count >= e.perTick || !e.has : t >= e.cEnd)
    nextCandle(e, t, s, raw(e, 'open', i), -1, -1, -1, e.volLo, e.valLo, e.count)
  return true
}

/** Offers entry i's high in units (`b`: the exact bigint when the units are past 2^52). */
export function offerHigh(e: CandleEngine, u: number, b: bigint | undefined, i: number): void {
  if (b === undefined ? u > e.hiU : isBig(e.hiU) ? b > e.hiB : u > e.hiU) {
    e.hiU = u
    if (b !== undefined) e.hiB = b
    e.hiRaw = raw(e, 'high', i)
  }
}

/** Offers entry i's low in units (`b`: the exact bigint when the units are past 2^52). */
export function offerLow(e: CandleEngine, u: number, b: bigint | undefined, i: number): void {
  if (b === undefined ? u < e.loU : isBig(e.loU) ? b < e.loB : u < e.loU) {
    e.loU = u
    if (b !== undefined) e.loB = b
    e.loRaw = raw(e, 'low', i)
  }
}

/**
 * The exact path over the reader's chunk. A volume finer than the fast sums take (more than
 * MAX_FAST_VOLUME_SCALE decimals, past the aggregator's scale) is summed apart at its own scale
 * (`fineVol` / `fineVal`) and the reader goes back to the aggregator's scale: the record costs only
 * itself, the later trades stay on the fast loops (decision 0143).
 */
export function consumeTrades(e: CandleEngine, r: ScaledTradeReader, k: number): void {
  // a record out of order is refused before the scales follow its decimals (a refused record changes nothing)
  if (k > 0 && (r.time[0] as number) < e.last) {
    r.unread()
    throw orderError(e, r.time[0] as number, e.seen)
  }
  const fine = r.volumeScale > e.vs && r.volumeScale > MAX_FAST_VOLUME_SCALE
  const vs = fine ? e.vs : r.volumeScale
  try {
    if (r.priceScale !== e.ps || vs !== e.vs) rescale(e, r.priceScale, vs, r.priceScale + vs)
    if (fine) consumeFine(e, r, k)
    else consumeScaled(e, r, k)
  } finally {
    if (fine) r.volumeScale = e.vs
  }
  if (e.tick && e.has && e.count >= e.perTick) closeCandle(e)
}

/** {@link consumeTrades} for a chunk whose volumes are finer than the aggregator's scale: exact, apart. */
export function consumeFine(e: CandleEngine, r: ScaledTradeReader, k: number): void {
  const base = e.seen
  const fs = r.volumeScale
  for (let i = 0; i < k; i++) {
    if (!begin(e, r.time[i] as number, r.session[i] as number, i, base + i)) continue
    const pb = r.priceBig(i)
    const pa = r.price[i] as number
    if (pa === pa) {
      offerHigh(e, pa, undefined, i)
      offerLow(e, pa, undefined, i)
    } else {
      const pu = bigUnits(pb)
      offerHigh(e, pu, pb, i)
      offerLow(e, pu, pb, i)
    }
    const vb = r.volumeBig(i)
    e.fineVol = addFine(e.fineVol, vb, fs)
    e.fineVal = addFine(e.fineVal, pb * vb, e.ps + fs)
    e.closeRaw = raw(e, 'close', i)
    e.count++
  }
  e.seen = base + k
}

/** {@link consumeTrades} at the aggregator's scales. */
export function consumeScaled(e: CandleEngine, r: ScaledTradeReader, k: number): void {
  const base = e.seen
  for (let i = 0; i < k; i++) {
    if (!begin(e, r.time[i] as number, r.session[i] as number, i, base + i)) continue
    const p = r.price[i] as number
    const v = r.volume[i] as number
    if (p === p) {
      offerHigh(e, p, undefined, i)
      offerLow(e, p, undefined, i)
      if (v === v) {
        const x = p * v
        if (x < UNITS_LIMIT && x > -UNITS_LIMIT) addValue(e, x)
        else addValue(e, 0, BigInt(p) * BigInt(v))
        addVolume(e, v)
      } else {
        const vb = r.volumeBig(i)
        addValue(e, 0, BigInt(p) * vb)
        addVolume(e, 0, vb)
      }
    } else {
      const pb = r.priceBig(i)
      const pa = bigUnits(pb)
      offerHigh(e, pa, pb, i)
      offerLow(e, pa, pb, i)
      const vb = r.volumeBig(i)
      addValue(e, 0, pb * vb)
      addVolume(e, 0, vb)
    }
    e.closeRaw = raw(e, 'close', i)
    e.count++
  }
  e.seen = base + k
}
