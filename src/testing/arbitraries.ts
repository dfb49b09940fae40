import fc from 'fast-check'
import type { CandleInput } from '../candles/index.js'
import {
  bucketEnd,
  bucketStart,
  resolveTimeframe,
  timeframeRank,
  type Timeframe,
  type TimeframeInput,
  type TimeUnit,
} from '../time/index.js'
import type { SessionType, Side, Trade, TradeColumns } from '../trades/index.js'
import { checkOptions } from '../_lib/closed-options.js'

/** Keys of {@link TradesArbOptions}. */
const TRADES_ARB_KEYS = [
  'tickSize',
  'offGrid',
  'start',
  'maxGapMs',
  'minLength',
  'maxLength',
  'sessions',
  'negativePrices',
  'numbers',
] as const

/** Zones the arbitraries draw from: UTC, whole-hour and half-hour DST zones, a southern-hemisphere zone, a fixed offset zone. */
export const TEST_TIME_ZONES: readonly string[] = [
  'UTC',
  'America/New_York',
  'Europe/London',
  'America/Sao_Paulo',
  'Australia/Lord_Howe',
  'Asia/Kolkata',
  'Europe/Berlin',
]

/**
 * An IANA zone name (see {@link TEST_TIME_ZONES}).
 *
 * @returns the `fc.Arbitrary<string>`
 * @throws never: bad input is answered, not thrown
 * @example fc.sample(timeZoneArb(), 1)
 */
export function timeZoneArb(): fc.Arbitrary<string> {
  return fc.constantFrom(...TEST_TIME_ZONES)
}

const UNIT_MAX: Record<TimeUnit, number> = { MINUTE: 240, HOUR: 48, DAY: 10, WEEK: 5, MONTH: 14, QUARTER: 5, YEAR: 3 }
const UNIT_LETTER: Record<TimeUnit, string> = {
  MINUTE: 'm',
  HOUR: 'h',
  DAY: 'd',
  WEEK: 'w',
  MONTH: 'M',
  QUARTER: 'Q',
  YEAR: 'y',
}

/**
 * A time frame object with any count (custom frames such as 90 minutes or 2 quarters), as interface A allows.
 *
 * @param opts - options (see the type) (optional)
 * @returns the `fc.Arbitrary<Timeframe>`
 * @throws never: bad input is answered, not thrown
 * @example fc.sample(timeframeArb({ units: ['MINUTE', 'HOUR'] }), 3)
 */
export function timeframeArb(opts: { units?: readonly TimeUnit[]; maxCount?: number } = {}): fc.Arbitrary<Timeframe> {
  checkOptions(opts, ['units', 'maxCount'], 'timeframeArb')
  const units = opts.units ?? (['MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR'] as const)
  return fc
    .constantFrom(...units)
    .chain((unit) =>
      fc
        .integer({ min: 1, max: opts.maxCount ?? UNIT_MAX[unit] })
        .map((count) => ({ id: `${count}${UNIT_LETTER[unit]}`, unit, count })),
    )
}

/** Options of {@link tradesArb}. */
export interface TradesArbOptions {
  /** Tick size as a decimal string; prices are whole ticks (default '0.25'). */
  tickSize?: string
  /** Also draw prices off the tick grid (one more decimal). Default false. */
  offGrid?: boolean
  /** First trade time (default 2026-05-29T00:00Z). */
  start?: number
  /** Largest gap between consecutive trades in ms (default 20 minutes). Gaps of 0 (equal times) occur. */
  maxGapMs?: number
  minLength?: number
  maxLength?: number
  /** Include `session` on some trades. Default true. */
  sessions?: boolean
  /** Allow negative prices. Default false. */
  negativePrices?: boolean
  /** Draw prices and volumes as numbers instead of decimal strings for some trades. Default true. */
  numbers?: boolean
}

function gridString(units: bigint, scale: number): string {
  const neg = units < 0n
  let d = (neg ? -units : units).toString()
  if (scale > 0) {
    if (d.length <= scale) d = '0'.repeat(scale - d.length + 1) + d
    d = `${d.slice(0, d.length - scale)}.${d.slice(d.length - scale)}`
  }
  return neg ? `-${d}` : d
}

function decimalsOfString(s: string): number {
  const i = s.indexOf('.')
  if (i < 0) return 0
  let end = s.length
  while (end > i + 1 && s[end - 1] === '0') end--
  return end - i - 1
}

