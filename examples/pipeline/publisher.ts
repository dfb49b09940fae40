// The publisher: puts a feed's messages on the trade stream, each with its message id, so a publish retried
// after a lost acknowledgement (a broker node's death, a reconnect) is stored once: the stream drops the
// duplicate. Publishes are pipelined (a window of unacknowledged ones) and optionally paced to a rate, but a
// security has one publish in flight at a time: a publish that fails and is retried after a fail-over can then
// never land behind a later trade of its security (the aggregators would refuse it as late). A clock message
// waits until everything before it is acknowledged.
import { readFileSync } from 'node:fs'
import type { JetStreamClient } from '@nats-io/jetstream'
import { readTradeColumns } from '../../src/io/index.js'
import { retry } from './nats-source.js'
import type { OutgoingMessage, ReplaySecurity } from './replay.js'
import { parseSubject } from './subjects.js'

/** Options of {@link publishMessages}. */
export interface PublishOptions {
  /** Messages a second (default: as fast as the stream acknowledges). */
  rate?: number
  /** Publishes waiting for their acknowledgement at most (default 256). */
  window?: number
  /** Called after each acknowledged message with the count so far (e.g. to fault the cluster mid-stream). */
  onProgress?: (published: number) => void | Promise<void>
  /** Called with each message's index, its stream sequence and when its publish began (ms), once acknowledged. */
  onAck?: (index: number, seq: number, startedAt: number) => void
  /** Stop early (the rest is not published). */
  signal?: { stopped: boolean }
}

/** What a publish run did. */
export interface PublishStats {
  published: number
  /** Acknowledged as duplicates: stored before (a retry or a second run). */
  duplicates: number
  /** Publishes that failed at least once and were retried. */
  retried: number
  ms: number
}

/** Publishes `messages`: each security's trades in their order, clock messages after all that precede them. */
export async function publishMessages(
  js: JetStreamClient,
  messages: readonly OutgoingMessage[],
  opts: PublishOptions = {},
): Promise<PublishStats> {
  const window = opts.window ?? 256
  const stats: PublishStats = { published: 0, duplicates: 0, retried: 0, ms: 0 }
  const t0 = Date.now()
  const inflight = new Set<Promise<void>>()
  const chains = new Map<string, Promise<void>>()
  const one = async (m: OutgoingMessage, index: number): Promise<void> => {
    const startedAt = Date.now()
    let failed = false
    const ack = await retry(async () => {
      try {
        return await js.publish(m.subject, m.data, { msgID: m.id, timeout: 5000 })
      } catch (e) {
        failed = true
        throw e
      }
    }, 120_000)
    if (failed) stats.retried++
    if (ack.duplicate) stats.duplicates++
    opts.onAck?.(index, ack.seq, startedAt)
    stats.published++
    await opts.onProgress?.(stats.published)
  }
  for (let i = 0; i < messages.length; i++) {
    if (opts.signal?.stopped === true) break
    if (opts.rate !== undefined) {
      const due = t0 + (i * 1000) / opts.rate
      const wait = due - Date.now()
      if (wait > 0) await new Promise((r) => setTimeout(r, wait))
    }
    const m = messages[i]!
    if (parseSubject(m.subject).kind !== 'trade') await Promise.all(inflight)
    const prev = chains.get(m.subject)
    const p: Promise<void> = (prev === undefined ? one(m, i) : prev.then(() => one(m, i))).finally(() => {
      inflight.delete(p)
      if (chains.get(m.subject) === p) chains.delete(m.subject)
    })
    chains.set(m.subject, p)
    inflight.add(p)
    if (inflight.size >= window) await Promise.race(inflight)
  }
  await Promise.all(inflight)
  stats.ms = Date.now() - t0
  return stats
}

/** A security whose trades come from a CSV or NDJSON file (read with svc-marketdata/io). */
export function fileSecurity(path: string, exchange: string, symbol: string, tickSize: string): ReplaySecurity {
  return { exchange, symbol, tickSize, trades: readTradeColumns(readFileSync(path, 'utf8')) }
}
