// W7: the library against Polars on data that looks like markets: the ES set (long runs of one price, exact
// doubles), busy crypto and a thin altcoin (src/sample sampleMarketTrades). Candles from trades (1m, 5m, 1h),
// footprint (5m, 1h) and resampling 1m candles (-> 15m, -> 1d; on ES a series of months of 1m candles).
// Each data set runs in its own process, once with Polars on one thread beside the plain loops (the
// targets are against Polars compute there), and once on two (the pool is sized per process).
import type { Candle } from '../src/candles/index.js'
import { describeData } from './data-shape.js'
import { human } from './data.js'
import { runGroup, type BenchOptions, type Impl, type Row } from './harness.js'
import { libFn } from './lib.js'
import { oneMinuteCandles } from './minute-candles.js'
import { candlesFloat, candlesFloatRegisters, resampleFloatRegisters, type CandleColumns } from './peers/float.js'
import {
  candleFrame,
  candleQuery,
  polarsUnavailable,
  resampleAsBefore,
  resampleQuery,
  type Frame,
} from './peers/polars.js'
import { FRAMES, MIN, TOLERANCE, close, dataSet, hasValueText, sub, type DataSet, type MarketSet } from './w7-data.js'
import { footprintGroups } from './w7-footprint.js'
import { candleColumnLines, candleObjectLines, readCandleLines } from './w7-lines.js'
import { lazyTradeFrame, polarsRows, readBackGroups } from './w7-polars.js'

/** ES one-minute candles resampled: at least 200k of them (months of trading days). */
const ES_MINUTES = 250_000

/** The fastest plain loop that checks nothing, computing a group's outputs on the same data (the bound). */
function boundImpl(n: number, d: DataSet, run: (m: number) => CandleColumns): Impl {
  return {
    impl: 'ceiling: float loop, state in registers, no checks',
    exact: false,
    n,
    ...(d.exact ? {} : { note: `float sums: compared within ${TOLERANCE} relative`, compare: close }),
    run,
    canon: (r) => candleColumnLines(r as CandleColumns, d.exact),
  }
}

async function candleGroups(d: DataSet, frame: () => Frame, withLoops: boolean, bench: BenchOptions): Promise<Row[]> {
  const n = d.cols.time.length
  const rows: Row[] = []
  const cols = libFn<(t: unknown, o: object) => CandleColumns>('candles', 'candleColumnsFromTrades')
  const objs = libFn<(t: unknown, o: object) => Candle[]>('candles', 'candlesFromTrades')
  for (const [id, ms] of FRAMES.filter(([f]) => f === '1m' || f === '5m' || f === '1h')) {
    // a double cannot carry this data's exact value sums (more digits): columns out with the value as exact
    // decimal text (valueText); a library without that option refuses them (inexact): objects out then
    const text = !d.exact && hasValueText(cols.fn, d.cols)
    const lib: Impl =
      d.exact || text
        ? {
            impl: `library candleColumnsFromTrades (columns out${text ? ', valueText' : ''})`,
            library: true,
            exact: true,
            n,
            ...(cols.missing !== undefined ? { unavailable: cols.missing } : {}),
            run: (m) => cols.fn?.(sub(d.cols, m), text ? { timeframe: id, valueText: true } : { timeframe: id }),
            canon: (r) => candleColumnLines(r as CandleColumns, d.exact),
          }
        : {
            impl: 'library candlesFromTrades (objects out)',
            library: true,
            exact: true,
            n,
            note: 'columns out refuses these value sums (inexact)',
            ...(objs.missing !== undefined ? { unavailable: objs.missing } : {}),
            run: (m) => objs.fn?.(sub(d.cols, m), { timeframe: id }),
            canon: (r) => candleObjectLines(r as Candle[], false),
          }
    const impls: Impl[] = [lib]
    // beside valueText: the decimal-string objects the crypto rows measured before it
    if (text)
      impls.push({
        impl: 'library candlesFromTrades (objects out)',
        exact: true,
        n,
        ...(objs.missing !== undefined ? { unavailable: objs.missing } : {}),
        run: (m) => objs.fn?.(sub(d.cols, m), { timeframe: id }),
        canon: (r) => candleObjectLines(r as Candle[], false),
      })
    if (withLoops)
      impls.push(
        {
          impl: 'hand-written float loop',
          exact: false,
          n,
          ...(d.exact ? {} : { note: `float sums: compared within ${TOLERANCE} relative`, compare: close }),
          run: (m) => candlesFloat(d.cols, m, ms),
          canon: (r) => candleColumnLines(r as CandleColumns, d.exact),
        },
        boundImpl(n, d, (m) => candlesFloatRegisters(d.cols, m, ms)),
      )
    impls.push(
      ...polarsRows({
        label: 'groupByDynamic',
        n,
        query: () => candleQuery(ms),
        frame,
        lines: (c) => readCandleLines(c, d.exact),
        exact: d.exact,
        ...(withLoops ? { targets: { speedupTarget: 1.0 } } : {}),
      }),
    )
    rows.push(...(await runGroup(`W7 ${d.name}: trades -> ${id} candles (${human(n)})`, 'trades', impls, bench)))
  }
  return rows
}

