// What a stream client sees agrees with the history endpoints: trades pushed into the embedded feed reach the
// clients as updates of the open bucket and, once the bucket closes, the `closed` frame is the candle or the
// footprint profile `/candles` and `/footprint` answer for that bucket. The footprint stream also announces a
// moved history limit (`rangeTruncated`) when the newest trade enters a new UTC day.
import { fc, test as fcTest } from '@fast-check/vitest'
import { afterEach, describe, expect, it } from 'vitest'
import { bucketStart, candlesFromTrades, footprintProfiles } from '../../../src/index.js'
import { formatIso } from '../../../src/service/index.js'
import { wireCandle, wireProfile } from '../rest.js'
import { sampleStore } from '../store.js'
import { memoryFeed } from './live-feed.js'
import { liveStore } from './live-store.js'
import { openChannel } from './channel.js'
import { readClientMessage } from './protocol.js'
import { startStreamHarness, type StreamHarness } from './stream-harness.js'
import type { Refused, StreamClient } from './stream-client.js'

const T0 = Date.UTC(2026, 7, 20, 15, 0, 10)
const B0 = Date.UTC(2026, 7, 20, 15, 0, 0)
const B1 = Date.UTC(2026, 7, 20, 15, 1, 0)

let h: StreamHarness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})
const opened = (c: StreamClient | Refused): StreamClient => {
  if (c.refused) throw new Error(`refused: ${c.status} ${JSON.stringify(c.body)}`)
  return c
}

async function rest(path: string): Promise<any> {
  const r = await fetch(`${h!.server.url}/api/v1/marketdata${path}`, { headers: { 'x-api-key': 'k1' } })
  expect(r.status).toBe(200)
  return r.json()
}

describe('streams against the history endpoints (embedded feed)', () => {
  it('updates follow pushed trades; the closed candle and footprint equal /candles and /footprint', async () => {
    h = await startStreamHarness({ now: T0 })
    const candles = opened(await h.subscribe('candles', { exchange: 'CME', symbol: 'ES', timeframe: '1m' }))
    const fp = opened(await h.subscribe('footprint', { exchange: 'CME', symbol: 'ES', timeframe: '1m', rowSize: 4 }))
    await candles.next('subscribed')
    const first = await fp.next('subscribed')
    expect(first).toMatchObject({ tickSize: '0.25', pricePrecision: 2, rowSize: 4, since: '2026-07-21T00:00:00.000Z' })
    await candles.next('snapshot')
    await fp.next('snapshot')
    const s = h.store.security('CME', 'ES')!
    const last = s.trades.price[s.trades.price.length - 1]!
    const trades = [
      { time: B0 + 20_000, price: last + 1, volume: 3, side: 'buy' },
      { time: B0 + 30_000, price: last - 0.75, volume: 2, side: 'sell' },
      { time: B0 + 45_000, price: last + 2.5, volume: 1, side: 'buy' },
    ]
    expect(h.feed.push('CME', 'ES', trades)).toEqual({ appended: 3 })
    const update = await candles.next('update')
    expect(update.bucket.time).toBe(formatIso(B0))
    expect(update.bucket.high).toBe((last + 2.5).toFixed(2))
    const fu = await fp.next('update')
    expect(fu.bucket.time).toBe(formatIso(B0))
    // the next minute's first trade closes the bucket
    expect(h.feed.push('CME', 'ES', [{ time: B1 + 5000, price: last, volume: 1, side: 'sell' }])).toEqual({
      appended: 1,
    })
    const closedCandle = (await candles.next('closed')).bucket
    const closedProfile = (await fp.next('closed')).bucket
    h.setNow(B1 + 10_000)
    const from = B0 / 1000
    const to = B1 / 1000
    const history = await rest(`/candles?exchange=CME&symbol=ES&timeframe=1m&from=${from}&to=${to}`)
    expect(history.candles).toEqual([closedCandle])
    const profiles = await rest(`/footprint?exchange=CME&symbol=ES&timeframe=1m&rowSize=4&from=${from}&to=${to}`)
    expect(profiles.profiles).toEqual([closedProfile])
    // the open bucket's update after the closing trade is the new minute
    expect((await candles.next('update')).bucket.time).toBe(formatIso(B1))
  })

  it('rangeTruncated when the newest trade enters a new UTC day (1m footprint: 30 days of depth)', async () => {
    h = await startStreamHarness({ now: T0 })
    const fp = opened(await h.subscribe('footprint', { exchange: 'CME', symbol: 'ES', timeframe: '1m' }))
    expect((await fp.next('subscribed')).since).toBe('2026-07-21T00:00:00.000Z')
    h.feed.push('CME', 'ES', [{ time: Date.UTC(2026, 7, 20, 23, 59), price: 5000, volume: 1, side: 'buy' }])
    await fp.next('update')
    expect(fp.frames.some((f) => f.type === 'rangeTruncated')).toBe(false)
    h.feed.push('CME', 'ES', [{ time: Date.UTC(2026, 7, 21, 0, 0, 5), price: 5000, volume: 1, side: 'buy' }])
    expect(await fp.next('rangeTruncated')).toEqual({ type: 'rangeTruncated', since: '2026-07-22T00:00:00.000Z' })
  })

  it('a trade older than the newest is refused by the feed and reaches nobody', async () => {
    h = await startStreamHarness({ now: T0 })
    const r = h.feed.push('CME', 'ES', [{ time: B0 - 3_600_000 * 24 * 90, price: 5000, volume: 1, side: 'buy' }])
    expect(r.appended).toBe(0)
    expect(r.error).toContain('time order')
    expect(h.feed.push('CME', 'ES', [{ time: B0 + 1, price: 'x', volume: 1, side: 'buy' }]).error).toContain('price')
  })
})

