// A worker: shares the partitions with the other live workers (assignment.ts), holds the ones it owns by lease
// (leases.ts), and for each runs read -> apply -> commit (commit.ts) until it loses or gives up the lease. The
// database is the truth: whatever goes wrong with a partition (the lease lost, the database or the broker gone),
// the worker drops that partition's state and, if it is still its to own, takes it again from what is committed.
import { assignPartitions } from './assignment.js'
import { commitPartition, LeaseLost, loadCheckpoints, loadTickSizes, recordFenced } from './commit.js'
import { acquireLease, heartbeat, leaseHeld, leaveWorkers, liveWorkers, releaseLease } from './leases.js'
import { createPartitionState, type PartitionState, type StreamMessage } from './partition-state.js'
import type { PartitionReader, TradeSource } from './source.js'
import type { Sql } from './sql.js'

export interface WorkerOptions {
  id: string
  sql: Sql
  source: TradeSource
  partitions: number
  /** Lease and heartbeat lifetime (default 4 s): a dead or paused worker's partitions move after this. */
  leaseMs?: number
  /** Commit (and so renew the lease) at least this often (default 250 ms). */
  commitEveryMs?: number
  /** Messages read at a time (default 2000). */
  batch?: number
  /**
   * How far past the worker's clock a trade may be stamped (default a day): the aggregators refuse a trade after
   * `now() + maxAheadMs`, a bound that moves on with the clock however long the worker runs.
   */
  maxAheadMs?: number
  /** The worker's clock (default `Date.now`). */
  now?: () => number
  log?: (line: string) => void
}

export interface WorkerStats {
  applied: number
  commits: number
  fenced: number
  owned: number[]
}