/**
 * Time-ordered trades (non-decreasing `time`, equal times included) with prices on a tick grid,
 * volumes with up to 3 decimals (zero included), both sides and optional sessions.
 *
 * @param opts - options, see {@link TradesArbOptions} (optional)
 * @returns the `fc.Arbitrary<Trade[]>`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example fc.assert(fc.property(tradesArb(), (trades) => candlesFromTrades(trades, { timeframe: '1m' }).length <= trades.length))
 */
export function tradesArb(opts: TradesArbOptions = {}): fc.Arbitrary<Trade[]> {
  checkOptions(opts, TRADES_ARB_KEYS, 'tradesArb')
  const tick = opts.tickSize ?? '0.25'
  const tickScale = decimalsOfString(tick)
  const extra = opts.offGrid ? 1 : 0
  const scale = tickScale + extra
  const tickUnits =
    (BigInt(tick.replace('.', '')) * 10n ** BigInt(extra)) /
    10n ** BigInt((tick.indexOf('.') < 0 ? 0 : tick.length - tick.indexOf('.') - 1) - tickScale)
  const start = opts.start ?? Date.UTC(2026, 4, 29)
  const maxGap = opts.maxGapMs ?? 20 * 60_000
  const useNumbers = opts.numbers ?? true
  const sessionArb: fc.Arbitrary<SessionType | undefined> =
    opts.sessions === false
      ? fc.constant(undefined)
      : fc.constantFrom(undefined, 'MAINSESSION', 'PRE_MARKET', 'POST_MARKET')
  const one = fc.record({
    gap: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: maxGap }), fc.integer({ min: 0, max: 1000 })),
    // a narrow band often, so equal prices (ties, in different spellings) are common
    ticks: fc.oneof(
      fc.integer({ min: opts.negativePrices ? -2000 : 1, max: 40000 }),
      fc.integer({ min: 100, max: 104 }),
    ),
    off: fc.integer({ min: 0, max: extra ? 9 : 0 }),
    vol: fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: 100000n })),
    volScale: fc.integer({ min: 0, max: 3 }),
    side: fc.constantFrom<Side>('buy', 'sell'),
    session: sessionArb,
    asNumber: useNumbers ? fc.boolean() : fc.constant(false),
  })
  return fc.array(one, { minLength: opts.minLength ?? 0, maxLength: opts.maxLength ?? 60 }).map((rows) => {
    let t = start
    return rows.map((r) => {
      t += r.gap
      const priceUnits = BigInt(r.ticks) * tickUnits + BigInt(r.off)
      const price = gridString(priceUnits, scale)
      const volume = gridString(r.vol, r.volScale)
      const tr: Trade = {
        time: t,
        price: r.asNumber ? Number(price) : price,
        volume: r.asNumber ? Number(volume) : volume,
        side: r.side,
      }
      if (r.session !== undefined) tr.session = r.session
      return tr
    })
  })
}

/**
 * Columnar trades drawn like {@link tradesArb} (prices and volumes as numbers).
 *
 * @param opts - options, see {@link TradesArbOptions} (optional)
 * @returns the `fc.Arbitrary<TradeColumns>`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example fc.sample(tradeColumnsArb(), 1)[0].time.length
 */
export function tradeColumnsArb(opts: TradesArbOptions = {}): fc.Arbitrary<TradeColumns> {
  checkOptions(opts, TRADES_ARB_KEYS, 'tradeColumnsArb')
  return tradesArb(opts).map((trades) => {
    const n = trades.length
    const cols: TradeColumns = {
      time: new Float64Array(n),
      price: new Float64Array(n),
      volume: new Float64Array(n),
      side: new Uint8Array(n),
      session: new Uint8Array(n),
    }
    for (let i = 0; i < n; i++) {
      const t = trades[i] as Trade
      cols.time[i] = t.time
      cols.price[i] = Number(t.price)
      cols.volume[i] = Number(t.volume)
      cols.side[i] = t.side === 'buy' ? 1 : 2
      ;(cols.session as Uint8Array)[i] = t.session === 'PRE_MARKET' ? 1 : t.session === 'POST_MARKET' ? 2 : 0
    }
    return cols
  })
}

/**
 * Split points: sorted cut indexes in [0, n] for splitting a stream into consecutive parts.
 *
 * @param n - how many
 * @param maxParts - see the type (optional)
 * @returns the `fc.Arbitrary<number[]>`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example fc.sample(splitsArb(10), 1)[0] // e.g. [3, 7]: 0-4 sorted cut points in [0, 10]
 */
export function splitsArb(n: number, maxParts = 4): fc.Arbitrary<number[]> {
  return fc
    .array(fc.integer({ min: 0, max: n }), { maxLength: maxParts })
    .map((cuts) => [...cuts].sort((a, b) => a - b))
}

