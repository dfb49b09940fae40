// Shape checks of column input (equal-length typed arrays of their kinds), and the clean-codes test of a
// slice of trade columns that lets the fast loops skip per-trade side and session tests.
import { MarketDataError } from '../errors.js'
import { validateTradeColumnsShape, type TradeColumns } from '../trades/index.js'
import { ALL_SESSION_CODES, codesKept, SIDE_CODES } from '../trades/codes.js'
import { TRADE_MSG } from '../trades/messages.js'
import { CANDLE_MSG } from './messages.js'
import type { CandleColumns } from './types.js'

/**
 * True when every side code of trades[from, to) is 1 or 2 and every session code is 0..2 and kept by
 * `mask` (all sessions kept, or no session column and the main session kept); `sideW` / `sessW` are the
 * columns' {@link codeWords}.
 */
export function codesClean(
  c: TradeColumns,
  sideW: Uint32Array | null,
  sessW: Uint32Array | null,
  from: number,
  to: number,
  mask: number,
): boolean {
  const SS = c.session
  if (SS === undefined ? (mask & 1) === 0 : (mask & 7) !== 7) return false
  return (
    codesKept(c.side, sideW, from, to, SIDE_CODES) &&
    (SS === undefined || codesKept(SS, sessW, from, to, ALL_SESSION_CODES))
  )
}

/** Throws `invalid_option` naming the field when trade columns are not equal-length typed arrays of their kinds. */
export function checkTradeColumns(c: TradeColumns): void {
  const r = validateTradeColumnsShape(c)
  if (!r.ok) throw r.error
}

/** Throws `invalid_option` naming the field when candle columns are not equal-length typed arrays. */
export function checkCandleColumns(cc: CandleColumns): void {
  // a column whose read throws (a getter, a Proxy trap, a revoked Proxy) is invalid_option naming it
  let f: keyof CandleColumns = 'time'
  try {
    if (typeof cc !== 'object' || cc === null || !(cc.time instanceof Float64Array))
      throw new MarketDataError('invalid_option', CANDLE_MSG.notColumns('time', 'Float64Array'), { field: 'time' })
    const n = cc.time.length
    for (f of ['open', 'high', 'low', 'close', 'volume', 'value', 'trades'] as const) {
      const a = cc[f]
      if (a === undefined && (f === 'value' || f === 'trades')) continue
      if (!(a instanceof Float64Array) || a.length !== n)
        throw new MarketDataError('invalid_option', CANDLE_MSG.notColumns(f, 'Float64Array'), { field: f })
    }
    f = 'session'
    if (cc.session !== undefined && (!(cc.session instanceof Uint8Array) || cc.session.length !== n))
      throw new MarketDataError('invalid_option', CANDLE_MSG.notColumns('session', 'Uint8Array'), { field: 'session' })
  } catch (e) {
    throw e instanceof MarketDataError
      ? e
      : new MarketDataError('invalid_option', TRADE_MSG.readThrew(f, e), { field: f })
  }
}
