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
  /** Speed-up targets measured from another library row of the group (by its name): its rate / this row's. */
  ratioTargets?: RatioTarget[]
  /** Wall time the row took, data loading and checks included (progress output only). */
  seconds?: number
}

/** A minimum speed-up of the library row named `of` (a prefix of its name) over this row; `ratio` once measured. */
export interface RatioTarget {
  of: string
  min: number
  ratio?: number
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

/** First difference of two canonical forms, or undefined when equal. */
export function diff(expected: readonly string[], actual: readonly string[]): string | undefined {
  const m = Math.min(expected.length, actual.length)
  for (let i = 0; i < m; i++) {
    if (expected[i] !== actual[i]) return `line ${i}: expected ${expected[i]} got ${actual[i]}`
  }
  if (expected.length !== actual.length) {
    return (
      `length: expected ${expected.length} lines, got ${actual.length}` +
      (expected.length > m ? ` (first missing: ${expected[m]})` : ` (first extra: ${actual[m]})`)
    )
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
  canon: (result: unknown) => string[] | Promise<string[]>
  /** An exact implementation that may serve as the reference when the library is unavailable. */
  exact: boolean
  /** The library row of the group (speed-ups are relative to it). */
  library?: boolean
  target?: number
  /** Minimum library speed-up over this peer. */
  speedupTarget?: number
  /** Minimum speed-ups over this peer of other library rows of the group (named by a prefix). */
  ratioTargets?: { of: string; min: number }[]
  note?: string
  /** Frees what `prepare` loaded. */
  dispose?: () => Promise<void> | void
  /** Minimum timed runs (default 5). */
  minRuns?: number
  /** A reference row whose result is not candles (a ceiling measurement): why it is not compared. */
  noCheck?: string
  /** Compares canonical forms when exact line equality cannot hold (float peers on inexact data); default {@link diff}. */
  compare?: (expected: readonly string[], actual: readonly string[]) => string | undefined
}

/**
 * Runs one workload group in three phases.
 * 1. Per implementation, in order: load its data (`prepare`), run once and compare with the reference
 *    (the library, else the first exact peer) on the same records, then warm up. The row's memory is
 *    sampled over this phase, which holds at least two complete runs.
 * 2. Timed runs, interleaved: in each round every implementation runs for a slice of about 50 ms (at
 *    least one run), so a change in machine load hits all of them alike and the ratios hold. Rounds go on
 *    until each has at least 5 runs and the time budget is spent (at most 30 runs each).
 * Phases 1 and 2 run first for the implementations without `prepare`, then for those with it (peers that
 * load data into the process, DuckDB), so their memory does not weigh on the JavaScript rows' timings.
 * 3. Statistics, speed-ups against the library row, `dispose`, rows emitted.
 */
export async function runGroup(workload: string, unit: string, impls: Impl[], bench: BenchOptions): Promise<Row[]> {
  const avail = impls.filter((x) => x.unavailable === undefined)
  let ref = avail.find((x) => x.library === true) ?? avail.find((x) => x.exact)
  const refCache = new Map<number, string[]>()
  const refCanon = async (n: number): Promise<string[]> => {
    let c = refCache.get(n)
    if (c === undefined) {
      const r = ref as Impl
      c = await r.canon(await r.run(n))
      refCache.set(n, c)
    }
    return c
  }
  const warmMs = bench.quick ? 100 : 600
  const items: { im: Impl; row: Row; times: number[]; live: boolean; seconds: number }[] = []
  // Peers that load data into the process (DuckDB: `prepare`) are loaded and timed after the others: in
  // some processes the library timed after DuckDB had loaded its tables ran up to ~1.7x slower than before
  // in the same process (no DuckDB thread was busy meanwhile), which is not a property of the code measured.
  const cohorts = [impls.filter((im) => im.prepare === undefined), impls.filter((im) => im.prepare !== undefined)]
  for (const cohort of cohorts) {
    // phase 1: load, check, warm up
    for (const im of cohort) {
      const row: Row = { workload, impl: im.impl, n: im.n, unit, check: 'unchecked' }
      if (im.target !== undefined) row.target = im.target
      if (im.speedupTarget !== undefined) row.speedupTarget = im.speedupTarget
      if (im.ratioTargets !== undefined) row.ratioTargets = im.ratioTargets.map((t) => ({ ...t }))
      if (im.note !== undefined) row.note = im.note
      const item = { im, row, times: [] as number[], live: false, seconds: 0 }
      items.push(item)
      if (im.unavailable !== undefined) {
        row.check = 'not available'
        row.note = im.unavailable
        continue
      }
      gc()
      const t0 = performance.now()
      const rssStart = process.memoryUsage.rss() / 1048576
      sampler.reset()
      let loaded = false
      try {
        if (im.prepare !== undefined) await im.prepare()
        loaded = true
        const result = await im.run(im.n)
        if (ref === undefined) row.check = 'unchecked'
        else if (im.noCheck !== undefined) row.check = `unchecked (${im.noCheck})`
        else if (im === ref) row.check = 'reference'
        else {
          // a slow fallback reference (no library) is compared on its own, smaller prefix
          const m = ref.library !== true && im.n > ref.n ? ref.n : im.n
          const mine = m === im.n ? result : await im.run(m)
          const d = (im.compare ?? diff)(await refCanon(m), inject(im.impl, await im.canon(mine)))
          if (d === undefined) row.check = `equal to ${ref.impl.split(' ')[0]}`
          else {
            row.check = 'MISMATCH'
            row.note = `vs ${ref.impl}: ${d}`.slice(0, 400)
          }
        }
        sink = undefined
        if (row.check !== 'MISMATCH') {
          const w0 = performance.now()
          let w = 0
          do {
            sink = await im.run(im.n)
            w++
          } while (performance.now() - w0 < warmMs && w < 20)
          item.live = true
        }
      } catch (e) {
        const msg = (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).slice(0, 400)
        // a peer whose data or engine fails to load is "not available"; a failing run is an error
        row.check = loaded ? 'error' : 'not available'
        row.note = loaded ? msg : `failed to load: ${msg}`
        if (im === ref) {
          // the reference failed: the next exact implementation becomes the reference for the rest
          ref = avail.slice(avail.indexOf(im) + 1).find((x) => x.exact)
          refCache.clear()
        }
      }
      sink = undefined
      row.rssPeakMb = sampler.peakMb()
      row.rssDeltaMb = row.rssPeakMb - rssStart
      item.seconds = (performance.now() - t0) / 1000
    }
    // phase 2: interleaved timed runs
    const live = items.filter((x) => x.live && cohort.includes(x.im))
    const budget = (bench.quick ? 150 : 1500) * Math.max(1, live.length)
    const sliceMs = 50
    const t0 = performance.now()
    for (let round = 0; live.length > 0; round++) {
      const short = live.some((x) => x.times.length < (x.im.minRuns ?? 5))
      const full = live.every((x) => x.times.length >= 30)
      if (!short && (full || performance.now() - t0 >= budget)) break
      for (let k = 0; k < live.length; k++) {
        const x = live[(k + round) % live.length] as (typeof live)[number]
        const s0 = performance.now()
        do {
          if (x.times.length >= 30) break
          try {
            const a = performance.now()
            sink = await x.im.run(x.im.n)
            x.times.push(performance.now() - a)
          } catch (e) {
            x.row.check = 'error'
            x.row.note = (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).slice(0, 400)
            x.live = false
            break
          }
        } while (performance.now() - s0 < sliceMs)
        x.seconds += (performance.now() - s0) / 1000
      }
      for (let k = live.length - 1; k >= 0; k--) if (!(live[k] as (typeof live)[number]).live) live.splice(k, 1)
    }
    sink = undefined
  }
  items.sort((a, b) => impls.indexOf(a.im) - impls.indexOf(b.im))
  // phase 3: statistics
  const libItem = items.find((x) => x.im.library === true && x.live)
  const libRate = libItem === undefined ? undefined : stats(libItem.times, libItem.im.n).median
  const rows: Row[] = []
  for (const x of items) {
    if (x.live && x.times.length > 0) {
      Object.assign(x.row, stats(x.times, x.im.n))
      if (x.im.library !== true && libRate !== undefined) x.row.speedup = libRate / (x.row.median as number)
      for (const t of x.row.ratioTargets ?? []) {
        const of = items.find((y) => y.im.impl.startsWith(t.of) && y.live && y.times.length > 0)
        if (of !== undefined) t.ratio = stats(of.times, of.im.n).median / (x.row.median as number)
      }
    }
    try {
      await x.im.dispose?.()
    } catch {
      // a peer that fails to clean up does not stop the bench
    }
    x.row.seconds = x.seconds
    rows.push(x.row)
    bench.emit(x.row)
  }
  return rows
}

/** Throughput statistics (million records per second) of run times in ms. */
export function stats(times: readonly number[], n: number): { median: number; min: number; max: number; runs: number } {
  const rates = times.map((ms) => n / ms / 1000)
  return { median: median(rates), min: Math.min(...rates), max: Math.max(...rates), runs: times.length }
}
