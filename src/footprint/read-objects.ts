import { POW10 } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { isTradeColumns } from '../trades/index.js'
import type { Trade } from '../trades/types.js'
import type { FootprintEngine } from './engine.js'
import { addExactChunk } from './exact-path.js'
import { objectsKernel } from './kernel-objects.js'
import { Slot } from './kernel-slots.js'
import { FOOTPRINT_MSG } from './messages.js'

/** Records per chunk of a non-array iterable of trade objects. */
const CHUNK = 4096

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
  untilColumns: boolean,
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

/** Any iterable of Trade objects (a non-array one a chunk at a time). */
export function readTrades<Out>(e: FootprintEngine<Out>, trades: Iterable<Trade>): void {
  if (Array.isArray(trades)) {
    readTradeArray(e, trades, 0, trades.length, 0, false)
    return
  }
  if (
    typeof trades !== 'object' ||
    trades === null ||
    typeof (trades as Iterable<Trade>)[Symbol.iterator] !== 'function'
  ) {
    throw new MarketDataError('invalid_option', FOOTPRINT_MSG.notTrades(), { field: 'trades' })
  }
  const chunk = e.chunk
  let index = 0
  chunk.length = 0
  for (const tr of trades) {
    chunk.push(tr)
    if (chunk.length === CHUNK) {
      readTradeArray(e, chunk, 0, CHUNK, index, false)
      index += CHUNK
      chunk.length = 0
    }
  }
  if (chunk.length > 0) readTradeArray(e, chunk, 0, chunk.length, index, false)
  chunk.length = 0
}

/** One Trade object, on the exact path. */
export function readTrade<Out>(e: FootprintEngine<Out>, tr: Trade, index: number): void {
  const k = e.reader.readTrade(tr, index)
  addExactChunk(e, k, index)
}
