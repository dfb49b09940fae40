// The state in SQL: the same statements run on PGlite (Postgres compiled to WebAssembly, embedded, files in
// a data directory; the default) and on a Postgres server through `pg` (`--database-url`). Both clients run
// one connection's statements in the order they are sent, so write-through order is commit order.
import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { LinkedSecurity, RestLedgerState, StreamLedgerState } from '../../src/service/index.js'
import { LOCK_FILE, lockDataDir } from './data-dir-lock.js'
import { controlFileProblem } from './pg-control.js'
import type { SigningKey, StateSnapshot, StateStore } from './state.js'
import { prepareStore, RESTORE_HINT, StateDamaged, type SqlClient } from './state-schema.js'

export type { SqlClient } from './state-schema.js'

/** Length of a signing secret (HS256 keys of this server are 32 random bytes). */
const SECRET_BYTES = 32

const b64 = (b: Uint8Array): string => Buffer.from(b).toString('base64')

/** A signing key row as stored, or {@link StateDamaged} naming the row and what is wrong with it. */
function keyOfRow(r: { kid: string; secret: string; created_at: unknown }, where: string): SigningKey {
  const secret = new Uint8Array(Buffer.from(r.secret ?? '', 'base64'))
  const createdAt = Number(r.created_at)
  const problem =
    typeof r.kid !== 'string' || r.kid === ''
      ? 'has an empty kid'
      : secret.length !== SECRET_BYTES
        ? `has a secret of ${secret.length} bytes, not ${SECRET_BYTES}${secret.length === 0 ? ' (empty)' : ''}`
        : !Number.isSafeInteger(createdAt)
          ? `has created_at ${String(r.created_at)}, not an integer`
          : undefined
  if (problem !== undefined)
    throw new StateDamaged(`${where}: table signing_keys: key ${JSON.stringify(r.kid)} ${problem}; ${RESTORE_HINT}`)
  return { kid: r.kid, secret, createdAt }
}

/** A state over an open SQL client: a new store is created, an existing one checked (state-schema.ts). */
export async function sqlState(db: SqlClient, where: string, now: number = Date.now()): Promise<StateStore> {
  const found = await prepareStore(db, where, now)
  return {
    where,
    ...(found === 'adopted' ? { notes: [`${where}: marked the existing state tables as an initialised store`] } : {}),
    async load(): Promise<StateSnapshot> {
      const rest = new Map<string, RestLedgerState>()
      for (const r of (
        await db.query<{ account: string; window_start: unknown; used: unknown; locked: boolean }>(
          'select * from rest_ledgers',
        )
      ).rows) {
        rest.set(r.account, { windowStart: Number(r.window_start), used: Number(r.used), locked: r.locked })
      }
      const stream = new Map<string, StreamLedgerState>()
      for (const r of (await db.query<{ account: string; state: unknown }>('select * from stream_ledgers')).rows) {
        try {
          stream.set(r.account, (typeof r.state === 'string' ? JSON.parse(r.state) : r.state) as StreamLedgerState)
        } catch {
          throw new StateDamaged(
            `${where}: table stream_ledgers: account ${r.account}: state is not JSON; ${RESTORE_HINT}`,
          )
        }
      }
      const links = new Map<string, Map<string, LinkedSecurity>>()
      const linkRows = await db.query<{ partner: string; security_guid: string; partner_security_id: string }>(
        'select * from partner_links order by partner, security_guid',
      )
      for (const r of linkRows.rows) {
        let m = links.get(r.partner)
        if (m === undefined) links.set(r.partner, (m = new Map()))
        m.set(r.security_guid, { security_guid: r.security_guid, partner_security_id: r.partner_security_id })
      }
      const keyRows = await db.query<{ kid: string; secret: string; created_at: unknown }>(
        'select * from signing_keys order by created_at, kid',
      )
      const keys = keyRows.rows.map((r) => keyOfRow(r, where))
      return { rest, stream, links, keys, initialised: found !== 'new' }
    },
    async saveRest(account, s) {
      await db.query(
        `insert into rest_ledgers (account, window_start, used, locked) values ($1, $2, $3, $4)
         on conflict (account) do update set window_start = excluded.window_start, used = excluded.used, locked = excluded.locked`,
        [account, s.windowStart, s.used, s.locked],
      )
    },
    async saveStream(account, s) {
      await db.query(
        `insert into stream_ledgers (account, state) values ($1, $2::jsonb) on conflict (account) do update set state = excluded.state`,
        [account, JSON.stringify(s)],
      )
    },
    async saveLink(partner, guid, link) {
      if (link === undefined)
        await db.query('delete from partner_links where partner = $1 and security_guid = $2', [partner, guid])
      else {
        await db.query(
          `insert into partner_links (partner, security_guid, partner_security_id) values ($1, $2, $3)
           on conflict (partner, security_guid) do update set partner_security_id = excluded.partner_security_id`,
          [partner, guid, link.partner_security_id],
        )
      }
    },
    async addKey(key) {
      await db.query('insert into signing_keys (kid, secret, created_at) values ($1, $2, $3)', [
        key.kid,
        b64(key.secret),
        key.createdAt,
      ])
    },
    close: () => db.close(),
  }
}

