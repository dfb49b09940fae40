import { isArray } from '../_lib/describe.js'
import { invalidArgument, type Status } from './status.js'
import { field, readingJson } from '../rules/json-fields.js'
import { err, ok, type Result } from '../result.js'
import { formatUnits } from '../decimal/format.js'
import { DECIMAL_MSG } from '../decimal/messages.js'
import { parseDecimal } from '../decimal/parse.js'
import type { DecimalInput } from '../decimal/types.js'

/** Interface A `Decimal`: real value = value / scale. */
export interface PartnerDecimal {
  value: string
  scale: string
}

/**
 * Converts a decimal to interface A's `{value, scale}`, scale from the minimal form.
 *
 * @param x - the value to check: anything, never trusted
 * @returns `{ ok: true, value }`, or `{ ok: false, error }` naming the field and the rule
 * @throws never: bad input is answered, not thrown
 * @example toPartnerDecimal('123.45') // { ok: true, value: { value: '12345', scale: '100' } }
 */
export function toPartnerDecimal(x: DecimalInput): Result<PartnerDecimal, Status> {
  const d = parseDecimal(x)
  if (!d.ok) return err(invalidArgument(d.error))
  return ok({ value: d.value.units.toString(), scale: `1${'0'.repeat(d.value.scale)}` })
}

const isDigits = (s: string, allowMinus: boolean): boolean => {
  const start = allowMinus && s.charCodeAt(0) === 45 ? 1 : 0
  if (s.length === start || s.length > 400) return false
  for (let i = start; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 48 || c > 57) return false
  }
  return true
}

/**
 * Reads interface A's `{value, scale}` into a minimal decimal string. `scale` must be a power of ten >= 1;
 * `value` digits with an optional leading `-`.
 *
 * @param d - an exact decimal from `parseDecimal`
 * @returns `{ ok: true, value }`, or `{ ok: false, error }` naming the field and the rule
 * @throws never: bad input is answered, not thrown
 * @example fromPartnerDecimal({ value: '12340', scale: '100' }) // { ok: true, value: '123.4' }
 */
export function fromPartnerDecimal(d: unknown): Result<string, Status> {
  if (typeof d !== 'object' || d === null || isArray(d)) return err(invalidArgument(DECIMAL_MSG.notPartnerDecimal(d)))
  // own data properties, as every interface A body (a getter never runs); a Proxy whose traps throw is 3
  const read = readingJson('decimal', () => ok([field(d, 'value', 'decimal'), field(d, 'scale', 'decimal')]))
  if (!read.ok) return read
  const [value, scale] = read.value
  if (typeof value !== 'string' || typeof scale !== 'string')
    return err(invalidArgument(DECIMAL_MSG.notPartnerDecimal(d)))
  if (!isDigits(value, true)) return err(invalidArgument(DECIMAL_MSG.badValue(value)))
  if (!isDigits(scale, false) || !/^10*$/.test(scale)) return err(invalidArgument(DECIMAL_MSG.badScale(scale)))
  const p = parseDecimal(value)
  if (!p.ok) return err(invalidArgument(DECIMAL_MSG.badValue(value)))
  return ok(formatUnits(p.value.units, scale.length - 1))
}
