// The footprint row size rules a query is held to, derived from the price grid the aggregation builds
// (src/footprint/grid.ts) and the row index bound it keeps (src/profile/row-limit.ts): both constants are
// imported from there, so the parser and the aggregation cannot drift apart.
import { decimalToString, parseDecimal, type DecimalInput, type ExactDecimal } from '../decimal/index.js'
import { UNITS_LIMIT_BIG } from '../decimal/units.js'
import { MarketDataError } from '../errors.js'
import { unitsAt } from '../footprint/grid.js'
import { invalidArgumentError, type ApiError } from '../_lib/api-error.js'
import { checkOptions } from '../_lib/closed-options.js'
import { OPTION_MSG, PARAM_MSG } from './messages.js'
import type { HistoryRequest } from './types.js'

/**
 * Checks a row height that every price grid refuses, whatever the security's tick size: its units at its own
 * decimals reach 2^52 (a tick size can only add decimals, so no grid holds it). Used by `parseHistoryQuery`.
 */
export function rowSizeValueProblem(row: ExactDecimal): string | undefined {
  return row.units >= UNITS_LIMIT_BIG ? PARAM_MSG.rowSizeValueTooLarge(row.scale) : undefined
}

function tickOf(tickSize: unknown): ExactDecimal {
  const r = typeof tickSize === 'string' || typeof tickSize === 'number' ? parseDecimal(tickSize) : undefined
  // the tick size is the catalog's, not the client's: a bad one is a programming error
  if (r === undefined || !r.ok || r.value.units <= 0n || r.value.units >= UNITS_LIMIT_BIG) {
    throw new MarketDataError('invalid_option', OPTION_MSG.badTickSize(), { field: 'tickSize' })
  }
  return r.value
}

/**
 * Checks a parsed footprint request's row height against the security's tick size, before any data is read: the
 * rules the footprint aggregation applies to its price grid, so that a request passing here never fails there
 * on its row size.
 * - The grid's decimals are the more of the tick size's and the row height's; the row height in units at those
 *   decimals must stay below 2^52 (`rowSize` ticks or `rowSizeValue` alike).
 * - `rowSizeValue` must be at least the tick size: a row index (price / rowSizeValue) must stay within
 *   ±(2^53 - 1), and a row at least a tick high keeps it there for every price the security's tick grid holds
 *   (a finer row would refuse prices that default rows accept).
 *
 * Call it after the catalog look-up (the tick size is the security's), beside `trimToDepth` and `checkCap`.
 * Candle and TPO requests carry no row height: they always pass.
 *
 * @param request - a request from `parseHistoryQuery`
 * @param ctx - `tickSize`: the security's tick size (a positive decimal)
 * @returns the 400 `invalid_argument` error naming `rowSize` or `rowSizeValue` and the rule, or `undefined`
 * @throws `MarketDataError` `invalid_option` when `ctx.tickSize` is not a positive decimal whose units stay
 *   below 2^52 (the catalog's value, a programming error); never for the request's own values
 * @example
 * const r = parseHistoryQuery('footprint', { exchange: 'CME', symbol: 'ES', timeframe: '1h', rowSizeValue: '0.01' }, { now })
 * if (r.ok) checkRowSize(r.value, { tickSize: '0.25' })
 * // { status: 400, code: 'invalid_argument', message: 'rowSizeValue: must be at least the tick size 0.25 ...', parameter: 'rowSizeValue' }
 */
export function checkRowSize(request: HistoryRequest, ctx: { tickSize: DecimalInput }): ApiError | undefined {
  if (typeof ctx !== 'object' || ctx === null) {
    throw new MarketDataError('invalid_option', OPTION_MSG.badTickSize(), { field: 'tickSize' })
  }
  checkOptions(ctx, ['tickSize'], 'checkRowSize')
  const tick = tickOf(ctx.tickSize)
  if (request.endpoint !== 'footprint') return undefined
  const tickText = decimalToString(tick)
  if (request.rowSizeValue === undefined) {
    const k = request.rowSize ?? 1
    if (tick.units * BigInt(k) >= UNITS_LIMIT_BIG) {
      return invalidArgumentError(`rowSize: ${PARAM_MSG.rowSizeGrid(k, tickText, tick.scale)}`, 'rowSize')
    }
    return undefined
  }
  const parsed = parseDecimal(request.rowSizeValue)
  if (!parsed.ok || parsed.value.units <= 0n) {
    return invalidArgumentError(`rowSizeValue: ${PARAM_MSG.badDecimal(request.rowSizeValue)}`, 'rowSizeValue')
  }
  const row = parsed.value
  const decimals = Math.max(row.scale, tick.scale)
  if (unitsAt(row, decimals) < unitsAt(tick, decimals)) {
    return invalidArgumentError(`rowSizeValue: ${PARAM_MSG.rowSizeValueBelowTick(tickText)}`, 'rowSizeValue')
  }
  if (unitsAt(row, decimals) >= UNITS_LIMIT_BIG) {
    return invalidArgumentError(
      `rowSizeValue: ${PARAM_MSG.rowSizeValueGrid(request.rowSizeValue, tickText, decimals)}`,
      'rowSizeValue',
    )
  }
  return undefined
}
