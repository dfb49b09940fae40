import { describeValue } from '../_lib/describe.js'
import { MAX_TIME } from '../_lib/max-time.js'
import { MarketDataError } from '../errors.js'
import type { TradeColumns } from '../trades/index.js'
import { DEFAULT_START } from './options.js'
import { INV_2_32, mixSeed, nextUint32 } from './prng.js'
import { MAX_MATERIALIZED_TRADES } from './sample-trades.js'
import { checkOptions } from '../_lib/closed-options.js'

/**
 * Market shapes of {@link sampleMarketTrades}:
 * - `'busy-crypto'`: about 30 trades a second around 60,000 on a 0.01 tick, moves of 0-3 ticks, the previous
 *   price repeating about a third of the time, takers that fill several levels at once (bursts of 2-6
 *   trades in one millisecond, one side, walking the book), volumes with 8 decimals over four orders of
 *   magnitude (0.0001 to 1).
 * - `'thin-altcoin'`: about 5 trades a minute around 0.0014 with 8 price decimals (finer than a 0.000001
 *   footprint grid), the previous price repeating about a third of the time, volumes up to 100,000 with up
 *   to 8 decimals.
 */
export type SampleMarket = 'busy-crypto' | 'thin-altcoin'

/** Options of {@link sampleMarketTrades}; every field is optional (defaults in brackets). */
export interface SampleMarketOptions {
  /** PRNG seed [1], an integer 0..2^32 - 1. */
  seed?: number
  /** Number of trades [100,000], 1..100,000,000. */
  trades?: number
  /** Integer epoch ms of the first trade [Date.UTC(2026, 5, 1)]. */
  start?: number
}

interface Shape {
  /** Price decimals; prices are whole units of 10^-decimals. */
  decimals: number
  startUnits: number
  /** Mean time between trade events, ms (exponential gaps). */
  meanGapMs: number
  /** Chance that a trade repeats the previous price. */
  repeat: number
  /** Largest move in price units when the price moves (uniform 1..maxMove, either way). */
  maxMove: number
  /** Chance that an event is a taker burst of 2-6 trades walking the book. */
  burst: number
  /** Volume = 10^(u * volumeDecades) * volumeMin units of 1e-8, u uniform in [0, 1). */
  volumeMinUnits: number
  volumeDecades: number
}

const SHAPES: Record<SampleMarket, Shape> = {
  'busy-crypto': {
    decimals: 2,
    startUnits: 6_000_000,
    meanGapMs: 40,
    repeat: 0.36,
    maxMove: 3,
    burst: 0.06,
    volumeMinUnits: 10_000,
    volumeDecades: 4,
  },
  'thin-altcoin': {
    decimals: 8,
    startUnits: 140_000,
    meanGapMs: 12_000,
    repeat: 0.32,
    maxMove: 12,
    burst: 0,
    volumeMinUnits: 100_000_000,
    volumeDecades: 5,
  },
}

const VOLUME_DIV = 1e8

function bad(field: string, rule: string, v: unknown): MarketDataError {
  return new MarketDataError(
    'invalid_option',
    `sampleMarketTrades: ${field} must be ${rule}, got ${describeValue(v)}`,
    { field },
  )
}

function intOption(field: string, v: unknown, dflt: number, min: number, max: number): number {
  if (v === undefined) return dflt
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max)
    throw bad(field, `an integer ${min}..${max}`, v)
  return v
}

/**
 * Deterministic synthetic trades shaped like a real market (see {@link SampleMarket}), for benchmarks and
 * tests that must not flatter fast paths keyed to long runs of one price. Times are non-decreasing integer
 * epoch ms; every price and volume is the double nearest its decimal (its shortest form is the decimal), so
 * they read back exactly; none of these prices is an exact binary fraction. No session column (all main
 * session, as crypto trades around the clock).
 *
 * @param market - `'busy-crypto'` or `'thin-altcoin'`.
 * @param opts - seed, number of trades, start time.
 * @returns Trade columns: time, price, volume, side (1 buy, 2 sell).
 * @throws {MarketDataError} `invalid_option` naming `market`, `seed`, `trades` or `start` when out of range.
 * @example
 * const cols = sampleMarketTrades('thin-altcoin', { trades: 1_000 })
 * cols.price[0] // 0.0014
 */
export function sampleMarketTrades(market: SampleMarket, opts: SampleMarketOptions = {}): TradeColumns {
  const shape = typeof market === 'string' ? SHAPES[market as SampleMarket] : undefined
  if (shape === undefined || !Object.hasOwn(SHAPES, market))
    throw bad('market', `one of ${Object.keys(SHAPES).join(', ')}`, market)
  if (typeof opts !== 'object' || opts === null) throw bad('options', 'an object', opts)
  checkOptions(opts, ['seed', 'trades', 'start'], 'sampleMarketTrades')
  const seed = intOption('seed', opts.seed, 1, 0, 0xffffffff)
  const n = intOption('trades', opts.trades, 100_000, 1, MAX_MATERIALIZED_TRADES)
  const start = intOption('start', opts.start, DEFAULT_START, -MAX_TIME, MAX_TIME - 1e13)
  const s = new Int32Array([mixSeed(seed, market.length, shape.decimals)])
  const rnd = () => nextUint32(s, 0) * INV_2_32
  const div = 10 ** shape.decimals
  const out: TradeColumns = {
    time: new Float64Array(n),
    price: new Float64Array(n),
    volume: new Float64Array(n),
    side: new Uint8Array(n),
  }
  let t = start
  let units = shape.startUnits
  for (let i = 0; i < n; ) {
    t += Math.floor(-shape.meanGapMs * Math.log(1 - rnd()))
    const side = rnd() < 0.5 ? 1 : 2
    // a taker burst fills 2-6 consecutive levels in one millisecond; otherwise one trade
    const k = rnd() < shape.burst ? 2 + Math.floor(rnd() * 5) : 1
    for (let j = 0; j < k && i < n; j++, i++) {
      if (j > 0) units += side === 1 ? 1 : -1
      else if (rnd() >= shape.repeat) {
        const move = 1 + Math.floor(rnd() * shape.maxMove)
        // a slight pull back to the start keeps the walk near its level over millions of trades
        units += rnd() < (units > shape.startUnits ? 0.495 : 0.505) ? move : -move
        if (units < 1) units = 1
      }
      out.time[i] = t
      out.price[i] = units / div
      out.volume[i] = Math.floor(shape.volumeMinUnits * 10 ** (rnd() * shape.volumeDecades)) / VOLUME_DIV
      out.side[i] = side
    }
  }
  return out
}
