// W3: 1m candles -> 15m and -> 1d (UTC), columnar and objects.
import type { Candle, CandleColumns as LibCandleColumns } from '../src/candles/index.js'
import { numText } from './canon.js'
import { ES, human } from './data.js'
import { runGroup, type BenchOptions, type Impl, type Row } from './harness.js'
import { libFn } from './lib.js'
import { resampleBig, utcBucket, type CandleIn } from './peers/bigjs.js'
import { DuckPeer, duckText, duckUnavailable } from './peers/duckdb.js'
import {
  candleLines,
  candlesFloat,
  readCandleColumns,
  resampleFloat,
  resampleFloatRegisters,
  UtcBuckets,
  type CandleColumns,
} from './peers/float.js'
import { candleObjLines } from './w2-candles.js'
import { sampleTradeBatches } from '../src/sample/index.js'

type ResampleFn = (candles: unknown, opts: Record<string, unknown>) => Candle[]
type ResampleColumnsFn = (candles: unknown, opts: Record<string, unknown>) => CandleColumns

/**
 * n 1m candles from the ES sample (5,000 trades a day, so nearly every minute of the 16 trading hours has
 * trades), made by the float candle loop (exact on this data; W2 checks it against the library).
 */
/** n one-minute candles as columns, and as objects with decimal strings when `withObjects` (about 150 MB of heap for 1M). */
function oneMinuteCandles(n: number, withObjects: boolean): { cols: CandleColumns; objs: CandleIn[] } {
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
  if (have < n) throw new Error(`W3: only ${have} candles generated, wanted ${n}`)
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

function colsPrefix(c: CandleColumns, n: number): CandleColumns {
  if (n >= c.time.length) return c
  const o = {} as Record<string, Float64Array>
  for (const [k, v] of Object.entries(c)) o[k] = (v as Float64Array).subarray(0, n)
  return o as unknown as CandleColumns
}

/**
 * A part of W3 (a frame and / or an input kind). The columnar groups run one a process (bench/run.ts: W3a, W3b)
 * and the object groups together (W3c), so no row is timed after DuckDB loaded (the columnar groups load it,
 * after their JavaScript rows).
 */
export interface W3Part {
  frame?: '15m' | '1d'
  input?: 'columnar' | 'objects'
}

export async function runW3(bench: BenchOptions, part?: W3Part): Promise<Row[]> {
  const N = bench.quick ? 100_000 : 1_000_000
  const nBig = bench.quick ? 20_000 : 200_000
  // a columnar process does not hold the object candles while its rows are timed
  const { cols, objs } = oneMinuteCandles(N, part?.input !== 'columnar')
  const f = libFn<ResampleFn>('candles', 'resampleCandles')
  const fc = libFn<ResampleColumnsFn>('candles', 'resampleCandleColumns')
  const why = duckUnavailable()
  let peer: DuckPeer | undefined
  const loadDuckTables = async () => {
    if (peer !== undefined) return peer
    peer = await DuckPeer.open(2)
    const c = {
      ts: cols.time,
      open: cols.open,
      high: cols.high,
      low: cols.low,
      close: cols.close,
      volume: cols.volume,
      value: cols.value,
      trades: cols.trades,
    }
    await peer.load(
      'cf',
      c,
      N,
      `SELECT CAST(ts AS BIGINT) AS ts, open, high, low, close, volume, value, CAST(trades AS BIGINT) AS trades FROM raw`,
    )
    await peer.load(
      'cd',
      c,
      N,
      `SELECT CAST(ts AS BIGINT) AS ts, CAST(open AS DECIMAL(18,2)) AS open, CAST(high AS DECIMAL(18,2)) AS high, CAST(low AS DECIMAL(18,2)) AS low,
        CAST(close AS DECIMAL(18,2)) AS close, CAST(volume AS DECIMAL(18,8)) AS volume, CAST(value AS DECIMAL(30,10)) AS value, CAST(trades AS BIGINT) AS trades FROM raw`,
    )
    return peer
  }
  const rows: Row[] = []
  const frames = [
    { id: '15m', ms: 15 * 60_000, target: 100 },
    { id: '1d', ms: 86_400_000, target: 250 },
  ]
  for (const fr of frames) {
    if (part?.frame !== undefined && part.frame !== fr.id) continue
    const sql = (
      t: string,
    ) => `SELECT ts // ${fr.ms} * ${fr.ms} AS b, arg_min(open, ts) AS o, max(high) AS h, min(low) AS l, arg_max(close, ts) AS c,
      sum(volume) AS v, sum(value) AS val, sum(trades) AS n FROM ${t} GROUP BY b ORDER BY b`
    const duckCanon = (r: unknown) => (r as unknown[][]).map((x) => x.map(duckText).join('|'))
    const duckBase = { n: N, exact: false, canon: duckCanon, ...(why !== undefined ? { unavailable: why } : {}) }
    const libBase = {
      library: true,
      exact: true,
      ...(f.missing !== undefined ? { unavailable: f.missing } : {}),
      canon: (r: unknown) => candleObjLines(r as Candle[]),
    }
    const impls: Impl[] = [
      {
        impl: 'library resampleCandleColumns (columns out)',
        library: true,
        exact: true,
        ...(fc.missing !== undefined ? { unavailable: fc.missing } : {}),
        canon: (r: unknown) => candleLines(r as CandleColumns),
        n: N,
        target: fr.target,
        run: (n) =>
          (fc.fn as ResampleColumnsFn)(colsPrefix(cols, n) as LibCandleColumns, {
            timeframe: fr.id,
            sourceTimeframe: '1m',
          }),
      },
      {
        ...libBase,
        library: false,
        impl: 'library resampleCandles (Candle objects out)',
        n: N,
        run: (n) =>
          (f.fn as ResampleFn)(colsPrefix(cols, n) as LibCandleColumns, { timeframe: fr.id, sourceTimeframe: '1m' }),
      },
      {
        impl: 'hand-written float loop',
        exact: false,
        n: N,
        note: 'exact only because the ES data are exact doubles',
        run: (n) => resampleFloat(cols, n, new UtcBuckets(fr.ms)),
        canon: (r) => candleLines(r as CandleColumns),
      },
      {
        impl: 'ceiling: float loop, state in registers, no checks',
        exact: false,
        n: N,
        note: 'UTC fixed-length buckets only; the fastest plain loop found here',
        run: (n) => resampleFloatRegisters(cols, n, fr.ms),
        canon: (r) => candleLines(r as CandleColumns),
      },
      {
        impl: 'ceiling: read the 8 input columns once (sum, no resampling)',
        exact: false,
        n: N,
        noCheck: 'not a resampler: the memory-read bound of any pass over the columns',
        run: (n) => readCandleColumns(cols, n),
        canon: () => [],
      },
      {
        ...duckBase,
        impl: 'DuckDB DOUBLE (2 threads)',
        prepare: async () => void (await loadDuckTables()),
        run: () => (peer as DuckPeer).query(sql('cf')),
      },
      {
        ...duckBase,
        impl: 'DuckDB DECIMAL (2 threads)',
        prepare: async () => void (await loadDuckTables()),
        run: () => (peer as DuckPeer).query(sql('cd')),
      },
    ]
    if (part?.input !== 'objects')
      rows.push(
        ...(await runGroup(`W3 1m candles -> ${fr.id}, columnar (${human(N)} candles)`, 'candles', impls, bench)),
      )
    if (part?.input === 'columnar') continue
    // the object path: the same candles with decimal strings
    const libObj: Impl = {
      ...libBase,
      impl: 'library resampleCandles (objects)',
      n: N,
      run: (n) =>
        (f.fn as ResampleFn)(n >= objs.length ? objs : objs.slice(0, n), { timeframe: fr.id, sourceTimeframe: '1m' }),
    }
    const bigObj: Impl = {
      impl: 'naive big.js',
      exact: true,
      n: nBig,
      run: (n) => resampleBig(objs, n, utcBucket(fr.ms)),
      canon: (r) => r as string[],
    }
    rows.push(
      ...(await runGroup(
        `W3 1m candles -> ${fr.id}, objects with decimal strings (${human(N)} candles)`,
        'candles',
        [libObj, bigObj],
        bench,
      )),
    )
  }
  peer?.close()
  return rows
}
