import { createCandleAggregator, type Candle, type CandleOptions } from '../../src/candles/index.js'
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
    if (next !== undefined && k % 2 === 0) agg.advance(next.time)
    out.push(...agg.take())
    const cur = agg.current()
    if (cur !== undefined && out.length > 0 && cur.time <= out[out.length - 1]!.time && opts.timeframe.toString().slice(-1) !== 't') throw new Error('open candle before a closed one')
  })
  out.push(...agg.finish())
  return out
}
