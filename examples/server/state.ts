// The server's durable state: REST and stream credit ledgers, partner links, JWT signing keys. One server
// process owns it: the handlers keep it in memory and write each change through to the state before they
// answer (so an answer the client saw is never lost by a crash). Two stores: in memory (tests) and SQL
// (state-sql.ts: an embedded PGlite database in a data directory, or a Postgres server by URL).
import type { LinkedSecurity, RestLedgerState, StreamLedgerState } from '../../src/service/index.js'

/** A JWT signing key: an HMAC secret named by its key id (the JWT header's `kid`). */
export interface SigningKey {
  kid: string
  /** 32 random bytes. */
  secret: Uint8Array
  /** When it was made (epoch ms); the newest key signs, every stored key verifies. */
  createdAt: number
}

/** Everything the state holds, as read at start-up. */
export interface StateSnapshot {
  rest: Map<string, RestLedgerState>
  stream: Map<string, StreamLedgerState>
  /** partner id -> security_guid -> link. */
  links: Map<string, Map<string, LinkedSecurity>>
  /** Oldest first. */
  keys: SigningKey[]
  /** The store existed before this start (so an empty `keys` means they were lost, not never made). */
  initialised?: boolean
}

/** Where the state lives. Every write resolves once it is committed. */
export interface StateStore {
  /** A short description for the start-up banner (`memory`, `pglite <dir>`, `postgres <host>`). */
  readonly where: string
  /** What the start should say about the store (a stale lock taken over, older tables adopted). */
  readonly notes?: readonly string[]
  load(): Promise<StateSnapshot>
  saveRest(account: string, state: RestLedgerState): Promise<void>
  saveStream(account: string, state: StreamLedgerState): Promise<void>
  /** Stores a link, or removes it when `link` is undefined. */
  saveLink(partner: string, guid: string, link: LinkedSecurity | undefined): Promise<void>
  addKey(key: SigningKey): Promise<void>
  close(): Promise<void>
}

/** A state that lives only as long as the process (tests, `--data-dir` not wanted). */
export function memoryState(): StateStore {
  const snap: StateSnapshot = { rest: new Map(), stream: new Map(), links: new Map(), keys: [] }
  return {
    where: 'memory (lost on exit)',
    load: async () => ({
      rest: new Map(snap.rest),
      stream: new Map(snap.stream),
      links: new Map([...snap.links].map(([p, m]) => [p, new Map(m)])),
      keys: snap.keys.slice(),
    }),
    saveRest: async (account, state) => void snap.rest.set(account, { ...state }),
    saveStream: async (account, state) => void snap.stream.set(account, state),
    async saveLink(partner, guid, link) {
      let m = snap.links.get(partner)
      if (m === undefined) snap.links.set(partner, (m = new Map()))
      if (link === undefined) m.delete(guid)
      else m.set(guid, { ...link })
    },
    addKey: async (key) => void snap.keys.push(key),
    close: async () => {},
  }
}
