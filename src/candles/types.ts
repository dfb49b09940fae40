import type { DecimalInput } from '../decimal/index.js'
import type { TimeframeInput } from '../time/index.js'
import type { SessionType } from '../trades/index.js'

/**
 * A candle. `time` is the bucket start (UTC epoch ms; for tick frames the first trade's time). Prices are
 * the input's own spellings (first, max, min, last) unless a `tickSize` is given; `volume` and `value`
 * (sum of price x volume) are exact, minimal form; `trades` counts trades; `session` is the first
 * trade's (or first input candle's) session.
 */
export interface Candle {
  time: number
  open: string
  high: string
  low: string
  close: string
  volume: string
  value?: string
  trades?: number
  session?: SessionType
}

/** An input candle (for resampling and merging): decimals may be strings or numbers. */
export interface CandleInput {
  time: number
  open: DecimalInput
  high: DecimalInput
  low: DecimalInput
  close: DecimalInput
  volume: DecimalInput
  value?: DecimalInput
  trades?: number
  session?: SessionType
}

/**
 * Columnar candles, the fast resampling path: equal-length arrays, ascending `time`. `value`, `trades`
 * and `session` (0 MAIN, 1 PRE, 2 POST) are optional columns.
 */
export interface CandleColumns {
  time: Float64Array
  open: Float64Array
  high: Float64Array
  low: Float64Array
  close: Float64Array
  volume: Float64Array
  value?: Float64Array
  trades?: Float64Array
  session?: Uint8Array
}

/** Keys of {@link CandleOptions} (closed options: anything else is refused). */
export const CANDLE_OPTION_KEYS = ['timeframe', 'timeZone', 'sessions', 'tickSize'] as const

/** Keys of `candleColumnsFromTrades`' options: {@link CANDLE_OPTION_KEYS} and `valueText`. */
export const CANDLE_COLUMN_OPTION_KEYS = [...CANDLE_OPTION_KEYS, 'valueText'] as const

/** Keys of the resampling functions' options: {@link CANDLE_OPTION_KEYS} and `sourceTimeframe`. */
export const RESAMPLE_OPTION_KEYS = [...CANDLE_OPTION_KEYS, 'sourceTimeframe'] as const

/** Options of the candle functions. */
export interface CandleOptions {
  /** An id (`'15m'`, `'100t'`) or `{ unit, count }` with any count >= 1. Tick frames only for trades. */
  timeframe: TimeframeInput
  /** IANA zone the buckets align in (default `UTC`). */
  timeZone?: string
  /** Sessions to keep (default all three); records of other sessions are skipped (still validated). */
  sessions?: readonly SessionType[]
  /** When given, prices are printed with the grid's decimals (`0.25` -> `"5000.00"`); otherwise they keep the input's spelling. */
  tickSize?: DecimalInput
}

/**
 * The resampling functions' extra option: the frame of the input candles (same forms as `timeframe`).
 * Every target bucket must hold whole source buckets, checked per candle in `timeZone`, else
 * `MarketDataError` `incompatible`. Without it the frame is inferred from the smallest positive gap
 * between consecutive candle starts. Internal name: the public signatures spell it out.
 */
export interface SourceTimeframeOption {
  sourceTimeframe?: TimeframeInput
}

/** Interface A's `Decimal`. */
export interface PartnerDecimalValue {
  value: string
  scale: string
}

/** Interface A's Candle: `time` ISO 8601, decimals `{value, scale}`, `session_type` 0 | 1 | 2; fields outside `properties` are left out. */
export interface PartnerCandle {
  time: string
  open?: PartnerDecimalValue
  high?: PartnerDecimalValue
  low?: PartnerDecimalValue
  close?: PartnerDecimalValue
  value?: PartnerDecimalValue
  volume?: PartnerDecimalValue
  session_type?: number
}

/** Interface A candle property names (`properties` of ListCandles). */
export type CandleProperty = 'OPEN' | 'HIGH' | 'LOW' | 'CLOSE' | 'VALUE' | 'VOLUME' | 'SESSION_TYPE'
