// W8: one high-scale record (volume 0.30000000000000004, 17 decimals) in a long whole-lot stream. It must
// cost only itself (at most its own bucket), not every later trade of the call: daily TPO, 1h footprint
// and 1h candles on the same stream with and without the record, each beside the naive big.js peer.
import type { Candle } from '../src/candles/index.js'
import type { FootprintProfile } from '../src/footprint/index.js'
import type { TpoProfile } from '../src/tpo/index.js'
import type { TradeColumns } from '../src/trades/index.js'
import { ES, columns, human, prefix } from './data.js'
import { runGroup, type BenchOptions, type Impl, type Row } from './harness.js'
import { libFn } from './lib.js'
import { candlesBig, footprintBig, fromColumns, tpoBig, utcBucket, type TpoConfig } from './peers/bigjs.js'
import { candleObjLines } from './w2-candles.js'
import { footprintLines, HOUR } from './w1-footprint.js'
import { tpoLines } from './w4-tpo.js'

type TpoFn = (trades: unknown, opts: Record<string, unknown>) => TpoProfile[]
type FootprintFn = (trades: unknown, opts: Record<string, unknown>) => FootprintProfile[]
type CandlesFn = (trades: unknown, opts: Record<string, unknown>) => Candle[]

/** The record put into the stream: a double's shortest form with 17 decimals. */
const HIGH_SCALE = 0.30000000000000004
/** Where it goes: early in the first day, so every later day would pay if the scale stayed raised. */
const AT = 10

/** The columns with volume[AT] replaced by {@link HIGH_SCALE} (a copy; the cached data is untouched). */
function withHighScale(c: TradeColumns): TradeColumns {
  const volume = c.volume.slice()
  volume[AT] = HIGH_SCALE
  return { ...c, volume }
}

export async function runW8(bench: BenchOptions): Promise<Row[]> {
  // whole days of 500,000 trades: the record slows 1 day of N / 500,000
  const N = bench.quick ? 1_000_000 : 5_000_000
  const nBig = bench.quick ? 50_000 : 200_000
  const f = libFn<TpoFn>('tpo', 'tpoProfiles')
  const opts = { timeframe: '1d', tickSize: '0.25', blockSize: '30m' }
  const day = 86_400_000
  const cfg: TpoConfig = {
    period: (t) => Math.floor(t / day) * day,
    block: (t) => Math.floor(t / 1_800_000) * 1_800_000,
    blockMs: 1_800_000,
    rowSizeValue: '0.25',
    priceDecimals: 2,
    ibMs: 3_600_000,
  }
  const plain = columns(ES, N)
  const hostile = withHighScale(plain)
  const rows: Row[] = []
  for (const [label, cols] of [
    ['whole lots', plain],
    ['one record of 17 decimals at trade 10', hostile],
  ] as const) {
    const impls: Impl[] = [
      {
        impl: 'library tpoProfiles',
        library: true,
        exact: true,
        n: N,
        ...(f.missing !== undefined ? { unavailable: f.missing } : {}),
        run: (n) => (f.fn as TpoFn)(prefix(cols, n), opts),
        canon: (r) => tpoLines(r as TpoProfile[]),
      },
      {
        impl: 'naive big.js',
        exact: true,
        n: nBig,
        run: (n) => tpoBig(fromColumns(cols, n), cfg),
        canon: (r) => r as string[],
      },
    ]
    rows.push(...(await runGroup(`W8 daily TPO (UTC), ${label} (${human(N)} trades)`, 'trades', impls, bench)))
  }
  const fp = libFn<FootprintFn>('footprint', 'footprintProfiles')
  for (const [label, cols] of [
    ['whole lots', plain],
    ['one record of 17 decimals at trade 10', hostile],
  ] as const) {
    const impls: Impl[] = [
      {
        impl: 'library footprintProfiles',
        library: true,
        exact: true,
        n: N,
        ...(fp.missing !== undefined ? { unavailable: fp.missing } : {}),
        run: (n) => (fp.fn as FootprintFn)(prefix(cols, n), { timeframe: '1h', tickSize: '0.25', rowSize: 4 }),
        canon: (r) => footprintLines(r as FootprintProfile[]),
      },
      {
        impl: 'naive big.js',
        exact: true,
        n: nBig,
        run: (n) =>
          footprintBig(fromColumns(cols, n), { bucket: utcBucket(HOUR), rowSizeValue: '1', priceDecimals: 2 }),
        canon: (r) => r as string[],
      },
    ]
    rows.push(...(await runGroup(`W8 footprint 1h x 4 ticks, ${label} (${human(N)} trades)`, 'trades', impls, bench)))
  }
  // Candle objects out: a candle volume of 17 decimals is no double, so the columns-out path refuses it (inexact)
  const cf = libFn<CandlesFn>('candles', 'candlesFromTrades')
  for (const [label, cols] of [
    ['whole lots', plain],
    ['one record of 17 decimals at trade 10', hostile],
  ] as const) {
    const impls: Impl[] = [
      {
        impl: 'library candlesFromTrades',
        library: true,
        exact: true,
        n: N,
        ...(cf.missing !== undefined ? { unavailable: cf.missing } : {}),
        run: (n) => (cf.fn as CandlesFn)(prefix(cols, n), { timeframe: '1h' }),
        canon: (r) => candleObjLines(r as Candle[]),
      },
      {
        impl: 'naive big.js',
        exact: true,
        n: nBig,
        run: (n) => candlesBig(fromColumns(cols, n), utcBucket(HOUR)),
        canon: (r) => r as string[],
      },
    ]
    rows.push(...(await runGroup(`W8 trades -> 1h candles, ${label} (${human(N)} trades)`, 'trades', impls, bench)))
  }
  return rows
}
