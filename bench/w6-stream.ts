// W6: 100 M trades (10 M with --quick) streamed in batches of 65,536 through createFootprintAggregator
// (1h, 4-tick rows), generated on the fly into one reused batch buffer, so the process never holds the stream.
import type { FootprintAggregator, FootprintProfile } from '../src/footprint/index.js'
import { ES, clearData, columns, human, reusedBatches } from './data.js'
import { diff, sampler, type BenchOptions, type Row } from './harness.js'
import { libFn } from './lib.js'
import { footprintLines } from './w1-footprint.js'

type CreateAgg = (opts: Record<string, unknown>) => FootprintAggregator
type FootprintFn = (trades: unknown, opts: Record<string, unknown>) => FootprintProfile[]

const OPTS = { timeframe: '1h', tickSize: '0.25', rowSize: 4 }

interface StreamRun {
  aggMs: number
  totalMs: number
  profiles: FootprintProfile[] | undefined
  trades: number
  volume: bigint
}

/** Streams n trades; times only the aggregator calls; keeps the profiles when `keep`. */
function stream(create: CreateAgg, n: number, keep: boolean, expect?: { trades: number; volume: bigint }): StreamRun {
  const agg = create(OPTS)
  const kept: FootprintProfile[] = []
  let aggMs = 0
  let trades = 0
  let volume = 0n
  const take = (ps: FootprintProfile[]) => {
    for (const p of ps) {
      trades += p.trades
      volume += BigInt(p.volume)
      if (keep) kept.push(p)
    }
  }
  const t0 = performance.now()
  for (const b of reusedBatches(ES, n)) {
    const a = performance.now()
    agg.addColumns(b)
    const closed = agg.advance(b.time[b.time.length - 1] as number)
    aggMs += performance.now() - a
    take(closed)
  }
  const a = performance.now()
  const last = agg.flush()
  aggMs += performance.now() - a
  take(last)
  const totalMs = performance.now() - t0
  if (expect !== undefined && (trades !== expect.trades || volume !== expect.volume)) {
    throw new Error(
      `W6 totals differ between runs: ${trades} trades / ${volume} volume vs ${expect.trades} / ${expect.volume}`,
    )
  }
  return { aggMs, totalMs, profiles: keep ? kept : undefined, trades, volume }
}

export async function runW6(bench: BenchOptions): Promise<Row[]> {
  const N = bench.quick ? 10_000_000 : 100_000_000
  const nCheck = 1_000_000
  const workload = `W6 footprint stream, batches of 65,536 (${human(N)} trades)`
  const row: Row = { workload, impl: 'library createFootprintAggregator', n: N, unit: 'trades', check: 'unchecked' }
  const ca = libFn<CreateAgg>('footprint', 'createFootprintAggregator')
  const fp = libFn<FootprintFn>('footprint', 'footprintProfiles')
  if (ca.fn === undefined || fp.fn === undefined) {
    row.check = 'not available'
    row.note = ca.missing ?? fp.missing
    bench.emit(row)
    return [row]
  }
  const create = ca.fn
  try {
    // gate: streaming = batch on the first 1 M trades, and every trade and lot accounted for
    const s = stream(create, nCheck, true)
    const cols = columns(ES, nCheck)
    const d = diff(footprintLines(fp.fn(cols, OPTS)), footprintLines(s.profiles as FootprintProfile[]))
    let vol = 0
    for (let i = 0; i < nCheck; i++) vol += cols.volume[i] as number
    if (d !== undefined || s.trades !== nCheck || s.volume !== BigInt(vol)) {
      row.check = 'MISMATCH'
      row.note = d ?? `totals: ${s.trades} trades, volume ${s.volume}; expected ${nCheck}, ${vol}`
      bench.emit(row)
      return [row]
    }
    row.check = 'stream = footprintProfiles (1M prefix); totals conserved'
    // warm-up on 1 M, then timed runs of the whole stream
    stream(create, nCheck, false)
    clearData()
    ;(globalThis as { gc?: () => void }).gc?.()
    const rssStart = process.memoryUsage.rss() / 1048576
    sampler.reset()
    const runs: StreamRun[] = []
    const minRuns = 5
    for (let r = 0; r < minRuns; r++) runs.push(stream(create, N, false, runs[0]))
    const rates = runs.map((x) => N / x.aggMs / 1000).sort((a, b) => a - b)
    const e2e = runs.map((x) => N / x.totalMs / 1000).sort((a, b) => a - b)
    row.median = rates[rates.length >> 1] as number
    row.min = rates[0] as number
    row.max = rates[rates.length - 1] as number
    row.runs = runs.length
    row.rssPeakMb = sampler.peakMb()
    row.rssDeltaMb = row.rssPeakMb - rssStart
    const maxRss = process.resourceUsage().maxRSS / 1024
    row.rssTargetMb = 200
    row.note =
      `rate: aggregator calls only (with the generator: ${(e2e[e2e.length >> 1] as number).toFixed(1)} M/s); ` +
      `peak RSS: whole process during the timed runs (kernel max RSS since start: ${maxRss.toFixed(0)} MB)`
  } catch (e) {
    row.check = 'error'
    row.note = (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).slice(0, 400)
  }
  bench.emit(row)
  return [row]
}
