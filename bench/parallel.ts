// `tsx bench/parallel.ts [--quick]`: W1 (footprint 1h x 4 ticks, columnar) sharded by time across two
// worker_threads, partial profiles merged with mergeFootprintProfiles, checked equal to the single-thread
// result, and timed against it. Writes bench/results-parallel.md.
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { footprintProfiles, mergeFootprintProfiles, type FootprintProfile } from '../src/footprint/index.js'
import { ES, columns, human } from './data.js'
import { diff, stats } from './harness.js'
import { replaceBlock } from './table.js'
import { footprintLines } from './w1-footprint.js'

const quick = process.argv.includes('--quick')
const N = quick ? 2_000_000 : 10_000_000
const WORKERS = 2
const OPTS = { timeframe: '1h' as const, tickSize: '0.25', rowSize: 4 }

function shared(a: Float64Array | Uint8Array): SharedArrayBuffer {
  const sab = new SharedArrayBuffer(a.byteLength)
  new Uint8Array(sab).set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength))
  return sab
}

/**
 * Worker bootstrap that can run a TypeScript module: registers tsx's ESM hooks inside the worker, then
 * imports the module. (Node 20 does not apply `execArgv: ['--import', 'tsx']` to a worker's entry module:
 * it fails with ERR_UNKNOWN_FILE_EXTENSION.)
 */
function tsWorker(url: URL): string {
  const api = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href
  return `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}) })`
}

/** Concatenates time-ordered shard results, merging the profiles of a bucket that two shards share. */
export function mergeShards(parts: FootprintProfile[][], merged = { count: 0 }): FootprintProfile[] {
  const out: FootprintProfile[] = []
  for (const part of parts) {
    for (const p of part) {
      const last = out[out.length - 1]
      if (last !== undefined && last.time === p.time) {
        out[out.length - 1] = mergeFootprintProfiles(last, p)
        merged.count++
      } else out.push(p)
    }
  }
  return out
}

async function main(): Promise<void> {
  const cols = columns(ES, N)
  const buffers = {
    time: shared(cols.time),
    price: shared(cols.price),
    volume: shared(cols.volume),
    side: shared(cols.side),
  }
  // shard bounds near equal splits, moved off day starts (the data's days are whole shards) into the middle
  // of a trading hour, so the hour at each bound is computed half by each worker and must be merged
  const bounds = Array.from({ length: WORKERS + 1 }, (_, k) =>
    k === 0 || k === WORKERS ? (k * N) / WORKERS : Math.round((k * N) / WORKERS) + 123_457,
  )
  const hourOf = (i: number) => Math.floor((cols.time[i] as number) / 3_600_000)
  const splitHours = bounds.slice(1, -1).filter((b) => hourOf(b - 1) === hourOf(b)).length
  const workers = bounds.slice(0, -1).map(
    (from, k) =>
      new Worker(tsWorker(new URL('./parallel-worker.ts', import.meta.url)), {
        eval: true,
        workerData: { ...buffers, from, to: bounds[k + 1], opts: OPTS },
      }),
  )
  const next = (w: Worker) =>
    new Promise<unknown>((res, rej) => {
      const onMessage = (m: unknown) => {
        w.off('error', onError)
        res(m)
      }
      const onError = (e: unknown) => {
        w.off('message', onMessage)
        rej(e)
      }
      w.once('message', onMessage)
      w.once('error', onError)
    })
  await Promise.all(workers.map(next)) // 'ready': module loading is not timed
  const merged = { count: 0 }
  const parallelRun = async () => {
    const parts = workers.map(next)
    for (const w of workers) w.postMessage('run')
    return mergeShards((await Promise.all(parts)) as FootprintProfile[][], merged)
  }
  const single = footprintLines(footprintProfiles(cols, OPTS))
  let d = diff(single, footprintLines(await parallelRun()))
  if (d === undefined && merged.count !== splitHours)
    d = `expected ${splitHours} merged profiles at the shard bounds, saw ${merged.count}`
  let rows: string[][]
  let failed = false
  if (d !== undefined) {
    failed = true
    rows = [['MISMATCH', d]]
  } else {
    // warm-up, then timed runs interleaved (single, parallel, single, ...) so load changes hit both alike
    for (let w = 0; w < 2; w++) {
      footprintProfiles(cols, OPTS)
      await parallelRun()
    }
    const ts: number[] = []
    const tp: number[] = []
    for (let r = 0; r < (quick ? 5 : 9); r++) {
      let a = performance.now()
      footprintProfiles(cols, OPTS)
      ts.push(performance.now() - a)
      a = performance.now()
      await parallelRun()
      tp.push(performance.now() - a)
    }
    const s = stats(ts, N)
    const p = stats(tp, N)
    const f = (x: number) => x.toFixed(1)
    rows = [
      ['single thread (footprintProfiles)', `${f(s.median)} (${f(s.min)}..${f(s.max)})`, '1.00x'],
      [
        `${WORKERS} workers + mergeFootprintProfiles`,
        `${f(p.median)} (${f(p.min)}..${f(p.max)})`,
        `${(p.median / s.median).toFixed(2)}x`,
      ],
    ]
  }
  await Promise.all(workers.map((w) => w.terminate()))
  const head = ['implementation', 'M trades/s median (min..max)', 'speed-up']
  const md = [
    `<!-- written by \`tsx bench/parallel.ts${quick ? ' --quick' : ''}\` -->`,
    `W1 footprint 1h x 4 ticks, ${human(N)} trades sharded by time across ${WORKERS} worker_threads; ${splitHours} hour(s) split between workers and merged; result equal to the single-thread one: ${failed ? 'NO' : 'yes'}. ` +
      `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cpus()[0]?.model ?? ''} x ${cpus().length}, Node ${process.version}.`,
    '',
    `| ${head.join(' | ')} |`,
    '| --- | ---: | ---: |',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
  ].join('\n')
  console.log(md)
  if (!quick) {
    writeFileSync(fileURLToPath(new URL('./results-parallel.md', import.meta.url)), md)
    const doc = fileURLToPath(new URL('../docs/performance.md', import.meta.url))
    const updated = replaceBlock(readFileSync(doc, 'utf8'), 'parallel', md)
    if (updated !== undefined) writeFileSync(doc, updated)
  }
  if (failed) process.exitCode = 1
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
