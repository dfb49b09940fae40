import { parseDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import type { Trade, TradeColumns } from '../trades/index.js'
import { TPO_MSG, show } from './messages.js'

/**
 * A decimal input as the double that carries it exactly (its shortest round-trip form is the same
 * decimal), or NaN when it is not a decimal or a double cannot carry it (more than 15 significant
 * digits that do not survive). Strings of at most 15 significant digits take a fast path.
 */
export function exactDouble(x: unknown): number {
  if (typeof x === 'number') return x === 0 ? 0 : x
  if (typeof x !== 'string') return Number.NaN
  const n = x.length
  if (n === 0 || n > 400) return Number.NaN
  let i = x.charCodeAt(0) === 45 ? 1 : 0
  let intDigits = 0
  let fracDigits = 0
  let dot = false
  let first = -1
  let last = -1
  for (let k = 0; i < n; i++, k++) {
    const c = x.charCodeAt(i)
    if (c >= 48 && c <= 57) {
      if (dot) fracDigits++
      else intDigits++
      if (c !== 48) {
        if (first < 0) first = k
        last = k
      }
    } else if (c === 46 && !dot) {
      dot = true
      k--
    } else return Number.NaN
  }
  if (intDigits === 0 || (dot && fracDigits === 0)) return Number.NaN
  const v = Number(x)
  if (first < 0 || last - first < 15) return v === 0 ? 0 : v
  const a = parseDecimal(x)
  const b = parseDecimal(v)
  if (!a.ok || !b.ok || a.value.units !== b.value.units || a.value.scale !== b.value.scale) return Number.NaN
  return v
}

/** Reusable columns for converting trade objects in chunks. */
export function scratchColumns(n: number): Required<TradeColumns> {
  return { time: new Float64Array(n), price: new Float64Array(n), volume: new Float64Array(n), side: new Uint8Array(n), session: new Uint8Array(n) }
}

/**
 * Writes trade `t` into row `k` of scratch columns; throws `MarketDataError` naming `index` and the
 * field for what the columnar loop cannot check itself (object shape, strings, side and session names).
 */
export function writeTrade(t: Trade, c: Required<TradeColumns>, k: number, index: number): void {
  if (typeof t !== 'object' || t === null) throw new MarketDataError('invalid_option', `trade: ${show(t)} is not a trade object {time, price, volume, side, session?}`, { index, field: 'trade' })
  const time = t.time
  c.time[k] = typeof time === 'number' ? time : Number.NaN
  const p = exactDouble(t.price)
  if (p !== p) throw new MarketDataError('invalid_decimal', TPO_MSG.price(t.price, 'a decimal a double carries exactly: digits with an optional - and .; at most 15 significant digits are always safe'), { index, field: 'price' })
  c.price[k] = p
  const v = exactDouble(t.volume)
  if (v !== v) throw new MarketDataError('invalid_volume', TPO_MSG.volume(t.volume), { index, field: 'volume' })
  c.volume[k] = v
  const s = t.side
  if (s === 'buy') c.side[k] = 1
  else if (s === 'sell') c.side[k] = 2
  else throw new MarketDataError('invalid_side', `side: ${show(s)} is not a side: expected 'buy' or 'sell'`, { index, field: 'side' })
  const ss = t.session
  if (ss === undefined || ss === 'MAINSESSION') c.session[k] = 0
  else if (ss === 'PRE_MARKET') c.session[k] = 1
  else if (ss === 'POST_MARKET') c.session[k] = 2
  else throw new MarketDataError('invalid_session', `session: ${show(ss)} is not a session: expected 'MAINSESSION', 'PRE_MARKET' or 'POST_MARKET' (or none)`, { index, field: 'session' })
}
