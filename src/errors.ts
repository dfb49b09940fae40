/** Codes carried by {@link MarketDataError}. */
export type MarketDataErrorCode =
  | 'invalid_decimal'
  | 'invalid_time'
  | 'invalid_side'
  | 'invalid_session'
  | 'invalid_volume'
  | 'invalid_option'
  | 'out_of_order'
  | 'late_record'
  | 'grid_mismatch'
  | 'incompatible'
  | 'inexact'
  | 'out_of_range'
  | 'invalid_record'

/**
 * The one error class aggregators throw for malformed records or options. It names the field, the
 * rule and, for records, the index of the offending record.
 *
 * @example
 * try { candlesFromTrades([{ time: NaN, price: 1, volume: 1, side: 'buy' }], { timeframe: '1m' }) }
 * catch (e) { if (e instanceof MarketDataError) console.log(e.code, e.index, e.field) }
 */
export class MarketDataError extends Error {
  readonly code: MarketDataErrorCode
  readonly index: number | undefined
  readonly field: string | undefined
  /**
   * Set when a batch call of an aggregator (`addTrades`, `addColumns`, ...) throws: how many records of
   * that call were applied before the refused one (which changed nothing). Resume at that index (after
   * `from` for calls that take one) to neither lose nor double count a record.
   */
  applied: number | undefined = undefined

  constructor(code: MarketDataErrorCode, message: string, details: { index?: number; field?: string } = {}) {
    super(details.index !== undefined ? `record ${details.index}: ${message}` : message)
    this.name = 'MarketDataError'
    this.code = code
    this.index = details.index
    this.field = details.field
  }
}
