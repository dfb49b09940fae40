// W7: the library against Polars on data that looks like markets: the ES set (long runs of one price, exact
// doubles), busy crypto and a thin altcoin (src/sample sampleMarketTrades). Candles from trades (1m, 5m, 1h),
// footprint (5m, 1h) and resampling 1m candles (-> 15m, -> 1d). Each data set runs in its own process, once
// with Polars on one thread and once on two (the pool is sized per process).
import type { Candle } from '../src/candles/index.js'
import type { FootprintColumns, FootprintProfile } from '../src/footprint/index.js'
import type { TradeColumns } from '../src/trades/index.js'
import { sampleMarketTrades } from '../src/sample/index.js'
import { closeLines } from './canon.js'
import { describeData } from './data-shape.js'
import { ES, columns, human } from './data.js'
import { runGroup, type BenchOptions, type Impl, type Row } from './harness.js'
import { libFn } from './lib.js'
import { footprintFloat } from './peers/float-footprint.js'
import { candleLines, candlesFloat, type CandleColumns } from './peers/float.js'
import {
  candleFrame,
  polarsCandles,
  polarsFootprint,
  polarsResample,
  polarsThreads,
  polarsUnavailable,
  tradeFrame,
  type FootprintCells,
} from './peers/polars.js'

const MIN = 60_000
const FRAMES: [string, number][] = [
  ['1m', MIN],
  ['5m', 5 * MIN],
  ['15m', 15 * MIN],
  ['1h', 60 * MIN],
  ['1d', 1440 * MIN],
]

export type MarketSet = 'es' | 'busy' | 'thin'

interface DataSet {
  name: string
  cols: TradeColumns
  /** Decimals of every price, the footprint tick in those units, the tick as a string. */
  decimals: number
  tickUnits: number
  tickSize: string
  /** Every price and volume is an exact double, so float sums can be compared exactly. */
  exact: boolean
}

