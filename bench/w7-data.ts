// W7's data sets (src/sample sampleMarketTrades and the ES generator), frames and the tolerance of its
// float peers.
import type { TradeColumns } from '../src/trades/index.js'
import { sampleMarketTrades } from '../src/sample/index.js'
import { closeLines } from './canon.js'
import { ES, columns } from './data.js'
import type { CandleColumns } from './peers/float.js'

export const MIN = 60_000
export const FRAMES: [string, number][] = [
  ['1m', MIN],
  ['5m', 5 * MIN],
  ['15m', 15 * MIN],
  ['1h', 60 * MIN],
  ['1d', 1440 * MIN],
]

export type MarketSet = 'es' | 'busy' | 'thin'

export interface DataSet {
  name: string
  cols: TradeColumns
  /** Decimals of every price, the footprint tick in those units, the tick as a string. */
  decimals: number
  tickUnits: number
  tickSize: string
  /** Every price and volume is an exact double, so float sums can be compared exactly. */
  exact: boolean
}

export function dataSet(set: MarketSet, quick: boolean): DataSet {
  if (set === 'es')
    return {
      name: 'ES future (sample generator)',
      cols: columns(ES, quick ? 500_000 : 2_000_000),
      decimals: 2,
      tickUnits: 25,
      tickSize: '0.25',
      exact: true,
    }
  if (set === 'busy')
    return {
      name: 'busy crypto',
      cols: sampleMarketTrades('busy-crypto', { seed: 42, trades: quick ? 400_000 : 2_000_000 }),
      decimals: 2,
      tickUnits: 1,
      tickSize: '0.01',
      exact: false,
    }
  return {
    name: 'thin altcoin',
    cols: sampleMarketTrades('thin-altcoin', { seed: 42, trades: quick ? 100_000 : 500_000 }),
    decimals: 8,
    tickUnits: 100,
    tickSize: '0.000001',
    exact: false,
  }
}

/** Float sums of data that is not exact doubles are compared within this relative tolerance. */
export const TOLERANCE = 1e-9
export const close = closeLines(TOLERANCE)

/** The first m trades, as views (the columns themselves when m covers them). */
export function sub(c: TradeColumns, m: number): TradeColumns {
  return m >= c.time.length
    ? c
    : {
        time: c.time.subarray(0, m),
        price: c.price.subarray(0, m),
        volume: c.volume.subarray(0, m),
        side: c.side.subarray(0, m),
      }
}

/** Non-empty UTC buckets of `ms` over sorted times: the rows a candle or resampling query returns. */
export function bucketCount(time: Float64Array, ms: number): number {
  let k = 0
  let end = -Infinity
  for (let i = 0; i < time.length; i++) {
    const t = time[i] as number
    if (t >= end) {
      k++
      end = (Math.floor(t / ms) + 1) * ms
    }
  }
  return k
}

/** Whether this build's candleColumnsFromTrades takes `valueText` (older builds refuse the option). */
export function hasValueText(fn: ((t: unknown, o: object) => CandleColumns) | undefined, cols: TradeColumns): boolean {
  if (fn === undefined) return false
  const one = {
    time: cols.time.subarray(0, 1),
    price: cols.price.subarray(0, 1),
    volume: cols.volume.subarray(0, 1),
    side: cols.side.subarray(0, 1),
  }
  try {
    return Array.isArray((fn(one, { timeframe: '1m', valueText: true }) as { valueText?: unknown }).valueText)
  } catch {
    return false
  }
}
