import { POW10 } from '../decimal/index.js'
import { isTradeColumns } from '../trades/index.js'
import type { Trade } from '../trades/types.js'
import type { FootprintEngine } from './engine.js'
import { addExactChunk } from './exact-path.js'
import { objectsKernel } from './kernel-objects.js'
import { Slot } from './kernel-slots.js'

/**
 * The object reader: trade objects of an array, records [from, to), through {@link objectsKernel} while they
 * stay in the current bucket's dense rows, else one at a time through the engine's shared reader and the
 * exact path. `index` is the stream index of trades[from]. With `untilColumns`, stops at the first column
 * batch (an input mixing objects and batches) and returns its index; else returns `to`.
 */
export function readTradeArray<Out>(
  e: FootprintEngine<Out>,
  trades: ArrayLike<Trade>,
  from: number,
  to: number,
  index: number,
  untilColumns = false,
): number {
  const reader = e.reader
  const keep = e.options.keep
  const pPow = e.pScale <= 22 ? (POW10[e.pScale] as number) : Number.NaN
  let i = from
  while (i < to) {
    const st = e.current
    if (st !== null && e.rowUnits === e.rowUnits && pPow === pPow) {
      const loop = e.loadWindow()
      loop[Slot.MinPrice] = st.minP
      loop[Slot.MaxPrice] = st.maxP
      i = objectsKernel(
        trades,
        i,
        to,
        keep,
        st.sums.lo,
        st.counts,
        st.base,
        st.cap,
        e.pScale,
        pPow,
        e.rowUnits,
        e.vScale,
        loop[Slot.VolumePow] as number,
        loop,
      )
      st.minP = loop[Slot.MinPrice] as number
      st.maxP = loop[Slot.MaxPrice] as number
      if (i >= to) break
    }
    // the exact path for record i, through the shared reader (validation, scales, new bucket or rows)
    if (untilColumns && isTradeColumns(trades[i])) return i
    reader.readTrades(trades, i, i + 1, index + (i - from))
    addExactChunk(e, 1, index + (i - from))
    i++
    if (e.pScale <= 22 && (POW10[e.pScale] as number) !== pPow) {
      // the price scale grew: the kernel's units change with it
      return readTradeArray(e, trades, i, to, index + (i - from), untilColumns)
    }
  }
  return i
}

/** One Trade object, on the exact path. */
export function readTrade<Out>(e: FootprintEngine<Out>, tr: Trade, index: number): void {
  const k = e.reader.readTrade(tr, index)
  addExactChunk(e, k, index)
}