/** 1m candles of a data set as columns (the resampling input): from the library's candles. */
function minuteColumns(d: DataSet): CandleColumns {
  const f = libFn<(t: unknown, o: object) => Candle[]>('candles', 'candlesFromTrades')
  if (f.fn === undefined) return candlesFloat(d.cols, d.cols.time.length, MIN)
  const cs = f.fn(d.cols, { timeframe: '1m' })
  const col = (g: (c: Candle) => number) => Float64Array.from(cs, g)
  return {
    time: col((c) => c.time),
    open: col((c) => Number(c.open)),
    high: col((c) => Number(c.high)),
    low: col((c) => Number(c.low)),
    close: col((c) => Number(c.close)),
    volume: col((c) => Number(c.volume)),
    value: col((c) => Number(c.value)),
    trades: col((c) => c.trades ?? 0),
  }
}

/**
 * Resampling 1m candles -> 15m and -> 1d: the data set's own 1m candles, on ES a series of months of them.
 * The library's input has no value column where the values are not exact doubles; Polars then sums none.
 */
async function resampleGroups(d: DataSet, withLoops: boolean, bench: BenchOptions): Promise<Row[]> {
  const rows: Row[] = []
  const m1 = d.exact ? oneMinuteCandles(ES_MINUTES, false).cols : minuteColumns(d)
  const source = d.exact ? '1m candles over months' : '1m candles'
  const rs = libFn<(c: unknown, o: object) => CandleColumns>('candles', 'resampleCandleColumns')
  const libInput = d.exact
    ? m1
    : {
        time: m1.time,
        open: m1.open,
        high: m1.high,
        low: m1.low,
        close: m1.close,
        volume: m1.volume,
        trades: m1.trades,
      }
  let cframe: Frame
  let before: Frame
  const frame = () => (cframe ??= candleFrame(m1, d.exact))
  const c = m1.time.length
  for (const [id, ms] of FRAMES.filter(([f]) => f === '15m' || f === '1d')) {
    const impls: Impl[] = [
      {
        impl: 'library resampleCandleColumns',
        library: true,
        exact: true,
        n: c,
        ...(rs.missing !== undefined ? { unavailable: rs.missing } : {}),
        run: () => rs.fn?.(libInput, { timeframe: id, sourceTimeframe: '1m' }),
        canon: (r) => candleColumnLines(r as CandleColumns, d.exact),
      },
    ]
    if (withLoops) impls.push(boundImpl(c, d, (m) => resampleFloatRegisters(m1, m, ms)))
    impls.push(
      ...polarsRows({
        label: 'groupByDynamic',
        n: c,
        query: () => resampleQuery(ms, d.exact),
        frame,
        lines: (x) => readCandleLines(x, d.exact),
        exact: d.exact,
        ...(withLoops ? { targets: { speedupTarget: 1.0 } } : {}),
      }),
    )
    if (withLoops && !d.exact)
      impls.push({
        impl: 'Polars as this bench wrote it before: lazy, Int64 windows, query built each run, cast read-back',
        n: c,
        exact: false,
        ...(polarsUnavailable() !== undefined ? { unavailable: polarsUnavailable() as string } : {}),
        note: `float sums: compared within ${TOLERANCE} relative`,
        compare: close,
        prepare: () => void (before ??= candleFrame(m1, true, true)),
        run: () => resampleAsBefore(before, ms),
        canon: (r) => candleColumnLines(r as CandleColumns, false),
      })
    rows.push(...(await runGroup(`W7 ${d.name}: ${source} -> ${id} (${human(c)} candles)`, 'candles', impls, bench)))
  }
  return rows
}

export async function runW7(bench: BenchOptions, set: MarketSet, withLoops: boolean): Promise<Row[]> {
  const d = dataSet(set, bench.quick)
  const n = d.cols.time.length
  const shape = describeData(d.name, d.cols, FRAMES)
  console.log(`  ${shape}`)
  const rows: Row[] = [{ workload: `W7 ${d.name}`, impl: 'data', n, unit: 'trades', check: 'info', note: shape }]
  bench.emit(rows[0] as Row)
  const frame = lazyTradeFrame(d)
  rows.push(...(await candleGroups(d, frame, withLoops, bench)))
  rows.push(...(await footprintGroups(d, frame, withLoops, withLoops && set !== 'es', bench)))
  rows.push(...(await resampleGroups(d, withLoops, bench)))
  if (withLoops) rows.push(...(await readBackGroups(d, frame, bench)))
  return rows
}
