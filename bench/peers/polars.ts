// Peer (d): Polars through nodejs-polars, in the same process, written as its users write it: eager
// `groupByDynamic` on a Datetime column for candles and resampling, a group-by on (truncated time, row, side)
// for footprints, the expressions of a query built once (as a pipeline defines its query) and the results
// left in Polars. Its thread pool is sized once per process from POLARS_MAX_THREADS, so bench/run.ts runs
// the W7 groups twice, in a 1-thread and a 2-thread child. Frames are built before timing (`prepare`).
// Each query is timed alone (compute) and with the read-back of its result into typed arrays
// (bench/peers/polars-read.ts).
import { createRequire } from 'node:module'
import type { TradeColumns } from '../../src/trades/index.js'
import type { CandleColumns } from './float.js'

// Installed on demand by bench/install-peers.mjs (not a devDependency): its types are not assumed here.
type Pl = any
/** A nodejs-polars DataFrame. */
export type Frame = any
const POLARS_MODULE = 'nodejs-polars'

let pl: Pl | undefined

/** Threads of this process's Polars pool (POLARS_MAX_THREADS, set by the bench runner per child). */
export function polarsThreads(): number {
  const n = Number(process.env.POLARS_MAX_THREADS)
  return Number.isInteger(n) && n > 0 ? n : 2
}

/** Why the Polars rows cannot run, decided without loading the module. */
export function polarsUnavailable(): string | undefined {
  if (process.argv.includes('--no-polars')) return 'skipped (--no-polars)'
  try {
    createRequire(import.meta.url).resolve(POLARS_MODULE)
  } catch (e) {
    return `nodejs-polars not found: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`
  }
  return undefined
}

/** The nodejs-polars module (loaded on first use). */
export function polars(): Pl {
  pl ??= createRequire(import.meta.url)(POLARS_MODULE)
  return pl
}

/** Float64 milliseconds as a Datetime('ms') series (through Int64, so no float rounding). */
function datetime(name: string, ms: Float64Array): any {
  const p = polars()
  return p.Series(name, ms).cast(p.Int64).cast(p.Datetime('ms'))
}

/** A Polars frame of the first n trades: ts (Datetime ms), price, volume (float64), side (uint8). */
export function tradeFrame(c: TradeColumns, n: number): Frame {
  const p = polars()
  return p.DataFrame({
    ts: datetime('ts', c.time.subarray(0, n)),
    price: p.Series('price', c.price.subarray(0, n)),
    volume: p.Series('volume', c.volume.subarray(0, n)),
    side: p.Series('side', Array.from(c.side.subarray(0, n))).cast(p.UInt8),
  })
}

/**
 * A Polars frame of candle columns (resampling input): ts as Datetime, trades as Int64, value if `withValue`;
 * `asBefore`: as this bench built it before (ts as Int64, every other column float64, value included).
 */
export function candleFrame(c: CandleColumns, withValue: boolean, asBefore = false): Frame {
  const p = polars()
  const s = (k: keyof CandleColumns) => p.Series(k, c[k])
  if (asBefore) {
    const keys = ['open', 'high', 'low', 'close', 'volume', 'value', 'trades'] as const
    return p.DataFrame({ ts: s('time').cast(p.Int64), ...Object.fromEntries(keys.map((k) => [k, s(k)])) })
  }
  return p.DataFrame({
    ts: datetime('ts', c.time),
    open: s('open'),
    high: s('high'),
    low: s('low'),
    close: s('close'),
    volume: s('volume'),
    ...(withValue ? { value: s('value') } : {}),
    trades: s('trades').cast(p.Int64),
  })
}

/** A Polars duration string for a bucket of `ms` (1m, 15m, 1h, 1d). */
export function every(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000}d`
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`
  return `${ms / 60_000}m`
}

/** A query: a frame in, a frame out (left in Polars). */
export type Query = (df: Frame) => Frame

/**
 * Trades -> candles in fixed UTC buckets, as the library computes them: first / max / min / last price,
 * volume, value (price x volume summed) and the trade count (`pl.len()`), in arrival order.
 */
export function candleQuery(bucketMs: number): Query {
  const p = polars()
  const price = p.col('price')
  const aggs = [
    price.first().alias('open'),
    price.max().alias('high'),
    price.min().alias('low'),
    price.last().alias('close'),
    p.col('volume').sum().alias('volume'),
    price.mul(p.col('volume')).sum().alias('value'),
    p.len().alias('trades'),
  ]
  const opts = { indexColumn: 'ts', every: every(bucketMs) }
  return (df) => df.groupByDynamic(opts).agg(...aggs)
}

/** Candles -> coarser fixed UTC buckets (the value sums only where the input has them). */
export function resampleQuery(bucketMs: number, withValue: boolean): Query {
  const p = polars()
  const aggs = [
    p.col('open').first(),
    p.col('high').max(),
    p.col('low').min(),
    p.col('close').last(),
    p.col('volume').sum(),
    ...(withValue ? [p.col('value').sum()] : []),
    p.col('trades').sum(),
  ]
  const opts = { indexColumn: 'ts', every: every(bucketMs) }
  return (df) => df.groupByDynamic(opts).agg(...aggs)
}

/**
 * Trades -> footprint cells: group-by on (time truncated to the bucket, row, side), volume sum and trade
 * count, sorted. The row is computed on integers, as a careful engineer would: price scaled by 10^decimals
 * and rounded (prices have at most `decimals`), then floor-divided by the row size in those units; dividing
 * the float price by the row size misbins prices that sit on a row boundary.
 */
export function footprintQuery(bucketMs: number, decimals: number, rowUnits: number): Query {
  const p = polars()
  const keys = [
    p.col('ts').dt.truncate(every(bucketMs)).alias('b'),
    p
      .col('price')
      .mul(10 ** decimals)
      .round(0)
      .div(rowUnits)
      .floor()
      .alias('r'),
  ]
  const aggs = [p.col('volume').sum().alias('v'), p.len().alias('n')]
  const by = ['b', 'r', 'side']
  return (df) =>
    df
      .lazy()
      .withColumns(...keys)
      .groupBy(by)
      .agg(...aggs)
      .sort(by)
      .collectSync()
}

/**
 * How this bench wrote its Polars resampling before (kept to show what it cost): lazy `groupByDynamic` on
 * Int64 windows, the expressions built on every run, every output column cast to Float64 and read with
 * `toTypedArray()`, on a frame with ts as Int64 and every other column float64. Each nodejs-polars wrapper
 * object (an expression, a series, a frame) costs about 0.25 ms to make here, whatever the data, and this
 * path makes about 40 a run.
 */
export function resampleAsBefore(df: Frame, bucketMs: number): CandleColumns {
  const p = polars()
  const out = df
    .lazy()
    .groupByDynamic({ indexColumn: 'ts', every: `${bucketMs}i` })
    .agg(
      p.col('open').first(),
      p.col('high').max(),
      p.col('low').min(),
      p.col('close').last(),
      p.col('volume').sum(),
      p.col('value').sum(),
      p.col('trades').sum(),
    )
    .collectSync()
  const f64 = (name: string): Float64Array => out.getColumn(name).cast(p.Float64).toTypedArray()
  return {
    time: f64('ts'),
    open: f64('open'),
    high: f64('high'),
    low: f64('low'),
    close: f64('close'),
    volume: f64('volume'),
    value: f64('value'),
    trades: f64('trades'),
  }
}
