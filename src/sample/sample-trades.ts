import { formatFixed, formatUnits, POW10 } from '../decimal/index.js'
import { describeValue } from '../_lib/describe.js'
import { MarketDataError } from '../errors.js'
import type { Trade, TradeColumns } from '../trades/index.js'
import { SESSION_NAMES } from '../trades/index.js'
import { SampleGenerator, type ColumnsOut } from './generator.js'
import { SAMPLE_MSG } from './messages.js'
import { resolveSampleOptions, type ResolvedSample, type SampleOptions } from './options.js'

function allocate(n: number): ColumnsOut {
  return {
    time: new Float64Array(n),
    price: new Float64Array(n),
    volume: new Float64Array(n),
    side: new Uint8Array(n),
    session: new Uint8Array(n),
  }
}

/**
 * Deterministic synthetic trades in columns: a random walk on the tick grid with bursts, buy/sell
 * aggressors and three sessions per local trading day (pre-market 04:00-09:30, main 09:30-16:00,
 * post-market 16:00-20:00 in `timeZone`; session codes 1, 0, 2). Main sessions alternate trend and balanced
 * days by default. Times are non-decreasing integer epoch ms; every price is a whole number of ticks and
 * its shortest decimal form is exact. Same seed and options, same trades. At most 100,000,000 trades
 * (days × tradesPerDay; more throws `invalid_option`): {@link sampleTradeBatches} streams any number.
 *
 * @param opts - options, see {@link SampleOptions} (optional)
 * @returns the `TradeColumns`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * const cols = sampleTrades({ seed: 7, tradesPerDay: 10_000 })
 * cols.time.length // 10000
 */
export function sampleTrades(opts: SampleOptions = {}): TradeColumns {
  return materialize(resolveSampleOptions(opts), 'sampleTrades')
}

/** Most trades {@link sampleTrades} and {@link sampleTradeObjects} allocate; {@link sampleTradeBatches} streams any number. */
export const MAX_MATERIALIZED_TRADES = 100_000_000

function materialize(r: ResolvedSample, fn: string): ColumnsOut {
  const total = r.days * r.tradesPerDay
  if (total > MAX_MATERIALIZED_TRADES) {
    const field = r.tradesPerDay > MAX_MATERIALIZED_TRADES ? 'tradesPerDay' : 'days'
    throw new MarketDataError('invalid_option', SAMPLE_MSG.tooMany(fn, field, total, MAX_MATERIALIZED_TRADES), {
      field,
    })
  }
  const gen = new SampleGenerator(r)
  const out = allocate(gen.total)
  gen.fill(out, 0, gen.total)
  return out
}

/**
 * The same trades as {@link sampleTrades}, handed out in batches of `batchSize` columns (default 65,536;
 * the last batch may be shorter) in constant memory — for samples of hundreds of millions of trades.
 * Each batch is fresh arrays the caller may keep; with `reuse: true` every batch is written into one set
 * of arrays (views for a short last batch), valid until the next batch is requested — as an ingest loop
 * reading into one buffer would, with no garbage per batch.
 *
 * @param opts - options (see the type) (optional)
 * @returns the `Generator<TradeColumns, void, undefined>`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * let n = 0
 * for (const b of sampleTradeBatches({ days: 20, tradesPerDay: 5_000_000 })) n += b.time.length
 */
export function* sampleTradeBatches(
  opts: SampleOptions & { batchSize?: number; reuse?: boolean } = {},
): Generator<TradeColumns, void, undefined> {
  const batchSize = opts.batchSize ?? 65_536
  const r = resolveSampleOptions(opts, 'sampleTradeBatches', ['batchSize', 'reuse'])
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) {
    throw new MarketDataError(
      'invalid_option',
      `sampleTradeBatches: option \`batchSize\` must be an integer >= 1, got ${describeValue(batchSize)}`,
      { field: 'batchSize' },
    )
  }
  const gen = new SampleGenerator(r)
  let left = gen.total
  const shared = opts.reuse === true ? allocate(Math.min(batchSize, left)) : undefined
  while (left > 0) {
    const size = Math.min(batchSize, left)
    const out = shared ?? allocate(size)
    const m = gen.fill(out, 0, size)
    if (m === 0) return
    left -= m
    yield m === out.time.length
      ? out
      : {
          time: out.time.subarray(0, m),
          price: out.price.subarray(0, m),
          volume: out.volume.subarray(0, m),
          side: out.side.subarray(0, m),
          session: out.session.subarray(0, m),
        }
  }
}

/**
 * The same trades as {@link sampleTrades} as `Trade` objects with decimal strings: prices with the tick's
 * decimals (`"5000.25"`, `"5000.50"`), volumes in minimal form (`"3"`, `"0.01524287"`), and the session name.
 *
 * @param opts - options, see {@link SampleOptions} (optional)
 * @returns the `Trade[]`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * sampleTradeObjects({ tradesPerDay: 100 })[0] // { time: 1780302209223, price: '5000.25', volume: '1', side: 'buy', session: 'PRE_MARKET' }
 */
export function sampleTradeObjects(opts: SampleOptions = {}): Trade[] {
  const r = resolveSampleOptions(opts, 'sampleTradeObjects')
  const cols = materialize(r, 'sampleTradeObjects')
  const n = cols.time.length
  const out: Trade[] = new Array(n)
  const pow = POW10[r.scale]!
  const vpow = POW10[r.volumeDecimals]!
  const sess = cols.session!
  for (let i = 0; i < n; i++) {
    out[i] = {
      time: cols.time[i]!,
      price: formatFixed(Math.round(cols.price[i]! * pow), r.scale, r.scale),
      volume: formatUnits(Math.round(cols.volume[i]! * vpow), r.volumeDecimals),
      side: cols.side[i] === 1 ? 'buy' : 'sell',
      session: SESSION_NAMES[sess[i]!]!,
    }
  }
  return out
}
