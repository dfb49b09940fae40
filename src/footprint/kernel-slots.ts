// The slots of the footprint kernels' loop state (kernel-columns.ts, kernel-checked-blocks.ts, kernel-objects.ts).
/**
 * Named slots of the `Float64Array` that carries loop state into and out of the footprint kernels (numbers
 * read there as unboxed doubles: number parameters would be unboxed again on every use inside a loop). A
 * `const enum`: the bundled build inlines every use as its literal index. (A compiler that sees one file at a
 * time, as tsx does, reads it as a plain object outside this file; the kernels read slots only when a block
 * or a kernel call starts and ends, not per record.)
 */
// biome-ignore lint/suspicious/noConstEnum: the kernels read these slots on every block call, and the bundled build inlines a const enum to literals there
export const enum Slot {
  /** Lowest traded price of the bucket: a double (columns) or units at the price scale (objects). In and out. */
  MinPrice = 0,
  /** Highest traded price, as {@link Slot.MinPrice}. In and out. */
  MaxPrice = 1,
  /** The open bucket's time window [start, end), clipped to the `from` / `to` options. In. */
  WindowStart = 2,
  WindowEnd = 3,
  /** 1 / row height and half a row height in rows: the row guess floor((p - bound[0]) * inv + half). In. */
  RowInverse = 4,
  RowHalf = 5,
  /** 10^volume scale (NaN past 22 decimals: no record takes the fast path then). In. */
  VolumePow = 6,
  /** The price of the pending run (NaN: none yet). Between the columnar loop and its blocks. */
  RunPrice = 8,
  /** Units the pending run may still add before the row's larger slot sum would pass 2^52. */
  RunRoom = 11,
  /** The pending run's total volume units, buy volume units, buy trades and all trades. */
  RunVolume = 12,
  RunBuyVolume = 13,
  RunBuyTrades = 14,
  RunTrades = 15,
  /** Slots in all. */
  Length = 16,
}
