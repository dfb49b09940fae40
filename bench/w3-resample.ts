// W3: 1m candles -> 15m and -> 1d (UTC), columnar and objects.
import type { Candle, CandleColumns as LibCandleColumns } from '../src/candles/index.js'
import { human } from './data.js'
import { runGroup, type BenchOptions, type Impl, type Row } from './harness.js'
import { libFn } from './lib.js'
import { resampleBig, utcBucket } from './peers/bigjs.js'
import { DuckPeer, duckRows, duckText, duckUnavailable } from './peers/duckdb.js'
import {
  candleLines,
  readCandleColumns,
  resampleFloat,
  resampleFloatRegisters,
  UtcBuckets,
  type CandleColumns,
} from './peers/float.js'
import { candleObjLines } from './w2-candles.js'
import { oneMinuteCandles } from './minute-candles.js'

type ResampleFn = (candles: unknown, opts: Record<string, unknown>) => Candle[]
type ResampleColumnsFn = (candles: unknown, opts: Record<string, unknown>) => CandleColumns

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
      ...duckRows(
        {
          ...duckBase,
          impl: 'DuckDB DOUBLE (2 threads)',
          prepare: async () => void (await loadDuckTables()),
          run: () => undefined,
        },
        sql('cf'),
        () => peer as DuckPeer,
      ),
      ...duckRows(
        {
          ...duckBase,
          impl: 'DuckDB DECIMAL (2 threads)',
          prepare: async () => void (await loadDuckTables()),
          run: () => undefined,
        },
        sql('cd'),
        () => peer as DuckPeer,
      ),
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
