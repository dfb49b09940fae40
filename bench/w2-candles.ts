// W2: trades -> 1m candles (OHLC, volume, value = sum of price x volume, trade count), columnar and objects.
import type { Candle } from '../src/candles/index.js'
import type { Trade, TradeColumns } from '../src/trades/index.js'
import { norm } from './canon.js'
import { ES, columns, human, objects, prefix } from './data.js'
import { runGroup, type BenchOptions, type Impl, type Row } from './harness.js'
import { libFn } from './lib.js'
import { candlesBig, fromColumns, fromObjects, utcBucket } from './peers/bigjs.js'
import { DuckPeer, duckRows, duckText, duckUnavailable } from './peers/duckdb.js'
import { candleLines, candlesFloat, candlesFloatRegisters } from './peers/float.js'

const MINUTE = 60_000

/** Canonical lines of library candles: `time|open|high|low|close|volume|value|trades`, decimals minimal. */
export function candleObjLines(cs: readonly Candle[]): string[] {
  return cs.map(
    (c) =>
      `${c.time}|${norm(c.open)}|${norm(c.high)}|${norm(c.low)}|${norm(c.close)}|${norm(c.volume)}|${norm(c.value ?? '?')}|${c.trades ?? '?'}`,
  )
}

type CandlesFn = (trades: unknown, opts: Record<string, unknown>) => Candle[]
type CandleColumnsFn = (trades: unknown, opts: Record<string, unknown>) => ReturnType<typeof candlesFloat>

/** DuckDB peers (DOUBLE and DECIMAL) of trades -> candles; open/close by arrival order (`seq`). */
async function duckCandleImpls(cols: TradeColumns, n: number, bucketMs: number): Promise<Impl[]> {
  const why = duckUnavailable()
  let peer: DuckPeer | undefined
  const c = { ts: cols.time, price: cols.price, volume: cols.volume, side: cols.side }
  const open = async () => (peer ??= await DuckPeer.open(2))
  const sql = (
    t: string,
  ) => `SELECT ts // ${bucketMs} * ${bucketMs} AS b, arg_min(price, seq) AS o, max(price) AS h, min(price) AS l,
    arg_max(price, seq) AS c, sum(volume) AS v, sum(price * volume) AS val, count(*) AS n FROM ${t} GROUP BY b ORDER BY b`
  const canon = (rows: unknown) => (rows as unknown[][]).map((r) => r.map(duckText).join('|'))
  const base = { n, canon, exact: false, ...(why !== undefined ? { unavailable: why } : {}) }
  const held = () => peer as DuckPeer
  return [
    ...duckRows(
      {
        ...base,
        impl: 'DuckDB DOUBLE (2 threads)',
        prepare: async () =>
          (await open()).load(
            'tf',
            c,
            n,
            `SELECT CAST(ts AS BIGINT) AS ts, CAST(seq AS BIGINT) AS seq, price, volume FROM raw`,
          ),
        run: () => undefined,
        dispose: () => peer?.drop('tf'),
      },
      sql('tf'),
      held,
    ),
    ...duckRows(
      {
        ...base,
        impl: 'DuckDB DECIMAL (2 threads)',
        prepare: async () =>
          (await open()).load(
            'td',
            c,
            n,
            `SELECT CAST(ts AS BIGINT) AS ts, CAST(seq AS BIGINT) AS seq, CAST(price AS DECIMAL(18,2)) AS price, CAST(volume AS DECIMAL(18,8)) AS volume FROM raw`,
          ),
        run: () => undefined,
        dispose: () => {
          peer?.close()
          peer = undefined
        },
      },
      sql('td'),
      held,
    ),
  ]
}

/** W2's groups, one a process (bench/run.ts: W2a, W2b): the columnar group's DuckDB rows load DuckDB last. */
export type W2Part = 'columnar' | 'objects'

export async function runW2(bench: BenchOptions, part?: W2Part): Promise<Row[]> {
  const N = bench.quick ? 1_000_000 : 10_000_000
  const nObj = bench.quick ? 500_000 : 5_000_000
  const nBig = bench.quick ? 50_000 : 200_000
  const f = libFn<CandlesFn>('candles', 'candlesFromTrades')
  const opts = { timeframe: '1m' }
  const lib = (over: Partial<Impl>): Impl => ({
    impl: 'library candlesFromTrades',
    library: true,
    exact: true,
    n: N,
    ...(f.missing !== undefined ? { unavailable: f.missing } : {}),
    canon: (r) => candleObjLines(r as Candle[]),
    run: () => [],
    ...over,
  })
  const rows: Row[] = []
  if (part !== 'objects') {
    const cols = columns(ES, N)
    const fc = libFn<CandleColumnsFn>('candles', 'candleColumnsFromTrades')
    const impls: Impl[] = [
      // columns in, columns out (as W3's row with the target): the candles as numbers, no object or string each
      {
        impl: 'library candleColumnsFromTrades (columns out)',
        library: true,
        exact: true,
        n: N,
        ...(fc.missing !== undefined ? { unavailable: fc.missing } : {}),
        canon: (r) => candleLines(r as ReturnType<typeof candlesFloat>),
        target: 200,
        run: (n) => (fc.fn as CandleColumnsFn)(prefix(cols, n), opts),
      },
      lib({
        impl: 'library candlesFromTrades (Candle objects out)',
        library: false,
        run: (n) => (f.fn as CandlesFn)(prefix(cols, n), opts),
      }),
      {
        impl: 'naive big.js',
        exact: true,
        n: nBig,
        run: (n) => candlesBig(fromColumns(cols, n), utcBucket(MINUTE)),
        canon: (r) => r as string[],
      },
      {
        impl: 'hand-written float loop',
        exact: false,
        n: N,
        note: 'exact only because tick 0.25 and whole lots are exact doubles',
        run: (n) => candlesFloat(cols, n, MINUTE),
        canon: (r) => candleLines(r as ReturnType<typeof candlesFloat>),
      },
      {
        impl: 'ceiling: float loop, state in registers, no checks',
        exact: false,
        n: N,
        note: 'UTC fixed-length buckets only; the fastest plain loop found here',
        run: (n) => candlesFloatRegisters(cols, n, MINUTE),
        canon: (r) => candleLines(r as ReturnType<typeof candlesFloat>),
      },
      ...(await duckCandleImpls(cols, N, MINUTE)),
    ]
    rows.push(...(await runGroup(`W2 trades -> 1m candles, columnar (${human(N)} trades)`, 'trades', impls, bench)))
  }
  if (part !== 'columnar') {
    const objs = objects(ES, nObj)
    const sub = new Map<number, Trade[]>()
    const first = (n: number) => {
      let s = sub.get(n)
      if (s === undefined) sub.set(n, (s = n >= objs.length ? objs : objs.slice(0, n)))
      return s
    }
    const impls: Impl[] = [
      lib({ n: nObj, target: 15, run: (n) => (f.fn as CandlesFn)(first(n), opts) }),
      {
        impl: 'naive big.js',
        exact: true,
        n: nBig,
        run: (n) => candlesBig(fromObjects(objs, n), utcBucket(MINUTE)),
        canon: (r) => r as string[],
      },
    ]
    rows.push(
      ...(await runGroup(
        `W2 trades -> 1m candles, objects with decimal strings (${human(nObj)} trades)`,
        'trades',
        impls,
        bench,
      )),
    )
  }
  return rows
}
