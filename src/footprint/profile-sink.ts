import type { BucketState } from './bucket-state.js'
import type { BucketSink, FootprintEngine } from './engine.js'
import { rowPrice } from './grid.js'
import { pocIndex } from '../profile/point-of-control.js'
import { formatFixed, formatUnits } from '../decimal/index.js'
import { doubleText } from '../decimal/units-text.js'
import { assembleProfile, buildProfile, type ProfileMeta } from './rowset.js'
import type { FootprintProfile, FootprintRow } from './types.js'

/**
 * The sink of `footprintProfiles` and the aggregator: one `FootprintProfile` object a bucket. A dense bucket
 * whose sums never spilled past 2^52 (the usual one) is formatted straight from its slots; any other goes
 * through its exact row set.
 */
export const profileSink: BucketSink<FootprintProfile> = {
  build(st, engine) {
    const o = engine.options
    const meta: ProfileMeta = {
      time: st.start,
      end: st.end,
      profileStart: o.from > st.start ? o.from : undefined,
      sessionType: o.sessionType,
    }
    if (o.analytics === undefined && !st.spilled && st.fine === undefined && !st.isSparse()) {
      const p = denseProfile(st, engine, meta)
      if (p !== undefined) return p
    }
    const { high, low } = st.extremes(engine.pScale)
    return buildProfile(meta, o.grid, st.rowSet(engine.vScale), high, low, o.analytics)
  },
}

/**
 * A dense, unspilled bucket's profile from its double slots (integer units below 2^52 each); undefined when a
 * total would pass 2^53 (the exact row set then formats it).
 */
function denseProfile(
  st: BucketState,
  engine: FootprintEngine<FootprintProfile>,
  meta: ProfileMeta,
): FootprintProfile | undefined {
  const grid = engine.grid
  const vScale = engine.vScale
  const sums = st.sums.lo
  const counts = st.counts
  const rows: FootprintRow[] = []
  const volumes: number[] = []
  const rowNumbers: number[] = []
  let vb = 0
  let vs = 0
  let cb = 0
  let cs = 0
  for (let k = 0; k < st.cap; k++) {
    const nb = counts[2 * k] as number
    const ns = counts[2 * k + 1] as number
    if (nb + ns === 0) continue
    const b = sums[2 * k] as number
    const s = sums[2 * k + 1] as number
    vb += b
    vs += s
    cb += nb
    cs += ns
    const row = st.base + k
    rows.push([rowPrice(grid, row), formatUnits(b, vScale), formatUnits(s, vScale), nb, ns])
    volumes.push(b + s)
    rowNumbers.push(row)
  }
  // every partial sum is exact while the whole stays a safe integer (non-negative integers)
  if (!(vb + vs <= Number.MAX_SAFE_INTEGER) || !Number.isSafeInteger(cb + cs)) return undefined
  const [high, low] = extremeTexts(st, engine.pScale, grid.decimals)
  return assembleProfile(meta, grid, rows, pocIndex(volumes, rowNumbers), { vb, vs, cb, cs, vScale }, high, low)
}

/**
 * The bucket's high and low as text at the grid's decimals: straight from the doubles' shortest forms when
 * only the columnar path saw its trades (the usual case), else from the exact extremes.
 */
function extremeTexts(st: BucketState, pScale: number, decimals: number): [string, string] {
  if (st.maxP === -Infinity && st.maxBig === null && st.maxD !== -Infinity) {
    const high = doubleText(st.maxD, decimals)
    const low = doubleText(st.minD, decimals)
    if (high !== undefined && low !== undefined) return [high, low]
  }
  const { high, low } = st.extremes(pScale)
  return [formatFixed(high.units, high.scale, decimals), formatFixed(low.units, low.scale, decimals)]
}
