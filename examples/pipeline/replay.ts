// Trades to replay onto the stream: many securities from the library's sample generator (or trades read from
// files with svc-marketdata/io, see publisher.ts), merged into one feed in time order, and the stream messages
// they become (subject, id, payload), followed by a clock message a partition that closes every minute.
import { columnsToTrades, type Trade, type TradeColumns } from '../../src/index.js'
import { sampleTrades } from '../../src/sample/index.js'
import { MINUTE_MS } from './security-state.js'
import {
  clockSubject,
  encodeClock,
  encodeTrade,
  partitionOf,
  type TradeMessage,
  tradeMessageId,
  tradeSubject,
} from './subjects.js'

/** A security to replay and its trades. */
export interface ReplaySecurity {
  exchange: string
  symbol: string
  tickSize: string
  trades: TradeColumns
}

/** Options of {@link sampleSecurities}. */
export interface SampleSecuritiesOptions {
  /** Number of securities. */
  securities: number
  /** Trades per security and day (three sessions a day). */
  tradesPerDay: number
  /** Days (default 1). */
  days?: number
  /** First day (default 2026-06-01 UTC). */
  start?: number
  /** Exchange code of every security (default `SIM`). */
  exchange?: string
}

/** `n` sample securities `S000`, `S001`, ... on one exchange, each with its own seed, tick size and price. */
export function sampleSecurities(opts: SampleSecuritiesOptions): ReplaySecurity[] {
  const ticks = ['0.01', '0.25', '0.5', '0.05']
  const out: ReplaySecurity[] = []
  for (let i = 0; i < opts.securities; i++) {
    const tickSize = ticks[i % ticks.length]!
    out.push({
      exchange: opts.exchange ?? 'SIM',
      symbol: `S${String(i).padStart(3, '0')}`,
      tickSize,
      trades: sampleTrades({
        seed: 1000 + i,
        start: opts.start ?? Date.UTC(2026, 5, 1),
        days: opts.days ?? 1,
        tradesPerDay: opts.tradesPerDay,
        tickSize,
        startPrice: String(100 + 7 * i),
        timeZone: 'America/New_York',
      }),
    })
  }
  return out
}

/** One message to publish: subject, JetStream message id and payload. */
export interface OutgoingMessage {
  subject: string
  id: string
  data: Uint8Array
  /** The trade's time (or the clock's), for pacing. */
  time: number
}

const toMessage = (s: ReplaySecurity, seq: number, t: Trade, partitions: number): OutgoingMessage => {
  const m: TradeMessage = {
    exchange: s.exchange,
    symbol: s.symbol,
    seq,
    time: t.time,
    price: String(t.price),
    volume: String(t.volume),
    side: t.side,
    ...(t.session === undefined ? {} : { session: t.session }),
  }
  return {
    subject: tradeSubject(s.exchange, s.symbol, partitions),
    id: tradeMessageId(s.exchange, s.symbol, seq),
    data: encodeTrade(m),
    time: t.time,
  }
}

/**
 * The feed: every security's trades merged in time order (ties by security, then source order), then one
 * clock message a partition at the end of the last minute, which closes every minute of the replay.
 */
export function replayMessages(securities: readonly ReplaySecurity[], partitions: number): OutgoingMessage[] {
  const all: { s: number; seq: number; t: Trade }[] = []
  securities.forEach((s, i) => {
    columnsToTrades(s.trades).forEach((t, seq) => {
      all.push({ s: i, seq, t })
    })
  })
  all.sort((a, b) => a.t.time - b.t.time || a.s - b.s || a.seq - b.seq)
  const out = all.map((x) => toMessage(securities[x.s]!, x.seq, x.t, partitions))
  out.push(...clockMessages(securities, partitions))
  return out
}

/** One clock message for each partition that holds a security: the end of the minute of the latest trade. */
export function clockMessages(securities: readonly ReplaySecurity[], partitions: number): OutgoingMessage[] {
  let last = 0
  for (const s of securities) {
    const n = s.trades.time.length
    if (n > 0) last = Math.max(last, s.trades.time[n - 1]!)
  }
  const end = (Math.floor(last / MINUTE_MS) + 1) * MINUTE_MS
  const used = new Set(securities.map((s) => partitionOf(s.exchange, s.symbol, partitions)))
  return [...used]
    .sort((a, b) => a - b)
    .map((p) => ({ subject: clockSubject(p), id: `clock:${p}:${end}`, data: encodeClock(end), time: end }))
}

/** The reference server's catalog securities that have sample data, with the trades its sample store makes. */
export function catalogSecurities(store: {
  all(): { security: { exchange: string; symbol: string; tickSize: string }; trades: TradeColumns }[]
}): ReplaySecurity[] {
  return store
    .all()
    .filter((s) => s.trades.time.length > 0)
    .map((s) => ({
      exchange: s.security.exchange,
      symbol: s.security.symbol,
      tickSize: s.security.tickSize,
      trades: s.trades,
    }))
}
