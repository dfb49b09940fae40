// kill -9 of the server with streams open: every charge a client was told of (its `subscribed` frame) is in
// the ledger the restarted server reads from its data directory, and no more than the streams that asked.
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { serverProcesses } from '../spawn.js'
import { openStream, subscribeStream, type StreamClient } from './stream-client.js'
import { STREAM_PATH } from './protocol.js'

const KEY = 'stream-restart-key'
const NOW = '2026-06-20T15:00:10Z'
const servers = serverProcesses('svc-stream-restart-')
afterAll(() => servers.cleanup())
const dataDir = join(servers.tmp, 'data')
const start = () =>
  servers.start(
    ['--port', '0', '--now', NOW, '--days', '3', '--trades-per-day', '100', '--api-key', KEY, '--data-dir', dataDir],
    undefined,
    150_000,
  )
const ws = (url: string, kind: string): string => `${url.replace('http', 'ws')}${STREAM_PATH}/${kind}`

test('after kill -9 the ledger holds every charge clients were told of, and only charges of streams that asked', async () => {
  const first = await start()
  const subs = [
    ...Array.from(
      { length: 6 },
      () => ['footprint', { exchange: 'CME', symbol: 'ES', timeframe: '5m', rowSize: 4 }] as const,
    ),
    ...Array.from({ length: 6 }, () => ['candles', { exchange: 'NASDAQ', symbol: 'AAPL', timeframe: '1m' }] as const),
  ]
  const told: { charged: number; remaining: number }[] = []
  let killed = false
  const clients = subs.map(async ([kind, sub]) => {
    const c = await subscribeStream(ws(first.url, kind), KEY, sub)
    if (c.refused) return
    const f = (c as StreamClient).frames.find((x) => x.type === 'subscribed')
    if (f !== undefined && !killed) told.push({ charged: f.charged, remaining: f.credits.remaining })
    // kill as soon as half of them were told their charge: the others are in flight
    if (told.length === 6 && !killed) {
      killed = true
      first.child.kill('SIGKILL')
    }
  })
  await Promise.allSettled(clients)
  expect(killed).toBe(true)
  if (first.child.exitCode === null && first.child.signalCode === null)
    await new Promise((r) => first.child.once('exit', r))
  const second = await start()
  const again = await openStream(ws(second.url, 'candles'), KEY)
  if (again.refused) throw new Error(`refused: ${again.status}`)
  const remaining = Number(again.headers['x-ratelimit-remaining'])
  const toldSum = told.reduce((n, t) => n + t.charged, 0)
  // nothing told was lost ...
  expect(1000 - remaining).toBeGreaterThanOrEqual(toldSum)
  for (const t of told) expect(remaining).toBeLessThanOrEqual(t.remaining)
  // ... and nothing beyond the streams that asked was charged
  expect(1000 - remaining).toBeLessThanOrEqual(6 * 25 + 6 * 10)
  // the restarted server goes on charging from there
  again.send({ type: 'subscribe', exchange: 'NASDAQ', symbol: 'AAPL', timeframe: '1m' })
  const sub = await again.next('subscribed')
  expect(sub.credits.remaining).toBe(remaining - 10)
  again.ws.close()
  second.child.kill('SIGTERM')
})
