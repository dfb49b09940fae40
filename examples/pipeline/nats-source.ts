// Reading a partition from the JetStream stream: an ordered consumer (ephemeral, created by the client, no
// acks) filtered to the partition's subjects and started after the committed position. Ordered consumers
// recreate themselves from the last message seen when the broker loses them (a node's death); a reader that
// fails anyway is closed by the worker and opened again after the last message applied.
import { DeliverPolicy, type JetStreamClient, jetstream, jetstreamManager } from '@nats-io/jetstream'
import { connect, type NatsConnection } from '@nats-io/transport-node'
import type { StreamMessage } from './partition-state.js'
import type { PartitionReader, TradeSource } from './source.js'
import { partitionFilter, TRADES_STREAM, TRADES_SUBJECT_PREFIX } from './subjects.js'

/** Connects to NATS (reconnecting for ever: brokers come back). */
export function connectNats(servers: readonly string[], name: string): Promise<NatsConnection> {
  return connect({ servers: [...servers], name, maxReconnectAttempts: -1, reconnectTimeWait: 250 })
}

/** Runs `what` until it succeeds or `ms` have passed (a cluster in fail-over refuses requests for a few seconds). */
export async function retry<T>(what: () => Promise<T>, ms = 30_000): Promise<T> {
  const until = Date.now() + ms
  for (;;) {
    try {
      return await what()
    } catch (e) {
      if (Date.now() > until) throw e
      await new Promise((r) => setTimeout(r, 250))
    }
  }
}

/** Creates the trade stream when missing: every `trades.>` subject, `replicas` copies, a duplicate window. */
export async function ensureTradesStream(nc: NatsConnection, replicas: number): Promise<void> {
  const jsm = await retry(() => jetstreamManager(nc))
  await retry(async () => {
    try {
      await jsm.streams.info(TRADES_STREAM)
    } catch {
      await jsm.streams.add({
        name: TRADES_STREAM,
        subjects: [`${TRADES_SUBJECT_PREFIX}.>`],
        num_replicas: replicas,
        duplicate_window: 10 * 60 * 1_000_000_000,
      })
    }
  })
}

/** The stream as a worker's source. */
export function natsSource(nc: NatsConnection): TradeSource {
  const js: JetStreamClient = jetstream(nc)
  return {
    async open(partition, after) {
      const consumer = await retry(() =>
        js.consumers.get(TRADES_STREAM, {
          filter_subjects: partitionFilter(partition),
          deliver_policy: DeliverPolicy.StartSequence,
          opt_start_seq: after + 1,
        }),
      )
      return {
        async read(max, waitMs): Promise<StreamMessage[]> {
          const out: StreamMessage[] = []
          const it = await consumer.fetch({ max_messages: max, expires: Math.max(1000, waitMs) })
          for await (const m of it) out.push({ seq: m.seq, subject: m.subject, data: m.data })
          return out
        },
        async close() {
          try {
            await consumer.delete()
          } catch {
            // gone with its node
          }
        },
      } satisfies PartitionReader
    },
  }
}
