// One live stream source: a security's trades folded by one library aggregator (candles of a frame, or a
// footprint of a frame and row size), shared by every connection that follows the same stream. It sends the
// open bucket as it changes (`update`, at most once a turn of the event loop) and each bucket as it closes
// (`closed`), to the members as one serialized text each.
import {
  bucketStart,
  createCandleAggregator,
  createFootprintAggregator,
  type Aggregator,
  type Candle,
  type FootprintProfile,
  type Trade,
} from '../../../src/index.js'
import { rangeTruncatedFrame } from '../../../src/service/index.js'
import { wireCandle, wireProfile } from '../rest.js'
import type { StoredSecurity } from '../store.js'
import type { FollowHandle, LiveFeed } from './live-feed.js'
import type { Subscription } from './protocol.js'

/** A connection following a channel: gets every frame as text. */
export interface Member {
  send(text: string): void
}

export interface Channel {
  readonly key: string
  readonly subscription: Subscription
  /** Resolves once the feed confirmed (rejects on a terminal upstream error). */
  readonly ready: Promise<void>
  readonly members: Set<Member>
  /** The `snapshot` frame: the open bucket now (`bucket: null` before the first trade of it). */
  snapshotText(): string
  /** Footprint: the earliest time the history endpoints answer for this stream (epoch ms). */
  since(): number | undefined
  /** Closes the buckets that ended at or before `time` (no trade needed), sending their `closed` frames. */
  advance(time: number): void
  /** Trades refused by the aggregator (late or malformed), for the logs. */
  readonly refused: number
  stop(): Promise<void>
}

/** The key of a subscription: connections with equal keys share one channel. */
export const channelKey = (s: Subscription): string =>
  [s.kind, s.exchange, s.symbol, s.timeframe.id, s.rowSize ?? ''].join('\u0000')

type Out = Candle | FootprintProfile

/** Opens a channel: the aggregator starts at the open bucket of `now`, fed from `feed` (history of that bucket first). */
export function openChannel(
  sub: Subscription,
  security: StoredSecurity,
  feed: LiveFeed,
  now: number,
  newestTime: number | undefined,
): Channel {
  const timeZone = security.exchange.timezone
  const tickSize = security.security.tickSize
  const agg: Aggregator<Trade, Out> =
    sub.kind === 'candles'
      ? createCandleAggregator({ timeframe: sub.timeframe, timeZone, tickSize })
      : createFootprintAggregator({ timeframe: sub.timeframe, timeZone, tickSize, rowSize: sub.rowSize ?? 1 })
  const wire = (b: Out): Record<string, unknown> =>
    sub.kind === 'candles' ? wireCandle(b as Candle) : wireProfile(b as FootprintProfile)
  const members = new Set<Member>()
  let refused = 0
  let newest = newestTime ?? now
  let since = sub.kind === 'footprint' ? rangeTruncatedFrame(newest, sub.timeframe).since : undefined
  let dirty = false
  let handle: FollowHandle | undefined
  let stopped = false

  const broadcast = (frame: object): void => {
    const text = JSON.stringify(frame)
    for (const m of members) m.send(text)
  }
  const open = (): Out | undefined => {
    const list = agg.snapshot()
    return list[list.length - 1]
  }
  const flush = (): void => {
    dirty = false
    if (stopped) return
    const b = open()
    if (b !== undefined) broadcast({ type: 'update', bucket: wire(b) })
  }
  const sendClosed = (closed: Out[]): void => {
    for (const b of closed) broadcast({ type: 'closed', bucket: wire(b) })
  }
  const start = bucketStart(now, sub.timeframe, { timeZone })
  const sink = (trades: readonly Trade[]): void => {
    if (stopped) return
    let last = -Infinity
    for (const t of trades) {
      // a feed may hand over trades of earlier buckets (JetStream starts by publish time): not this stream's
      if (t.time < start) continue
      try {
        agg.add(t)
        if (t.time > last) last = t.time
      } catch {
        refused++
      }
    }
    if (last === -Infinity) return
    sendClosed(agg.advance(last))
    if (last > newest) newest = last
    if (since !== undefined) {
      const r = rangeTruncatedFrame(newest, sub.timeframe, since)
      since = r.since
      if (r.frame !== undefined) broadcast(r.frame)
    }
    if (!dirty) {
      dirty = true
      setImmediate(flush)
    }
  }
  const ready = feed.follow(sub.exchange, sub.symbol, start, sink).then((h) => {
    handle = h
    if (stopped) void h.stop()
  })
  // a rejection is the caller's to handle (through `ready`); never an unhandled one here
  ready.catch(() => {})
  return {
    key: channelKey(sub),
    subscription: sub,
    ready,
    members,
    snapshotText: () => {
      const b = open()
      return JSON.stringify({ type: 'snapshot', bucket: b === undefined ? null : wire(b) })
    },
    since: () => since,
    advance(time) {
      if (!stopped && time > agg.watermark) sendClosed(agg.advance(time))
    },
    get refused() {
      return refused
    },
    async stop() {
      stopped = true
      members.clear()
      await handle?.stop()
    },
  }
}
