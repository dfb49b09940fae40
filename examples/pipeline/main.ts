// Command line of the pipeline:
//   node examples/pipeline [embedded] [--data-dir DIR] [--securities N] [--trades-per-day N] [--days N] [--partitions N]
//     (without --securities: the reference server's sample catalog, ending now; then
//      `node examples/server --history-dir DIR` answers history from what the pipeline stored)
//   node examples/pipeline worker  --nats URL[,URL..] --database-url URL [--id ID] [--partitions N] [--lease-ms N] [--connections N]
//   node examples/pipeline publish --nats URL[,URL..] --database-url URL [--partitions N] [--replicas N] [--rate N]
//                                  (--securities N --trades-per-day N [--days N] | --trades FILE --symbol S --tick-size T [--exchange E])
import { hostname } from 'node:os'
import { countRows } from './commit.js'
import { runEmbedded } from './embedded.js'
import { connectNats, ensureTradesStream, natsSource } from './nats-source.js'
import { fileSecurity, publishMessages } from './publisher.js'
import { sampleStore } from '../server/store.js'
import { catalogSecurities, replayMessages, type ReplaySecurity, sampleSecurities } from './replay.js'
import { ensureSchema, registerSecurities } from './schema.js'
import { openPglite, openPostgres, openPostgresPool } from './sql.js'
import { DEFAULT_PARTITIONS } from './subjects.js'
import { startWorker } from './worker.js'

/** Postgres connections a worker process commits over (its partitions commit side by side). */
const DEFAULT_WORKER_CONNECTIONS = 4

const USAGE = `usage: node examples/pipeline [embedded] [--data-dir DIR] [--securities N] [--trades-per-day N] [--days N] [--partitions N]
       node examples/pipeline worker  --nats URL[,URL..] --database-url URL [--id ID] [--partitions N] [--lease-ms N] [--connections N]
       node examples/pipeline publish --nats URL[,URL..] --database-url URL [--partitions N] [--replicas N] [--rate N]
                                      (--securities N --trades-per-day N [--days N] | --trades FILE --symbol S --tick-size T [--exchange E])`

function parse(argv: readonly string[]): { command: string; o: Map<string, string> } {
  const command = argv[0] !== undefined && !argv[0].startsWith('-') ? argv[0] : 'embedded'
  const rest = command === argv[0] ? argv.slice(1) : argv
  const o = new Map<string, string>()
  for (let i = 0; i < rest.length; i += 2) {
    const k = rest[i]!
    if (k === '--help' || k === '-h') {
      console.log(USAGE)
      process.exit(0)
    }
    const v = rest[i + 1]
    if (!k.startsWith('--') || v === undefined) throw new Error(`${k}: needs a value\n${USAGE}`)
    o.set(k.slice(2), v)
  }
  return { command, o }
}

function int(o: Map<string, string>, name: string, dflt: number): number {
  const v = o.get(name)
  if (v === undefined) return dflt
  if (!/^[0-9]+$/.test(v) || Number(v) < 1) throw new Error(`--${name}: must be a whole number >= 1`)
  return Number(v)
}

function need(o: Map<string, string>, name: string): string {
  const v = o.get(name)
  if (v === undefined) throw new Error(`--${name} is required\n${USAGE}`)
  return v
}

function securitiesOf(o: Map<string, string>): ReplaySecurity[] {
  const file = o.get('trades')
  if (file !== undefined)
    return [fileSecurity(file, o.get('exchange') ?? 'LOCAL', need(o, 'symbol'), need(o, 'tick-size'))]
  if (!o.has('securities'))
    // the reference server's catalog, so that `node examples/server --history-dir DIR` can answer from the store
    return catalogSecurities(
      sampleStore({ now: Date.now(), days: int(o, 'days', 5), tradesPerDay: int(o, 'trades-per-day', 3000) }),
    )
  return sampleSecurities({
    securities: int(o, 'securities', 8),
    tradesPerDay: int(o, 'trades-per-day', 5000),
    days: int(o, 'days', 1),
  })
}

async function embedded(o: Map<string, string>): Promise<void> {
  const dir = o.get('data-dir')
  const sql = await openPglite(dir)
  const partitions = int(o, 'partitions', 4)
  const securities = securitiesOf(o)
  const messages = replayMessages(securities, partitions)
  const t0 = Date.now()
  await runEmbedded({ sql, securities, messages, partitions })
  const ms = Date.now() - t0
  const bars = await sql.query<{ exchange: string; symbol: string; minutes: unknown; trades: unknown }>(
    `select exchange, symbol, count(*) as minutes, sum((candle->>'trades')::int) as trades
     from minute_bars group by exchange, symbol order by exchange, symbol`,
  )
  console.log(
    `embedded pipeline: ${messages.length} messages through ${partitions} partitions into ${sql.where} in ${ms} ms`,
  )
  for (const b of bars) console.log(`  ${b.exchange}:${b.symbol}  ${b.minutes} minutes  ${b.trades} trades`)
  console.log(`dead letters: ${await countRows(sql, 'dead_letters')}`)
  const one = await sql.query<{ c: string }>(
    'select candle::text as c from minute_bars order by minute, symbol limit 1',
  )
  if (one[0] !== undefined) console.log(`first minute: ${one[0].c}`)
  await sql.close()
}

async function worker(o: Map<string, string>): Promise<void> {
  const nc = await connectNats(need(o, 'nats').split(','), 'worker')
  const leaseMs = int(o, 'lease-ms', 4000)
  // a worker paused inside a commit past its lease loses that transaction rather than blocking the takeover
  const sql = await openPostgresPool(need(o, 'database-url'), int(o, 'connections', DEFAULT_WORKER_CONNECTIONS), {
    idleInTransactionMs: leaseMs,
  })
  const partitions = int(o, 'partitions', DEFAULT_PARTITIONS)
  await ensureSchema(sql, partitions)
  const id = o.get('id') ?? `${hostname()}-${process.pid}`
  const w = startWorker({
    id,
    sql,
    source: natsSource(nc),
    partitions,
    leaseMs,
    log: (line) => console.log(`${new Date().toISOString()} ${id} ${line}`),
  })
  console.log(`worker ${id} running`)
  const stop = async () => {
    await w.stop()
    await nc.close()
    await sql.close()
    process.exit(0)
  }
  process.once('SIGTERM', stop)
  process.once('SIGINT', stop)
}

async function publish(o: Map<string, string>): Promise<void> {
  const nc = await connectNats(need(o, 'nats').split(','), 'publisher')
  const sql = await openPostgres(need(o, 'database-url'))
  const partitions = int(o, 'partitions', DEFAULT_PARTITIONS)
  await ensureSchema(sql, partitions)
  const securities = securitiesOf(o)
  await registerSecurities(sql, securities)
  await ensureTradesStream(nc, int(o, 'replicas', 1))
  const messages = replayMessages(securities, partitions)
  const rate = o.get('rate')
  const s = await publishMessages(nc, messages, rate === undefined ? {} : { rate: int(o, 'rate', 1) })
  console.log(`published ${s.published} messages (${s.duplicates} duplicates, ${s.retried} retried) in ${s.ms} ms`)
  await nc.close()
  await sql.close()
}

const { command, o } = parse(process.argv.slice(2))
const commands: Record<string, (o: Map<string, string>) => Promise<void>> = { embedded, worker, publish }
const run = commands[command]
if (run === undefined) {
  console.error(`unknown command ${command}\n${USAGE}`)
  process.exit(2)
}
run(o).catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e))
  process.exit(1)
})
