// The distributed live feed: one security's trades from the pipeline's JetStream stream `TRADES`
// (subjects `trades.<partition>.<exchange>.<symbol>`, filtered with `securityFilter`), read by an ordered
// consumer that starts at the open bucket's start time, so the first snapshot holds the whole open bucket.
import { DeliverPolicy, jetstream } from '@nats-io/jetstream'
import type { NatsConnection } from '@nats-io/transport-node'
import type { Trade } from '../../../src/index.js'
import { decodeTrade, securityFilter, TRADES_STREAM } from '../../pipeline/subjects.js'
import type { LiveFeed } from './live-feed.js'

/** A feed over a NATS connection (closing the feed does not close the connection: its owner does). */
export function natsFeed(nc: NatsConnection, opts: { stream?: string } = {}): LiveFeed {
  const js = jetstream(nc)
  const stream = opts.stream ?? TRADES_STREAM
  const stops = new Set<() => void>()
  return {
    async follow(exchange, symbol, since, sink) {
      const consumer = await js.consumers.get(stream, {
        filter_subjects: securityFilter(exchange, symbol),
        deliver_policy: DeliverPolicy.StartTime,
        opt_start_time: new Date(since).toISOString(),
      })
      const messages = await consumer.consume()
      // upstream confirmed: the consumer exists on the stream (a missing stream rejected above)
      const stop = (): void => void messages.stop()
      stops.add(stop)
      void (async () => {
        for await (const m of messages) {
          const d = decodeTrade(m.data)
          if (!d.ok || d.message.exchange !== exchange || d.message.symbol !== symbol) continue
          const t = d.message
          // side and session as found: the aggregators refuse what is not a trade, naming the field
          const trade = { time: t.time, price: t.price, volume: t.volume, side: t.side } as Trade
          if (t.session !== undefined) trade.session = t.session as Trade['session']
          sink([trade])
        }
      })().catch((e: unknown) => console.error('[streams] nats feed:', e))
      return {
        stop: async () => {
          stops.delete(stop)
          stop()
        },
      }
    },
    close: async () => {
      for (const s of stops) s()
      stops.clear()
    },
  }
}
