import type { Timeframe } from '../time/index.js'
import type { SessionType } from '../trades/types.js'

/** The interface B history endpoints that take a range: `GET /candles`, `/footprint`, `/tpo`. */
export type HistoryEndpoint = 'candles' | 'footprint' | 'tpo'

/**
 * Every priced interface B endpoint, by the name {@link priceOf} takes:
 * `candles`, `footprint`, `tpo`, `row-size-scale` (`/footprint/row-size-scale`), `search`, `exchanges`,
 * `securities` (`/exchanges/{exchange}/securities`), `security` (`/exchanges/{exchange}/securities/{symbol}`),
 * `timeframes`.
 */
export type RestEndpoint =
  | HistoryEndpoint
  | 'row-size-scale'
  | 'search'
  | 'exchanges'
  | 'securities'
  | 'security'
  | 'timeframes'

/** The names of {@link RestEndpoint}, in the service's order. */
export const REST_ENDPOINTS: readonly RestEndpoint[] = [
  'candles',
  'timeframes',
  'footprint',
  'row-size-scale',
  'tpo',
  'search',
  'exchanges',
  'securities',
  'security',
]

/** Which end of a resolved range is pinned (the end `limit` and default windows count from). */
export type PinnedEnd = 'from' | 'to'

/** Fields every resolved history request has. Times are UTC epoch ms; the range is half-open `[from, to)`. */
export interface HistoryRequestBase {
  endpoint: HistoryEndpoint
  exchange: string
  symbol: string
  timeframe: Timeframe
  /** Inclusive start (UTC ms). `0` (1970-01-01) when the range is open at its start (candles with `to` only). */
  from: number
  /** Exclusive end (UTC ms). `from < to` unless `empty`, then `from === to`. */
  to: number
  /** `from` whenever `from` was given; otherwise `to` (given, or `now`). */
  pinned: PinnedEnd
  /** Selected sessions, de-duplicated, in code order (MAINSESSION, PRE_MARKET, POST_MARKET); all three by default. */
  sessionTypes: SessionType[]
  /** Time zone bucket alignment uses (`ctx.timeZone`, default `UTC`). */
  timeZone: string
  /** True when nothing is left to read (candles `from >= now`, or a range ending before the history start). Costs 1,000. */
  empty: boolean
}

/** A resolved `GET /candles` request. */
export interface CandlesHistoryRequest extends HistoryRequestBase {
  endpoint: 'candles'
  /** Most candles to return, 1..10000 (default 1000), counted from the pinned end. */
  limit: number
  /** `forward`: the first `limit` candles from `from`; `backward`: the last `limit` candles before `to`. */
  direction: 'forward' | 'backward'
}

/** A resolved `GET /footprint` request. Exactly one of `rowSize` (ticks, default 1) and `rowSizeValue` is set. */
export interface FootprintHistoryRequest extends HistoryRequestBase {
  endpoint: 'footprint'
  rowSize?: number
  /** Absolute row height, minimal decimal form (`"0.5"`). */
  rowSizeValue?: string
  /** Set by {@link trimToDepth} when depth or the data floor trimmed `from`: the real start of the first profile. */
  profileStart?: number
}

/** A resolved `GET /tpo` request. */
export interface TpoHistoryRequest extends HistoryRequestBase {
  endpoint: 'tpo'
  /** Block timeframe (minute or hour frame; default `30m`); pass `blockSize.id` to `tpoProfiles`. */
  blockSize: Timeframe
  /** `MERGE_ALL` (default; one profile per period) or `GROUP_BY_TYPE` (one per session type per period). */
  mergeSessions: 'MERGE_ALL' | 'GROUP_BY_TYPE'
  /** Set by {@link trimToDepth} when the data floor trimmed `from`: the real start of the first profile. */
  profileStart?: number
}

/** A resolved interface B history request (the result of {@link parseHistoryQuery}). */
export type HistoryRequest = CandlesHistoryRequest | FootprintHistoryRequest | TpoHistoryRequest

/** What {@link parseHistoryQuery} needs from the caller: the clock and, optionally, the zone buckets align in. */
export interface HistoryQueryContext {
  /** Current time, UTC epoch ms. */
  now: number
  /** IANA zone for bucket alignment of default windows and caps (default `UTC`). */
  timeZone?: string
}
