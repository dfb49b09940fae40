// The state in SQL: the same statements run on PGlite (Postgres compiled to WebAssembly, embedded, files in
// a data directory; the default) and on a Postgres server through `pg` (`--database-url`). Both clients run
// one connection's statements in the order they are sent, so write-through order is commit order.
import { mkdirSync } from 'node:fs'
import type { LinkedSecurity, RestLedgerState, StreamLedgerState } from '../../src/service/index.js'
import type { SigningKey, StateSnapshot, StateStore } from './state.js'

/** The little a SQL client needs to offer (PGlite and pg.Client both do). */
export interface SqlClient {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: R[] }>
  close(): Promise<void>
}

const SCHEMA = [
  `create table if not exists rest_ledgers (
     account text primary key, window_start bigint not null, used bigint not null, locked boolean not null)`,
  `create table if not exists stream_ledgers (account text primary key, state jsonb not null)`,
  `create table if not exists partner_links (
     partner text not null, security_guid text not null, partner_security_id text not null,
     primary key (partner, security_guid))`,
  `create table if not exists signing_keys (kid text primary key, secret text not null, created_at bigint not null)`,
]

const b64 = (b: Uint8Array): string => Buffer.from(b).toString('base64')

/** A state over an open SQL client; creates the tables when missing. */
export async function sqlState(db: SqlClient, where: string): Promise<StateStore> {
  for (const s of SCHEMA) await db.query(s)
  return {
    where,
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
        stream.set(r.account, (typeof r.state === 'string' ? JSON.parse(r.state) : r.state) as StreamLedgerState)
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
      const keys: SigningKey[] = keyRows.rows.map((r) => ({
        kid: r.kid,
        secret: new Uint8Array(Buffer.from(r.secret, 'base64')),
        createdAt: Number(r.created_at),
      }))
      return { rest, stream, links, keys }
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

/** Opens (creating when needed) the embedded PGlite database in `dir`. Only one process may open a directory. */
export async function openPgliteState(dir: string): Promise<StateStore> {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const { PGlite } = await import('@electric-sql/pglite')
  const db = new PGlite(dir)
  await db.waitReady
  return sqlState(
    { query: (text, params) => db.query(text, params), close: () => db.close() } as SqlClient,
    `pglite ${dir}`,
  )
}

/** Connects to a Postgres server (`postgres://user:pass@host:port/db`) through one `pg` connection. */
export async function openPostgresState(url: string): Promise<StateStore> {
  const pg = await import('pg')
  const client = new pg.default.Client({ connectionString: url })
  await client.connect()
  const host = new URL(url).host
  return sqlState(
    { query: (text, params) => client.query(text, params), close: () => client.end() } as SqlClient,
    `postgres ${host}`,
  )
}
