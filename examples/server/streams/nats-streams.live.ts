// The distributed mode against a real JetStream server: the streams follow one security of the `TRADES`
// stream (subjects and payloads of examples/pipeline/subjects.ts). The history there is the pipeline's store,
// so the closed buckets are checked against the library's batch functions over the same trades. A feed whose
// stream does not exist is a terminal upstream error: `unavailable`, close 1011, nothing charged.
import { jetstream, jetstreamManager } from '@nats-io/jetstream'
import { connect, type NatsConnection } from '@nats-io/transport-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { candlesFromTrades, footprintProfiles, tradesToColumns, type Trade } from '../../../src/index.js'
import { DEFAULT_PARTITIONS, encodeTrade, tradeMessageId, tradeSubject } from '../../pipeline/subjects.js'
import { startNatsCluster, type NatsCluster } from '../../services/nats.js'
import { wireCandle, wireProfile } from '../rest.js'
import { natsFeed } from './nats-feed.js'
import type { Refused, StreamClient } from './stream-client.js'
import { startStreamHarness, type StreamHarness } from './stream-harness.js'

const T0 = Date.UTC(2026, 7, 20, 15, 0, 10)
const B0 = Date.UTC(2026, 7, 20, 15, 0, 0)
const B1 = Date.UTC(2026, 7, 20, 15, 1, 0)
let cluster: NatsCluster
let nc: NatsConnection
let h: StreamHarness
let seq = 0

beforeAll(async () => {
  cluster = await startNatsCluster({ nodes: 1 })
  nc = await connect({ servers: [...cluster.servers] })
  const jsm = await jetstreamManager(nc)
  await jsm.streams.add({ name: 'TRADES', subjects: ['trades.>'] })
  h = await startStreamHarness({ now: T0, upstream: natsFeed(nc) })
})
afterAll(async () => {
  await h?.close()
  await nc?.close()
  await cluster?.stop()
})

async function publish(exchange: string, symbol: string, trades: Trade[]): Promise<void> {
  const js = jetstream(nc)
  for (const t of trades) {
    const s = seq++
    const m = { exchange, symbol, seq: s, time: t.time, price: String(t.price), volume: String(t.volume), side: t.side }
    await js.publish(tradeSubject(exchange, symbol, DEFAULT_PARTITIONS), encodeTrade(m), {
      msgID: tradeMessageId(exchange, symbol, s),
    })
  }
}
const opened = (c: StreamClient | Refused): StreamClient => {
  if (c.refused) throw new Error(`refused: ${c.status} ${JSON.stringify(c.body)}`)
  return c
}

describe('streams over the pipeline trade stream (NATS JetStream)', () => {
  it('the first snapshot holds the bucket so far; closed buckets equal the batch functions over the same trades', async () => {
    const before: Trade[] = [
      { time: B0 - 5000, price: 4990, volume: 9, side: 'buy' }, // the previous minute: not this stream's
      { time: B0 + 1000, price: 5000, volume: 2, side: 'buy' },
      { time: B0 + 2000, price: 5000.5, volume: 1, side: 'sell' },
    ]
    await publish('CME', 'ES', before)
    await publish('CME', 'NQ', [{ time: B0 + 1500, price: 18000, volume: 1, side: 'buy' }])
    const candles = opened(await h.subscribe('candles', { exchange: 'CME', symbol: 'ES', timeframe: '1m' }))
    const fp = opened(await h.subscribe('footprint', { exchange: 'CME', symbol: 'ES', timeframe: '1m', rowSize: 2 }))
    expect((await candles.next('subscribed')).charged).toBe(10)
    expect((await fp.next('subscribed')).charged).toBe(25)
    // the consumer replays the bucket's trades: wait until both are in
    let snap = await candles.next(['snapshot', 'update'])
    while (snap.bucket?.volume !== '3') snap = await candles.next('update')
    const after: Trade[] = [
      { time: B0 + 30_000, price: 4999.75, volume: 4, side: 'sell' },
      { time: B0 + 50_000, price: 5001, volume: 1, side: 'buy' },
    ]
    await publish('CME', 'ES', after)
    await publish('CME', 'ES', [{ time: B1 + 1000, price: 5000, volume: 1, side: 'buy' }])
    const closedCandle = (await candles.next('closed', 20_000)).bucket
    const closedProfile = (await fp.next('closed', 20_000)).bucket
    const bucket = tradesToColumns([...before.slice(1), ...after])
    const opts = { timeframe: '1m', tickSize: '0.25', timeZone: 'America/Chicago' } as const
    expect([closedCandle]).toEqual(candlesFromTrades(bucket, opts).map(wireCandle))
    expect([closedProfile]).toEqual(footprintProfiles(bucket, { ...opts, rowSize: 2 }).map(wireProfile))
    expect(candles.frames.filter((f) => f.type === 'closed')).toHaveLength(1)
    candles.ws.close()
    fp.ws.close()
  })

  it('a stream whose upstream cannot be followed ends with unavailable (1011) and costs nothing', async () => {
    const h2 = await startStreamHarness({ now: T0, upstream: natsFeed(nc, { stream: 'MISSING' }) })
    try {
      const c = opened(await h2.subscribe('candles', { exchange: 'CME', symbol: 'ES', timeframe: '1m' }))
      const e = await c.next('error', 20_000)
      expect(e.code).toBe('unavailable')
      expect((await c.closed).code).toBe(1011)
      await new Promise((r) => setTimeout(r, 50))
      expect(h2.streams.credits.states().get('a')).toMatchObject({ used: 0, streams: [] })
    } finally {
      await h2.close()
    }
  })
})
