// For the live suites and the bench: a local NATS cluster, a Postgres server, the trade stream and the schema,
// and worker processes (`node examples/pipeline worker`) started and stopped by PID.
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type JetStreamManager, jetstream, jetstreamManager } from '@nats-io/jetstream'
import type { NatsConnection } from '@nats-io/transport-node'
import { startNatsCluster, type NatsCluster } from '../services/nats.js'
import { startPostgres, type LocalPostgres } from '../services/postgres.js'
import { startProcess, type ServiceProcess } from '../services/process.js'
import { connectNats, ensureTradesStream, retry } from './nats-source.js'
import type { ReplaySecurity } from './replay.js'
import { ensureSchema, registerSecurities } from './schema.js'
import { openPostgres, type Sql } from './sql.js'
import { clockSubject, partitionOf, TRADES_STREAM } from './subjects.js'

const here = dirname(fileURLToPath(import.meta.url))

/** Everything a live run stands on. */
export interface LiveCluster {
  nats: NatsCluster
  pg: LocalPostgres
  nc: NatsConnection
  jsm: JetStreamManager
  js: ReturnType<typeof jetstream>
  sql: Sql
  partitions: number
  /** Starts a worker process with this id. */
  worker(id: string, opts?: { leaseMs?: number }): ServiceProcess
  workers: Map<string, ServiceProcess>
  /** Index (in `nats.nodes`) of the node leading the trade stream. */
  streamLeader(): Promise<number>
  /** Stops every process this cluster started (workers by PID, then NATS, then Postgres). */
  stop(): Promise<void>
}

/** Starts `nodes` NATS nodes, Postgres, the stream (`replicas` copies) and the schema; registers `securities`. */
export async function startLiveCluster(opts: {
  nodes: number
  replicas: number
  partitions: number
  securities: readonly ReplaySecurity[]
}): Promise<LiveCluster> {
  const nats = await startNatsCluster({ nodes: opts.nodes })
  let pg: LocalPostgres | undefined
  try {
    pg = await startPostgres()
    const nc = await connectNats(nats.servers, 'live-test')
    await ensureTradesStream(nc, opts.replicas)
    const jsm = await jetstreamManager(nc)
    const sql = await openPostgres(pg.url)
    await ensureSchema(sql, opts.partitions)
    await registerSecurities(sql, opts.securities)
    const workers = new Map<string, ServiceProcess>()
    const db = pg
    return {
      nats,
      pg,
      nc,
      jsm,
      js: jetstream(nc),
      sql,
      partitions: opts.partitions,
      workers,
      worker(id, w = {}) {
        const args = [here, 'worker', '--id', id, '--nats', nats.servers.join(','), '--database-url', db.url]
        args.push('--partitions', String(opts.partitions), '--lease-ms', String(w.leaseMs ?? 3000))
        const p = startProcess(process.execPath, args)
        workers.set(id, p)
        return p
      },
      async streamLeader() {
        const info = await retry(() => jsm.streams.info(TRADES_STREAM))
        const name = info.cluster?.leader
        const i = nats.nodes.findIndex((n) => n.name === name)
        if (i < 0) throw new Error(`no leader for ${TRADES_STREAM} (${String(name)})`)
        return i
      },
      async stop() {
        await Promise.all([...workers.values()].map((w) => w.stop('SIGKILL')))
        await nc.close().catch(() => {})
        await sql.close().catch(() => {})
        await nats.stop()
        await db.destroy()
      },
    }
  } catch (e) {
    await nats.stop()
    await pg?.destroy()
    throw e
  }
}

/** The stream sequence of each partition's last clock message (the end of a replay), by partition. */
export async function clockPositions(
  jsm: JetStreamManager,
  securities: readonly ReplaySecurity[],
  partitions: number,
): Promise<Map<number, number>> {
  const out = new Map<number, number>()
  for (const p of new Set(securities.map((s) => partitionOf(s.exchange, s.symbol, partitions)))) {
    const m = await retry(() => jsm.streams.getMessage(TRADES_STREAM, { last_by_subj: clockSubject(p) }))
    if (m === null) throw new Error(`partition ${p}: no clock message on the stream`)
    out.set(p, m.seq)
  }
  return out
}
