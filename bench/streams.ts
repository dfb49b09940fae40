// npm run bench:streams: 200 live stream clients (100 candles, 100 footprint of one security, over 10 accounts)
// on one reference server in its own process; trades pushed into its embedded feed at a rate; the update
// latency from the push to the client (p50, p99), the server's memory, and the same when 10 clients stop
// reading (after an unmeasured warm-up of up to 5 s). Options: --clients N (200), --rate N trades/s (100), --seconds N per phase (15),
// --max-buffered BYTES (the server's send bound, 1 MiB). Prints a table and one JSON line.
import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { subscribeStream, type StreamClient } from '../examples/server/streams/stream-client.js'
import { STREAM_PATH } from '../examples/server/streams/protocol.js'

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}
const CLIENTS = arg('clients', 200)
const RATE = arg('rate', 100)
const SECONDS = arg('seconds', 15)
const MAX_BUFFERED = arg('max-buffered', 1 << 20)
const SLOW = 10
const now = (): number => performance.timeOrigin + performance.now()

interface Sample {
  count: number
  at: number
}
interface Watched {
  c: StreamClient
  kind: 'candles' | 'footprint'
  base: number
  samples: Sample[]
  slow: boolean
  closedAt?: number
  closeCode?: number
}

const countOf = (kind: string, bucket: any): number =>
  kind === 'candles'
    ? Number(bucket.volume)
    : (bucket.rows as [string, string, string, number, number][]).reduce((n, r) => n + r[3] + r[4], 0)

function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return Number.NaN
  const s = xs.slice().sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!
}

async function main(): Promise<void> {
  const here = dirname(fileURLToPath(import.meta.url))
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'streams-server.ts')], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, MAX_BUFFERED: String(MAX_BUFFERED) },
  })
  const pushed = new Map<number, number>()
  const waiters: Array<(m: any) => void> = []
  child.on('message', (m: any) => {
    if (m.k !== undefined) pushed.set(m.k, m.t)
    else for (const w of waiters.splice(0)) w(m)
  })
  const ask = (cmd: object): Promise<any> =>
    new Promise((r) => {
      waiters.push(r)
      child.send(cmd)
    })
  const ready: any = await new Promise((r) => waiters.push(r))
  const url = (kind: string) => `ws://127.0.0.1:${ready.port}${STREAM_PATH}/${kind}`
  try {
    const idle = await ask({ cmd: 'memory' })
    const clients: Watched[] = []
    for (let i = 0; i < CLIENTS; i++) {
      const kind = i % 2 === 0 ? 'candles' : 'footprint'
      const sub = { exchange: 'CME', symbol: 'ES', timeframe: '1d', ...(kind === 'footprint' ? { rowSize: 4 } : {}) }
      const c = await subscribeStream(url(kind), `bench-${i % 10}`, sub)
      if (c.refused) throw new Error(`client ${i} refused: ${c.status} ${JSON.stringify(c.body)}`)
      const snap = await c.next('snapshot')
      const w: Watched = {
        c,
        kind,
        base: snap.bucket === null ? 0 : countOf(kind, snap.bucket),
        samples: [],
        slow: false,
      }
      c.ws.on('message', (data) => {
        const f = JSON.parse(String(data))
        if (f.type === 'update') w.samples.push({ count: countOf(kind, f.bucket), at: now() })
      })
      void c.closed.then((x) => {
        w.closedAt = now()
        w.closeCode = x.code
      })
      clients.push(w)
    }
    const withClients = await ask({ cmd: 'memory' })
    const latencies = (from: number, to: number, who: (w: Watched) => boolean): number[] => {
      const out: number[] = []
      for (const w of clients) {
        if (!who(w)) continue
        for (const s of w.samples) {
          const k = s.count - w.base
          const t = pushed.get(k)
          if (t !== undefined && t >= from && t < to) out.push(s.at - t)
        }
      }
      return out
    }
    const phase = async (): Promise<{ from: number; to: number; memory: any }> => {
      const from = now()
      await ask({ cmd: 'push', rate: RATE, ms: SECONDS * 1000 })
      await new Promise((r) => setTimeout(r, 500))
      return { from, to: now(), memory: await ask({ cmd: 'memory' }) }
    }
    // warm-up (not measured): the first seconds run on unoptimised code in both processes
    await ask({ cmd: 'push', rate: RATE, ms: Math.min(5, SECONDS) * 1000 })
    const a = await phase()
    const slow = clients.filter((w) => w.kind === 'candles').slice(0, SLOW / 2)
    slow.push(...clients.filter((w) => w.kind === 'footprint').slice(0, SLOW / 2))
    for (const w of slow) {
      w.slow = true
      w.c.ws.pause()
    }
    const slowFrom = now()
    const b = await phase()
    const la = latencies(a.from, a.to, () => true)
    const lb = latencies(b.from, b.to, (w) => !w.slow)
    const mb = (x: number) => (x / 2 ** 20).toFixed(1)
    const closed = slow.filter((w) => w.closeCode !== undefined)
    const rows = [
      ['phase', 'updates measured', 'p50 ms', 'p99 ms', 'max ms', 'server RSS MB', 'server heap MB'],
      ['idle (no clients)', '-', '-', '-', '-', mb(idle.memory.rss), mb(idle.memory.heapUsed)],
      [
        `${CLIENTS} clients subscribed`,
        '-',
        '-',
        '-',
        '-',
        mb(withClients.memory.rss),
        mb(withClients.memory.heapUsed),
      ],
      [
        `${RATE} trades/s, all reading`,
        String(la.length),
        percentile(la, 50).toFixed(2),
        percentile(la, 99).toFixed(2),
        percentile(la, 100).toFixed(2),
        mb(a.memory.memory.rss),
        mb(a.memory.memory.heapUsed),
      ],
      [
        `${SLOW} stop reading (others)`,
        String(lb.length),
        percentile(lb, 50).toFixed(2),
        percentile(lb, 99).toFixed(2),
        percentile(lb, 100).toFixed(2),
        mb(b.memory.memory.rss),
        mb(b.memory.memory.heapUsed),
      ],
    ]
    for (const r of rows) console.log(`| ${r.join(' | ')} |`)
    console.log(
      `slow clients closed by the server: ${closed.length} of ${SLOW} (codes ${[...new Set(closed.map((w) => w.closeCode))].join(', ') || 'none'}; after ${closed.map((w) => ((w.closedAt! - slowFrom) / 1000).toFixed(1)).join(', ') || '-'} s); server stats ${JSON.stringify(b.memory.stats)}`,
    )
    console.log(
      JSON.stringify({
        clients: CLIENTS,
        rate: RATE,
        seconds: SECONDS,
        maxBuffered: MAX_BUFFERED,
        p50: percentile(la, 50),
        p99: percentile(la, 99),
        slowP50: percentile(lb, 50),
        slowP99: percentile(lb, 99),
        rss: [idle.memory.rss, withClients.memory.rss, a.memory.memory.rss, b.memory.memory.rss],
        slowClosed: closed.length,
      }),
    )
    for (const w of clients) w.c.ws.terminate()
  } finally {
    child.send({ cmd: 'stop' })
    setTimeout(() => child.kill('SIGKILL'), 5000).unref()
  }
}

main().catch((e: unknown) => {
  console.error(e)
  process.exitCode = 1
})
