import fc from 'fast-check'
import { footprintProfiles, MarketDataError } from './src/index.js'
const T = Date.UTC(2026, 5, 1)
const lim = 2 ** 53 - 1
const priceArb = fc.oneof(
  fc.constantFrom(5000, 0, -5000, 0.25, -0.25),
  fc.integer({ min: -lim, max: lim }).map((k) => k * 0.25),
  fc.integer({ min: -64, max: 64 }).map((d) => (-lim + d) * 0.25),
  fc.integer({ min: -64, max: 64 }).map((d) => (lim + d) * 0.25),
  fc.integer({ min: -64, max: 64 }).map((d) => (-(2 ** 52) + d) * 0.25),
)
let bad: unknown
fc.assert(fc.property(fc.array(fc.tuple(priceArb, fc.integer({min:0,max:3000})), { minLength: 1, maxLength: 12 }), fc.boolean(), (xs, cols) => {
  const trades = xs.map(([p, dt], i) => ({ time: T + dt * 1000, price: p, volume: 1, side: (i % 2 ? 'buy' : 'sell') as 'buy' | 'sell' }))
  try {
    footprintProfiles(trades, { timeframe: '1h', tickSize: '0.25' })
  } catch (e) {
    if (!(e instanceof MarketDataError)) { bad = e; return false }
  }
  return true
}), { numRuns: 20000, seed: 7 })
