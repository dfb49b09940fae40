// The SQL the pipeline needs from a database, over either client: a Postgres server through `pg` (the
// distributed mode: each worker its own connection) or PGlite (Postgres compiled to WebAssembly, in-process:
// the embedded default). A connection runs one statement at a time; a transaction holds the connection from
// `begin` to `commit`, so statements of other callers sharing it (in-process workers) wait, never interleave.
import { mkdirSync } from 'node:fs'

type Query = <R>(text: string, params?: unknown[]) => Promise<R[]>

/** One connection. Values come back as the driver gives them (bigint columns as strings on `pg`). */
export interface Sql {
  /** Where it points, for messages (`postgres 127.0.0.1:<port>`, `pglite (memory)`). */
  readonly where: string
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Pick<Sql, 'query'>) => Promise<T>): Promise<T>
  close(): Promise<void>
}

/** A connection from a raw statement runner: one caller at a time. */
function serialized(where: string, run: Query, close: () => Promise<void>): Sql {
  let tail: Promise<unknown> = Promise.resolve()
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const out = tail.then(fn, fn)
    tail = out.catch(() => {})
    return out
  }
  return {
    where,
    query: (text, params) => exclusive(() => run(text, params)),
    transaction: (fn) =>
      exclusive(async () => {
        await run('begin')
        try {
          const out = await fn({ query: run })
          await run('commit')
          return out
        } catch (e) {
          await run('rollback').catch(() => {}) // a dead connection rolled back on the server
          throw e
        }
      }),
    close: () => exclusive(close),
  }
}

/** Options of {@link openPostgres}. */
export interface PostgresOptions {
  /**
   * The server ends a session left idle inside a transaction this long (Postgres's
   * `idle_in_transaction_session_timeout`): a worker paused mid-commit past its lease then holds no row lock
   * that would keep the partition's next owner waiting. Default: never.
   */
  idleInTransactionMs?: number
}

/**
 * Connects to a Postgres server (`postgres://user@host:port/db`). A connection that breaks (the server died)
 * fails its statement and the open transaction; the next `begin` or lone statement connects again.
 */
export async function openPostgres(url: string, opts: PostgresOptions = {}): Promise<Sql> {
  const pg = await import('pg')
  type Client = InstanceType<typeof pg.default.Client>
  let client: Client | undefined
  let broken = false
  let inTx = false
  const connectNew = async (): Promise<Client> => {
    const c = new pg.default.Client({
      connectionString: url,
      connectionTimeoutMillis: 5000,
      ...(opts.idleInTransactionMs === undefined
        ? {}
        : { idle_in_transaction_session_timeout: opts.idleInTransactionMs }),
    })
    c.on('error', () => {
      broken = true
    })
    await c.connect()
    broken = false
    return c
  }
  client = await connectNew()
  const run: Query = async <R>(text: string, params?: unknown[]) => {
    if (text === 'begin') inTx = true
    if (broken || client === undefined) {
      // inside a transaction a new connection would commit statements one by one: fail the transaction
      if (inTx && text !== 'begin') throw new Error('connection lost inside a transaction')
      await client?.end().catch(() => {})
      client = undefined
      client = await connectNew()
    }
    try {
      return (await client.query(text, params)).rows as R[]
    } catch (e) {
      if (!(e instanceof Error && 'code' in e && typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)))
        broken = true // not an SQL error: the connection is suspect
      throw e
    } finally {
      if (text === 'commit' || text === 'rollback') inTx = false
    }
  }
  return serialized(`postgres ${new URL(url).host}`, run, async () => {
    await client?.end()
  })
}

/**
 * `connections` connections to a Postgres server as one `Sql`: each statement or transaction goes to the
 * connection with the least work queued (a worker's partitions then commit side by side instead of one after
 * another on a single connection). A transaction still holds one connection from `begin` to `commit`.
 */
export async function openPostgresPool(url: string, connections: number, opts: PostgresOptions = {}): Promise<Sql> {
  if (!Number.isInteger(connections) || connections < 1)
    throw new RangeError(`connections: a whole number >= 1, got ${connections}`)
  const all: Sql[] = []
  try {
    for (let i = 0; i < connections; i++) all.push(await openPostgres(url, opts))
  } catch (e) {
    await Promise.all(all.map((c) => c.close().catch(() => {})))
    throw e
  }
  if (all.length === 1) return all[0]!
  const queued = all.map(() => 0)
  const on = async <T>(fn: (c: Sql) => Promise<T>): Promise<T> => {
    let i = 0
    for (let j = 1; j < all.length; j++) if (queued[j]! < queued[i]!) i = j
    queued[i]!++
    try {
      return await fn(all[i]!)
    } finally {
      queued[i]!--
    }
  }
  return {
    where: `${all[0]!.where} (${connections} connections)`,
    query: (text, params) => on((c) => c.query(text, params)),
    transaction: (fn) => on((c) => c.transaction(fn)),
    close: async () => {
      await Promise.all(all.map((c) => c.close()))
    },
  }
}

/** Opens PGlite: in memory without `dir`, else the database in `dir` (one process at a time). */
export async function openPglite(dir?: string): Promise<Sql> {
  const { PGlite } = await import('@electric-sql/pglite')
  if (dir !== undefined) mkdirSync(dir, { recursive: true, mode: 0o700 })
  const db = dir === undefined ? new PGlite() : new PGlite(dir)
  await db.waitReady
  const run: Query = async <R>(text: string, params?: unknown[]) => (await db.query<R>(text, params)).rows
  return serialized(`pglite ${dir ?? '(memory)'}`, run, () => db.close())
}

/** A bigint column as a number (pg returns int8 as text; every value here is below 2^53). */
export const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v))
