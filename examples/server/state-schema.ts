// The SQL state's tables and the checks a start runs on them. A store is marked initialised (a `store_meta`
// row) when its tables are created, so that a table missing later is told apart from a new store: a new
// store is created, an initialised one must have every table, each readable and consistent with its primary
// key index (a truncated table file reads as fewer rows, or fails, where its index still lists them). Nothing
// is ever recreated or reset silently: a damaged store stops the start with a message naming the table.

/** The little a SQL client needs to offer (PGlite and pg.Client both do). */
export interface SqlClient {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: R[] }>
  close(): Promise<void>
}

/** The state's tables, each with the statement that creates it. */
export const STATE_TABLES: Readonly<Record<string, string>> = {
  rest_ledgers: `create table rest_ledgers (
     account text primary key, window_start bigint not null, used bigint not null, locked boolean not null)`,
  stream_ledgers: `create table stream_ledgers (account text primary key, state jsonb not null)`,
  partner_links: `create table partner_links (
     partner text not null, security_guid text not null, partner_security_id text not null,
     primary key (partner, security_guid))`,
  signing_keys: `create table signing_keys (kid text primary key, secret text not null, created_at bigint not null)`,
}

const META = `create table store_meta (key text primary key, value text not null)`

/** What to do about a damaged store (docs/server.md has the procedure). */
export const RESTORE_HINT =
  'restore the state from a backup (docs/server.md, "Backup and restore"), or start with a new, empty --data-dir or database'

/** The stored state is damaged: the start stops with this message. */
export class StateDamaged extends Error {}

/** How the store was found: `new` (created now), `initialised` (checked), `adopted` (tables of an older server, now marked). */
export type StoreFound = 'new' | 'initialised' | 'adopted'

async function create(db: SqlClient, tables: readonly string[], now: number): Promise<void> {
  await db.query('begin')
  try {
    for (const t of tables) await db.query(STATE_TABLES[t]!)
    await db.query(META)
    await db.query(`insert into store_meta (key, value) values ('initialised_at', $1)`, [new Date(now).toISOString()])
    await db.query('commit')
  } catch (e) {
    await db.query('rollback')
    throw e
  }
}

/** Counts a table's rows by a sequential scan and by its primary key index: a damaged table disagrees or fails. */
async function checkTable(db: SqlClient, table: string, where: string): Promise<void> {
  const count = async (): Promise<number> =>
    Number((await db.query<{ n: unknown }>(`select count(*) as n from ${table}`)).rows[0]?.n)
  try {
    const scanned = await count()
    await db.query('set enable_seqscan = off')
    await db.query('set enable_bitmapscan = off')
    let indexed: number
    try {
      indexed = await count()
    } finally {
      await db.query('reset enable_seqscan')
      await db.query('reset enable_bitmapscan')
    }
    if (scanned !== indexed)
      throw new Error(
        `${scanned} rows read from the table, ${indexed} listed by its primary key (truncated table file?)`,
      )
  } catch (e) {
    throw new StateDamaged(`${where}: table ${table} is damaged: ${(e as Error).message}; ${RESTORE_HINT}`)
  }
}

/** Creates a new store, or checks an existing one; throws {@link StateDamaged} naming what is wrong. */
export async function prepareStore(db: SqlClient, where: string, now: number): Promise<StoreFound> {
  const present = new Set(
    (
      await db.query<{ tablename: string }>(
        'select tablename from pg_tables where schemaname = current_schema() order by tablename',
      )
    ).rows.map((r) => r.tablename),
  )
  const names = Object.keys(STATE_TABLES)
  const missing = names.filter((t) => !present.has(t))
  let found: StoreFound
  if (present.has('store_meta')) {
    const at = (await db.query<{ value: string }>(`select value from store_meta where key = 'initialised_at'`)).rows[0]
    if (at === undefined)
      throw new StateDamaged(`${where}: table store_meta has lost its initialised_at row; ${RESTORE_HINT}`)
    if (missing.length > 0)
      throw new StateDamaged(
        `${where}: table ${missing.join(', ')} is missing from this store (initialised ${at.value}); ${RESTORE_HINT}`,
      )
    found = 'initialised'
  } else if (missing.length === names.length) {
    await create(db, names, now)
    return 'new'
  } else if (missing.length > 0) {
    throw new StateDamaged(
      `${where}: table ${missing.join(', ')} is missing (the other state tables are there); ${RESTORE_HINT}`,
    )
  } else {
    // every table of a server from before store_meta: mark it, nothing else changes
    await create(db, [], now)
    found = 'adopted'
  }
  for (const t of names) await checkTable(db, t, where)
  return found
}
