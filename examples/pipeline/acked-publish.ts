// JetStream publishes without a request object a message: a JetStream publish is a core NATS message with a
// reply subject, answered by the stream's leader with its acknowledgement. The client's `js.publish` builds, for
// every message, a request with its own timer and two error objects (stack traces included), which cost the
// publisher more than the broker's whole work. Here one subscription takes every answer (`<inbox>.<token>`),
// one timer sweeps the publishes nobody answered, and each publish is a header, a write and a map entry.
import { createInbox, headers, type Msg, type NatsConnection } from '@nats-io/transport-node'

/** What the stream answered a publish. */
export interface PubAck {
  /** The stream sequence the message has (the first copy's, for a duplicate). */
  seq: number
  /** The message id was seen within the stream's duplicate window: nothing new was stored. */
  duplicate: boolean
}

/** The answer to one publish: its acknowledgement, or why there is none (then it may or may not be stored). */
export type PublishOutcome = { ok: true; ack: PubAck } | { ok: false; reason: string }

/** Sends JetStream publishes and hands each one's answer to its callback. */
export interface AckedPublisher {
  /**
   * Publishes `data` on `subject` with the JetStream message id `msgId`; `done` is called once, with the
   * acknowledgement, a refusal, or a timeout after `timeoutMs` without an answer.
   */
  send(subject: string, data: Uint8Array, msgId: string, done: (r: PublishOutcome) => void): void
  /** Publishes sent and not answered yet. */
  readonly pending: number
  /** Stops listening; publishes still pending get no callback. */
  close(): void
}

interface Pending {
  done: (r: PublishOutcome) => void
  sentAt: number
}

/** Reads a stream's answer: an acknowledgement, an error object, or a status without a body (503: no leader). */
export function readPubAck(msg: Pick<Msg, 'data' | 'headers' | 'string'>): PublishOutcome {
  if (msg.data.length === 0) {
    const h = msg.headers
    return { ok: false, reason: `status ${h?.code ?? 'unknown'} ${h?.description ?? ''}`.trim() }
  }
  let v: unknown
  try {
    v = JSON.parse(msg.string())
  } catch {
    return { ok: false, reason: 'answer: not JSON text' }
  }
  const o = (typeof v === 'object' && v !== null ? v : {}) as {
    seq?: unknown
    duplicate?: unknown
    error?: { code?: unknown; description?: unknown }
  }
  if (o.error !== undefined)
    return { ok: false, reason: `refused: ${String(o.error.code)} ${String(o.error.description)}` }
  if (typeof o.seq !== 'number') return { ok: false, reason: 'answer: no stream sequence' }
  return { ok: true, ack: { seq: o.seq, duplicate: o.duplicate === true } }
}

/** A publisher on `nc` whose publishes time out after `timeoutMs` without an answer (default 5 s). */
export function ackedPublisher(nc: NatsConnection, timeoutMs = 5000): AckedPublisher {
  const prefix = createInbox()
  const pending = new Map<string, Pending>()
  let next = 0
  const sub = nc.subscribe(`${prefix}.*`, {
    callback: (err, msg) => {
      if (err !== null) return // the subscription failed: what is pending times out
      const token = msg.subject.slice(prefix.length + 1)
      const p = pending.get(token)
      if (p === undefined) return // answered after its timeout: already given up on (and sent again)
      pending.delete(token)
      p.done(readPubAck(msg))
    },
  })
  const sweep = setInterval(
    () => {
      const now = Date.now()
      for (const [token, p] of pending) {
        // insertion order is send order: the first one still young ends the sweep
        if (now - p.sentAt < timeoutMs) break
        pending.delete(token)
        p.done({ ok: false, reason: `no acknowledgement within ${timeoutMs} ms` })
      }
    },
    Math.max(10, Math.min(250, Math.floor(timeoutMs / 4))),
  )
  return {
    send(subject, data, msgId, done) {
      const token = (next++).toString(36)
      const h = headers()
      h.set('Nats-Msg-Id', msgId)
      pending.set(token, { done, sentAt: Date.now() })
      try {
        nc.publish(subject, data, { reply: `${prefix}.${token}`, headers: h })
      } catch (e) {
        pending.delete(token)
        done({ ok: false, reason: `publish: ${e instanceof Error ? e.message : String(e)}` })
      }
    },
    get pending() {
      return pending.size
    },
    close() {
      clearInterval(sweep)
      pending.clear()
      sub.unsubscribe()
    },
  }
}
