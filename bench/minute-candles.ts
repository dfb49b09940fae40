// A long series of ES one-minute candles (months of trading days), the resampling input of W3 and W7.
import { sampleTradeBatches } from '../src/sample/index.js'
import { numText } from './canon.js'
import { ES } from './data.js'
import type { CandleIn } from './peers/bigjs.js'
import { candlesFloat, type CandleColumns } from './peers/float.js'

/**
 * n 1m candles from the ES sample (5,000 trades a day, so nearly every minute of the 16 trading hours has
 * trades), made by the float candle loop (exact on this data; W2 checks it against the library): as columns,
 * and as objects with decimal strings when `withObjects` (about 150 MB of heap for 1M).
 */
export function oneMinuteCandles(n: number, withObjects: boolean): { cols: CandleColumns; objs: CandleIn[] } {
  const perDay = 5_000
  const days = Math.ceil(n / 700) + 2
  const parts: CandleColumns[] = []
  let have = 0
  for (const b of sampleTradeBatches({ ...ES, tradesPerDay: perDay, days, batchSize: perDay * 50 })) {
    // batches hold whole days (50), so no minute is split between two batches
    const c = candlesFloat(b, b.time.length, 60_000)
    parts.push(c)
    have += c.time.length
    if (have >= n) break
  }
  if (have < n) throw new Error(`bench: only ${have} candles generated, wanted ${n}`)
  const keys = ['time', 'open', 'high', 'low', 'close', 'volume', 'value', 'trades'] as const
  const cols = Object.fromEntries(keys.map((k) => [k, new Float64Array(n)])) as unknown as CandleColumns
  let at = 0
  for (const p of parts) {
    const m = Math.min(p.time.length, n - at)
    for (const k of keys) cols[k].set(p[k].subarray(0, m), at)
    at += m
    if (at >= n) break
  }
  const objs: CandleIn[] = new Array(withObjects ? n : 0)
  for (let i = 0; i < objs.length; i++) {
    objs[i] = {
      time: cols.time[i] as number,
      open: numText(cols.open[i] as number),
      high: numText(cols.high[i] as number),
      low: numText(cols.low[i] as number),
      close: numText(cols.close[i] as number),
      volume: numText(cols.volume[i] as number),
      value: numText(cols.value[i] as number),
      trades: cols.trades[i] as number,
    }
  }
  return { cols, objs }
}
