// Test harness of the live streams: the reference server in process on a free port with the embedded feed
// (trades pushed by the test become history too), a pinned clock the test moves, real `ws` clients.
import { NOW, testStore } from '../harness.js'
import { startServer, type ApiKeyConfig, type RunningServer } from '../server.js'
import { memoryState, type StateStore } from '../state.js'
import { asyncApiRoute } from './asyncapi.js'
import { attachStreams, type StreamLimits, type StreamServer } from './attach.js'
import { memoryFeed, type LiveFeed, type MemoryFeed } from './live-feed.js'
import { liveStore, type LiveStore } from './live-store.js'
import { STREAM_PATH } from './protocol.js'
import { openStream, subscribeStream, type Refused, type StreamClient } from './stream-client.js'

export interface StreamHarness {
  server: RunningServer
  streams: StreamServer
  feed: MemoryFeed
  store: LiveStore
  state: StateStore
  setNow(t: number): void
  now(): number
  /** `ws://127.0.0.1:PORT/api/v1/marketdata/stream/<kind>` */
  wsUrl(kind: string): string
  open(kind: string, key?: string): Promise<StreamClient | Refused>
  subscribe(kind: string, sub: Record<string, unknown>, key?: string): Promise<StreamClient | Refused>
  close(): Promise<void>
}

/** Starts a server with streams; `keys` default to one key `k1` of account `a`. */
export async function startStreamHarness(
  opts: {
    now?: number
    keys?: ApiKeyConfig[]
    limits?: Partial<StreamLimits>
    state?: StateStore
    /** Another feed than the in-process one (which `feed` then still is, unused by the streams). */
    upstream?: LiveFeed
  } = {},
): Promise<StreamHarness> {
  let now = opts.now ?? NOW
  const clock = (): number => now
  const store = liveStore(testStore(NOW))
  const feed = memoryFeed(store)
  const keys = opts.keys ?? [{ key: 'k1', account: 'a' }]
  const state = opts.state ?? memoryState()
  const server = await startServer({ store, apiKeys: keys, partnerKeys: [], clock, state, routes: [asyncApiRoute()] })
  const streams = await attachStreams(server.server, {
    store,
    feed: opts.upstream ?? feed,
    apiKeys: keys,
    state,
    clock,
    ...(opts.limits === undefined ? {} : { limits: opts.limits }),
  })
  const wsUrl = (kind: string): string => `ws://127.0.0.1:${server.port}${STREAM_PATH}/${kind}`
  const key0 = keys[0]!.key
  return {
    server,
    streams,
    feed,
    store,
    state,
    setNow: (t) => void (now = t),
    now: clock,
    wsUrl,
    open: (kind, key = key0) => openStream(wsUrl(kind), key),
    subscribe: (kind, sub, key = key0) => subscribeStream(wsUrl(kind), key, sub),
    async close() {
      await streams.close()
      await server.close()
    },
  }
}