function dataSet(set: MarketSet, quick: boolean): DataSet {
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
const TOLERANCE = 1e-9
const close = closeLines(TOLERANCE)

function candleColumnLines(c: CandleColumns, exact: boolean): string[] {
  if (exact) return candleLines(c)
  const out: string[] = new Array(c.time.length)
  for (let k = 0; k < c.time.length; k++) {
    out[k] = `${c.time[k]}|${c.open[k]}|${c.high[k]}|${c.low[k]}|${c.close[k]}|${c.volume[k]}|${c.trades[k]}`
  }
  return out
}

/** Whether this build's candleColumnsFromTrades takes `valueText` (older builds refuse the option). */
function hasValueText(fn: ((t: unknown, o: object) => CandleColumns) | undefined, cols: TradeColumns): boolean {
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

/** Library Candle objects in the same canonical form (value left out where float peers cannot match it). */
function candleObjectLines(cs: readonly Candle[], exact: boolean): string[] {
  return cs.map((c) =>
    exact
      ? `${c.time}|${Number(c.open)}|${Number(c.high)}|${Number(c.low)}|${Number(c.close)}|${Number(c.volume)}|${Number(c.value)}|${c.trades}`
      : `${c.time}|${Number(c.open)}|${Number(c.high)}|${Number(c.low)}|${Number(c.close)}|${Number(c.volume)}|${c.trades}`,
  )
}

function footprintLines(ps: readonly FootprintProfile[], d: DataSet): string[] {
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
function floatFootprintLines(lines: readonly string[], d: DataSet): string[] {
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
function footprintColumnLines(c: FootprintColumns): string[] {
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

type FootprintColumnsFn = (t: unknown, o: object) => FootprintColumns

/** The columns-out row beside an objects-out row (checked equal to it, the group's reference, before timing). */
function columnsImpl(
  label: string,
  n: number,
  fc: ReturnType<typeof libFn<FootprintColumnsFn>>,
  run: (f: FootprintColumnsFn, m: number) => FootprintColumns,
): Impl {
  return {
    impl: label,
    exact: true,
    n,
    ...(fc.missing !== undefined ? { unavailable: fc.missing } : {}),
    run: (m) => (fc.fn === undefined ? undefined : run(fc.fn, m)),
    canon: (r) => footprintColumnLines(r as FootprintColumns),
  }
}

function cellLines(c: FootprintCells): string[] {
  const out: string[] = new Array(c.bucket.length)
  for (let k = 0; k < c.bucket.length; k++)
    out[k] = `${c.bucket[k]}|${c.row[k]}|${c.side[k]}|${c.volume[k]}|${c.count[k]}`
  return out
}

/**
 * `buckets` 1m buckets of `k` trades each, one trade a row (`k` consecutive rows from a price of the data
 * set), with the data set's volumes and sides: what a footprint bucket costs, fixed and per output row.
 */
function bucketColumns(d: DataSet, buckets: number, k: number): TradeColumns {
  const n = buckets * k
  const c: TradeColumns = {
    time: new Float64Array(n),
    price: new Float64Array(n),
    volume: new Float64Array(n),
    side: new Uint8Array(n),
  }
  const src = d.cols
  const pow = 10 ** d.decimals
  for (let b = 0, i = 0; b < buckets; b++) {
    const base = Math.round(((src.price[b % src.price.length] as number) * pow) / d.tickUnits) * d.tickUnits
    for (let j = 0; j < k; j++, i++) {
      c.time[i] = Math.floor((src.time[0] as number) / MIN) * MIN + b * MIN + j
      // the double nearest the decimal (its shortest form is that decimal)
      c.price[i] = (base + j * d.tickUnits) / pow
      c.volume[i] = src.volume[i % src.volume.length] as number
      c.side[i] = src.side[i % src.side.length] as number
    }
  }
  return c
}

/**
 * The fixed cost of a footprint bucket and the cost of an output row: 1m buckets of one trade (one row)
 * and of 8 trades on 8 rows; rows in buckets (time a bucket = 1 / rate). The float loop is the bound.
 */
async function bucketCostGroups(
  d: DataSet,
  fp: ((t: unknown, o: object) => FootprintProfile[]) | undefined,
  missing: string | undefined,
  bench: BenchOptions,
): Promise<Row[]> {
  const rows: Row[] = []
  const fc = libFn<FootprintColumnsFn>('footprint', 'footprintColumnsFromTrades')
  const buckets = bench.quick ? 20_000 : 50_000
  for (const k of [1, 8]) {
    const data = bucketColumns(d, buckets, k)
    const sub = (m: number): TradeColumns => ({
      time: data.time.subarray(0, m * k),
      price: data.price.subarray(0, m * k),
      volume: data.volume.subarray(0, m * k),
      side: data.side.subarray(0, m * k),
    })
    const dd: DataSet = { ...d, cols: data }
    const impls: Impl[] = [
      {
        impl: `library footprintProfiles (1m, tick ${d.tickSize})`,
        library: true,
        exact: true,
        n: buckets,
        ...(missing !== undefined ? { unavailable: missing } : {}),
        run: (m) => fp?.(sub(m), { timeframe: '1m', tickSize: d.tickSize }),
        canon: (r) => footprintLines(r as FootprintProfile[], dd),
      },
      columnsImpl(`library footprintColumnsFromTrades (1m, tick ${d.tickSize}, columns out)`, buckets, fc, (f, m) =>
        f(sub(m), { timeframe: '1m', tickSize: d.tickSize }),
      ),
      {
        impl: 'hand-written float loop',
        exact: false,
        n: buckets,
        noCheck: 'float binning and sums (the bound)',
        run: (m) => footprintFloat(data, m * k, MIN, d.tickUnits / 10 ** d.decimals, d.decimals),
        canon: (r) => floatFootprintLines(r as string[], dd),
      },
    ]
    rows.push(
      ...(await runGroup(
        `W7 ${d.name}: footprint cost a bucket, ${k} trade${k === 1 ? '' : 's'} on ${k} row${k === 1 ? '' : 's'} (${human(buckets)} buckets)`,
        'buckets',
        impls,
        bench,
      )),
    )
  }
  return rows
}

/** 1m candles of a data set as columns (the resampling input): exact volumes, no value column on inexact data. */
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

function polarsImpl(
  label: string,
  n: number,
  run: (n: number) => unknown,
  canon: (r: unknown) => string[],
  prepare: () => void,
  exact: boolean,
): Impl {
  const why = polarsUnavailable()
  return {
    impl: `Polars ${label} (${polarsThreads()} thread${polarsThreads() === 1 ? '' : 's'})`,
    n,
    exact: false,
    ...(why !== undefined ? { unavailable: why } : {}),
    ...(exact ? {} : { note: `float sums: compared within ${TOLERANCE} relative`, compare: close }),
    prepare,
    run,
    canon,
  }
}

export async function runW7(bench: BenchOptions, set: MarketSet, withLoops: boolean): Promise<Row[]> {
  const d = dataSet(set, bench.quick)
  const n = d.cols.time.length
  const shape = describeData(d.name, d.cols, FRAMES)
  console.log(`  ${shape}`)
  const rows: Row[] = [{ workload: `W7 ${d.name}`, impl: 'data', n, unit: 'trades', check: 'info', note: shape }]
  bench.emit(rows[0] as Row)
  const sub = (c: TradeColumns, m: number): TradeColumns =>
    m >= c.time.length
      ? c
      : {
          time: c.time.subarray(0, m),
          price: c.price.subarray(0, m),
          volume: c.volume.subarray(0, m),
          side: c.side.subarray(0, m),
        }
  let frame: unknown
  const loadTrades = () => void (frame ??= tradeFrame(d.cols, n))
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
      impls.push({
        impl: 'hand-written float loop',
        exact: false,
        n,
        ...(d.exact ? {} : { note: `float sums: compared within ${TOLERANCE} relative`, compare: close }),
        run: (m) => candlesFloat(d.cols, m, ms),
        canon: (r) => candleColumnLines(r as CandleColumns, d.exact),
      })
    impls.push(
      polarsImpl(
        'group-by',
        n,
        () => polarsCandles(frame, ms),
        (r) => candleColumnLines(r as CandleColumns, d.exact),
        loadTrades,
        d.exact,
      ),
    )
    rows.push(...(await runGroup(`W7 ${d.name}: trades -> ${id} candles (${human(n)})`, 'trades', impls, bench)))
  }
  const fp = libFn<(t: unknown, o: object) => FootprintProfile[]>('footprint', 'footprintProfiles')
  const fcols = libFn<FootprintColumnsFn>('footprint', 'footprintColumnsFromTrades')
  for (const [id, ms] of FRAMES.filter(([f]) => f === '5m' || f === '1h')) {
    const impls: Impl[] = [
      {
        impl: `library footprintProfiles (tick ${d.tickSize})`,
        library: true,
        exact: true,
        n,
        ...(fp.missing !== undefined ? { unavailable: fp.missing } : {}),
        run: (m) => fp.fn?.(sub(d.cols, m), { timeframe: id, tickSize: d.tickSize }),
        canon: (r) => footprintLines(r as FootprintProfile[], d),
      },
      columnsImpl(`library footprintColumnsFromTrades (tick ${d.tickSize}, columns out)`, n, fcols, (f, m) =>
        f(sub(d.cols, m), { timeframe: id, tickSize: d.tickSize }),
      ),
    ]
    if (withLoops) {
      impls.push({
        impl: 'hand-written float loop',
        exact: false,
        n,
        ...(d.exact ? {} : { noCheck: 'float binning and sums; exact only on exact doubles' }),
        run: (m) => footprintFloat(d.cols, m, ms, d.tickUnits / 10 ** d.decimals, d.decimals),
        canon: (r) => floatFootprintLines(r as string[], d),
      })
    }
    impls.push(
      polarsImpl(
        'group-by (bucket, row, side)',
        n,
        () => polarsFootprint(frame, ms, d.decimals, d.tickUnits),
        (r) => cellLines(r as FootprintCells),
        loadTrades,
        d.exact,
      ),
    )
    rows.push(...(await runGroup(`W7 ${d.name}: footprint ${id} (${human(n)})`, 'trades', impls, bench)))
  }
  if (withLoops && set !== 'es') rows.push(...(await bucketCostGroups(d, fp.fn, fp.missing, bench)))
  const m1 = minuteColumns(d)
  const rs = libFn<(c: unknown, o: object) => CandleColumns>('candles', 'resampleCandleColumns')
  let cframe: unknown
  for (const [id, ms] of FRAMES.filter(([f]) => f === '15m' || f === '1d')) {
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
    const c = m1.time.length
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
      polarsImpl(
        'group-by',
        c,
        () => polarsResample(cframe, ms),
        (r) => candleColumnLines(r as CandleColumns, d.exact),
        () => void (cframe ??= candleFrame(m1)),
        d.exact,
      ),
    ]
    rows.push(...(await runGroup(`W7 ${d.name}: 1m candles -> ${id} (${human(c)} candles)`, 'candles', impls, bench)))
  }
  return rows
}
