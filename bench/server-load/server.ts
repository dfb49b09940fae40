// The server process of `npm run bench:server` (bench/server-load.ts starts it): the reference server over a
// large sample store, with many accounts so that credits never limit the load (each heavy request can use an
// account of its own). Arguments: --workers N (REST worker threads; 0 = the event loop), --trades-per-day N.
import { defaultCatalog } from '../../examples/server/catalog.js'
import { installProcessGuard } from '../../examples/server/process-guard.js'
import { startServer } from '../../examples/server/server.js'
import { sampleStore } from '../../examples/server/store.js'

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name)
  return i < 0 ? fallback : Number(process.argv[i + 1])
}
/** The clock is pinned, so the sample data and the credit windows are the same on every run. */
const BENCH_NOW = Date.UTC(2026, 7, 20, 15, 0, 10)

installProcessGuard()
const store = sampleStore({
  now: BENCH_NOW,
  days: 60,
  tradesPerDay: arg('--trades-per-day', 20_000),
  catalog: defaultCatalog(),
})
const apiKeys = [
  ...Array.from({ length: 4000 }, (_, i) => ({ key: `heavy-${i}`, account: `heavy-${i}` })),
  ...Array.from({ length: 200 }, (_, i) => ({ key: `cheap-${i}`, account: `cheap-${i}` })),
]
const running = await startServer({
  store,
  apiKeys,
  partnerKeys: [],
  clock: () => BENCH_NOW,
  port: 0,
  limits: { restWorkers: arg('--workers', 1), restQueue: 1024, maxConnections: 4096 },
})
process.on('SIGTERM', () => void running.close().then(() => process.exit(0)))
console.log(`listening on ${running.url} trades ${store.all().reduce((n, s) => n + s.trades.time.length, 0)}`)
