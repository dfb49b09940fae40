import { createCandleAggregator, type Candle, type CandleColumns, type CandleOptions } from '../../src/candles/index.js'
import { exactDouble } from '../../src/decimal/index.js'
import { tradesToColumns, type Trade } from '../../src/trades/index.js'

/** Streams parts into one aggregator, each part fed a different way (objects, one by one, columns when allowed), taking closed candles as it goes. */
export function streamCandles(parts: Trade[][], opts: CandleOptions, allowColumns: boolean): Candle[] {
  const agg = createCandleAggregator(opts)
  const out: Candle[] = []
  parts.forEach((part, k) => {
    const how = k % 3
    if (how === 0 && allowColumns) agg.addColumns(tradesToColumns(part))
    else if (how === 1) for (const t of part) agg.add(t)
    else agg.addTrades(part)
    const next = parts.slice(k + 1).find((p) => p.length > 0)?.[0]
    // advance returns what closed; take() hands out what records closed since
    if (next !== undefined && k % 2 === 0) out.push(...agg.advance(next.time))
    out.push(...agg.take())
    const cur = agg.current()
    if (
      cur !== undefined &&
      out.length > 0 &&
      cur.time <= out[out.length - 1]!.time &&
      opts.timeframe.toString().slice(-1) !== 't'
    )
      throw new Error('open candle before a closed one')
  })
  out.push(...agg.finish())
  return out
}

const CODES: Record<string, number> = { MAINSESSION: 0, PRE_MARKET: 1, POST_MARKET: 2 }

/** Candle objects as the columns they must come out as: each decimal read back as a number (NaN: a double cannot carry it). */
export function asColumns(cs: readonly Candle[], like: CandleColumns): { cols: CandleColumns; inexact: boolean } {
  const f = (g: (c: Candle) => number) => new Float64Array(cs.map(g))
  const cols: CandleColumns = {
    time: f((c) => c.time),
    open: f((c) => exactDouble(c.open)),
    high: f((c) => exactDouble(c.high)),
    low: f((c) => exactDouble(c.low)),
    close: f((c) => exactDouble(c.close)),
    volume: f((c) => exactDouble(c.volume)),
  }
  if (like.value !== undefined) cols.value = f((c) => exactDouble(c.value ?? 'missing'))
  if (like.trades !== undefined) cols.trades = f((c) => c.trades ?? Number.NaN)
  if (like.session !== undefined) cols.session = new Uint8Array(cs.map((c) => CODES[c.session ?? 'MAINSESSION'] ?? 9))
  const sums = [cols.volume, cols.value ?? new Float64Array(0)]
  return { cols, inexact: sums.some((a) => a.some((x) => Number.isNaN(x))) }
}

/** The `like` of {@link asColumns} for candles from trades: every optional column (value, trades, session). */
export const ALL_COLUMNS = {
  value: new Float64Array(0),
  trades: new Float64Array(0),
  session: new Uint8Array(0),
} as unknown as CandleColumns
