// The one transaction that makes the pipeline exactly-once. It first moves the partition's position, and only
// while the partition's epoch is still the committer's (the fence: the row is locked until commit, so a
// takeover waits for this transaction or has already made it fail); then it writes the closed minutes, the
// checkpoints of the securities that changed and the dead letters. Either all of it is in the database, with
// the position of the last message it reflects, or none of it is. A worker that takes the partition over
// restores those checkpoints and reads on after that position, so every message counts once.
import type { Lease } from './leases.js'
import type { PendingCommit } from './partition-state.js'
import { DB_NOW_MS } from './schema.js'
import { num, type Sql } from './sql.js'

/** The commit was refused: the partition's lease moved on to another epoch (or owner). */
export class LeaseLost extends Error {
  constructor(readonly lease: Lease) {
    super(`partition ${lease.partition}: lease epoch ${lease.epoch} is no longer held`)
  }
}

/** Rows a statement inserts at most (Postgres takes up to 65,535 parameters). */
const ROWS_PER_INSERT = 500

async function insertRows(sql: Pick<Sql, 'query'>, head: string, tail: string, rows: unknown[][]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const part = rows.slice(i, i + ROWS_PER_INSERT)
    const params: unknown[] = []
    const values = part.map((r) => `(${r.map((v) => `$${params.push(v)}`).join(', ')})`)
    await sql.query(`${head} values ${values.join(', ')} ${tail}`, params)
  }
}

/**
 * Writes `c` in one transaction, extending the lease by `ttlMs`. Throws {@link LeaseLost} (having written
 * nothing) when the epoch has moved on; any other error also means nothing was written.
 */
export async function commitPartition(sql: Sql, worker: string, c: PendingCommit, ttlMs: number): Promise<void> {
  await sql.transaction(async (tx) => {
    const held = await tx.query(
      `update pipeline_partitions set position = $4, lease_until = ${DB_NOW_MS} + $5::bigint
       where partition = $1 and owner = $2 and epoch = $3 returning partition`,
      [c.lease.partition, worker, c.lease.epoch, c.position, ttlMs],
    )
    if (held.length !== 1) throw new LeaseLost(c.lease)
    await insertRows(
      tx,
      'insert into minute_bars (exchange, symbol, session, minute, candle, footprint, open_time, close_time)',
      '',
      c.bars.map((b) => [
        b.exchange,
        b.symbol,
        b.session,
        b.minute,
        JSON.stringify(b.candle),
        JSON.stringify(b.footprint),
        b.openTime,
        b.closeTime,
      ]),
    )
    await insertRows(
      tx,
      'insert into pipeline_checkpoints (exchange, symbol, partition, state)',
      'on conflict (exchange, symbol) do update set partition = excluded.partition, state = excluded.state',
      c.checkpoints.map((k) => [k.exchange, k.symbol, c.lease.partition, k.state]),
    )
    await insertRows(
      tx,
      'insert into dead_letters (partition, stream_seq, subject, payload, reason)',
      '',
      c.deadLetters.map((d) => [d.partition, d.seq, d.subject, d.payload, d.reason]),
    )
  })
}

/** Notes a refused commit (outside any transaction), so that a fenced worker is seen. */
export async function recordFenced(sql: Sql, worker: string, lease: Lease): Promise<void> {
  await sql.query(`insert into fenced_commits (worker, partition, epoch, at) values ($1, $2, $3, ${DB_NOW_MS})`, [
    worker,
    lease.partition,
    lease.epoch,
  ])
}

/** The checkpoints stored for a partition's securities. */
export async function loadCheckpoints(
  sql: Sql,
  partition: number,
): Promise<{ exchange: string; symbol: string; state: string }[]> {
  return sql.query('select exchange, symbol, state from pipeline_checkpoints where partition = $1', [partition])
}

/** Tick sizes of every registered security. */
export async function loadTickSizes(sql: Sql): Promise<Map<string, string>> {
  const rows = await sql.query<{ exchange: string; symbol: string; tick_size: string }>(
    'select exchange, symbol, tick_size from pipeline_securities',
  )
  return new Map(rows.map((r) => [`${r.exchange}\u0000${r.symbol}`, r.tick_size]))
}

/** Rows in a table (for reports and tests). */
export async function countRows(sql: Sql, table: 'minute_bars' | 'dead_letters' | 'fenced_commits'): Promise<number> {
  const r = await sql.query<{ n: unknown }>(`select count(*) as n from ${table}`)
  return num(r[0]?.n)
}