/** Options of {@link candleSeriesArb}. */
export interface CandleSeriesArbOptions {
  /** Frame of the series (default 1m): an id (`'1h'`) or `{ unit, count }`, as the library's options take. Candle times are its bucket starts in `timeZone`. */
  timeframe?: TimeframeInput
  timeZone?: string
  /** First time (rounded down to a bucket start). Default 2026-03-01T00:00Z (covers DST changes within weeks/months). */
  start?: number
  /** Most empty buckets between candles (default 3); gaps of 0 are common. */
  maxGapBuckets?: number
  maxLength?: number
  /** Tick size for prices (default '0.25'). */
  tickSize?: string
  /** Include `session` on some candles (default true). */
  sessions?: boolean
}

/**
 * A time-ordered candle series with gaps: times are consecutive (or skipped) bucket starts of the frame
 * in the zone; prices on a tick grid with low <= open, close <= high; volume, value and trades present.
 *
 * @param opts - options, see {@link CandleSeriesArbOptions} (optional)
 * @returns the `fc.Arbitrary<CandleInput[]>`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example fc.sample(candleSeriesArb({ timeframe: '1d', timeZone: 'America/New_York' }), 1)
 */
export function candleSeriesArb(opts: CandleSeriesArbOptions = {}): fc.Arbitrary<CandleInput[]> {
  checkOptions(
    opts,
    ['timeframe', 'timeZone', 'start', 'maxGapBuckets', 'maxLength', 'tickSize', 'sessions'],
    'candleSeriesArb',
  )
  const tf = resolveTimeframe(opts.timeframe ?? '1m', 'timeframe')
  const zone = opts.timeZone === undefined ? {} : { timeZone: opts.timeZone }
  const tick = opts.tickSize ?? '0.25'
  const scale = decimalsOfString(tick)
  const tickUnits = BigInt(Math.round(Number(tick) * 10 ** scale))
  const sessionArb: fc.Arbitrary<SessionType | undefined> =
    opts.sessions === false
      ? fc.constant(undefined)
      : fc.constantFrom(undefined, 'MAINSESSION', 'PRE_MARKET', 'POST_MARKET')
  const one = fc.record({
    gap: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: opts.maxGapBuckets ?? 3 })),
    a: fc.oneof(fc.integer({ min: 1, max: 4000 }), fc.integer({ min: 100, max: 103 })),
    b: fc.oneof(fc.integer({ min: 1, max: 4000 }), fc.integer({ min: 100, max: 103 })),
    o: fc.integer({ min: 0, max: 1000 }),
    c: fc.integer({ min: 0, max: 1000 }),
    vol: fc.bigInt({ min: 0n, max: 10_000_000n }),
    volScale: fc.integer({ min: 0, max: 3 }),
    trades: fc.integer({ min: 0, max: 500 }),
    session: sessionArb,
    asNumber: fc.boolean(),
  })
  return fc.array(one, { maxLength: opts.maxLength ?? 50 }).map((rows) => {
    let t = bucketStart(opts.start ?? Date.UTC(2026, 2, 1), tf, zone)
    const out: CandleInput[] = []
    for (const r of rows) {
      if (r.gap > 0) {
        // jump about `gap` buckets at once (nominal length), then align; always strictly forward
        const next = bucketStart(t + r.gap * timeframeRank(tf), tf, zone)
        t = next > t ? next : bucketEnd(t, tf, zone)
      }
      const lo = BigInt(Math.min(r.a, r.b))
      const hi = BigInt(Math.max(r.a, r.b))
      const span = hi - lo
      const open = lo + (span * BigInt(r.o)) / 1000n
      const close = lo + (span * BigInt(r.c)) / 1000n
      const p = (u: bigint) => gridString(u * tickUnits, scale)
      const volume = gridString(r.vol, r.volScale)
      // a plausible value: volume x a price between low and high, exact
      const valueUnits = r.vol * close * tickUnits
      const c: CandleInput = {
        time: t,
        open: r.asNumber ? Number(p(open)) : p(open),
        high: r.asNumber ? Number(p(hi)) : p(hi),
        low: r.asNumber ? Number(p(lo)) : p(lo),
        close: r.o % 2 === 0 ? Number(p(close)) : p(close),
        volume: r.asNumber ? Number(volume) : volume,
        value: gridString(valueUnits, r.volScale + scale),
        trades: r.trades,
      }
      if (r.session !== undefined) c.session = r.session
      out.push(c)
      t = bucketEnd(t, tf, zone)
    }
    return out
  })
}
