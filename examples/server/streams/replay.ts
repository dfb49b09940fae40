// The embedded feed's demonstration source: the library's sample generator continued from each security's
// last stored price, one trade a security every `1000 / rate` ms stamped with the server's clock, pushed into
// the in-process feed (so the trades become history too).
import { sampleTrades } from '../../../src/sample/index.js'
import type { MarketStore } from '../store.js'
import type { MemoryFeed } from './live-feed.js'

/** Starts the replay; returns its stop. `rate`: trades per second and security. */
export function startReplay(
  feed: MemoryFeed,
  store: MarketStore,
  opts: { rate: number; clock: () => number },
): () => void {
  const sources = store
    .all()
    .filter((s) => s.security.sample !== undefined && s.trades.time.length > 0)
    .map((s) => {
      const n = s.trades.time.length
      const cols = sampleTrades({
        seed: s.security.sample!.seed + 1,
        days: 1,
        tradesPerDay: 50_000,
        tickSize: s.security.tickSize,
        startPrice: String(s.trades.price[n - 1]),
        timeZone: s.exchange.timezone,
      })
      return { s, cols, i: 0 }
    })
  const timer = setInterval(() => {
    const now = opts.clock()
    for (const src of sources) {
      const i = src.i++ % src.cols.time.length
      feed.push(src.s.security.exchange, src.s.security.symbol, [
        {
          time: now,
          price: src.cols.price[i]!,
          volume: src.cols.volume[i]!,
          side: src.cols.side[i] === 2 ? 'sell' : 'buy',
        },
      ])
    }
  }, 1000 / opts.rate)
  timer.unref()
  return () => clearInterval(timer)
}
