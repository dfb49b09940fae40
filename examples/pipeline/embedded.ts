// The embedded pipeline: no broker, PGlite in-process, the same worker code. The feed's messages are held in
// memory in stream order (sequence = position in the feed), and the worker reads them as it would read the
// stream. Used by `npm run pipeline` and by the tests that need no service.
import { parseSubject } from './subjects.js'
import { ensureSchema, registerSecurities } from './schema.js'
import { leaseTable } from './leases.js'
import { memorySource, type TradeSource } from './source.js'
import type { StreamMessage } from './partition-state.js'
import type { OutgoingMessage, ReplaySecurity } from './replay.js'
import type { Sql } from './sql.js'
import { startWorker, type RunningWorker, type WorkerOptions } from './worker.js'

/** Outgoing messages as a stream holds them: sequences 1, 2, ... in feed order. */
export function asStream(messages: readonly OutgoingMessage[]): StreamMessage[] {
  return messages.map((m, i) => ({ seq: i + 1, subject: m.subject, data: m.data }))
}

/** A source over stream messages (the partition from each subject). */
export function streamSource(messages: readonly StreamMessage[]): TradeSource {
  return memorySource(messages, (m) => {
    const s = parseSubject(m.subject)
    return s.kind === 'other' ? -1 : s.partition
  })
}

/** The last sequence of each partition in `messages`. */
export function lastPositions(messages: readonly StreamMessage[]): Map<number, number> {
  const out = new Map<number, number>()
  for (const m of messages) {
    const s = parseSubject(m.subject)
    if (s.kind !== 'other') out.set(s.partition, m.seq)
  }
  return out
}

/** Resolves once every partition's committed position reached `last` (or rejects after `timeoutMs`). */
export async function waitForPositions(sql: Sql, last: ReadonlyMap<number, number>, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const table = await leaseTable(sql)
    const behind = [...last].filter(([p, seq]) => (table.find((r) => r.partition === p)?.position ?? 0) < seq)
    if (behind.length === 0) return
    if (Date.now() > until)
      throw new Error(
        `partitions still behind after ${timeoutMs} ms: ${behind.map(([p, s]) => `${p} (< ${s})`).join(', ')}`,
      )
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** Options of {@link runEmbedded}. */
export interface EmbeddedOptions {
  sql: Sql
  securities: readonly ReplaySecurity[]
  /** The feed (from `replayMessages`), possibly with other messages mixed in. */
  messages: readonly OutgoingMessage[]
  partitions: number
  /** In-process workers (default 1). */
  workers?: number
  worker?: Partial<WorkerOptions>
  timeoutMs?: number
}

/** Runs the feed through in-process workers into `sql` and stops them once everything is committed. */
export async function runEmbedded(opts: EmbeddedOptions): Promise<void> {
  await ensureSchema(opts.sql, opts.partitions)
  await registerSecurities(opts.sql, opts.securities)
  const stream = asStream(opts.messages)
  const source = streamSource(stream)
  const running: RunningWorker[] = []
  for (let i = 0; i < (opts.workers ?? 1); i++)
    running.push(
      startWorker({ id: `embedded-${i + 1}`, sql: opts.sql, source, partitions: opts.partitions, ...opts.worker }),
    )
  try {
    await waitForPositions(opts.sql, lastPositions(stream), opts.timeoutMs ?? 120_000)
  } finally {
    await Promise.all(running.map((w) => w.stop()))
  }
}
