// Where live trades come from. Two feeds: in process (trades pushed by a test or replayed from the sample
// generator, appended to a live store so the history endpoints answer them too) and NATS JetStream
// (nats-feed.ts: the pipeline's `TRADES` stream, filtered to one security).
import { columnsToTrades, type Trade } from '../../../src/index.js'
import type { LiveStore } from './live-store.js'

/** A security being followed; `stop()` ends the delivery. */
export interface FollowHandle {
  stop(): Promise<void>
}

/** Receives trades of one security in time order (a batch at a time). */
export type TradeSink = (trades: readonly Trade[]) => void

/** A source of live trades. */
export interface LiveFeed {
  /**
   * Delivers every trade of one security with `time >= since`: those already known first, then live ones,
   * in time order. Resolves once upstream confirmed the subscription (the moment a stream is charged);
   * rejects when it cannot follow the security (a terminal upstream error: nothing is charged).
   */
  follow(exchange: string, symbol: string, since: number, sink: TradeSink): Promise<FollowHandle>
  close(): Promise<void>
}

/** The in-process feed: `push` appends trades to the store and hands them to the security's followers. */
export interface MemoryFeed extends LiveFeed {
  /** Appends trades of a security (see `LiveStore.append`); returns how many were taken and any refusal. */
  push(exchange: string, symbol: string, trades: readonly unknown[]): { appended: number; error?: string }
}

const key = (exchange: string, symbol: string): string => `${exchange}\u0000${symbol}`

/** An in-process feed over a live store. */
export function memoryFeed(store: LiveStore): MemoryFeed {
  const sinks = new Map<string, Set<TradeSink>>()
  return {
    async follow(exchange, symbol, since, sink) {
      const s = store.security(exchange, symbol)
      if (s === undefined) throw new Error(`live feed: no security ${exchange} ${symbol}`)
      const known = columnsToTrades(store.tradesIn(s, since, Number.POSITIVE_INFINITY))
      // replay and registration in one turn: no trade pushed in between is missed or seen twice
      if (known.length > 0) sink(known)
      const k = key(exchange, symbol)
      let set = sinks.get(k)
      if (set === undefined) sinks.set(k, (set = new Set()))
      set.add(sink)
      return { stop: async () => void set.delete(sink) }
    },
    push(exchange, symbol, trades) {
      const s = store.security(exchange, symbol)
      if (s === undefined) return { appended: 0, error: `no security ${exchange} ${symbol}` }
      const r = store.append(s, trades)
      if (r.appended.length > 0) for (const sink of sinks.get(key(exchange, symbol)) ?? []) sink(r.appended)
      return r.error === undefined ? { appended: r.appended.length } : { appended: r.appended.length, error: r.error }
    },
    close: async () => sinks.clear(),
  }
}
