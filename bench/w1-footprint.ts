// W1: 10 M trades -> 1h footprint profiles at 4-tick rows, columnar input (ES data: tick 0.25, whole lots).
import type { FootprintProfile } from '../src/footprint/index.js'
import type { TradeColumns } from '../src/trades/index.js'
import { fixed, norm } from './canon.js'
import { ES, columns, human, prefix } from './data.js'
import { runGroup, type BenchOptions, type Impl, type Row } from './harness.js'
import { libFn } from './lib.js'
import { footprintBig, fromColumns, utcBucket } from './peers/bigjs.js'
import { DuckPeer, duckRows, duckText, duckUnavailable } from './peers/duckdb.js'
import { footprintFloat, footprintFloatRuns } from './peers/float-footprint.js'

export const HOUR = 3_600_000

/** Canonical lines of library footprint profiles (same form as the peers'). */
export function footprintLines(ps: readonly FootprintProfile[]): string[] {
  const out: string[] = []
  for (const p of ps) for (const r of p.rows) out.push(`${p.time}|${r[0]}|${norm(r[1])}|${norm(r[2])}|${r[3]}|${r[4]}`)
  return out
}

type FootprintFn = (trades: unknown, opts: Record<string, unknown>) => FootprintProfile[]

/** DuckDB footprint SQL over table `t(ts, price, volume, side)`; `rowExpr` gives the integer row. */
function footprintSql(table: string, bucketMs: number, rowExpr: string): string {
  return `SELECT ts // ${bucketMs} * ${bucketMs} AS b, ${rowExpr} AS r,
    coalesce(sum(volume) FILTER (WHERE side = 1), 0) AS vb, coalesce(sum(volume) FILTER (WHERE side = 2), 0) AS vs,
    count(*) FILTER (WHERE side = 1) AS cb, count(*) FILTER (WHERE side = 2) AS cs
    FROM ${table} GROUP BY ALL ORDER BY b, r`
}

/**
 * The two DuckDB peers of a footprint workload (DOUBLE and exact DECIMAL), sharing one instance.
 * `rsvUnits`: the row size in units of 10^-priceDecimals.
 */
export async function duckFootprintImpls(
  cols: TradeColumns,
  n: number,
  bucketMs: number,
  rsvUnits: number,
  priceDecimals: number,
  volumeDecimals: number,
): Promise<Impl[]> {
  const why = duckUnavailable()
  const pow = 10 ** priceDecimals
  let peer: DuckPeer | undefined
  const c = { ts: cols.time, price: cols.price, volume: cols.volume, side: cols.side }
  const open = async () => (peer ??= await DuckPeer.open(2))
  const canon = (rows: unknown) =>
    (rows as unknown[][]).map(
      (r) =>
        `${String(r[0])}|${fixed(BigInt(r[1] as bigint) * BigInt(rsvUnits), priceDecimals)}|${duckText(r[2])}|${duckText(r[3])}|${String(r[4])}|${String(r[5])}`,
    )
  const sqlF = footprintSql('tf', bucketMs, `CAST(floor(price / ${rsvUnits / pow}) AS BIGINT)`)
  // exact: integer price units u, then floor(u / row) in integers (DuckDB's // truncates toward zero, so
  // subtract the non-negative remainder first: correct for negative prices too)
  const u = `CAST(price * ${pow} AS BIGINT)`
  const sqlD = footprintSql(
    'td',
    bucketMs,
    `(${u} - ((${u} % ${rsvUnits}) + ${rsvUnits}) % ${rsvUnits}) // ${rsvUnits}`,
  )
  const base = { n, canon, exact: false, ...(why !== undefined ? { unavailable: why } : {}) }
  const held = () => peer as DuckPeer
  return [
    ...duckRows(
      {
        ...base,
        impl: 'DuckDB DOUBLE (2 threads)',
        prepare: async () =>
          (await open()).load('tf', c, n, `SELECT CAST(ts AS BIGINT) AS ts, price, volume, side FROM raw`),
        run: () => undefined,
        dispose: () => peer?.drop('tf'),
      },
      sqlF,
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
            `SELECT CAST(ts AS BIGINT) AS ts, CAST(price AS DECIMAL(18,${priceDecimals})) AS price, CAST(volume AS DECIMAL(18,${volumeDecimals})) AS volume, side FROM raw`,
          ),
        run: () => undefined,
        dispose: () => {
          peer?.close()
          peer = undefined
        },
      },
      sqlD,
      held,
    ),
  ]
}

export async function runW1(bench: BenchOptions): Promise<Row[]> {
  const N = bench.quick ? 1_000_000 : 10_000_000
  const nBig = bench.quick ? 50_000 : 200_000
  const cols = columns(ES, N)
  const opts = { timeframe: '1h', tickSize: '0.25', rowSize: 4 }
  const f = libFn<FootprintFn>('footprint', 'footprintProfiles')
  const impls: Impl[] = [
    {
      impl: 'library footprintProfiles',
      library: true,
      exact: true,
      n: N,
      target: 150,
      ...(f.missing !== undefined ? { unavailable: f.missing } : {}),
      run: (n) => (f.fn as FootprintFn)(prefix(cols, n), opts),
      canon: (r) => footprintLines(r as FootprintProfile[]),
    },
    {
      impl: 'naive big.js',
      exact: true,
      n: nBig,
      run: (n) => footprintBig(fromColumns(cols, n), { bucket: utcBucket(HOUR), rowSizeValue: '1', priceDecimals: 2 }),
      canon: (r) => r as string[],
    },
    {
      impl: 'hand-written float loop',
      exact: false,
      n: N,
      note: 'exact only because tick 0.25 and whole lots are exact doubles',
      run: (n) => footprintFloat(cols, n, HOUR, 1, 2),
      canon: (r) => r as string[],
    },
    {
      impl: 'ceiling: float loop, runs summed four at a time, no checks',
      exact: false,
      n: N,
      note: 'checks nothing the library proves per trade; the fastest plain loop found here',
      run: (n) => footprintFloatRuns(cols, n, HOUR, 1, 2),
      canon: (r) => r as string[],
    },
    // the target is against the query alone; the read-back of its few thousand rows is printed beside it
    ...(await duckFootprintImpls(cols, N, HOUR, 100, 2, 8)).map((d) =>
      d.impl.endsWith(': query') ? { ...d, speedupTarget: 5 } : d,
    ),
  ]
  return runGroup(`W1 footprint 1h x 4 ticks, columnar (${human(N)} trades)`, 'trades', impls, bench)
}
