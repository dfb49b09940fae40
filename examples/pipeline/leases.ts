// Leases with an epoch, in the database. A worker takes a partition when its lease is free or expired, which
// bumps the epoch; it holds the partition while it keeps committing (every commit extends the lease) and loses
// it as soon as another worker took it over. The epoch is the fence: a commit names the epoch it was computed
// under, and the database refuses it when the partition's epoch has moved on (see commit.ts), so a worker that
// was paused or cut off past its lease cannot write, whatever it believes.
import { DB_NOW_MS } from './schema.js'
import { num, type Sql } from './sql.js'

/** A partition held: its epoch and the committed stream position to read on after. */
export interface Lease {
  partition: number
  epoch: number
  /** Last stream sequence whose effects are committed (0: nothing yet). */
  position: number
}

/** Says `worker` is alive for `ttlMs` more (on the database clock). */
export async function heartbeat(sql: Sql, worker: string, ttlMs: number): Promise<void> {
  await sql.query(
    `insert into pipeline_workers (id, seen_until) values ($1, ${DB_NOW_MS} + $2::bigint)
     on conflict (id) do update set seen_until = excluded.seen_until`,
    [worker, ttlMs],
  )
}

/** Workers whose heartbeat has not expired, by id. */
export async function liveWorkers(sql: Sql): Promise<string[]> {
  const rows = await sql.query<{ id: string }>(
    `select id from pipeline_workers where seen_until > ${DB_NOW_MS} order by id`,
  )
  return rows.map((r) => r.id)
}

/** Removes a worker that stops cleanly (its partitions are released by {@link releaseLease}). */
export async function leaveWorkers(sql: Sql, worker: string): Promise<void> {
  await sql.query('delete from pipeline_workers where id = $1', [worker])
}

/**
 * Takes `partition` when its lease is free, expired or already `worker`'s (a restart of its own state): the epoch
 * moves on either way. `undefined` when another worker holds it.
 */
export async function acquireLease(
  sql: Sql,
  partition: number,
  worker: string,
  ttlMs: number,
): Promise<Lease | undefined> {
  const rows = await sql.query<{ epoch: unknown; position: unknown }>(
    `update pipeline_partitions set owner = $2, epoch = epoch + 1, lease_until = ${DB_NOW_MS} + $3::bigint
     where partition = $1 and (owner is null or owner = $2 or lease_until <= ${DB_NOW_MS})
     returning epoch, position`,
    [partition, worker, ttlMs],
  )
  const r = rows[0]
  return r === undefined ? undefined : { partition, epoch: num(r.epoch), position: num(r.position) }
}

/** Whether `lease` is still `worker`'s: same owner and epoch, not expired (on the database clock). */
export async function leaseHeld(sql: Sql, lease: Lease, worker: string): Promise<boolean> {
  const rows = await sql.query(
    `select 1 from pipeline_partitions where partition = $1 and owner = $2 and epoch = $3 and lease_until > ${DB_NOW_MS}`,
    [lease.partition, worker, lease.epoch],
  )
  return rows.length === 1
}

/** Gives a partition up (after its last commit) so that its next owner need not wait for the lease to expire. */
export async function releaseLease(sql: Sql, lease: Lease, worker: string): Promise<void> {
  await sql.query(
    `update pipeline_partitions set owner = null, lease_until = 0 where partition = $1 and owner = $2 and epoch = $3`,
    [lease.partition, worker, lease.epoch],
  )
}

/** Partitions and their owners as the database sees them now (`owner` null when free or expired). */
export async function leaseTable(
  sql: Sql,
): Promise<{ partition: number; owner: string | null; epoch: number; position: number }[]> {
  const rows = await sql.query<{ partition: number; owner: string | null; epoch: unknown; position: unknown }>(
    `select partition, case when lease_until > ${DB_NOW_MS} then owner end as owner, epoch, position
     from pipeline_partitions order by partition`,
  )
  return rows.map((r) => ({
    partition: num(r.partition),
    owner: r.owner,
    epoch: num(r.epoch),
    position: num(r.position),
  }))
}
