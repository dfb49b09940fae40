// rowSize 'auto' of footprintColumnsFromTrades: the one-tick columns regridded to the row size the rule picks
// for the span of all their rows, every sum re-added exactly from the doubles' decimal forms.
import { exactDouble, formatUnits, parseDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { pickRowSize } from '../_lib/row-size-rule.js'
import { pocIndex } from '../profile/point-of-control.js'
import { resolveGrid } from './grid.js'
import { FOOTPRINT_MSG } from './messages.js'
import type { FootprintColumns } from './types.js'

/** The row size `'auto'` picks for one-tick columns: from the ticks between their lowest and highest row. */
export function autoRowSizeOfColumns(c: FootprintColumns): number {
  const rows = c.rows.row
  if (rows.length === 0) return 1
  let lo = Infinity
  let hi = -Infinity
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as number
    if (r < lo) lo = r
    if (r > hi) hi = r
  }
  return pickRowSize(Math.min(Number.MAX_SAFE_INTEGER, hi - lo)).rowSize
}

/** One-tick columns at the row size `'auto'` picks for them (the same object when it is 1). */
export function autoRowsColumns(c: FootprintColumns): FootprintColumns {
  const k = autoRowSizeOfColumns(c)
  return k === 1 ? c : regridColumns(c, k)
}

/** `floor(r / k)` exactly for a safe integer r and an integer k >= 1. */
function floorDiv(r: number, k: number): number {
  let q = Math.floor(r / k)
  if (q * k > r) q--
  else if ((q + 1) * k <= r) q++
  return q
}

/** A volume double's exact decimal: units at `scale` (its shortest form is the exact sum, see FootprintColumns). */
function units(x: number): { units: bigint; scale: number } {
  const d = parseDecimal(x)
  // a column volume is always a finite number >= 0
  return d.ok ? d.value : { units: 0n, scale: 0 }
}

/**
 * Columns at one tick regridded to `k` ticks a row: row `r` goes to row `floor(r / k)` (both grids anchored at
 * 0), volumes of the rows that meet are added exactly, counts added, the POC found again by the tie rules.
 * Profile totals do not change. A row sum with more significant digits than a double carries is refused
 * (`inexact`), as `footprintColumnsFromTrades` refuses any.
 */
export function regridColumns(c: FootprintColumns, k: number): FootprintColumns {
  const g = resolveGrid(c.tickSize, k, undefined)
  const row = [] as number[]
  const vb = [] as number[]
  const vs = [] as number[]
  const cb = [] as number[]
  const cs = [] as number[]
  const rowStart: number[] = []
  const poc: number[] = []
  const n = c.time.length
  for (let p = 0; p < n; p++) {
    rowStart.push(row.length)
    const from = c.rowStart[p] as number
    const to = c.rowStart[p + 1] as number
    const b = Array.from(c.rows.volumeBuy.subarray(from, to), units)
    const s = Array.from(c.rows.volumeSell.subarray(from, to), units)
    let scale = 0
    for (const x of b) scale = Math.max(scale, x.scale)
    for (const x of s) scale = Math.max(scale, x.scale)
    const at = (x: { units: bigint; scale: number }) => x.units * 10n ** BigInt(scale - x.scale)
    const totals: bigint[] = []
    const rows: number[] = []
    let i = from
    while (i < to) {
      const q = floorDiv(c.rows.row[i] as number, k)
      let sb = 0n
      let ss = 0n
      let nb = 0
      let ns = 0
      for (; i < to && floorDiv(c.rows.row[i] as number, k) === q; i++) {
        sb += at(b[i - from]!)
        ss += at(s[i - from]!)
        nb += c.rows.tradesCountBuy[i] as number
        ns += c.rows.tradesCountSell[i] as number
      }
      row.push(q)
      vb.push(volume(sb, scale, 'volumeBuy', c.time[p] as number))
      vs.push(volume(ss, scale, 'volumeSell', c.time[p] as number))
      cb.push(nb)
      cs.push(ns)
      totals.push(sb + ss)
      rows.push(q)
    }
    poc.push(rows.length === 0 ? 0 : (rows[pocIndex(totals, rows)] as number))
  }
  rowStart.push(row.length)
  const out: FootprintColumns = {
    ...c,
    rowSize: g.rowSize,
    rowSizeValue: g.rowSizeValue,
    rowStart: Float64Array.from(rowStart),
    volumePocRow: Float64Array.from(poc),
    rows: {
      row: Float64Array.from(row),
      volumeBuy: Float64Array.from(vb),
      volumeSell: Float64Array.from(vs),
      tradesCountBuy: Float64Array.from(cb),
      tradesCountSell: Float64Array.from(cs),
    },
  }
  return out
}

/** Exact units at `scale` as the double whose shortest form is that decimal; `inexact` when none is. */
function volume(u: bigint, scale: number, field: string, time: number): number {
  const text = formatUnits(u, scale)
  const x = exactDouble(text)
  if (x !== x) throw new MarketDataError('inexact', FOOTPRINT_MSG.inexact(field, text, time), { field })
  return x
}
