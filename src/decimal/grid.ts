import { err, ok, type Result } from '../result.js'
import { formatFixed } from './format.js'
import { DECIMAL_MSG } from './messages.js'
import { parseDecimal } from './parse.js'
import { floorDivBig } from './units.js'
import type { DecimalInput } from './types.js'

/**
 * The lower bound of the grid row holding `price`: `floor(price / step) * step`, exact, anchored at 0,
 * negative prices floored (not truncated). Printed with the step's decimals.
 *
 * @param price - a decimal price
 * @param step - the grid step, a positive decimal
 * @returns `{ ok: true, value }`, or `{ ok: false, error }` naming the field and the rule
 * @throws never: bad input is answered, not thrown
 * @example
 * floorToGrid('0.07', '0.01') // { ok: true, value: '0.07' }
 * floorToGrid('-1.3', '0.5')  // { ok: true, value: '-1.5' }
 */
export function floorToGrid(price: DecimalInput, step: DecimalInput): Result<string, string> {
  const p = parseDecimal(price)
  if (!p.ok) return p
  const s = parseDecimal(step)
  if (!s.ok) return s
  if (s.value.units <= 0n) return err(DECIMAL_MSG.badStep(step))
  const scale = Math.max(p.value.scale, s.value.scale)
  const pu = p.value.units * 10n ** BigInt(scale - p.value.scale)
  const su = s.value.units * 10n ** BigInt(scale - s.value.scale)
  const row = floorDivBig(pu, su) * su
  return ok(formatFixed(row, scale, s.value.scale))
}