export interface RunningWorker {
  stats(): WorkerStats
  /** Commits and releases every partition, then leaves. */
  stop(): Promise<void>
  /**
   * Stops at once as a crash would: nothing more is committed or released (what was applied since the last
   * commit is lost with it), the leases run out. For in-process tests of a worker's death.
   */
  abort(): Promise<void>
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

type ReadResult = { ok: true; msgs: StreamMessage[] } | { ok: false; error: unknown }

interface Owned {
  state: PartitionState
  stopping: boolean
  done: Promise<void>
}

/** Starts a worker; it runs until `stop()` (or the process ends). */
export function startWorker(opts: WorkerOptions): RunningWorker {
  const leaseMs = opts.leaseMs ?? 4000
  const commitEveryMs = opts.commitEveryMs ?? 250
  const batch = opts.batch ?? 2000
  const maxAheadMs = opts.maxAheadMs ?? 86_400_000
  const now = opts.now ?? Date.now
  const maxTime = (): number => now() + maxAheadMs
  const log = opts.log ?? (() => {})
  const db = <T>(fn: () => Promise<T>): Promise<T> => fn()
  const owned = new Map<number, Owned>()
  const stats = { applied: 0, commits: 0, fenced: 0 }
  let stopped = false
  let aborted = false
  let tickSizes = new Map<string, string>()

  const commit = async (state: PartitionState): Promise<void> => {
    if (aborted) throw new Error('aborted')
    const c = state.pending()
    await db(() => commitPartition(opts.sql, opts.id, c, leaseMs))
    state.committed(c)
    stats.commits++
  }

  /** One read, its failure kept as a value (a read fetched ahead may fail while nobody awaits it yet). */
  const readFrom = (reader: PartitionReader): Promise<ReadResult> =>
    reader.read(batch, Math.max(1000, commitEveryMs)).then(
      (msgs) => ({ ok: true, msgs }),
      (error: unknown) => ({ ok: false, error }),
    )

  const run = async (p: number, o: Owned, reader0: PartitionReader): Promise<void> => {
    let reader: PartitionReader | undefined = reader0
    let ahead: Promise<ReadResult> | undefined
    let last = Date.now()
    try {
      while (!o.stopping) {
        if (reader === undefined) reader = await opts.source.open(p, o.state.applied)
        const got = await (ahead ?? readFrom(reader))
        ahead = undefined
        if (!got.ok) {
          log(`partition ${p}: read failed (${String(got.error)}), reading again after ${o.state.applied}`)
          await reader.close().catch(() => {})
          reader = undefined
          await sleep(200)
          continue
        }
        if (aborted) return
        const msgs = got.msgs
        // the next batch is fetched while this one is applied and committed; what it brings is applied only
        // after this commit, in stream order, and is simply dropped if the partition is given up or lost meanwhile
        ahead = readFrom(reader)
        for (const m of msgs) o.state.apply(m)
        stats.applied += msgs.length
        if (Date.now() - last >= commitEveryMs || msgs.length >= batch) {
          await commit(o.state)
          last = Date.now()
        }
      }
      await commit(o.state)
      await db(() => releaseLease(opts.sql, o.state.lease, opts.id))
      log(`partition ${p}: released at ${o.state.applied}`)
    } catch (e) {
      if (e instanceof LeaseLost) {
        stats.fenced++
        log(`partition ${p}: commit refused, ${e.message}`)
        await db(() => recordFenced(opts.sql, opts.id, e.lease)).catch(() => {})
      } else if (!aborted && !(await db(() => leaseHeld(opts.sql, o.state.lease, opts.id)).catch(() => true))) {
        // a commit that failed otherwise (e.g. the server ended the transaction of a worker paused past its
        // lease) while the lease had moved on is refused too
        stats.fenced++
        log(`partition ${p}: failed (${String(e)}) with the lease moved on: refused`)
        await db(() => recordFenced(opts.sql, opts.id, o.state.lease)).catch(() => {})
      } else log(`partition ${p}: dropped (${String(e)})`)
    } finally {
      owned.delete(p)
      await reader?.close().catch(() => {})
    }
  }

  const take = async (p: number): Promise<void> => {
    const lease = await db(() => acquireLease(opts.sql, p, opts.id, leaseMs))
    if (lease === undefined) return
    const checkpoints = await db(() => loadCheckpoints(opts.sql, p))
    // reference data as it is now: securities registered since the last take are known
    tickSizes = await db(() => loadTickSizes(opts.sql))
    const state = createPartitionState({
      lease,
      checkpoints,
      maxTime,
      tickSizes: (e, s) => tickSizes.get(`${e}\u0000${s}`),
    })
    const reader = await opts.source.open(p, lease.position)
    const o: Owned = { state, stopping: false, done: Promise.resolve() }
    owned.set(p, o)
    o.done = run(p, o, reader)
    log(`partition ${p}: taken, epoch ${lease.epoch}, after ${lease.position}`)
  }

  const tick = async (): Promise<void> => {
    await db(() => heartbeat(opts.sql, opts.id, leaseMs))
    const live = await db(() => liveWorkers(opts.sql))
    if (!live.includes(opts.id)) live.push(opts.id)
    const target = assignPartitions(live, opts.partitions)
    for (const [p, o] of owned) if (target[p] !== opts.id) o.stopping = true
    for (let p = 0; p < opts.partitions; p++) {
      if (target[p] !== opts.id || owned.has(p)) continue
      await take(p)
    }
  }

  const loop = (async () => {
    while (!stopped) {
      try {
        await tick()
      } catch (e) {
        log(`tick failed: ${String(e)}`)
      }
      await sleep(Math.max(50, Math.floor(leaseMs / 4)))
    }
  })()

  return {
    stats: () => ({ ...stats, owned: [...owned.keys()].sort((a, b) => a - b) }),
    async stop() {
      stopped = true
      await loop
      for (const o of owned.values()) o.stopping = true
      await Promise.all([...owned.values()].map((o) => o.done))
      await db(() => leaveWorkers(opts.sql, opts.id)).catch(() => {})
    },
    async abort() {
      aborted = true
      stopped = true
      for (const o of owned.values()) o.stopping = true
      await loop
      await Promise.all([...owned.values()].map((o) => o.done))
    },
  }
}
