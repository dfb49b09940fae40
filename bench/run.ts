// `npm run bench [-- --quick] [-- --only W1,W4]`: every workload in its own child process, one table.
// The table goes to stdout and, for a full run of every workload (not --quick, not --only), to
// bench/results.md and docs/performance.md. The machine's load average is printed before and after.
import { fork } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { fileURLToPath } from 'node:url'
import { sampler, type BenchOptions, type Row } from './harness.js'
import { loadLibrary } from './lib.js'
import { rewritesTables, selectWorkloads } from './select.js'
import { formatTable, markdownTable, replaceBlock } from './table.js'
import { targetSummary } from './targets.js'

type Workload = (bench: BenchOptions) => Promise<Row[]>

/**
 * Workload ids in run order, with their modules (loaded only in the child that runs them). DuckDB loads
 * after the JavaScript rows of its group are timed, so a process holds at most one group with a DuckDB
 * peer, as its last group (W2 and W3 run one such group a process; see bench/peers/duckdb.ts,
 * duckUnavailable).
 */
const WORKLOADS: Record<string, () => Promise<Workload>> = {
  W0a: async () => (await import('./w0-bucketer.js')).runW0Bucketer,
  W0b: async () => (await import('./w0-decimal.js')).runW0Decimal,
  W1: async () => (await import('./w1-footprint.js')).runW1,
  W2a: async () => {
    const { runW2 } = await import('./w2-candles.js')
    return (b) => runW2(b, 'columnar')
  },
  W2b: async () => {
    const { runW2 } = await import('./w2-candles.js')
    return (b) => runW2(b, 'objects')
  },
  W3a: async () => {
    const { runW3 } = await import('./w3-resample.js')
    return (b) => runW3(b, { frame: '15m', input: 'columnar' })
  },
  W3b: async () => {
    const { runW3 } = await import('./w3-resample.js')
    return (b) => runW3(b, { frame: '1d', input: 'columnar' })
  },
  W3c: async () => {
    const { runW3 } = await import('./w3-resample.js')
    return (b) => runW3(b, { input: 'objects' })
  },
  W4: async () => (await import('./w4-tpo.js')).runW4,
  W5: async () => (await import('./w5-objects.js')).runW5,
  W6: async () => (await import('./w6-stream.js')).runW6,
  // W7: one data set a process, Polars on one thread (with the hand loops), then on two (bench/peers/polars.ts)
  W7a: async () => {
    const { runW7 } = await import('./w7-markets.js')
    return (b) => runW7(b, 'es', true)
  },
  W7b: async () => {
    const { runW7 } = await import('./w7-markets.js')
    return (b) => runW7(b, 'busy', true)
  },
  W7c: async () => {
    const { runW7 } = await import('./w7-markets.js')
    return (b) => runW7(b, 'thin', true)
  },
  W7d: async () => {
    const { runW7 } = await import('./w7-markets.js')
    return (b) => runW7(b, 'es', false)
  },
  W7e: async () => {
    const { runW7 } = await import('./w7-markets.js')
    return (b) => runW7(b, 'busy', false)
  },
  W7f: async () => {
    const { runW7 } = await import('./w7-markets.js')
    return (b) => runW7(b, 'thin', false)
  },
  W8: async () => (await import('./w8-high-scale.js')).runW8,
}

/** Polars sizes its pool once per process: W7d-f run it on two threads, every other process on one. */
const POLARS_TWO_THREADS = new Set(['W7d', 'W7e', 'W7f'])

function arg(name: string): string | undefined {
  const a = process.argv.find((x) => x === name || x.startsWith(`${name}=`))
  if (a === undefined) return undefined
  if (a.includes('=')) return a.slice(a.indexOf('=') + 1)
  const next = process.argv[process.argv.indexOf(a) + 1]
  return next !== undefined && !next.startsWith('--') ? next : ''
}

const quick = arg('--quick') !== undefined

async function child(id: string): Promise<void> {
  const load = WORKLOADS[id]
  if (load === undefined) throw new Error(`unknown workload ${id}`)
  await loadLibrary()
  sampler.start()
  const sent: Promise<void>[] = []
  const emit = (row: Row) =>
    sent.push(new Promise<void>((res) => process.send?.({ row }, undefined, {}, () => res()) ?? res()))
  await (await load())({ quick, emit })
  await Promise.all(sent)
  await sampler.stop()
}

