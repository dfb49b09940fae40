// `npm run bench:server [-- --seconds N --trades-per-day N --workers N]`: cheap-request latency while 32 heavy
// REST history requests are in flight, the server in its own process, a real HTTP client (fetch) here. Each of
// 32 clients sends a heavy request (footprint over 960 hours or 999 minutes, TPO over 59 days, 10,000 1-minute
// candles) and the next as soon as its answer is in; one more client sends GET /timeframes one at a time and
// times each. Run twice: history on the event loop (`--workers 0`, the server as it was) and in the worker
// pool. Prints a table and writes bench/results-server-load.md.
import { spawn, type ChildProcess } from 'node:child_process'
import { availableParallelism, loadavg } from 'node:os'
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name)
  return i < 0 ? fallback : Number(process.argv[i + 1])
}
const SECONDS = arg('--seconds', 20)
const TRADES_PER_DAY = arg('--trades-per-day', 20_000)
const POOL = arg('--workers', Math.max(1, Math.min(4, availableParallelism() - 1)))
const IN_FLIGHT = 32
const DAY_S = 86_400
const REST = '/api/v1/marketdata'
const HEAVY = [
  `/footprint?exchange=CME&symbol=ES&timeframe=1h&period=${40 * DAY_S}`,
  `/tpo?exchange=CME&symbol=NQ&timeframe=1d&period=${59 * DAY_S}`,
  '/candles?exchange=NASDAQ&symbol=AAPL&timeframe=1m&limit=10000',
  '/footprint?exchange=XETRA&symbol=SAP&timeframe=1m&period=59940',
]

interface Run {
  mode: string
  heavyDone: number
  heavyMs: number[]
  cheap: number[]
  errors: number
}

function startServer(workers: number): Promise<{ child: ChildProcess; url: string; banner: string }> {
  const script = fileURLToPath(new URL('./server-load/server.ts', import.meta.url))
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', script, '--workers', String(workers), '--trades-per-day', String(TRADES_PER_DAY)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString()
      const m = /listening on (\S+)/.exec(out)
      if (m !== null) resolve({ child, url: m[1]!, banner: out.trim() })
    })
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)))
  })
}

const quantile = (sorted: readonly number[], q: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!

async function measure(workers: number): Promise<Run> {
  const { child, url } = await startServer(workers)
  const run: Run = {
    mode: workers === 0 ? 'event loop (before)' : `worker pool of ${workers}`,
    heavyDone: 0,
    heavyMs: [],
    cheap: [],
    errors: 0,
  }
  let heavyKey = 0
  let cheapCount = 0
  const until = performance.now() + SECONDS * 1000
  // warm-up: one of each heavy request, so worker start-up and first compilation are not timed
  await Promise.all(
    HEAVY.map((p) =>
      fetch(`${url}${REST}${p}`, { headers: { 'x-api-key': `heavy-${heavyKey++}` } }).then((r) => r.arrayBuffer()),
    ),
  )
  const heavyClient = async (c: number): Promise<void> => {
    for (let n = 0; performance.now() < until; n++) {
      const t0 = performance.now()
      const r = await fetch(`${url}${REST}${HEAVY[(c + n) % HEAVY.length]}`, {
        headers: { 'x-api-key': `heavy-${heavyKey++ % 4000}` },
      })
      await r.arrayBuffer()
      if (r.status !== 200) run.errors++
      run.heavyMs.push(performance.now() - t0)
      run.heavyDone++
    }
  }
  const cheapClient = async (): Promise<void> => {
    // starts once every heavy client has a request out
    await new Promise((r) => setTimeout(r, 200))
    while (performance.now() < until) {
      const t0 = performance.now()
      const r = await fetch(`${url}${REST}/timeframes`, {
        headers: { 'x-api-key': `cheap-${Math.floor(cheapCount++ / 90) % 200}` },
      })
      await r.arrayBuffer()
      if (r.status !== 200) run.errors++
      run.cheap.push(performance.now() - t0)
    }
  }
  await Promise.all([...Array.from({ length: IN_FLIGHT }, (_, c) => heavyClient(c)), cheapClient()])
  child.kill('SIGTERM')
  await new Promise((r) => child.once('exit', r))
  return run
}

const runs: Run[] = []
for (const w of [0, POOL]) {
  console.log(
    `== ${w === 0 ? 'history on the event loop' : `history in ${w} worker thread(s)`}: ${SECONDS} s, ${IN_FLIGHT} heavy in flight`,
  )
  runs.push(await measure(w))
}
const f = (x: number): string => (Number.isNaN(x) ? '-' : x.toFixed(1))
const lines = [
  `<!-- written by \`npm run bench:server\` (${SECONDS} s a mode, ${TRADES_PER_DAY} trades a security and day, 60 days) -->`,
  `${new Date().toISOString()}, ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)} at the end`,
  '',
  '| Mode | Heavy answered | Heavy p50 (ms) | GET /timeframes answered | p50 (ms) | p99 (ms) | max (ms) | Non-200 |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ...runs.map((r) => {
    const c = r.cheap.slice().sort((a, b) => a - b)
    const h = r.heavyMs.slice().sort((a, b) => a - b)
    return `| ${r.mode} | ${r.heavyDone} | ${f(quantile(h, 0.5))} | ${c.length} | ${f(quantile(c, 0.5))} | ${f(quantile(c, 0.99))} | ${f(c.at(-1) ?? Number.NaN)} | ${r.errors} |`
  }),
]
console.log(lines.join('\n'))
writeFileSync(new URL('./results-server-load.md', import.meta.url), `${lines.join('\n')}\n`)
