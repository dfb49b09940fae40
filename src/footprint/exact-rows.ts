// The exact rows of one footprint profile, the shape the profile builder and the order-flow analytics share.

/** Rows of one profile in exact form: ascending row indexes, volumes as units at `vScale`. */
export interface RowSet {
  rows: number[]
  buy: bigint[]
  sell: bigint[]
  nb: number[]
  ns: number[]
  vScale: number
}
