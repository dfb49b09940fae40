// Bench harness: timing, memory sampling, equality checks and rows. Runs inside one workload child process.
import { Worker } from 'node:worker_threads'

/** One line of the bench table. */
export interface Row {
  workload: string
  impl: string
  /** Records per timed run. */
  n: number
  unit: string
  /** Million records per second: median, min, max over the timed runs. */
  median?: number
  min?: number
  max?: number
  runs?: number
  /** Library throughput / this row's throughput (peer rows only). */
  speedup?: number
  /** Peak RSS (MB) while this row ran, and its growth over the RSS at the row's start. */
  rssPeakMb?: number
  rssDeltaMb?: number
  /** 'reference' | 'equal' | 'MISMATCH' | 'not available' | 'error' | 'unchecked' */
  check: string
  /** Free text: why a row is unavailable, the mismatch, a note. */
  note?: string
  /** Minimum million records/s this row must reach (library rows). */
  target?: number
  /** Peak RSS this row must stay under (MB). */
  rssTargetMb?: number
  /** Minimum library speed-up over this (peer) row. */
  speedupTarget?: number
  /** Wall time the row took, data loading and checks included (progress output only). */
  seconds?: number
}

export interface BenchOptions {
  quick: boolean
  emit: (row: Row) => void
}

/**
 * Peak RSS sampler. `process.memoryUsage.rss()` is process-wide, so a worker thread can watch it while the
 * main thread is busy in a synchronous run (which a timer on the main thread could not). Every 2 ms it
 * keeps the maximum (KiB) in shared memory; the main thread resets and reads it around each row.
 */
export class RssSampler {
  private readonly cell = new Int32Array(new SharedArrayBuffer(4))
  private worker: Worker | undefined

  start(): void {
    const code = `
      const { workerData } = require('node:worker_threads')
      const a = new Int32Array(workerData)
      const tick = () => { const r = Math.floor(process.memoryUsage.rss() / 1024); if (r > Atomics.load(a, 0)) Atomics.store(a, 0, r) }
      tick(); setInterval(tick, 2)`
    this.worker = new Worker(code, { eval: true, workerData: this.cell.buffer })
    this.worker.unref()
  }

  reset(): void {
    Atomics.store(this.cell, 0, Math.floor(process.memoryUsage.rss() / 1024))
  }

  /** Peak since the last reset, MB; also folds in the current RSS (the sampler may not have woken yet). */
  peakMb(): number {
    const now = Math.floor(process.memoryUsage.rss() / 1024)
    return Math.max(Atomics.load(this.cell, 0), now) / 1024
  }

  async stop(): Promise<void> {
    await this.worker?.terminate()
  }
}

export const sampler = new RssSampler()

function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc
  if (g !== undefined) {
    g()
    g()
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}

/** Keeps results alive so no engine can drop a run as dead code. */
export let sink: unknown

/**
 * Times `run`: warm-up runs (at least one, until `warmMs`), then at least 5 timed runs (until `timedMs`, at most 30).
 * Returns throughput statistics in million records per second.
 */
export async function timeRuns(
  run: () => unknown,
  n: number,
  opts: { quick: boolean; minRuns?: number },
): Promise<{ median: number; min: number; max: number; runs: number }> {
  const warmMs = opts.quick ? 100 : 600
  const timedMs = opts.quick ? 150 : 1500
  const minRuns = opts.minRuns ?? 5
  let t0 = performance.now()
  let w = 0
  do {
    sink = await run()
    w++
  } while (performance.now() - t0 < warmMs && w < 20)
  const times: number[] = []
  t0 = performance.now()
  while (times.length < minRuns || (performance.now() - t0 < timedMs && times.length < 30)) {
    const a = performance.now()
    sink = await run()
    times.push(performance.now() - a)
  }
  const rates = times.map((ms) => n / ms / 1000) // records/ms / 1000 = million records/s
  return { median: median(rates), min: Math.min(...rates), max: Math.max(...rates), runs: times.length }
}

/** First difference of two canonical forms, or undefined when equal. */
export function diff(expected: readonly string[], actual: readonly string[]): string | undefined {
  const m = Math.min(expected.length, actual.length)
  for (let i = 0; i < m; i++) {
    if (expected[i] !== actual[i]) return `line ${i}: expected ${expected[i]} got ${actual[i]}`
  }
  if (expected.length !== actual.length) {
    return `length: expected ${expected.length} lines, got ${actual.length}` +
      (expected.length > m ? ` (first missing: ${expected[m]})` : ` (first extra: ${actual[m]})`)
  }
  return undefined
}

/**
 * Sanity hook for the gate itself: `BENCH_INJECT_MISMATCH=<text>` corrupts the last canonical line of every
 * implementation whose name contains <text>, so one can see the run print MISMATCH and exit 1.
 */
