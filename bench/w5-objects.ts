// W5: the footprint object path — trade objects with decimal strings (tick 0.01, 8-decimal volumes, which
// are not exact doubles) -> 1h footprint at 4-tick rows (0.04).
import type { FootprintProfile } from '../src/footprint/index.js'
import type { Trade } from '../src/trades/index.js'
import { CRYPTO, human, objects } from './data.js'
import { runGroup, type BenchOptions, type Impl, type Row } from './harness.js'
import { libFn } from './lib.js'
import { footprintBig, fromObjects, utcBucket } from './peers/bigjs.js'
import { footprintLines, HOUR } from './w1-footprint.js'

type FootprintFn = (trades: unknown, opts: Record<string, unknown>) => FootprintProfile[]

export async function runW5(bench: BenchOptions): Promise<Row[]> {
  const N = bench.quick ? 500_000 : 5_000_000
  const nBig = bench.quick ? 50_000 : 200_000
  const objs = objects(CRYPTO, N)
  const sub = new Map<number, Trade[]>()
  const first = (n: number) => {
    let s = sub.get(n)
    if (s === undefined) sub.set(n, (s = n >= objs.length ? objs : objs.slice(0, n)))
    return s
  }
  const f = libFn<FootprintFn>('footprint', 'footprintProfiles')
  const impls: Impl[] = [
    {
      impl: 'library footprintProfiles (objects)',
      library: true,
      exact: true,
      n: N,
      target: 15,
      ...(f.missing !== undefined ? { unavailable: f.missing } : {}),
      run: (n) => (f.fn as FootprintFn)(first(n), { timeframe: '1h', tickSize: '0.01', rowSize: 4 }),
      canon: (r) => footprintLines(r as FootprintProfile[]),
    },
    {
      impl: 'naive big.js',
      exact: true,
      n: nBig,
      speedupTarget: 4,
      run: (n) =>
        footprintBig(fromObjects(objs, n), { bucket: utcBucket(HOUR), rowSizeValue: '0.04', priceDecimals: 2 }),
      canon: (r) => r as string[],
    },
  ]
  return runGroup(
    `W5 footprint 1h x 4 ticks from decimal-string objects, 8-decimal volumes (${human(N)} trades)`,
    'trades',
    impls,
    bench,
  )
}