function runChild(id: string, onRow: (r: Row) => void): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const file = fileURLToPath(import.meta.url)
    const pass = ['--quick', '--no-duckdb', '--no-polars'].filter((f) => process.argv.includes(f))
    const cp = fork(file, ['--child', id, ...pass], {
      // W6 measures peak RSS against a target: it runs with Node's default heap settings
      execArgv: [...process.execArgv, '--expose-gc', ...(id === 'W6' ? [] : ['--max-old-space-size=8192'])],
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
      env: { ...process.env, POLARS_MAX_THREADS: POLARS_TWO_THREADS.has(id) ? '2' : '1' },
    })
    let stderr = ''
    cp.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString()
      if (stderr.length > 20_000) stderr = stderr.slice(-10_000)
    })
    cp.on('message', (m: { row?: Row }) => {
      if (m.row !== undefined) onRow(m.row)
    })
    cp.on('exit', (code) => resolve({ code, stderr }))
  })
}

function machine(): string {
  const c = cpus()
  return `${c[0]?.model ?? 'unknown CPU'}, ${c.length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}/${process.arch}`
}

/** The 1, 5 and 15 minute load averages: a table taken on a busy machine says so. */
function load(): string {
  return loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ')
}

async function main(): Promise<void> {
  const only = arg('--only')
  // `--only W3` selects W3a..W3c (an id, or the id and its lettered parts)
  const ids = selectWorkloads(Object.keys(WORKLOADS), only)
  const started = performance.now()
  const rows: Row[] = []
  const loadBefore = load()
  console.log(`svc-marketdata bench (${quick ? 'quick' : 'full'}) — ${machine()}`)
  console.log(`load average (1 / 5 / 15 min) before: ${loadBefore} on ${cpus().length} cores`)
  for (const id of ids) {
    const t0 = performance.now()
    const { code, stderr } = await runChild(id, (r) => {
      rows.push(r)
      console.log(
        `${formatTable([r], { header: false })}${r.seconds !== undefined ? ` [${r.seconds.toFixed(1)} s]` : ''}`,
      )
    })
    if (code !== 0) {
      const tail = stderr
        .trim()
        .split('\n')
        .filter((l) => !/^\s*at /.test(l))
        .slice(-3)
        .join(' | ')
      const r: Row = {
        workload: id,
        impl: '(workload process)',
        n: 0,
        unit: '',
        check: 'error',
        note: `exited with ${code}: ${tail}`.slice(0, 500),
      }
      rows.push(r)
      console.log(formatTable([r], { header: false }))
    }
    console.log(`  (${id} took ${((performance.now() - t0) / 1000).toFixed(1)} s)`)
  }
  const secs = (performance.now() - started) / 1000
  const loadAfter = load()
  console.log('')
  console.log(formatTable(rows, { header: true }))
  console.log(`\nload average (1 / 5 / 15 min): before ${loadBefore}, after ${loadAfter} on ${cpus().length} cores`)
  const summary = targetSummary(rows)
  if (summary !== '') console.log(`\n${summary}`)
  const bad = rows.filter((r) => r.check === 'MISMATCH' || r.check === 'error')
  console.log(
    `\n${rows.length} rows in ${secs.toFixed(0)} s; ${bad.length === 0 ? 'all checks passed' : `${bad.length} FAILED (MISMATCH or error)`}`,
  )
  // only a full run of every workload rewrites the committed tables: a quick or partial run leaves them alone
  if (rewritesTables(quick, only)) {
    const out = fileURLToPath(new URL('./results.md', import.meta.url))
    const meta = {
      machine: machine(),
      date: new Date().toISOString(),
      seconds: secs,
      load: [loadBefore, loadAfter] as [string, string],
    }
    const md = markdownTable(rows, meta)
    writeFileSync(out, md)
    console.log(`wrote ${out}`)
    const doc = fileURLToPath(new URL('../docs/performance.md', import.meta.url))
    const before = readFileSync(doc, 'utf8')
    let text = before
    for (const [key, body] of [
      ['results', md],
      ['targets', summary],
    ] as const)
      text = replaceBlock(text, key, body) ?? text
    if (text !== before) {
      writeFileSync(doc, text)
      console.log(`updated ${doc}`)
    }
  }
  if (bad.length > 0) {
    for (const r of bad) console.error(`${r.check}: ${r.workload} / ${r.impl}: ${r.note ?? ''}`)
    process.exitCode = 1
  }
}

const childId = arg('--child')
if (childId !== undefined) {
  child(childId).then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e instanceof Error ? (e.stack ?? e.message) : String(e))
      process.exit(2)
    },
  )
} else {
  main().catch((e: unknown) => {
    console.error(e)
    process.exit(1)
  })
}
