import { MAX_ROW_INDEX } from '../profile/row-limit.js'
import { UNITS_LIMIT, floorDivBig, formatUnits } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import type { BucketState } from './bucket-state.js'
import type { FootprintEngine } from './engine.js'
import { FOOTPRINT_MSG } from './messages.js'

const EMPTY = new Float64Array(0)

/**
 * The exact path: aggregates the engine reader's current chunk (n entries, already validated and read as
 * integer units; the stream index of entry 0 is `index`). Units below 2^52 are summed as doubles, with the
 * exact-sum spill ({@link ExactSums.spill}) past 2^52; a price or volume past 2^52, a row too large for a
 * double, or a volume finer than the fast sums take goes through {@link addExactEntry}.
 */
export function addExactChunk<Out>(e: FootprintEngine<Out>, n: number, index: number): void {
  const r = e.reader
  for (let i = 0; i < n; i++) judgeEntry(e, i, index + i)
  e.syncScales()
  const time = r.time
  const price = r.price
  const volume = r.volume
  const side = r.side
  const sess = r.session
  const keep = e.options.keep
  const filter = !e.options.allSessions
  const rowUnits = e.rowUnits
  const rowsFast = rowUnits === rowUnits
  let st = e.current
  let wS = e.windowStart
  let wE = e.windowEnd
  let base = 0
  let cap = 0
  let sums: Float64Array = EMPTY
  let cnt: Float64Array = EMPTY
  let minP = Infinity
  let maxP = -Infinity
  if (st !== null) {
    base = st.base
    cap = st.cap
    sums = st.sums.lo
    cnt = st.counts
    minP = st.minP
    maxP = st.maxP
  }
  for (let i = 0; i < n; i++) {
    const t = time[i] as number
    if (!(t >= wS && t < wE)) {
      if (st !== null) {
        st.minP = minP
        st.maxP = maxP
      }
      if (!e.enter(t, index + i)) continue
      st = e.current as BucketState
      wS = e.windowStart
      wE = e.windowEnd
      base = st.base
      cap = st.cap
      sums = st.sums.lo
      cnt = st.counts
      minP = st.minP
      maxP = st.maxP
    }
    if (filter && keep[sess[i] as number] !== 1) continue
    const u = price[i] as number
    const vu = volume[i] as number
    const cs = st as BucketState
    if (u !== u || vu !== vu || !rowsFast || e.fine) {
      cs.minP = minP
      cs.maxP = maxP
      addExactEntry(e, cs, i)
      base = cs.base
      cap = cs.cap
      sums = cs.sums.lo
      cnt = cs.counts
      minP = cs.minP
      maxP = cs.maxP
      continue
    }
    const row = Math.floor(u / rowUnits)
    let k = row - base
    if (k < 0 || k >= cap) {
      // (the row itself: k + base need not give it back when the two lie 2^53 apart)
      k = cs.slotOf(row)
      base = cs.base
      cap = cs.cap
      sums = cs.sums.lo
      cnt = cs.counts
    }
    if (u < minP) minP = u
    if (u > maxP) maxP = u
    const j = 2 * k + (side[i] as number) - 1
    const x = (sums[j] as number) + vu
    sums[j] = x
    if (x > UNITS_LIMIT) {
      cs.sums.spill(j)
      cs.spilled = true
    }
    cnt[j] = (cnt[j] as number) + 1
  }
  if (st !== null) {
    st.minP = minP
    st.maxP = maxP
  }
  if (e.fine) {
    // the next record is read at the engine's own scale again
    r.volumeScale = e.vScale
    e.fine = false
  }
}

/**
 * Refuses entry i of the reader's chunk, before any scale or bucket follows it, when it is late or its
 * price's row is past the row limit (a refused record changes nothing: the reader's scales go back too).
 */
function judgeEntry<Out>(e: FootprintEngine<Out>, i: number, index: number): void {
  const r = e.reader
  const t = r.time[i] as number
  const { from, to, bucketer } = e.options
  let refusal: MarketDataError | undefined
  if (t >= from && t < to) {
    bucketer.locate(t)
    if (bucketer.end <= e.watermark)
      refusal = new MarketDataError('late_record', FOOTPRINT_MSG.late(t, bucketer.end, e.watermark), {
        index,
        field: 'time',
      })
  }
  if (refusal === undefined && (r.price[i] as number) !== (r.price[i] as number)) {
    const pu = r.priceBig(i)
    const rowUnits = BigInt(e.grid.rowUnits) * 10n ** BigInt(r.priceScale - e.grid.decimals)
    const row = floorDivBig(pu, rowUnits)
    if (row > MAX_ROW_INDEX || row < -MAX_ROW_INDEX)
      refusal = new MarketDataError(
        'invalid_decimal',
        FOOTPRINT_MSG.priceRow(formatUnits(pu, r.priceScale), e.grid.rowSizeValue),
        { index, field: 'price' },
      )
  }
  if (refusal === undefined) return
  r.unread()
  throw refusal
}

/** Entry i of the reader's chunk as bigints (units past 2^52, rows too large for doubles, a finer volume). */
function addExactEntry<Out>(e: FootprintEngine<Out>, st: BucketState, i: number): void {
  const r = e.reader
  const pu = r.priceBig(i)
  // (judgeEntry refused a row past the row limit: row indexes are doubles, past 2^53 they would name a neighbour)
  const row = floorDivBig(pu, e.rowUnitsBig)
  const k = st.slotOf(Number(row))
  st.addPriceBig(pu)
  if (e.fine) st.addFineVolume(k, Number(row), r.side[i] as 1 | 2, r.volumeBig(i), r.volumeScale)
  else st.addVolumeBig(k, r.side[i] as 1 | 2, r.volumeBig(i))
}
