// Where a worker reads a partition's messages from: the JetStream stream (nats-source.ts) or, in the embedded
// mode, messages held in memory (the same worker code, no broker).
import type { StreamMessage } from './partition-state.js'

/** An open read of one partition's messages in stream order, starting after a position. */
export interface PartitionReader {
  /** Up to `max` messages; waits at most about `waitMs` when none is there (then resolves with none). */
  read(max: number, waitMs: number): Promise<StreamMessage[]>
  close(): Promise<void>
}

/** Opens readers. */
export interface TradeSource {
  /** Messages of `partition` with a stream sequence above `after`. */
  open(partition: number, after: number): Promise<PartitionReader>
}

/** A source over messages in memory (the embedded mode, and tests): `messages` in stream order. */
export function memorySource(
  messages: readonly StreamMessage[],
  partitionOf: (m: StreamMessage) => number,
): TradeSource {
  const byPartition = new Map<number, StreamMessage[]>()
  for (const m of messages) {
    const p = partitionOf(m)
    let list = byPartition.get(p)
    if (list === undefined) byPartition.set(p, (list = []))
    list.push(m)
  }
  return {
    async open(partition, after) {
      const list = byPartition.get(partition) ?? []
      let lo = 0
      let hi = list.length
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (list[mid]!.seq <= after) lo = mid + 1
        else hi = mid
      }
      let at = lo
      return {
        async read(max, waitMs) {
          if (at >= list.length) {
            await new Promise((r) => setTimeout(r, Math.min(waitMs, 20)))
            return []
          }
          const out = list.slice(at, at + max)
          at += out.length
          return out
        },
        async close() {},
      }
    },
  }
}
