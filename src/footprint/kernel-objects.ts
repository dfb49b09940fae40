import { POW10, UNITS_LIMIT, stringToUnits } from '../decimal/index.js'
import type { Trade } from '../trades/types.js'
import { Slot } from './kernel-slots.js'

/** 'buy' and 'sell' at their lengths (the object loop's side test). */
const SIDE_BY_LENGTH: readonly (string | null)[] = [null, null, null, 'buy', 'sell', null, null, null]

/**
 * The object hot loop over trades [from, to) of one open bucket's dense row range: decimal strings (or
 * numbers) become integer units with the allocation-free primitives; any record it cannot take for sure
 * (another bucket or row range, more decimals, units past 2^52, a possible spill, anything invalid) stops
 * it, and the caller's exact path (the shared reader) takes that one. `st` carries the window in and the
 * extreme prices (in units) in and out ({@link Slot}).
 */
export function objectsKernel(
  trades: ArrayLike<Trade>,
  from: number,
  to: number,
  keep: Uint8Array,
  lo: Float64Array,
  cnt: Float64Array,
  base: number,
  cap: number,
  pScale: number,
  pPow: number,
  rowUnits: number,
  vScale: number,
  vPow: number,
  st: Float64Array,
): number {
  const wS = st[Slot.WindowStart] as number
  const wE = st[Slot.WindowEnd] as number
  let minP = st[Slot.MinPrice] as number
  let maxP = st[Slot.MaxPrice] as number
  // the last price string and its units and slot: consecutive trades nearly always repeat the price, and
  // comparing two short strings costs less than reading one
  let lastS: string | null = null
  let lastU = 0
  /** The units whose slot is lastK (NaN: none yet). */
  let kU = Number.NaN
  let lastK = 0
  let i = from
  for (; i < to; i++) {
    const tr = trades[i]
    if (typeof tr !== 'object' || tr === null) break
    const t = tr.time
    if (typeof t !== 'number' || !(t >= wS && t < wE) || Math.floor(t) !== t) break
    const sd = tr.side
    // the side from its length, then one comparison that is true for every valid record (testing
    // 'buy' then 'sell' would branch on the data and mispredict on mixed sides)
    if (typeof sd !== 'string') break
    const sl = sd.length & 7
    if (sd !== SIDE_BY_LENGTH[sl]) break
    const s = sl - 2 // 'buy' 1, 'sell' 2
    const se = tr.session
    const code = se === undefined || se === 'MAINSESSION' ? 0 : se === 'PRE_MARKET' ? 1 : se === 'POST_MARKET' ? 2 : 3
    if (code === 3) break
    const p = tr.price
    const v = tr.volume
    let u: number
    if (typeof p === 'string') {
      if (p === lastS) u = lastU
      else {
        u = stringToUnits(p, pScale)
        if (!(u < UNITS_LIMIT && u > -UNITS_LIMIT)) break
        lastS = p
        lastU = u
      }
    } else if (typeof p === 'number') {
      u = Math.floor(p * pPow + 0.5)
      if (u / pPow !== p || !(u < UNITS_LIMIT && u > -UNITS_LIMIT)) break
    } else break
    let vu: number
    if (typeof v === 'string') {
      // a plain decimal (digits, one dot with digits on both sides, at most vScale decimals) read inline,
      // each character once; any other string stops the loop and the exact reader judges it
      const n = v.length
      let q = 0
      let c = 0
      vu = -0
      for (; q < n; q++) {
        c = v.charCodeAt(q) - 48
        if (c >>> 0 > 9) break
        vu = vu * 10 + c
      }
      if (q < n) {
        const f = n - 1 - q
        if (c !== -2 || q === 0 || f === 0 || f > vScale) break
        // four digits a step (their value first, then one multiply-add into vu): a quarter of the
        // dependency chain of a multiply-add per digit (8-decimal volumes: W5 about +2-4%)
        let bad = false
        for (q++; q + 4 <= n; q += 4) {
          const c0 = v.charCodeAt(q) - 48
          const c1 = v.charCodeAt(q + 1) - 48
          const c2 = v.charCodeAt(q + 2) - 48
          const c3 = v.charCodeAt(q + 3) - 48
          if (c0 >>> 0 > 9 || c1 >>> 0 > 9 || c2 >>> 0 > 9 || c3 >>> 0 > 9) {
            bad = true
            break
          }
          vu = vu * 10000 + ((c0 * 10 + c1) * 100 + (c2 * 10 + c3))
        }
        if (bad) break
        for (; q < n; q++) {
          c = v.charCodeAt(q) - 48
          if (c >>> 0 > 9) break
          vu = vu * 10 + c
        }
        if (q < n) break
        if (f < vScale) vu *= POW10[vScale - f] as number
      } else if (n === 0) break
      else if (vScale > 0) vu *= vPow
    } else if (typeof v === 'number') {
      vu = Math.round(v * vPow)
      if (vu / vPow !== v) vu = Number.NaN
    } else break
    if (!(vu >= 0 && vu < UNITS_LIMIT)) break
    if (keep[code] !== 1) continue // filtered out, after validation
    let k = lastK
    if (u !== kU) {
      k = Math.floor(u / rowUnits) - base
      if (!(k >= 0 && k < cap)) break
      kU = u
      lastK = k
    }
    const j = 2 * k + s - 1
    const x = (lo[j] as number) + vu
    if (x > UNITS_LIMIT) break
    lo[j] = x
    cnt[j] = (cnt[j] as number) + 1
    if (u < minP) minP = u
    if (u > maxP) maxP = u
  }
  st[Slot.MinPrice] = minP
  st[Slot.MaxPrice] = maxP
  return i
}
