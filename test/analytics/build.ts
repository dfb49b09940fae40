// Hand-built profiles for the analytics tests: a day of 30-minute blocks from 09:00 UTC, tick 1.
import { fc } from '@fast-check/vitest'
import {
  tpoFromCandles,
  tpoProfiles,
  type TpoCandleInput,
  type TpoCandleProfile,
  type TpoProfile,
} from '../../src/tpo/index.js'
import type { Trade } from '../../src/trades/index.js'

export const T = (h: number, m = 0, day = 1) => Date.UTC(2026, 5, day, h, m)
export const BLOCK = 30 * 60_000

/** One block: its low, its high and its last price (default high); `volume` per trade (default 1). */
export type BlockSpec = [low: number, high: number, last?: number]

/** Trades of a day: block i starts at 09:00 + 30 min x i; each block trades its low, its high, then its last price. */
export function dayTrades(blocks: readonly BlockSpec[], day = 1, volumes?: (price: number) => number): Trade[] {
  const out: Trade[] = []
  blocks.forEach(([low, high, last], i) => {
    const t = T(9, 0, day) + i * BLOCK
    const v = (p: number) => volumes?.(p) ?? 1
    out.push({ time: t, price: low, volume: v(low), side: 'sell' })
    out.push({ time: t + 1000, price: high, volume: v(high), side: 'buy' })
    if (last !== undefined) out.push({ time: t + 2000, price: last, volume: v(last), side: 'buy' })
  })
  return out
}

/** The TPO profile of a hand-built day (tick 1, 30-minute blocks, 1-hour IB). */
export function day(blocks: readonly BlockSpec[], dayOfMonth = 1): TpoProfile {
  const [p] = tpoProfiles(dayTrades(blocks, dayOfMonth), { timeframe: '1d', tickSize: 1 })
  return p as TpoProfile
}

/** The same day built from one candle per block (volumes unknown per row). */
export function candleDay(blocks: readonly BlockSpec[], dayOfMonth = 1): TpoCandleProfile {
  const candles: TpoCandleInput[] = blocks.map(([low, high, last], i) => ({
    time: T(9, 0, dayOfMonth) + i * BLOCK,
    open: low,
    high,
    low,
    close: last ?? high,
    volume: 2,
  }))
  const [p] = tpoFromCandles(candles, { timeframe: '1d', tickSize: 1 })
  return p as TpoCandleProfile
}

/** Random days: 1..12 blocks of ranges within 0..40, volumes 0..50 per trade, tick 0.25 prices. */
export const randomTrades = fc
  .array(
    fc.record({
      block: fc.integer({ min: 0, max: 11 }),
      k: fc.integer({ min: 0, max: 40 }),
      v: fc.integer({ min: 0, max: 50 }),
      sell: fc.boolean(),
    }),
    { minLength: 1, maxLength: 50 },
  )
  .map((xs) =>
    xs.map(
      (x, i): Trade => ({
        time: T(9) + x.block * BLOCK + i,
        price: 5000 + x.k / 4,
        volume: x.v,
        side: x.sell ? 'sell' : 'buy',
      }),
    ),
  )

/** The TPO profile of random trades (tick 0.25). */
export function randomDay(trades: readonly Trade[]): TpoProfile {
  return tpoProfiles(trades, { timeframe: '1d', tickSize: '0.25' })[0] as TpoProfile
}

/** Trades of blocks from `start` (30 minutes each), as {@link dayTrades}, of one session type. */
export function sessionTrades(blocks: readonly BlockSpec[], start: number, session: Trade['session']): Trade[] {
  return dayTrades(blocks).map((t) => ({ ...t, time: t.time - T(9) + start, session }))
}

/** Prices mirrored about k / 2: price p becomes k - p (sides and times kept). */
export function mirrorTrades(trades: readonly Trade[], k: number): Trade[] {
  return trades.map((t) => ({ ...t, price: k - Number(t.price) }))
}
