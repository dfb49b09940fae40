// Peer (d): Polars through nodejs-polars, in the same process. What a data engineer reaches for: group-by on
// a bucket column over float64 columns. Its thread pool is sized once per process from POLARS_MAX_THREADS,
// so bench/run.ts runs the W7 groups twice, in a 1-thread and a 2-thread child. Frames are built before
// timing (`prepare`); only the query and reading its result columns into typed arrays are timed.
import { createRequire } from 'node:module'
import type { TradeColumns } from '../../src/trades/index.js'
import type { CandleColumns } from './float.js'

// Installed on demand by bench/install-peers.mjs (not a devDependency): its types are not assumed here.
type Pl = any
type Frame = any
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

function load(): Pl {
  pl ??= createRequire(import.meta.url)(POLARS_MODULE)
  return pl
}

/** A Polars frame of the first n trades: ts, price, volume (float64), side (uint8). */
export function tradeFrame(c: TradeColumns, n: number): Frame {
  const p = load()
  return p.DataFrame({
    // times as Int64 once, before timing: integer buckets (see bucket) and Polars' sorted-time fast path
    ts: p.Series('ts', c.time.subarray(0, n)).cast(p.Int64),
    price: p.Series('price', c.price.subarray(0, n)),
    volume: p.Series('volume', c.volume.subarray(0, n)),
    side: p.Series('side', Array.from(c.side.subarray(0, n))).cast(p.UInt8),
  })
}

/** A Polars frame of candle columns (resampling input). */
export function candleFrame(c: CandleColumns): Frame {
  const p = load()
  const s = (k: keyof CandleColumns) => p.Series(k, c[k])
  return p.DataFrame({
    ts: s('time').cast(p.Int64),
    open: s('open'),
    high: s('high'),
    low: s('low'),
    close: s('close'),
    volume: s('volume'),
    value: s('value'),
    trades: s('trades'),
  })
}

function f64(df: Frame, name: string): Float64Array {
  const a = df.getColumn(name).cast(load().Float64).toTypedArray()
  return a instanceof Float64Array ? a : Float64Array.from(a)
}

/**
 * Bucket start of integer ms, on Int64 (ts - ts % ms). Float64 arithmetic is not exact here: in this
 * Polars, 1780272000000 / 900000 gives 1978079.9999999998 and the float modulo 900000, which put
 * 2026-06-01T00:00Z into the 15m bucket before it.
 */
function bucket(ms: number): Frame {
  const p = load()
  const ts = p.col('ts')
  return ts.sub(ts.modulo(p.lit(ms).cast(p.Int64))).alias('b')
}

/**
 * Fixed UTC windows over the sorted Int64 time column: `groupByDynamic`, Polars' own time bucketing, which
 * slices the sorted rows into groups (about 2.5x faster here than a hash group-by on a bucket column).
 */
function windows(df: Frame, ms: number): Frame {
  return df.lazy().groupByDynamic({ indexColumn: 'ts', every: `${ms}i` })
}

/** Trades -> candles in fixed UTC buckets: first / max / min / last price, sums, count (arrival order kept). */
export function polarsCandles(df: Frame, bucketMs: number): CandleColumns {
  const p = load()
  const price = p.col('price')
  const out = windows(df, bucketMs)
    .agg(
      price.first().alias('open'),
      price.max().alias('high'),
      price.min().alias('low'),
      price.last().alias('close'),
      p.col('volume').sum().alias('volume'),
      price.mul(p.col('volume')).sum().alias('value'),
      p.len().alias('trades'),
    )
    .collectSync()
  return {
    time: f64(out, 'ts'),
    open: f64(out, 'open'),
    high: f64(out, 'high'),
    low: f64(out, 'low'),
    close: f64(out, 'close'),
    volume: f64(out, 'volume'),
    value: f64(out, 'value'),
    trades: f64(out, 'trades'),
  }
}

/** Candles -> coarser fixed UTC buckets. */
export function polarsResample(df: Frame, bucketMs: number): CandleColumns {
  const p = load()
  const out = windows(df, bucketMs)
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
  return {
    time: f64(out, 'ts'),
    open: f64(out, 'open'),
    high: f64(out, 'high'),
    low: f64(out, 'low'),
    close: f64(out, 'close'),
    volume: f64(out, 'volume'),
    value: f64(out, 'value'),
    trades: f64(out, 'trades'),
  }
}

/** Footprint cells as columns: bucket, row (integer units of the row size), side, volume sum, trade count. */
export interface FootprintCells {
  bucket: Float64Array
  row: Float64Array
  side: Float64Array
  volume: Float64Array
  count: Float64Array
}

/**
 * Trades -> footprint cells, grouped by (bucket, row, side) and sorted. The row is computed on integers, as
 * a careful engineer would: price scaled by 10^decimals and rounded (prices have at most `decimals`), then
 * floor-divided by the row size in those units; dividing the float price by the row size misbins prices
 * that sit on a row boundary.
 */
export function polarsFootprint(df: Frame, bucketMs: number, decimals: number, rowUnits: number): FootprintCells {
  const p = load()
  const out = df
    .lazy()
    .withColumns(
      bucket(bucketMs),
      p
        .col('price')
        .mul(10 ** decimals)
        .round(0)
        .div(rowUnits)
        .floor()
        .alias('r'),
    )
    .groupBy(['b', 'r', 'side'])
    .agg(p.col('volume').sum().alias('v'), p.len().alias('n'))
    .sort(['b', 'r', 'side'])
    .collectSync()
  return {
    bucket: f64(out, 'b'),
    row: f64(out, 'r'),
    side: f64(out, 'side'),
    volume: f64(out, 'v'),
    count: f64(out, 'n'),
  }
}
