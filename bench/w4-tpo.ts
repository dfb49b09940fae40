// W4: trades -> daily TPO profiles (New York days, 30m blocks, 1-tick rows), columnar and objects; and
// daily TPO (UTC) on busy crypto and thin altcoin trades (src/sample sampleMarketTrades) against the float loop.
import type { TpoProfile } from '../src/tpo/index.js'
import type { Trade } from '../src/trades/index.js'
import { sampleMarketTrades } from '../src/sample/index.js'
import { closeLines, norm } from './canon.js'
import { ES, columns, human, objects, prefix } from './data.js'
import { runGroup, type BenchOptions, type Impl, type Row } from './harness.js'
import { libFn } from './lib.js'
import { fromColumns, fromObjects, tpoBig, type BucketFn, type TpoConfig } from './peers/bigjs.js'
import { tpoFloat, ZoneDays } from './peers/float.js'

const TZ = 'America/New_York'
const BLOCK = 30 * 60_000
const IB = 3_600_000

/** Canonical lines of library TPO profiles (same form as the peers'). */
export function tpoLines(ps: readonly TpoProfile[]): string[] {
  const out: string[] = []
  for (const p of ps) {
    const ib = p.initialBalance === null ? 'null' : `${p.initialBalance.high}/${p.initialBalance.low}`
    out.push(
      `P|${p.time}|blocks=${p.blocks.join(',')}|poc=${p.poc}|va=${p.valueAreaLow}..${p.valueAreaHigh}|high=${p.high}|low=${p.low}|ib=${ib}`,
    )
    for (const r of p.rows) out.push(`R|${r[0]}|${r[1].join(',')}|${norm(r[2])}|${norm(r[3])}`)
  }
  return out
}

type TpoFn = (trades: unknown, opts: Record<string, unknown>) => TpoProfile[]
/**
 * The naive peer's bucketing: local days found with date-fns-tz once per day, 30m blocks from local midnight.
 * (The library's `bucketStart` per trade would be the most naive choice, but with a zone it costs far more
 * than the Big arithmetic this peer is meant to measure; W0 times it on its own.)
 */
function naiveBuckets(): { period: BucketFn; block: BucketFn } {
  const days = new ZoneDays(TZ)
  const period = (t: number) => days.locate(t)
  const block = (t: number) => {
    const d = days.locate(t)
    return Math.min(d + Math.floor((t - d) / BLOCK) * BLOCK, days.end)
  }
  return { period, block }
}

