// One security's running state in a worker: per session type, the library's 1m candle aggregator and 1m
// footprint aggregator at one-tick rows (each filtered to that session, so every stored minute equals the batch
// functions with `sessions: [that session]`), and the times of the open minute's first and last trade. All of
// it is one checkpoint (JSON text), restored exactly by the worker that takes the partition next.
//
// Every session's aggregators are advanced together to the security's clock (the start of the minute of its
// latest trade, or a partition clock), so a trade for a minute that closed is refused by the library as late in
// whichever session it comes, and a trade is applied to both aggregators or to neither.
import {
  type AggregatorCheckpoint,
  type Candle,
  createCandleAggregator,
  createFootprintAggregator,
  type FootprintAggregator,
  type FootprintProfile,
  type SessionType,
  type Trade,
} from '../../src/index.js'

export const MINUTE_MS = 60_000
/** The session of a trade without one. */
const MAIN: SessionType = 'MAINSESSION'

/** A closed minute of one security and session, as stored. */
export interface MinuteBar {
  exchange: string
  symbol: string
  session: SessionType
  /** Minute start, UTC epoch ms. */
  minute: number
  candle: Candle
  footprint: FootprintProfile
  /** Time of the minute's first trade (the earliest; the first given among equal times). */
  openTime: number
  /** Time of the minute's last trade (the latest; the last given among equal times). */
  closeTime: number
}

interface SessionAggs {
  candle: ReturnType<typeof createCandleAggregator>
  footprint: FootprintAggregator
  /** First and last trade times of each minute not closed yet (one, or two while a candle closes). */
  times: Map<number, { open: number; close: number }>
}

interface SessionCheckpoint {
  candle: AggregatorCheckpoint
  footprint: AggregatorCheckpoint
  /** `[minute, open, close]` of each minute not closed yet. */
  times: [number, number, number][]
}

/** What `checkpoint()` returns: JSON data. */
export interface SecurityCheckpoint {
  /** The clock every session is advanced to (`null`: none yet). */
  through: number | null
  sessions: Partial<Record<SessionType, SessionCheckpoint>>
}

/** Options every aggregator of a security gets. */
export interface SecurityOptions {
  exchange: string
  symbol: string
  tickSize: string
  /**
   * The latest trade time accepted now (UTC ms, inclusive): later ones are refused `out_of_range`. Asked again
   * when a trade is past the bound the aggregators have, so the bound moves with the caller's clock.
   */
  maxTime?: () => number
}

/** A security's aggregators: add trades, advance the clock, take closed minutes, checkpoint. */
export interface SecurityState {
  readonly exchange: string
  readonly symbol: string
  /** Applies one trade, or throws the library's `MarketDataError` having changed nothing. */
  add(trade: Trade): void
  /** Closes every minute that ends at or before `time`. */
  advance(time: number): void
  /** Minutes closed since the last call. */
  takeClosed(): MinuteBar[]
  checkpoint(): SecurityCheckpoint
}

/** A new security state, or one continued from `restore`. */
export function createSecurityState(opts: SecurityOptions, restore?: SecurityCheckpoint): SecurityState {
  const sessions = new Map<SessionType, SessionAggs>()
  let through: number | null = restore?.through ?? null
  let closed: MinuteBar[] = []
  // the bound the aggregators were made with (the library takes `maxTime` when an aggregator is made, and a
  // restore may give a new one: the checkpoint does not hold it)
  let bound = opts.maxTime?.()

  const make = (session: SessionType, from?: SessionCheckpoint): SessionAggs => {
    const shape = {
      timeframe: '1m' as const,
      tickSize: opts.tickSize,
      sessions: [session],
      ...(bound === undefined ? {} : { maxTime: bound }),
    }
    const s: SessionAggs = {
      candle: createCandleAggregator({ ...shape, ...(from === undefined ? {} : { restore: from.candle }) }),
      footprint: createFootprintAggregator({
        ...shape,
        rowSize: 1,
        ...(from === undefined ? {} : { restore: from.footprint }),
      }),
      times: new Map((from?.times ?? []).map(([m, open, close]) => [m, { open, close }])),
    }
    if (from === undefined && through !== null) {
      s.candle.advance(through)
      s.footprint.advance(through)
    }
    return s
  }
  if (restore !== undefined)
    for (const [k, v] of Object.entries(restore.sessions)) sessions.set(k as SessionType, make(k as SessionType, v))

  const sessionCheckpoint = (s: SessionAggs): SessionCheckpoint => ({
    candle: s.candle.checkpoint(),
    footprint: s.footprint.checkpoint(),
    times: [...s.times].map(([m, t]) => [m, t.open, t.close]),
  })

  /** Makes every aggregator again from its own checkpoint under a later bound, when that admits `time`. */
  const raiseBound = (time: number): void => {
    if (bound === undefined || time <= bound || opts.maxTime === undefined) return
    const now = opts.maxTime()
    // a trade past even the new bound is refused by the aggregators as they are
    if (time > now) return
    bound = now
    for (const [k, s] of sessions) sessions.set(k, make(k, sessionCheckpoint(s)))
  }

  const collect = (session: SessionType, s: SessionAggs, candles: Candle[], profiles: FootprintProfile[]): void => {
    if (candles.length !== profiles.length)
      throw new Error(
        `${opts.exchange}:${opts.symbol}: ${candles.length} candles closed beside ${profiles.length} footprints`,
      )
    for (let i = 0; i < candles.length; i++) {
      const c = candles[i]!
      const f = profiles[i]!
      const t = s.times.get(c.time)
      if (f.time !== c.time || t === undefined)
        throw new Error(
          `${opts.exchange}:${opts.symbol}: closed minute ${c.time} does not match its footprint or times`,
        )
      closed.push({
        exchange: opts.exchange,
        symbol: opts.symbol,
        session,
        minute: c.time,
        candle: c,
        footprint: f,
        openTime: t.open,
        closeTime: t.close,
      })
      s.times.delete(c.time)
    }
  }

  const advanceAll = (time: number): void => {
    if (through !== null && time <= through) return
    through = time
    for (const [session, s] of sessions) collect(session, s, s.candle.advance(time), s.footprint.advance(time))
  }

  return {
    exchange: opts.exchange,
    symbol: opts.symbol,
    add(trade) {
      raiseBound(trade.time)
      const session = trade.session ?? MAIN
      let s = sessions.get(session)
      const fresh = s === undefined
      if (s === undefined) s = make(session)
      // the candle aggregator refuses first (late, past maxTime, malformed): then nothing has changed
      s.candle.add(trade)
      s.footprint.add(trade)
      if (fresh) sessions.set(session, s)
      const minute = Math.floor(trade.time / MINUTE_MS) * MINUTE_MS
      const t = s.times.get(minute)
      if (t === undefined) s.times.set(minute, { open: trade.time, close: trade.time })
      else {
        if (trade.time < t.open) t.open = trade.time
        if (trade.time >= t.close) t.close = trade.time
      }
      advanceAll(minute)
    },
    advance: advanceAll,
    takeClosed() {
      const out = closed
      closed = []
      return out
    },
    checkpoint() {
      const out: SecurityCheckpoint = { through, sessions: {} }
      for (const [k, s] of sessions) out.sessions[k] = sessionCheckpoint(s)
      return out
    },
  }
}