/**
 * Opens the embedded PGlite database in `dir`, or creates it in a new or empty directory. The directory is
 * locked for this process first (data-dir-lock.ts); a directory that holds other files, a damaged control
 * file or a database that does not open stops the start with {@link StateDamaged}.
 */
export async function openPgliteState(dir: string): Promise<StateStore> {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const lock = lockDataDir(dir)
  try {
    const others = readdirSync(dir).filter((n) => !n.startsWith(LOCK_FILE))
    if (existsSync(join(dir, 'PG_VERSION'))) {
      const problem = controlFileProblem(join(dir, 'global', 'pg_control'))
      if (problem !== undefined)
        throw new StateDamaged(`data directory ${dir}: global/pg_control ${problem}; ${RESTORE_HINT}`)
    } else if (others.length > 0) {
      throw new StateDamaged(
        `data directory ${dir} is not empty and holds no server state (no PG_VERSION among ${others.length} entries); give a new or empty directory, or, if this was a server's data directory, ${RESTORE_HINT}`,
      )
    }
    const { PGlite } = await import('@electric-sql/pglite')
    let db: InstanceType<typeof PGlite>
    try {
      db = new PGlite(dir)
      await db.waitReady
    } catch (e) {
      throw new StateDamaged(
        `data directory ${dir}: the embedded database does not open (${e instanceof Error ? e.message : String(e)}): its files are damaged; ${RESTORE_HINT}`,
      )
    }
    const client = { query: (text, params) => db.query(text, params), close: () => db.close() } as SqlClient
    let state: StateStore
    try {
      state = await sqlState(client, `pglite ${dir}`)
    } catch (e) {
      await db.close().catch(() => {})
      throw e
    }
    const notes = [...(lock.tookOver === undefined ? [] : [lock.tookOver]), ...(state.notes ?? [])]
    return {
      ...state,
      notes,
      close: async () => {
        try {
          await state.close()
        } finally {
          lock.release()
        }
      },
    }
  } catch (e) {
    lock.release()
    throw e
  }
}

/** The advisory lock key every reference server takes on its database (one server per database). */
export const STATE_LOCK_KEY = 0x73766d64

/**
 * Connects to a Postgres server (`postgres://user:pass@host:port/db`) through one `pg` connection, and takes
 * the database's advisory lock on it: a second server on the same database is refused naming the holder.
 * The lock goes with the connection (a killed server's is released by Postgres).
 */
export async function openPostgresState(url: string): Promise<StateStore> {
  const pg = await import('pg')
  const client = new pg.default.Client({
    connectionString: url,
    application_name: `svc-marketdata server pid ${process.pid}`,
  })
  await client.connect()
  const host = new URL(url).host
  try {
    const got = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [STATE_LOCK_KEY])
    if (got.rows[0]?.ok !== true) {
      const holder = await client.query<{ pid: number; application_name: string; backend_start: Date }>(
        `select a.pid, a.application_name, a.backend_start from pg_locks l join pg_stat_activity a on a.pid = l.pid
         where l.locktype = 'advisory' and l.granted and l.classid = 0 and l.objid = $1 and l.objsubid = 1`,
        [STATE_LOCK_KEY],
      )
      const h = holder.rows[0]
      const who =
        h === undefined
          ? 'another server'
          : `${h.application_name || 'a client'} (backend pid ${h.pid}, connected ${new Date(h.backend_start).toISOString()})`
      throw new StateDamaged(`database ${host} is in use by ${who}; stop that server first (one server per database)`)
    }
    return await sqlState(
      { query: (text, params) => client.query(text, params), close: () => client.end() } as SqlClient,
      `postgres ${host}`,
    )
  } catch (e) {
    await client.end().catch(() => {})
    throw e
  }
}