export async function runW4(bench: BenchOptions): Promise<Row[]> {
  const N = bench.quick ? 1_000_000 : 10_000_000
  const nObj = bench.quick ? 500_000 : 5_000_000
  const nBig = bench.quick ? 50_000 : 200_000
  const f = libFn<TpoFn>('tpo', 'tpoProfiles')
  const opts = { timeframe: '1d', tickSize: '0.25', blockSize: '30m', timeZone: TZ }
  const nb = naiveBuckets()
  const cfg: TpoConfig = {
    period: nb.period,
    block: nb.block,
    blockMs: BLOCK,
    rowSizeValue: '0.25',
    priceDecimals: 2,
    ibMs: IB,
  }
  const lib = (over: Partial<Impl>): Impl => ({
    impl: 'library tpoProfiles',
    library: true,
    exact: true,
    n: N,
    ...(f.missing !== undefined ? { unavailable: f.missing } : {}),
    canon: (r) => tpoLines(r as TpoProfile[]),
    run: () => [],
    ...over,
  })
  const rows: Row[] = []
  {
    const cols = columns(ES, N)
    const impls: Impl[] = [
      lib({ target: 100, run: (n) => (f.fn as TpoFn)(prefix(cols, n), opts) }),
      {
        impl: 'naive big.js',
        exact: true,
        n: nBig,
        run: (n) => tpoBig(fromColumns(cols, n), cfg),
        canon: (r) => r as string[],
      },
      {
        impl: 'hand-written float loop',
        exact: false,
        n: N,
        note: 'exact only because tick 0.25 and whole lots are exact doubles',
        run: (n) => tpoFloat(cols, n, { timeZone: TZ, blockMs: BLOCK, rsv: 0.25, priceDecimals: 2, ibMs: IB }),
        canon: (r) => r as string[],
      },
    ]
    rows.push(...(await runGroup(`W4 daily TPO, 30m blocks, columnar (${human(N)} trades)`, 'trades', impls, bench)))
  }
  {
    const objs = objects(ES, nObj)
    const sub = new Map<number, Trade[]>()
    const first = (n: number) => {
      let s = sub.get(n)
      if (s === undefined) sub.set(n, (s = n >= objs.length ? objs : objs.slice(0, n)))
      return s
    }
    const impls: Impl[] = [
      lib({ n: nObj, run: (n) => (f.fn as TpoFn)(first(n), opts) }),
      {
        impl: 'naive big.js',
        exact: true,
        n: nBig,
        run: (n) => tpoBig(fromObjects(objs, n), cfg),
        canon: (r) => r as string[],
      },
    ]
    rows.push(
      ...(await runGroup(
        `W4 daily TPO, 30m blocks, objects with decimal strings (${human(nObj)} trades)`,
        'trades',
        impls,
        bench,
      )),
    )
  }
  {
    // busy crypto: prices change on about two trades in three, volumes with 8 decimals (not exact doubles:
    // the float loop's sums are compared within a relative tolerance)
    const nBusy = bench.quick ? 400_000 : 2_000_000
    const busy = sampleMarketTrades('busy-crypto', { seed: 42, trades: nBusy })
    const busyOpts = { timeframe: '1d', tickSize: '0.01', blockSize: '30m', timeZone: 'UTC' }
    const impls: Impl[] = [
      lib({ n: nBusy, run: (n) => (f.fn as TpoFn)(prefix(busy, n), busyOpts) }),
      {
        impl: 'hand-written float loop',
        exact: false,
        n: nBusy,
        speedupTarget: 1.5,
        note: `float sums: compared within ${BUSY_TOLERANCE} relative`,
        compare: closeLines(BUSY_TOLERANCE),
        run: (n) => tpoFloat(busy, n, { timeZone: 'UTC', blockMs: BLOCK, rsv: 0.01, priceDecimals: 2, ibMs: IB }),
        canon: (r) => r as string[],
      },
    ]
    rows.push(
      ...(await runGroup(
        `W4 daily TPO (UTC), 30m blocks, busy crypto columnar (${human(nBusy)} trades)`,
        'trades',
        impls,
        bench,
      )),
    )
  }
  {
    // thin altcoin: 8-decimal prices finer than the 0.000001 grid, about 5 trades a minute
    const nThin = bench.quick ? 100_000 : 500_000
    const thin = sampleMarketTrades('thin-altcoin', { seed: 42, trades: nThin })
    const thinOpts = { timeframe: '1d', tickSize: '0.000001', blockSize: '30m', timeZone: 'UTC' }
    const impls: Impl[] = [
      lib({ n: nThin, run: (n) => (f.fn as TpoFn)(prefix(thin, n), thinOpts) }),
      {
        impl: 'hand-written float loop',
        exact: false,
        n: nThin,
        note: `float sums: compared within ${BUSY_TOLERANCE} relative`,
        compare: closeLines(BUSY_TOLERANCE),
        run: (n) =>
          tpoFloat(thin, n, {
            timeZone: 'UTC',
            blockMs: BLOCK,
            rsv: 0.000001,
            priceDecimals: 8,
            ibMs: IB,
            rowDecimals: 6,
          }),
        canon: (r) => r as string[],
      },
    ]
    rows.push(
      ...(await runGroup(
        `W4 daily TPO (UTC), 30m blocks, thin altcoin columnar (${human(nThin)} trades)`,
        'trades',
        impls,
        bench,
      )),
    )
  }
  return rows
}

/** Float sums of the busy crypto volumes (8 decimals) are compared within this relative tolerance. */
const BUSY_TOLERANCE = 1e-9
