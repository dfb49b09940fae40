// The server side of bench/streams.ts, in its own process: the reference server with the embedded live feed
// on a free port, real clock; on the parent's command it pushes trades at a rate and reports each push's time
// and its memory. Started by bench/streams.ts only.
import { attachStreams } from '../examples/server/streams/attach.js'
import { memoryFeed } from '../examples/server/streams/live-feed.js'
import { liveStore } from '../examples/server/streams/live-store.js'
import { startServer } from '../examples/server/server.js'
import { memoryState } from '../examples/server/state.js'
import { sampleStore } from '../examples/server/store.js'

const send = (m: unknown): void => void process.send!(m)
const now = (): number => performance.timeOrigin + performance.now()

async function main(): Promise<void> {
  const maxBufferedBytes = Number(process.env.MAX_BUFFERED ?? 1 << 20)
  const store = liveStore(sampleStore({ now: Date.now(), days: 2, tradesPerDay: 1000 }))
  const feed = memoryFeed(store)
  const state = memoryState()
  const apiKeys = Array.from({ length: 10 }, (_, i) => ({ key: `bench-${i}`, account: `acct-${i}` }))
  const server = await startServer({ store, apiKeys, partnerKeys: [], state })
  const streams = await attachStreams(server.server, { store, feed, apiKeys, state, limits: { maxBufferedBytes } })
  let k = 0
  let timer: NodeJS.Timeout | undefined
  process.on('message', (m: { cmd: string; rate?: number; ms?: number }) => {
    if (m.cmd === 'memory') {
      const u = process.memoryUsage()
      send({ memory: { rss: u.rss, heapUsed: u.heapUsed, external: u.external }, stats: streams.hub.stats() })
    } else if (m.cmd === 'push') {
      const until = now() + m.ms!
      timer = setInterval(() => {
        if (now() >= until) {
          clearInterval(timer)
          send({ pushed: k })
          return
        }
        k++
        const t = now()
        // volume 1 a trade: a client reads the trade count off the open bucket; prices over 40 ticks
        feed.push('CME', 'ES', [
          { time: Date.now(), price: 5000 + (k % 40) * 0.25, volume: 1, side: k % 2 ? 'buy' : 'sell' },
        ])
        send({ k, t })
      }, 1000 / m.rate!)
    } else if (m.cmd === 'stop') {
      void streams
        .close()
        .then(() => server.close())
        .then(() => process.exit(0))
    }
  })
  send({ ready: true, port: server.port })
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
