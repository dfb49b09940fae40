// W7's footprint groups: footprintProfiles and footprintColumnsFromTrades beside the float loop and Polars
// (5m, 1h), and the cost of one footprint bucket (1m buckets of one trade and of eight).
import type { FootprintColumns, FootprintProfile } from '../src/footprint/index.js'
import type { TradeColumns } from '../src/trades/index.js'
import { human } from './data.js'
import { runGroup, type BenchOptions, type Impl, type Row } from './harness.js'
import { libFn } from './lib.js'
import { footprintFloat } from './peers/float-footprint.js'
import { footprintQuery, type Frame } from './peers/polars.js'
import { FRAMES, MIN, sub, type DataSet } from './w7-data.js'
import { cellLines, floatFootprintLines, footprintColumnLines, footprintLines } from './w7-lines.js'
import { polarsRows } from './w7-polars.js'

type FootprintColumnsFn = (t: unknown, o: object) => FootprintColumns
type FootprintFn = (t: unknown, o: object) => FootprintProfile[]

const COLUMNS = 'library footprintColumnsFromTrades'
const PROFILES = 'library footprintProfiles'

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

/**
 * Footprint 5m and 1h. Against Polars compute on one thread (busy and thin): the columns >= 2.5x at both
 * frames, the profiles (objects, what a server returns) >= 1.0x at 5m.
 */
export async function footprintGroups(
  d: DataSet,
  frame: () => Frame,
  withLoops: boolean,
  targets: boolean,
  bench: BenchOptions,
): Promise<Row[]> {
  const n = d.cols.time.length
  const rows: Row[] = []
  const fp = libFn<FootprintFn>('footprint', 'footprintProfiles')
  const fcols = libFn<FootprintColumnsFn>('footprint', 'footprintColumnsFromTrades')
  for (const [id, ms] of FRAMES.filter(([f]) => f === '5m' || f === '1h')) {
    const impls: Impl[] = [
      {
        impl: `${PROFILES} (tick ${d.tickSize})`,
        library: true,
        exact: true,
        n,
        ...(fp.missing !== undefined ? { unavailable: fp.missing } : {}),
        run: (m) => fp.fn?.(sub(d.cols, m), { timeframe: id, tickSize: d.tickSize }),
        canon: (r) => footprintLines(r as FootprintProfile[], d),
      },
      columnsImpl(`${COLUMNS} (tick ${d.tickSize}, columns out)`, n, fcols, (f, m) =>
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
    const ratioTargets = [{ of: COLUMNS, min: 2.5 }, ...(id === '5m' ? [{ of: PROFILES, min: 1.0 }] : [])]
    impls.push(
      ...polarsRows({
        label: 'group-by (bucket, row, side)',
        n,
        query: () => footprintQuery(ms, d.decimals, d.tickUnits),
        frame,
        lines: cellLines,
        exact: d.exact,
        ...(targets ? { targets: { ratioTargets } } : {}),
      }),
    )
    rows.push(...(await runGroup(`W7 ${d.name}: footprint ${id} (${human(n)})`, 'trades', impls, bench)))
  }
  if (withLoops && !d.exact) rows.push(...(await bucketCostGroups(d, fp.fn, fp.missing, bench)))
  return rows
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
