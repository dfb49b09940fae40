// The publisher: puts a feed's messages on the trade stream, each with its message id, so a publish retried
// after a lost acknowledgement (a broker node's death, a reconnect) is stored once: the stream drops the
// duplicate. Publishes are pipelined (a window of messages queued or unacknowledged) and optionally paced to a
// rate, but a security has one publish in flight at a time: a publish that fails and is retried after a
// fail-over can then never land behind a later trade of its security (the aggregators would refuse it as late).
// A clock message waits until everything before it is acknowledged.
//
// The bookkeeping is a queue a subject (the messages waiting for the one in flight) and a count: an
// acknowledgement sends its subject's next message at once, and the feed loop only waits while the window is
// full (see acked-publish.ts for the publishes themselves).
import { readFileSync } from 'node:fs'
import type { NatsConnection } from '@nats-io/transport-node'
import { readTradeColumns } from '../../src/io/index.js'
import { ackedPublisher, type PubAck } from './acked-publish.js'
import type { OutgoingMessage, ReplaySecurity } from './replay.js'
import { parseSubject } from './subjects.js'

/** Options of {@link publishMessages}. */
export interface PublishOptions {
  /** Messages a second (default: as fast as the stream acknowledges). */
  rate?: number
  /** Messages queued or waiting for their acknowledgement at most (default 1024). */
  window?: number
  /** A publish not answered within this is sent again with the same id (default 5000 ms). */
  timeoutMs?: number
  /** A message still not acknowledged this long after its first failure fails the run (default 120 s). */
  giveUpMs?: number
  /**
   * Called after each acknowledged message with the count so far (e.g. to fault the cluster mid-stream); while
   * a promise it returns is pending, that message's subject sends nothing more.
   */
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

/** The messages of one subject: queued in feed order, the one at `head` in flight while `busy`. */
interface Lane {
  queue: number[]
  head: number
  busy: boolean
  /** A trade subject (anything else waits for every message before it). */
  trade: boolean
}

const RETRY_DELAY_MS = 250

/**
 * Publishes `messages` on `nc`'s JetStream: each subject's messages in their order, one in flight a subject,
 * clock (and other non-trade) messages after every message before them is acknowledged.
 */
export async function publishMessages(
  nc: NatsConnection,
  messages: readonly OutgoingMessage[],
  opts: PublishOptions = {},
): Promise<PublishStats> {
  const window = opts.window ?? 1024
  const giveUpMs = opts.giveUpMs ?? 120_000
  const stats: PublishStats = { published: 0, duplicates: 0, retried: 0, ms: 0 }
  const t0 = Date.now()
  const pub = ackedPublisher(nc, opts.timeoutMs ?? 5000)
  const lanes = new Map<string, Lane>()
  let outstanding = 0
  let failure: unknown
  let wake: (() => void) | undefined
  const notify = (): void => {
    const w = wake
    wake = undefined
    w?.()
  }
  const fail = (e: unknown): void => {
    failure ??= e
    notify()
  }
  const waitWhile = async (busy: () => boolean): Promise<void> => {
    while (failure === undefined && busy()) await new Promise<void>((r) => (wake = r))
    if (failure !== undefined) throw failure
  }

  const done = (lane: Lane): void => {
    lane.head++
    lane.busy = false
    if (lane.head === lane.queue.length) {
      lane.queue.length = 0
      lane.head = 0
    }
    outstanding--
    start(lane)
    notify()
  }
  const acked = (lane: Lane, index: number, ack: PubAck, startedAt: number): void => {
    if (ack.duplicate) stats.duplicates++
    opts.onAck?.(index, ack.seq, startedAt)
    stats.published++
    const r = opts.onProgress?.(stats.published)
    if (r instanceof Promise) r.then(() => done(lane), fail)
    else done(lane)
  }
  const send = (lane: Lane, index: number, startedAt: number, failedAt: number | undefined): void => {
    const m = messages[index]!
    pub.send(m.subject, m.data, m.id, (r) => {
      if (failure !== undefined) return
      if (r.ok) return acked(lane, index, r.ack, startedAt)
      const now = Date.now()
      if (failedAt === undefined) stats.retried++
      const first = failedAt ?? now
      if (now - first > giveUpMs)
        return fail(new Error(`${m.subject} (id ${m.id}): not acknowledged for ${giveUpMs} ms: ${r.reason}`))
      // the same message, the same id, before any later message of its subject
      setTimeout(() => {
        if (failure === undefined) send(lane, index, startedAt, first)
      }, RETRY_DELAY_MS)
    })
  }
  const start = (lane: Lane): void => {
    if (lane.busy || lane.head >= lane.queue.length) return
    lane.busy = true
    send(lane, lane.queue[lane.head]!, Date.now(), undefined)
  }

  try {
    for (let i = 0; i < messages.length; i++) {
      if (opts.signal?.stopped === true) break
      if (failure !== undefined) throw failure
      if (opts.rate !== undefined) {
        const wait = t0 + (i * 1000) / opts.rate - Date.now()
        if (wait > 0) await new Promise((r) => setTimeout(r, wait))
      }
      const m = messages[i]!
      let lane = lanes.get(m.subject)
      if (lane === undefined) {
        lane = { queue: [], head: 0, busy: false, trade: parseSubject(m.subject).kind === 'trade' }
        lanes.set(m.subject, lane)
      }
      if (!lane.trade) await waitWhile(() => outstanding > 0)
      lane.queue.push(i)
      outstanding++
      start(lane)
      if (outstanding >= window) await waitWhile(() => outstanding >= window)
    }
    await waitWhile(() => outstanding > 0)
  } finally {
    pub.close()
  }
  stats.ms = Date.now() - t0
  return stats
}

/** A security whose trades come from a CSV or NDJSON file (read with svc-marketdata/io). */
export function fileSecurity(path: string, exchange: string, symbol: string, tickSize: string): ReplaySecurity {
  return { exchange, symbol, tickSize, trades: readTradeColumns(readFileSync(path, 'utf8')) }
}
