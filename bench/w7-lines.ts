// W7's canonical lines: every implementation's result in one text form, compared line by line.
import type { Candle } from '../src/candles/index.js'
import type { FootprintColumns, FootprintProfile } from '../src/footprint/index.js'
import { candleLines, type CandleColumns } from './peers/float.js'
import { numbers, type Columns } from './peers/polars-read.js'
import type { DataSet } from './w7-data.js'

export function candleColumnLines(c: CandleColumns, exact: boolean): string[] {
  if (exact) return candleLines(c)
  const out: string[] = new Array(c.time.length)
  for (let k = 0; k < c.time.length; k++) {
    out[k] = `${c.time[k]}|${c.open[k]}|${c.high[k]}|${c.low[k]}|${c.close[k]}|${c.volume[k]}|${c.trades[k]}`
  }
  return out
}

/** Read-back candle columns (Polars: ts as bigint ms, counts as integers) in the form of {@link candleColumnLines}. */
export function readCandleLines(c: Columns, exact: boolean): string[] {
  const cols: CandleColumns = {
    time: numbers(c.ts),
    open: numbers(c.open),
    high: numbers(c.high),
    low: numbers(c.low),
    close: numbers(c.close),
    volume: numbers(c.volume),
    value: numbers(c.value),
    trades: numbers(c.trades),
  }
  return candleColumnLines(cols, exact)
}

/** Library Candle objects in the same canonical form (value left out where float peers cannot match it). */
export function candleObjectLines(cs: readonly Candle[], exact: boolean): string[] {
  return cs.map((c) =>
    exact
      ? `${c.time}|${Number(c.open)}|${Number(c.high)}|${Number(c.low)}|${Number(c.close)}|${Number(c.volume)}|${Number(c.value)}|${c.trades}`
      : `${c.time}|${Number(c.open)}|${Number(c.high)}|${Number(c.low)}|${Number(c.close)}|${Number(c.volume)}|${c.trades}`,
  )
}

export function footprintLines(ps: readonly FootprintProfile[], d: DataSet): string[] {
  const out: string[] = []
  for (const p of ps) {
    for (const [price, vb, vs, nb, ns] of p.rows) {
      const r = Math.round(Math.round(Number(price) * 10 ** d.decimals) / d.tickUnits)
      if (nb > 0) out.push(`${p.time}|${r}|1|${Number(vb)}|${nb}`)
      if (ns > 0) out.push(`${p.time}|${r}|2|${Number(vs)}|${ns}`)
    }
  }
  return out
}

/** The float loop's lines (`bucket|price|buy|sell|buy trades|sell trades`) in the canonical form of {@link footprintLines}. */
export function floatFootprintLines(lines: readonly string[], d: DataSet): string[] {
  const out: string[] = []
  for (const l of lines) {
    const [b, price, vb, vs, nb, ns] = l.split('|') as [string, string, string, string, string, string]
    const r = Math.round(Math.round(Number(price) * 10 ** d.decimals) / d.tickUnits)
    if (Number(nb) > 0) out.push(`${b}|${r}|1|${vb}|${nb}`)
    if (Number(ns) > 0) out.push(`${b}|${r}|2|${vs}|${ns}`)
  }
  return out
}

/** Library footprint columns in the canonical form of {@link footprintLines} (a row index is the tick row: rowSize 1). */
export function footprintColumnLines(c: FootprintColumns): string[] {
  const out: string[] = []
  const r = c.rows
  for (let i = 0; i < c.time.length; i++) {
    for (let k = c.rowStart[i] as number; k < (c.rowStart[i + 1] as number); k++) {
      if ((r.tradesCountBuy[k] as number) > 0)
        out.push(`${c.time[i]}|${r.row[k]}|1|${r.volumeBuy[k]}|${r.tradesCountBuy[k]}`)
      if ((r.tradesCountSell[k] as number) > 0)
        out.push(`${c.time[i]}|${r.row[k]}|2|${r.volumeSell[k]}|${r.tradesCountSell[k]}`)
    }
  }
  return out
}

/** Polars footprint cells (b, r, side, v, n) in the canonical form of {@link footprintLines}. */
export function cellLines(c: Columns): string[] {
  const [b, r, side, v, n] = [numbers(c.b), numbers(c.r), numbers(c.side), numbers(c.v), numbers(c.n)]
  const out: string[] = new Array(b.length)
  for (let k = 0; k < b.length; k++) out[k] = `${b[k]}|${r[k]}|${side[k]}|${v[k]}|${n[k]}`
  return out
}