function inject(impl: string, lines: string[]): string[] {
  const bad = process.env.BENCH_INJECT_MISMATCH
  if (bad === undefined || bad === '' || !impl.includes(bad) || lines.length === 0) return lines
  const out = lines.slice()
  out[out.length - 1] = `${out[out.length - 1]}|injected`
  return out
}

/** An implementation of one workload. */
export interface Impl {
  impl: string
  /** Records this implementation is timed on (a prefix of the workload's data). */
  n: number
  /** Why it cannot run (missing library function, peer failed to load); the row says so. */
  unavailable?: string
  /** Loads data before timing (DuckDB); not timed. */
  prepare?: () => Promise<void> | void
  /** One run over the first `n` records of the workload's data. */
  run: (n: number) => unknown
  /** Canonical form of a result, compared line by line with the reference on the same prefix. */
  canon: (result: unknown) => string[]
  /** An exact implementation that may serve as the reference when the library is unavailable. */
  exact: boolean
  /** The library row of the group (speed-ups are relative to it). */
  library?: boolean
  target?: number
  /** Minimum library speed-up over this peer. */
  speedupTarget?: number
  note?: string
  /** Frees what `prepare` loaded. */
  dispose?: () => Promise<void> | void
  /** Minimum timed runs (default 5). */
  minRuns?: number
}

/**
 * Runs one workload group: picks the reference (the library, else the first exact peer), checks every
 * implementation equal to it on the same records, then times each. Rows are emitted as they finish.
 */
export async function runGroup(
  workload: string,
  unit: string,
  impls: Impl[],
  bench: BenchOptions,
): Promise<Row[]> {
  const rows: Row[] = []
  const avail = impls.filter((x) => x.unavailable === undefined)
  let ref = avail.find((x) => x.library === true) ?? avail.find((x) => x.exact)
  const refCache = new Map<number, string[]>()
  const refCanon = async (n: number): Promise<string[]> => {
    let c = refCache.get(n)
    if (c === undefined) {
      const r = ref as Impl
      c = r.canon(await r.run(n))
      refCache.set(n, c)
    }
    return c
  }
  let libRate: number | undefined
  for (const im of impls) {
    const row: Row = { workload, impl: im.impl, n: im.n, unit, check: 'unchecked' }
    if (im.target !== undefined) row.target = im.target
    if (im.speedupTarget !== undefined) row.speedupTarget = im.speedupTarget
    if (im.note !== undefined) row.note = im.note
    if (im.unavailable !== undefined) {
      row.check = 'not available'
      row.note = im.unavailable
      rows.push(row)
      bench.emit(row)
      continue
    }
    gc()
    const rowStart = performance.now()
    const rssStart = process.memoryUsage.rss() / 1048576
    sampler.reset()
    try {
      if (im.prepare !== undefined) await im.prepare()
      // correctness gate: one run, compared with the reference on the same prefix
      const result = await im.run(im.n)
      if (ref === undefined) row.check = 'unchecked'
      else if (im === ref) row.check = 'reference'
      else {
        // a slow fallback reference (no library) is compared on its own, smaller prefix
        const m = ref.library !== true && im.n > ref.n ? ref.n : im.n
        const mine = m === im.n ? result : await im.run(m)
        const d = diff(await refCanon(m), inject(im.impl, im.canon(mine)))
        if (d === undefined) row.check = `equal to ${ref.impl.split(' ')[0]}`
        else {
          row.check = 'MISMATCH'
          row.note = `vs ${ref.impl}: ${d}`.slice(0, 400)
        }
      }
      if (row.check !== 'MISMATCH') {
        const s = await timeRuns(() => im.run(im.n), im.n, { quick: bench.quick, ...(im.minRuns !== undefined ? { minRuns: im.minRuns } : {}) })
        Object.assign(row, s)
        if (im.library === true) libRate = s.median
        else if (libRate !== undefined) row.speedup = libRate / s.median
      }
    } catch (e) {
      row.check = 'error'
      row.note = (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).slice(0, 400)
      if (im === ref) {
        // the reference failed: the next exact implementation becomes the reference for the rest
        ref = avail.slice(avail.indexOf(im) + 1).find((x) => x.exact)
        refCache.clear()
      }
    }
    row.rssPeakMb = sampler.peakMb()
    row.rssDeltaMb = row.rssPeakMb - rssStart
    try {
      await im.dispose?.()
    } catch {
      // a peer that fails to clean up does not stop the bench
    }
    sink = undefined
    row.seconds = (performance.now() - rowStart) / 1000
    rows.push(row)
    bench.emit(row)
  }
  return rows
}
