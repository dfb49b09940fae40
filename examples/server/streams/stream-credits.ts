// The stream credits of every account: the library's stream ledger decides, this file only keeps one ledger an
// account, writes each new state through the server's state store (table `stream_ledgers`) and resolves once
// it is committed, so a frame or an answer that tells a charge goes out only after the charge is durable.
import {
  createStreamLedger,
  DEFAULT_SERVICE_CONFIG,
  nextStreamDue,
  type StreamKind,
  type StreamLedger,
  type StreamLedgerState,
  type StreamNotice,
} from '../../../src/service/index.js'
import type { StateStore } from '../state.js'

const {
  limit: STREAM_CREDIT_LIMIT,
  windowMs: STREAM_WINDOW_MS,
  prices: STREAM_PRICES,
} = DEFAULT_SERVICE_CONFIG.streamCredits

/** A renewal that was paid: the stream's price charged again to the window then current. */
export interface Renewal {
  streamId: string
  charged: number
}

/** The credit figures a frame reports: limit, remaining in the window, and the window end (Unix seconds). */
export interface CreditFigures {
  limit: number
  remaining: number
  reset: number
}

export interface AccountCredits {
  handshake(now: number, kind: StreamKind): Promise<ReturnType<StreamLedger['handshake']>>
  confirm(now: number, id: string): Promise<ReturnType<StreamLedger['confirm']>>
  close(now: number, id: string): Promise<ReturnType<StreamLedger['close']>>
  upstreamError(now: number, id: string): Promise<ReturnType<StreamLedger['upstreamError']>>
  /** Settles the renewals due at or before `now`: the ones paid and the notices of the ones that could not pay. */
  renew(now: number): Promise<{ renewals: Renewal[]; notices: StreamNotice[] }>
  figures(): CreditFigures
  nextDue(): number | undefined
}

export interface StreamCredits {
  account(name: string): AccountCredits
  /** The earliest renewal due over every account, or undefined. */
  nextDue(): number | undefined
  /** Every account's ledger state (tests, the bench). */
  states(): ReadonlyMap<string, StreamLedgerState | undefined>
}

/**
 * Loads every account's stored state and closes the streams it lists: their connections belonged to a process
 * that ended (a crash or a restart), so their slots are freed; the charges they paid stay in their window.
 */
export async function loadStreamCredits(state: StateStore, now: number): Promise<StreamCredits> {
  const snap = await state.load()
  const ledgers = new Map<string, StreamLedger>()
  const chains = new Map<string, Promise<void>>()
  const save = (account: string, s: StreamLedgerState | undefined): Promise<void> => {
    if (s === undefined) return Promise.resolve()
    // writes of one account go in order, each after the one before; a failed write fails its own caller only
    const next = (chains.get(account) ?? Promise.resolve()).catch(() => {}).then(() => state.saveStream(account, s))
    chains.set(account, next)
    return next
  }
  for (const [account, stored] of snap.stream) {
    const ledger = createStreamLedger({ state: stored })
    for (const r of stored.streams) ledger.close(Math.max(now, stored.clock), r.id)
    ledgers.set(account, ledger)
    await save(account, ledger.state())
  }
  const ledgerOf = (account: string): StreamLedger => {
    let l = ledgers.get(account)
    if (l === undefined) ledgers.set(account, (l = createStreamLedger()))
    return l
  }
  const accounts = new Map<string, AccountCredits>()
  return {
    account(name) {
      let a = accounts.get(name)
      if (a !== undefined) return a
      const ledger = ledgerOf(name)
      const apply = async <T>(outcome: T): Promise<T> => {
        await save(name, ledger.state())
        return outcome
      }
      a = {
        handshake: (now, kind) => apply(ledger.handshake(now, kind)),
        confirm: (now, id) => apply(ledger.confirm(now, id)),
        close: (now, id) => apply(ledger.close(now, id)),
        upstreamError: (now, id) => apply(ledger.upstreamError(now, id)),
        async renew(now) {
          const before = new Map((ledger.state()?.streams ?? []).map((r) => [r.id, r]))
          const out = ledger.renew(now)
          const renewals: Renewal[] = []
          for (const r of ledger.state()?.streams ?? []) {
            const b = before.get(r.id)
            if (b?.status === 'open' && r.dueAt !== b.dueAt)
              renewals.push({ streamId: r.id, charged: STREAM_PRICES[r.kind] })
          }
          if (renewals.length === 0 && out.notices.length === 0) return { renewals, notices: out.notices }
          return apply({ renewals, notices: out.notices })
        },
        figures() {
          const s = ledger.state()
          const limit = STREAM_CREDIT_LIMIT
          if (s === undefined) return { limit, remaining: limit, reset: 0 }
          return { limit, remaining: limit - s.used, reset: (s.windowStart + STREAM_WINDOW_MS) / 1000 }
        },
        nextDue: () => ledger.nextDue(),
      }
      accounts.set(name, a)
      return a
    },
    nextDue() {
      let due: number | undefined
      for (const l of ledgers.values()) {
        const d = nextStreamDue(l.state())
        if (d !== undefined && (due === undefined || d < due)) due = d
      }
      return due
    },
    states: () => new Map([...ledgers].map(([k, l]) => [k, l.state()])),
  }
}
