// W7's Polars rows: each query timed alone (compute: the result left in Polars, as a Polars pipeline runs)
// and with the read-back of its result into typed arrays by the cheapest path (writeIPC read with
// apache-arrow: far ahead on small frames, level with toTypedArray on 100k rows; the read-back groups time
// every path on the same frames).
import { human } from './data.js'
import { runGroup, type BenchOptions, type Impl, type Row } from './harness.js'
import { candleQuery, polarsThreads, polarsUnavailable, tradeFrame, type Frame, type Query } from './peers/polars.js'
import {
  READ_PATH_TEXT,
  READ_PATHS,
  arrowUnavailable,
  readFrame,
  type Columns,
  type ReadPath,
} from './peers/polars-read.js'
import { TOLERANCE, bucketCount, close, type DataSet } from './w7-data.js'
import { readCandleLines } from './w7-lines.js'

/** The read-back of the compute + read-back rows: the fastest path measured here, if apache-arrow loads. */
export function readPath(): ReadPath {
  return arrowUnavailable() === undefined ? 'ipc' : 'typed'
}

/** What a Polars pair computes and how its result is checked. */
export interface PolarsSpec {
  label: string
  n: number
  /** Builds the query (its expressions once, before timing). */
  query: () => Query
  /** The input frame (built before timing, once per process). */
  frame: () => Frame
  /** Canonical lines of the read-back columns. */
  lines: (c: Columns) => string[]
  /** Float sums exact (the data are exact doubles): lines compared exactly, else within the tolerance. */
  exact: boolean
  /** Targets of the compute row. */
  targets?: Pick<Impl, 'speedupTarget' | 'ratioTargets'>
}

/** The two Polars rows of a group: compute, and compute + read-back. */
export function polarsRows(s: PolarsSpec): Impl[] {
  const why = polarsUnavailable()
  const threads = `${polarsThreads()} thread${polarsThreads() === 1 ? '' : 's'}`
  let q: Query | undefined
  const prepare = () => {
    s.frame()
    q ??= s.query()
  }
  const path = readPath()
  const base = {
    n: s.n,
    exact: false,
    ...(why !== undefined ? { unavailable: why } : {}),
    ...(s.exact ? {} : { note: `float sums: compared within ${TOLERANCE} relative`, compare: close }),
    prepare,
  }
  return [
    {
      ...base,
      ...s.targets,
      impl: `Polars ${s.label}, compute (${threads})`,
      run: () => (q as Query)(s.frame()),
      canon: (r) => s.lines(readFrame(r, path)),
    },
    {
      ...base,
      impl: `Polars ${s.label}, compute + read-back (${path}) (${threads})`,
      run: () => readFrame((q as Query)(s.frame()), path),
      canon: (r) => s.lines(r as Columns),
    },
  ]
}

/**
 * The read-back alone, every path, on the candle frames a query returned (1m: many rows; 1h: few): what
 * each costs a frame, whatever the frame holds. The IPC row is the reference the others are checked against.
 */
export async function readBackGroups(d: DataSet, frame: () => Frame, bench: BenchOptions): Promise<Row[]> {
  const rows: Row[] = []
  for (const [id, ms] of [
    ['1m', 60_000],
    ['1h', 3_600_000],
  ] as const) {
    let out: Frame
    const n = bucketCount(d.cols.time, ms)
    const impls: Impl[] = READ_PATHS.map((path) => ({
      impl: `Polars read-back: ${READ_PATH_TEXT[path]}`,
      n,
      exact: path === 'ipc',
      ...(polarsUnavailable() !== undefined ? { unavailable: polarsUnavailable() as string } : {}),
      ...(path === 'ipc' && arrowUnavailable() !== undefined ? { unavailable: arrowUnavailable() as string } : {}),
      prepare: () => void (out ??= candleQuery(ms)(frame())),
      run: () => readFrame(out, path),
      canon: (r) => readCandleLines(r as Columns, d.exact),
    }))
    rows.push(
      ...(await runGroup(
        `W7 ${d.name}: Polars read-back of the trades -> ${id} candles (${human(n)} rows x 8 columns)`,
        'rows',
        impls,
        bench,
      )),
    )
  }
  return rows
}

/** The trade frame of a data set, built on first use (in a row's `prepare`). */
export function lazyTradeFrame(d: DataSet): () => Frame {
  let f: Frame
  return () => (f ??= tradeFrame(d.cols, d.cols.time.length))
}
