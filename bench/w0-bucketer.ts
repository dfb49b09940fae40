// W0a: the bucketer — sorted trade timestamps -> 1m bucket starts, UTC and America/New_York.
import type { Timeframe } from '../src/time/index.js'
import { ES, columns, human } from './data.js'
import { runGroup, type BenchOptions, type Impl, type Row } from './harness.js'
import { libFn } from './lib.js'

interface Bucketer {
  locate(t: number): number
}
type CreateBucketer = (tf: Timeframe, opts?: { timeZone?: string }) => Bucketer
type BucketStart = (t: number, tf: Timeframe, opts?: { timeZone?: string }) => number

const M1: Timeframe = { id: '1m', unit: 'MINUTE', count: 1 }

/** Run-length lines `start x count` of bucket starts (sorted input gives runs). */
export function runLines(starts: Float64Array): string[] {
  const out: string[] = []
  let i = 0
  while (i < starts.length) {
    let j = i + 1
    while (j < starts.length && starts[j] === starts[i]) j++
    out.push(`${starts[i]}x${j - i}`)
    i = j
  }
  return out
}

/** How many calls of `f` fit in `ms` (at least 1,000, at most `max`): sizes a slow baseline to a sane run. */
export function affordable(f: (i: number) => void, ms: number, max: number): number {
  const probe = 200
  const t0 = performance.now()
  for (let i = 0; i < probe; i++) f(i)
  const per = (performance.now() - t0) / probe
  const n = Math.floor(ms / Math.max(per, 1e-6))
  return Math.max(1000, Math.min(max, Math.round(n / 1000) * 1000))
}

export async function runW0Bucketer(bench: BenchOptions): Promise<Row[]> {
  const N = bench.quick ? 1_000_000 : 10_000_000
  const times = columns(ES, N).time
  const out = new Float64Array(N)
  const out2 = new Float64Array(N)
  const cb = libFn<CreateBucketer>('time', 'createBucketer')
  const bs = libFn<BucketStart>('time', 'bucketStart')
  const rows: Row[] = []
  for (const zone of ['UTC', 'America/New_York']) {
    const opts = { timeZone: zone }
    const canon = (r: unknown) => runLines(r as Float64Array)
    const nNaive =
      bs.fn === undefined
        ? 0
        : affordable((i) => (bs.fn as BucketStart)(times[i] as number, M1, opts), bench.quick ? 150 : 600, N)
    const impls: Impl[] = [
      {
        impl: 'library createBucketer().locate',
        library: true,
        exact: true,
        n: N,
        target: zone === 'UTC' ? 100 : 50,
        ...(cb.missing !== undefined ? { unavailable: cb.missing } : {}),
        canon,
        run: (n) => {
          const b = (cb.fn as CreateBucketer)(M1, opts)
          const o = out.subarray(0, n)
          for (let i = 0; i < n; i++) o[i] = b.locate(times[i] as number)
          return o
        },
      },
      {
        impl: 'naive bucketStart per timestamp',
        exact: true,
        n: nNaive,
        note: 'run on fewer timestamps: it is slow',
        ...(bs.missing !== undefined ? { unavailable: bs.missing } : {}),
        canon,
        run: (n) => {
          const f = bs.fn as BucketStart
          const o = new Float64Array(n)
          for (let i = 0; i < n; i++) o[i] = f(times[i] as number, M1, opts)
          return o
        },
      },
    ]
    if (zone === 'UTC') {
      impls.push({
        impl: 'hand-written Math.floor(t / 60000) * 60000',
        exact: true,
        n: N,
        canon,
        run: (n) => {
          const o = out2.subarray(0, n)
          for (let i = 0; i < n; i++) o[i] = Math.floor((times[i] as number) / 60_000) * 60_000
          return o
        },
      })
    }
    rows.push(
      ...(await runGroup(`W0 bucketer 1m, ${zone} (${human(N)} sorted timestamps)`, 'timestamps', impls, bench)),
    )
  }
  return rows
}
