// Deterministic bench data from the library's seeded sample generator (src/sample), cached per process.
import { sampleTradeObjects, sampleTrades } from '../src/sample/index.js'
import type { SampleOptions } from '../src/sample/index.js'
import { SampleGenerator, type ColumnsOut } from '../src/sample/generator.js'
import { resolveSampleOptions } from '../src/sample/options.js'
import type { Trade, TradeColumns } from '../src/trades/index.js'

export const SEED = 42

/**
 * "ES": an index future, tick 0.25, whole-lot volumes, US sessions (pre 04:00, main 09:30, post 16:00-20:00
 * New York). 500,000 trades a day. Tick 0.25 is a power of two, so every price, volume and sum here is an
 * exact double: the float peers can be checked for exact equality on this data.
 */
export const ES: SampleOptions = {
  seed: SEED,
  tradesPerDay: 500_000,
  tickSize: '0.25',
  startPrice: '5000',
  volumeDecimals: 0,
  timeZone: 'America/New_York',
}

/** "Crypto": tick 0.01, volumes with 8 decimals (not exact doubles). 500,000 trades a day. */
export const CRYPTO: SampleOptions = {
  seed: SEED,
  tradesPerDay: 500_000,
  tickSize: '0.01',
  startPrice: '60000',
  volumeDecimals: 8,
  timeZone: 'America/New_York',
}

function daysFor(opts: SampleOptions, n: number): SampleOptions {
  const per = opts.tradesPerDay as number
  if (n % per !== 0) throw new Error(`bench data: ${n} is not a whole number of days of ${per} trades`)
  return { ...opts, days: n / per }
}

const cache = new Map<string, unknown>()
function cached<T>(key: string, make: () => T): T {
  let v = cache.get(key) as T | undefined
  if (v === undefined) {
    v = make()
    cache.set(key, v)
  }
  return v
}

/** n trades (a whole number of days) as columns. */
export function columns(opts: SampleOptions, n: number): TradeColumns {
  return cached(`cols:${JSON.stringify(opts)}:${n}`, () => sampleTrades(daysFor(opts, n)))
}

/** The same trades as objects with decimal strings. */
export function objects(opts: SampleOptions, n: number): Trade[] {
  return cached(`objs:${JSON.stringify(opts)}:${n}`, () => sampleTradeObjects(daysFor(opts, n)))
}

/**
 * The same trades again, but every batch is written into ONE reused set of arrays, as a real ingest loop
 * reading a socket or file into a buffer would: the stream then costs no memory of its own, so W6's peak
 * RSS is the aggregator's. (sampleTradeBatches hands out fresh arrays per batch, whose garbage would
 * dominate the peak.) Uses the sample generator's resumable core, so the trades are identical.
 */
export function* reusedBatches(
  opts: SampleOptions,
  n: number,
  batchSize = 65_536,
): Generator<TradeColumns, void, undefined> {
  const gen = new SampleGenerator(resolveSampleOptions(daysFor(opts, n)))
  const buf: ColumnsOut = {
    time: new Float64Array(batchSize),
    price: new Float64Array(batchSize),
    volume: new Float64Array(batchSize),
    side: new Uint8Array(batchSize),
    session: new Uint8Array(batchSize),
  }
  let left = gen.total
  while (left > 0) {
    const m = gen.fill(buf, 0, Math.min(batchSize, left))
    if (m === 0) return
    left -= m
    yield m === batchSize
      ? buf
      : {
          time: buf.time.subarray(0, m),
          price: buf.price.subarray(0, m),
          volume: buf.volume.subarray(0, m),
          side: buf.side.subarray(0, m),
          session: buf.session.subarray(0, m),
        }
  }
}

/** The first n records of columns, as views (no copy). */
export function prefix(c: TradeColumns, n: number): TradeColumns {
  if (n >= c.time.length) return c
  const out: TradeColumns = {
    time: c.time.subarray(0, n),
    price: c.price.subarray(0, n),
    volume: c.volume.subarray(0, n),
    side: c.side.subarray(0, n),
  }
  if (c.session !== undefined) out.session = c.session.subarray(0, n)
  return out
}

export function clearData(): void {
  cache.clear()
}

/** Human size: 10000000 -> "10M". */
export function human(n: number): string {
  if (n >= 1e6 && n % 1e5 === 0) return `${n / 1e6}M`
  if (n >= 1e3 && n % 100 === 0) return `${n / 1e3}k`
  return String(n)
}
