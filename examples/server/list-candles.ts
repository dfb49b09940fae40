// Partner ListCandles with bounded work: at most MAX_LIST_CANDLES candles per call (the first ones in the
// request's direction; the status message says where to continue), and the computation done in chunks that
// yield to the event loop (one-minute base candles, resampling, conversion to partner candles and JSON), so
// a heavy request delays a cheap one by one chunk at most.
import { bucketEnd, bucketStart, createCandleAggregator, sliceTradeColumns, type Candle } from '../../src/index.js'
import { notFound, statusOk, toPartnerCandles, validateListCandlesRequest } from '../../src/service/index.js'
import { RawBody } from './http.js'
import { securityById, type MarketStore, type StoredSecurity } from './store.js'
import { yieldToLoop } from './work-queue.js'

/** Most candles one ListCandles call answers (a decision: docs/decisions/0202). */
export const MAX_LIST_CANDLES = 5000
/** Trades, minute candles or output candles handled between two yields. */
const CHUNK = 4096
const OUT_CHUNK = 500

/** What ListCandles needs from the server. */
export interface ListCandlesContext {
  store: MarketStore
  /** Cached one-minute candles per security GUID (the base every frame resamples), computed once. */
  minuteCandles: Map<string, Promise<Candle[]>>
}

function lowerBound(c: readonly Candle[], t: number): number {
  let lo = 0
  let hi = c.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (c[mid]!.time < t) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** One-minute candles of a security from its trades, in chunks. */
async function computeMinutes(s: StoredSecurity): Promise<Candle[]> {
  const agg = createCandleAggregator({ timeframe: '1m', tickSize: s.security.tickSize })
  const n = s.trades.time.length
  const out: Candle[] = []
  for (let at = 0; at < n; at += CHUNK) {
    agg.addColumns(sliceTradeColumns(s.trades, at, Math.min(n, at + CHUNK)))
    for (const c of agg.take()) out.push(c)
    await yieldToLoop()
  }
  for (const c of agg.finish()) out.push(c)
  return out
}

function minutes(ctx: ListCandlesContext, s: StoredSecurity): Promise<Candle[]> {
  let p = ctx.minuteCandles.get(s.security.guid)
  if (p === undefined) {
    p = computeMinutes(s)
    ctx.minuteCandles.set(s.security.guid, p)
  }
  return p
}

/** ListCandles: the answer body (the candles already serialized) for a parsed JSON request body. */
export async function listCandles(ctx: ListCandlesContext, body: unknown): Promise<unknown> {
  const v = validateListCandlesRequest(body)
  if (!v.ok) return { status: v.error, candles: [] }
  const q = v.value
  const s = securityById(ctx.store, q.securityId)
  if (s === undefined) return { status: notFound(), candles: [] }
  const base = await minutes(ctx, s)
  const zone = s.exchange.timezone
  const first = base[0]
  const last = base[base.length - 1]
  const want = Math.min(q.limit ?? MAX_LIST_CANDLES, MAX_LIST_CANDLES)
  let out: Candle[] = []
  let more = false
  if (first !== undefined && last !== undefined) {
    // The candles whose time (bucket start) lies in [from, to), each whole (ListCandlesQuery's contract): read
    // the minutes from the first bucket starting at or after `from` to the end of the bucket holding `to - 1`.
    const opts = { timeZone: zone }
    const fromBucket = bucketStart(q.from, q.timeframe, opts)
    const firstStart = fromBucket < q.from ? bucketEnd(q.from, q.timeframe, opts) : fromBucket
    const readFrom = Math.max(first.time, firstStart)
    const readTo = q.to > last.time ? last.time + 1 : bucketEnd(q.to - 1, q.timeframe, opts)
    const a = readFrom < readTo ? lowerBound(base, readFrom) : 0
    const b = readFrom < readTo ? lowerBound(base, readTo) : 0
    // the base candles are 1m candles with gaps where nothing traded: said, so a gap is not taken for their length
    const agg = createCandleAggregator({
      timeframe: q.timeframe,
      sourceTimeframe: '1m',
      timeZone: zone,
      sessions: q.sessionTypes,
    })
    for (let at = a; at < b; at += CHUNK) {
      agg.addCandles(base, at, Math.min(b, at + CHUNK))
      for (const c of agg.take()) out.push(c)
      // forward: once one candle more than wanted is closed, the rest of the range is not needed
      if (q.direction === 'forward' && out.length > want) break
      if (q.direction === 'backward' && out.length > 2 * want) out = out.slice(out.length - want - 1)
      await yieldToLoop()
    }
    if (!(q.direction === 'forward' && out.length > want)) for (const c of agg.finish()) out.push(c)
    const total = out.length
    out = q.direction === 'forward' ? out.slice(0, want) : out.slice(Math.max(0, out.length - want))
    more = total > want && want === MAX_LIST_CANDLES && (q.limit === undefined || q.limit > MAX_LIST_CANDLES)
  }
  const parts: string[] = []
  for (let at = 0; at < out.length; at += OUT_CHUNK) {
    const chunk = toPartnerCandles(out.slice(at, at + OUT_CHUNK), { properties: q.properties })
    parts.push(JSON.stringify(chunk).slice(1, -1))
    await yieldToLoop()
  }
  const edge = out.length === 0 ? undefined : q.direction === 'forward' ? out[out.length - 1]! : out[0]!
  const status = more && edge !== undefined ? statusOk(truncatedMessage(q.direction, edge.time)) : statusOk()
  return new RawBody(`{"status":${JSON.stringify(status)},"candles":[${parts.filter((p) => p !== '').join(',')}]}`)
}

/** The status message of a capped answer: how many, and where the next call starts. */
export function truncatedMessage(direction: 'forward' | 'backward', edge: number): string {
  const where =
    direction === 'forward' ? `after ${new Date(edge).toISOString()}` : `before ${new Date(edge).toISOString()}`
  return `the first ${MAX_LIST_CANDLES} candles in the range's direction (the most one call answers); ask again for the candles ${where}`
}
