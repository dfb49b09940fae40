// What the server's command line starts for the live streams: the growing store, the feed (in process, with
// an optional replay of the sample generator, or NATS JetStream), the /asyncapi.json route and the upgrades.
import type { Server } from 'node:http'
import type { ApiKeyConfig, Route } from '../server.js'
import type { StateStore } from '../state.js'
import type { MarketStore } from '../store.js'
import { ASYNCAPI_PATH, asyncApiRoute } from './asyncapi.js'
import { attachStreams } from './attach.js'
import { memoryFeed, type LiveFeed } from './live-feed.js'
import { liveStore, type LiveStore } from './live-store.js'
import { STREAM_PATH } from './protocol.js'
import { startReplay } from './replay.js'

export interface LiveOptions {
  /** Embedded feed: trades a second and security replayed from the sample generator (0 or none: only pushed trades). */
  rate?: number
  /** Distributed feed: the NATS server of the pipeline's `TRADES` stream. */
  nats?: string
}

export function startLiveStreams(
  base: MarketStore,
  opts: LiveOptions,
  clock: () => number,
): {
  store: LiveStore
  routes: Route[]
  attach(
    server: Server,
    o: { apiKeys: readonly ApiKeyConfig[]; state: StateStore },
  ): Promise<{ banner: string; close(): Promise<void> }>
} {
  const store = liveStore(base)
  return {
    store,
    routes: [asyncApiRoute()],
    async attach(server, o) {
      let feed: LiveFeed
      let stop = async (): Promise<void> => {}
      let mode: string
      if (opts.nats !== undefined) {
        // the NATS clients load only in the distributed mode
        const { connect } = await import('@nats-io/transport-node')
        const { natsFeed } = await import('./nats-feed.js')
        const nc = await connect({ servers: opts.nats })
        feed = natsFeed(nc)
        stop = () => nc.close()
        mode = `distributed (NATS ${opts.nats}, stream TRADES)`
      } else {
        const m = memoryFeed(store)
        feed = m
        const rate = opts.rate ?? 0
        if (rate > 0) {
          const end = startReplay(m, store, { rate, clock })
          stop = async () => end()
        }
        mode = rate > 0 ? `embedded (sample replay, ${rate} trades/s a security)` : 'embedded (no live trades)'
      }
      const streams = await attachStreams(server, { store, feed, apiKeys: o.apiKeys, state: o.state, clock })
      const address = (server.address() as { port: number }).port
      return {
        banner: `ws://127.0.0.1:${address}${STREAM_PATH}/{candles,footprint}   ${mode}; AsyncAPI document: ${ASYNCAPI_PATH}`,
        async close() {
          await streams.close()
          await feed.close()
          await stop()
        },
      }
    },
  }
}