// the property: for any trades in time order, the buckets a channel closes are the batch functions' buckets
// over the same stored trades (what the history endpoints compute)
const base = sampleStore({ now: T0, days: 2, tradesPerDay: 200 })
const tradeArb = fc.record({
  dt: fc.integer({ min: 0, max: 40_000 }),
  ticks: fc.integer({ min: -40, max: 40 }),
  volume: fc.integer({ min: 1, max: 50 }),
  buy: fc.boolean(),
})

describe('channel buckets = batch buckets (property)', () => {
  fcTest.prop(
    [
      fc.array(tradeArb, { minLength: 1, maxLength: 60 }),
      fc.constantFrom('candles', 'footprint'),
      fc.constantFrom('1m', '5m'),
    ],
    {
      numRuns: 40,
    },
  )('closed buckets equal candlesFromTrades / footprintProfiles of the stored trades', async (steps, kind, tf) => {
    const store = liveStore(base)
    const feed = memoryFeed(store)
    const s = store.security('CME', 'ES')!
    const parsed = readClientMessage(
      Buffer.from(
        JSON.stringify({
          type: 'subscribe',
          exchange: 'CME',
          symbol: 'ES',
          timeframe: tf,
          ...(kind === 'footprint' ? { rowSize: 2 } : {}),
        }),
      ),
      false,
      kind as 'candles' | 'footprint',
      4096,
      T0,
    )
    if (parsed.type !== 'subscribe') throw new Error(JSON.stringify(parsed))
    const ch = openChannel(parsed.subscription, s, feed, T0, store.newest(s))
    await ch.ready
    const closed: any[] = []
    ch.members.add({
      send: (text) => void (JSON.parse(text).type === 'closed' && closed.push(JSON.parse(text).bucket)),
    })
    let t = T0
    const pushed = steps.map((x) => {
      t += x.dt
      return { time: t, price: 5000 + x.ticks * 0.25, volume: x.volume, side: x.buy ? 'buy' : 'sell' }
    })
    expect(feed.push('CME', 'ES', pushed).appended).toBe(pushed.length)
    ch.advance(t + 3_600_000)
    await ch.stop()
    const timeZone = s.exchange.timezone
    const start = bucketStart(T0, parsed.subscription.timeframe, { timeZone })
    const end = t + 3_600_000
    const opts = { timeframe: tf, tickSize: '0.25', timeZone }
    const expected =
      kind === 'candles'
        ? candlesFromTrades(store.tradesIn(s, start, end), opts).map(wireCandle)
        : footprintProfiles(store.tradesIn(s, start, end), { ...opts, rowSize: 2 }).map(wireProfile)
    expect(closed.length).toBeGreaterThan(0)
    expect(closed).toEqual(expected)
    expect(ch.refused).toBe(0)
  })
})
