// The in-memory market data store: trades per security in columns, sorted by time, as a real server would
// read them from its own storage. Reading a range is a binary search and a zero-copy slice.
import { sampleTrades } from '../../src/sample/index.js'
import { sliceTradeColumns, type TradeColumns } from '../../src/index.js'
import type { SecurityId } from '../../src/service/index.js'
import { defaultCatalog, type Catalog, type CatalogSecurity, type Exchange } from './catalog.js'

const DAY_MS = 86_400_000

/** The storage behind the store failed (a real server's database or upstream): answered 503 `unavailable`, never billed. */
export class StoreUnavailable extends Error {}

/** A security with its data. */
export interface StoredSecurity {
  security: CatalogSecurity
  exchange: Exchange
  /** Trades sorted by time; empty when the security has no data. */
  trades: TradeColumns
  /** The first time its footprint and TPO answers cover; the service's data floor when absent. */
  dataFloor?: number
}

/** What the handlers read: the catalog and the trades. */
export interface MarketStore {
  catalog: Catalog
  exchange(code: string): Exchange | undefined
  /** A security by exchange code and symbol. */
  security(exchange: string, symbol: string): StoredSecurity | undefined
  /** A security by GUID. */
  byGuid(guid: string): StoredSecurity | undefined
  /** Securities listed on an exchange, in catalog order. */
  listed(exchange: string): StoredSecurity[]
  /** All securities. */
  all(): StoredSecurity[]
  /** Trades with `from <= time < to` (a view, not a copy). */
  tradesIn(s: StoredSecurity, from: number, to: number): TradeColumns
  /** Time of the newest trade, `undefined` without data. */
  newest(s: StoredSecurity): number | undefined
  /** `false` when the trades are rebuilt from minute aggregates (tick frames then refused); default true. */
  tickFrames?: boolean
}

/** The security a partner SecurityId names (by GUID or by ticker and exchange code). */
export function securityById(store: MarketStore, id: SecurityId): StoredSecurity | undefined {
  return 'guid' in id ? store.byGuid(id.guid) : store.security(id.ticker_code.exchange_code, id.ticker_code.ticker)
}

/** First index whose time is >= t (times ascending). */
function lowerBound(time: Float64Array, t: number): number {
  let lo = 0
  let hi = time.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (time[mid]! < t) lo = mid + 1
    else hi = mid
  }
  return lo
}

const EMPTY: TradeColumns = {
  time: new Float64Array(0),
  price: new Float64Array(0),
  volume: new Float64Array(0),
  side: new Uint8Array(0),
  session: new Uint8Array(0),
}

/** Stores made by {@link createStore}: their data is plain columns, which worker threads can share. */
const plainStores = new WeakSet<MarketStore>()

/** Whether `store` is one {@link createStore} made (not wrapped): what the REST worker pool can serve from. */
export const isPlainStore = (store: MarketStore): boolean => plainStores.has(store)

/** Builds a store from a catalog and the trades of each security (by GUID; securities without trades have no data). */
export function createStore(
  catalog: Catalog,
  trades: ReadonlyMap<string, TradeColumns>,
  floors: ReadonlyMap<string, number> = new Map(),
): MarketStore {
  const exchanges = new Map(catalog.exchanges.map((e) => [e.code, e]))
  const list: StoredSecurity[] = []
  const byKey = new Map<string, StoredSecurity>()
  const byGuid = new Map<string, StoredSecurity>()
  for (const security of catalog.securities) {
    const exchange = exchanges.get(security.exchange)
    if (exchange === undefined)
      throw new Error(`catalog: security ${security.symbol} names unknown exchange ${security.exchange}`)
    const s: StoredSecurity = { security, exchange, trades: trades.get(security.guid) ?? EMPTY }
    const floor = floors.get(security.guid)
    if (floor !== undefined) s.dataFloor = floor
    list.push(s)
    byKey.set(`${security.exchange}\u0000${security.symbol}`, s)
    byGuid.set(security.guid, s)
  }
  const store: MarketStore = {
    catalog,
    exchange: (code) => exchanges.get(code),
    security: (exchange, symbol) => byKey.get(`${exchange}\u0000${symbol}`),
    byGuid: (guid) => byGuid.get(guid),
    listed: (exchange) => list.filter((s) => s.security.exchange === exchange),
    all: () => list.slice(),
    tradesIn(s, from, to) {
      const t = s.trades.time
      const a = lowerBound(t, from)
      const b = Math.max(a, lowerBound(t, to))
      return sliceTradeColumns(s.trades, a, b)
    },
    newest(s) {
      const n = s.trades.time.length
      return n === 0 ? undefined : s.trades.time[n - 1]
    },
  }
  plainStores.add(store)
  return store
}

/** Options of the sample store. */
export interface SampleStoreOptions {
  /** The clock at start: data covers every day of the `days` days ending at it; nothing at or after it. */
  now: number
  /** Number of days (default 60). */
  days?: number
  /** Trades per security and day (default 3000). */
  tradesPerDay?: number
  catalog?: Catalog
}

/**
 * The sample store: for every catalog security with a `sample` entry, the library's generator makes three
 * sessions a day in its exchange's zone over the `days` days ending at `now`; trades at or after `now` are
 * dropped (the future has not traded yet).
 */
export function sampleStore(opts: SampleStoreOptions): MarketStore {
  const catalog = opts.catalog ?? defaultCatalog()
  const days = opts.days ?? 60
  const start = Math.floor(opts.now / DAY_MS) * DAY_MS - (days - 1) * DAY_MS
  const zones = new Map(catalog.exchanges.map((e) => [e.code, e.timezone]))
  const trades = new Map<string, TradeColumns>()
  for (const s of catalog.securities) {
    if (s.sample === undefined) continue
    const cols = sampleTrades({
      seed: s.sample.seed,
      start,
      days,
      tradesPerDay: opts.tradesPerDay ?? 3000,
      tickSize: s.tickSize,
      startPrice: s.sample.startPrice,
      timeZone: zones.get(s.exchange) ?? 'UTC',
    })
    const end = lowerBound(cols.time, opts.now)
    trades.set(s.guid, end === cols.time.length ? cols : sliceTradeColumns(cols, 0, end))
  }
  return createStore(catalog, trades)
}
