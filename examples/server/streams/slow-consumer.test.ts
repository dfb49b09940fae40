// A client that stops reading: the server's unsent bytes for it are bounded (maxBufferedBytes), then it is
// closed with 4000 `slow_consumer`, while a client of the same stream that reads gets every update in time.
import { afterEach, expect, it } from 'vitest'
import { startStreamHarness, type StreamHarness } from './stream-harness.js'
import type { Refused, StreamClient } from './stream-client.js'

const T0 = Date.UTC(2026, 7, 20, 15, 0, 10)
const SUB = { exchange: 'CME', symbol: 'ES', timeframe: '1h', rowSize: 1 }
let h: StreamHarness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})
const opened = (c: StreamClient | Refused): StreamClient => {
  if (c.refused) throw new Error(`refused: ${c.status} ${JSON.stringify(c.body)}`)
  return c
}
const turn = (): Promise<void> => new Promise((r) => setImmediate(r))

it('a client that stops reading is closed with 4000 once its buffer passes the bound; the reading client keeps up', async () => {
  h = await startStreamHarness({ now: T0, limits: { maxBufferedBytes: 64 * 1024, closeGraceMs: 10_000 } })
  const slow = opened(await h.subscribe('footprint', SUB))
  const fast = opened(await h.subscribe('footprint', SUB))
  await slow.next('snapshot')
  await fast.next('snapshot')
  slow.ws.pause()
  let i = 0
  let t = T0
  // wide rows make big frames (hundreds of rows): the kernel's socket buffers fill, then the server's
  for (; i < 20_000 && h.streams.hub.stats().slowClosed === 0; i++) {
    t += 1
    const price = 5000 + ((i * 37) % 800) * 0.25
    h.feed.push('CME', 'ES', [{ time: t, price, volume: 1 + (i % 5), side: i % 2 === 0 ? 'buy' : 'sell' }])
    await turn()
    await turn()
  }
  expect(h.streams.hub.stats().slowClosed).toBe(1)
  const closedAt = i
  // the reading client is still open and gets the updates that follow, up to the newest trade
  for (let k = 0; k < 20; k++) {
    t += 1
    h.feed.push('CME', 'ES', [{ time: t, price: 5000, volume: 1, side: 'buy' }])
    await turn()
  }
  await new Promise((r) => setTimeout(r, 300))
  const updates = fast.frames.filter((f) => f.type === 'update')
  expect(updates.length).toBeGreaterThan(closedAt / 2)
  const lastUpdate = updates[updates.length - 1]
  const rows = lastUpdate.bucket.rows as [string, string, string, number, number][]
  const trades = rows.reduce((n, r) => n + r[3] + r[4], 0)
  const s = h.store.security('CME', 'ES')!
  const hourStart = Date.UTC(2026, 7, 20, 15)
  expect(trades).toBe(h.store.tradesIn(s, hourStart, hourStart + 3_600_000).time.length)
  expect(fast.ws.readyState).toBe(fast.ws.OPEN)
  // the slow one, reading again, finds the close after what was buffered for it
  slow.ws.resume()
  expect(await slow.closed).toEqual({ code: 4000, reason: 'slow_consumer' })
  expect(h.streams.hub.stats().connections).toBe(1)
  fast.ws.close()
})
