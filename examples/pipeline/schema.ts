// The pipeline's tables. The same statements run on a Postgres server and on PGlite.
//
//   pipeline_partitions  one row a partition: the lease (owner, epoch, until) and the stream position (the last
//                        stream sequence whose effects are committed). Every commit updates this row first, and
//                        only while the epoch is still the committer's: that is the fence.
//   pipeline_workers     live workers (a heartbeat); partitions are shared among those alive.
//   pipeline_securities  reference data the workers need: the tick size of each security.
//   pipeline_checkpoints the aggregators' state of each security (text: the library's JSON, keys in order).
//   minute_bars          closed minutes: 1m candle and one-tick 1m footprint (json), and the times of the minute's
//                        first and last trade, one row per security, session and minute.
//   dead_letters         refused stream messages with the reason, keyed by their stream position.
//   fenced_commits       commits a worker tried after losing its lease (refused; kept to be seen).
import type { Sql } from './sql.js'

/** Milliseconds on the database's clock: leases are timed by one clock, not by each worker's. */
export const DB_NOW_MS = `(extract(epoch from clock_timestamp()) * 1000)::bigint`

const TABLES = [
  `create table if not exists pipeline_partitions (
     partition int primary key, owner text, epoch bigint not null default 0,
     lease_until bigint not null default 0, position bigint not null default 0)`,
  `create table if not exists pipeline_workers (id text primary key, seen_until bigint not null)`,
  `create table if not exists pipeline_securities (
     exchange text not null, symbol text not null, tick_size text not null, primary key (exchange, symbol))`,
  `create table if not exists pipeline_checkpoints (
     exchange text not null, symbol text not null, partition int not null, state text not null,
     primary key (exchange, symbol))`,
  `create table if not exists minute_bars (
     exchange text not null, symbol text not null, session text not null, minute bigint not null,
     candle json not null, footprint json not null, open_time bigint not null, close_time bigint not null,
     primary key (exchange, symbol, session, minute))`,
  `create table if not exists dead_letters (
     partition int not null, stream_seq bigint not null, subject text not null, payload text not null,
     reason text not null, primary key (partition, stream_seq))`,
  `create table if not exists fenced_commits (
     worker text not null, partition int not null, epoch bigint not null, at bigint not null)`,
]

/** Creates the tables when missing and one lease row for each of `partitions` partitions. Safe to run twice. */
export async function ensureSchema(sql: Sql, partitions: number): Promise<void> {
  for (const t of TABLES) await sql.query(t)
  await sql.query(
    'insert into pipeline_partitions (partition) select g from generate_series(0, $1::int - 1) g on conflict do nothing',
    [partitions],
  )
}

/** Registers securities and their tick sizes (reference data; an existing row is kept). */
export async function registerSecurities(
  sql: Sql,
  list: readonly { exchange: string; symbol: string; tickSize: string }[],
): Promise<void> {
  for (let i = 0; i < list.length; i += 500) {
    const part = list.slice(i, i + 500)
    const params: unknown[] = []
    const values = part.map((s, j) => {
      params.push(s.exchange, s.symbol, s.tickSize)
      return `($${3 * j + 1}, $${3 * j + 2}, $${3 * j + 3})`
    })
    await sql.query(
      `insert into pipeline_securities (exchange, symbol, tick_size) values ${values.join(', ')} on conflict do nothing`,
      params,
    )
  }
}
