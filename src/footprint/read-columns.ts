import { MarketDataError } from '../errors.js'
import { codeWords, codesKept } from '../trades/codes.js'
import { isTradeColumns, validateTradeColumns } from '../trades/index.js'
import type { TradeColumns } from '../trades/types.js'
import type { FootprintEngine } from './engine.js'
import { addExactChunk } from './exact-path.js'
import { columnsKernel } from './kernel-columns.js'
import { Slot } from './kernel-slots.js'
import { FOOTPRINT_MSG } from './messages.js'

/** Stands for an absent session column in {@link columnsKernel} (never read: its `hasSess` is then 0). */
const NO_SESSION = new Uint8Array(0)
/**
 * Records per slice of the columnar path: the session column of a slice is checked first, four bytes at a
 * time, while the slice comes into cache (then the hot loop skips that test).
 */
const SLICE = 16384

/**
 * The columnar reader: one fused pass ({@link columnsKernel}) per run of records in the current bucket and
 * row range; any other record (new bucket, new row range, more decimals, units past 2^52, a spill,
 * invalid) goes through the engine's shared reader one record at a time, which validates it and feeds the
 * exact path. `index` is the stream index of record 0 (for errors).
 */
export function readColumns<Out>(e: FootprintEngine<Out>, c: TradeColumns, index: number): void {
  if (!isTradeColumns(c)) throw new MarketDataError('invalid_option', FOOTPRINT_MSG.notTrades(), { field: 'trades' })
  const n = c.time.length
  let wellFormed = false
  try {
    wellFormed =
      c.price?.length === n &&
      c.volume?.length === n &&
      c.side?.length === n &&
      (c.session === undefined || c.session.length === n) &&
      c.price instanceof Float64Array &&
      c.volume instanceof Float64Array &&
      c.side instanceof Uint8Array
  } catch {
    // a column whose read throws (a getter, a Proxy trap): the validator below names it
  }
  if (!wellFormed) {
    const v = validateTradeColumns(c)
    if (!v.ok) throw v.error
  }
  const reader = e.reader
  const keep = e.options.keep
  const allSessions = e.options.allSessions ? 1 : 0
  const sess = c.session
  const sess32 = sess === undefined ? null : codeWords(sess)
  let i = 0
  let sliceEnd = 0
  let clean = 0
  /** The record an empty bucket was last opened for (enterAt), -1 for none. */
  let entered = -1
  while (i < n) {
    const st = e.current
    // (a bucket without rows yet, or with sparse rows, has cap 0: the kernel then drops records and stops at the first kept one)
    if (st !== null) {
      if (i >= sliceEnd) {
        // a slice whose session codes are all kept takes the blocks without a session test
        sliceEnd = n - i > SLICE ? i + SLICE : n
        clean = (sess === undefined ? keep[0] === 1 : codesKept(sess, sess32, i, sliceEnd, keep)) ? 1 : 0
      }
      const loop = e.loadWindow()
      loop[Slot.MinPrice] = st.minD
      loop[Slot.MaxPrice] = st.maxD
      i = columnsKernel(
        c.time,
        c.price,
        c.volume,
        c.side,
        sess ?? NO_SESSION,
        sess === undefined ? 0 : 1,
        keep,
        i,
        sliceEnd,
        st.sums.lo,
        st.counts,
        st.bnd,
        st.cap,
        loop,
        allSessions,
        clean,
      )
      st.minD = loop[Slot.MinPrice] as number
      st.maxD = loop[Slot.MaxPrice] as number
      if (i >= n) break
      if (i === sliceEnd) continue
    }
    // a record of another bucket: straight into it when it is a plain one (the kernel then takes it)
    const t = c.time[i] as number
    if (!(t >= e.windowStart && t < e.windowEnd) && e.enterAt(t, c.price[i] as number)) {
      entered = i
      continue
    }
    try {
      reader.readColumns(c, i, i + 1, index + i)
      addExactChunk(e, 1, index + i)
    } catch (err) {
      // the record the bucket was opened for is refused: the bucket goes too
      if (entered === i) e.undoEnter()
      throw err
    }
    i++
  }
}
