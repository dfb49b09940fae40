// A market store that grows: the history endpoints read it as they read any store, and the embedded live feed
// appends the trades it ingests, so a bucket a stream client saw close is the bucket `/candles` and
// `/footprint` answer afterwards. Columns grow by doubling; readers get views of the filled part.
import { SESSION_CODES, validateTrade, type Trade, type TradeColumns } from '../../../src/index.js'
import { createStore, type MarketStore, type StoredSecurity } from '../store.js'

/** A store whose securities' trades can be appended to (in time order, per security). */
export interface LiveStore extends MarketStore {
  /**
   * Appends trades of one security. Every trade is checked first (the library's `validateTrade`) and must not
   * be older than the security's newest trade; the first refused trade stops the call: the trades before it
   * stay appended. Returns the trades appended as the store holds them (prices and volumes as the numbers its
   * columns keep, so live aggregators see exactly what the history endpoints read) and, if one was refused, why.
   */
  append(s: StoredSecurity, trades: readonly unknown[]): { appended: Trade[]; error?: string }
}

interface Grow {
  cols: TradeColumns
  length: number
}

const SIDE_CODE = { buy: 1, sell: 2 } as const

function copyInto(target: TradeColumns, source: TradeColumns, n: number): void {
  target.time.set(source.time.subarray(0, n))
  target.price.set(source.price.subarray(0, n))
  target.volume.set(source.volume.subarray(0, n))
  target.side.set(source.side.subarray(0, n))
  target.session?.set(source.session?.subarray(0, n) ?? new Uint8Array(n))
}

function allocate(capacity: number): TradeColumns {
  return {
    time: new Float64Array(capacity),
    price: new Float64Array(capacity),
    volume: new Float64Array(capacity),
    side: new Uint8Array(capacity),
    session: new Uint8Array(capacity),
  }
}

function view(g: Grow): TradeColumns {
  const n = g.length
  return {
    time: g.cols.time.subarray(0, n),
    price: g.cols.price.subarray(0, n),
    volume: g.cols.volume.subarray(0, n),
    side: g.cols.side.subarray(0, n),
    session: g.cols.session!.subarray(0, n),
  }
}

/** A store over the base store's catalog and trades (its own security records: appends never touch `base`). */
export function liveStore(base: MarketStore): LiveStore {
  const own = createStore(
    base.catalog,
    new Map(base.all().map((s) => [s.security.guid, s.trades])),
    new Map(base.all().flatMap((s) => (s.dataFloor === undefined ? [] : [[s.security.guid, s.dataFloor] as const]))),
  )
  const grow = new Map<StoredSecurity, Grow>()
  const append: LiveStore['append'] = (s, trades) => {
    let g = grow.get(s)
    if (g === undefined) {
      const n = s.trades.time.length
      g = { cols: allocate(Math.max(1024, n * 2)), length: n }
      copyInto(g.cols, s.trades, n)
      grow.set(s, g)
    }
    const appended: Trade[] = []
    for (const x of trades) {
      const v = validateTrade(x, appended.length)
      if (!v.ok) return { appended, error: v.error.message }
      const t: Trade = v.value
      const last = g.length === 0 ? -Infinity : g.cols.time[g.length - 1]!
      if (t.time < last)
        return {
          appended,
          error: `time: ${t.time} is before the security's newest trade (${last}); trades come in time order`,
        }
      if (g.length === g.cols.time.length) {
        const bigger = allocate(g.length * 2)
        copyInto(bigger, g.cols, g.length)
        g.cols = bigger
      }
      const i = g.length++
      g.cols.time[i] = t.time
      const stored: Trade = {
        time: t.time,
        price: Number(t.price),
        volume: Number(t.volume),
        side: t.side,
        session: t.session ?? 'MAINSESSION',
      }
      g.cols.time[i] = stored.time
      g.cols.price[i] = stored.price as number
      g.cols.volume[i] = stored.volume as number
      g.cols.side[i] = SIDE_CODE[t.side]
      g.cols.session![i] = SESSION_CODES[stored.session!]
      appended.push(stored)
    }
    // readers (rest.ts) read `s.trades` and slice it through the store: give them the filled view
    s.trades = view(g)
    return { appended }
  }
  return { ...own, append }
}
