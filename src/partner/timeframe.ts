// Interface A's `time_frame` read into the library's Timeframe.
import { isArray } from '../_lib/describe.js'
import { err, ok, type Result } from '../result.js'
import { field, readingJson } from '../rules/json-fields.js'
import { PARTNER_UNITS, timeframeId, type Timeframe, type TimeUnit } from '../time/index.js'
import { invalidArgument, type Status } from './status.js'

/**
 * Reads interface A's `time_frame` (`{time_unit, count?}`): any count >= 1 (default 1) of MINUTE..YEAR.
 *
 * @param tf - the timeframe
 * @returns `{ ok: true, value }`, or `{ ok: false, error }` naming the field and the rule
 * @throws never: bad input is answered, not thrown
 * @example timeframeFromPartner({ time_unit: 'MINUTE', count: 5 }) // { ok: true, value: { id: '5m', unit: 'MINUTE', count: 5 } }
 */
export function timeframeFromPartner(tf: unknown): Result<Timeframe, Status> {
  if (typeof tf !== 'object' || tf === null || isArray(tf))
    return err(invalidArgument('time_frame: must be an object {time_unit, count?}'))
  // own data properties, as every interface A body (a getter never runs; null is absent); a Proxy whose traps
  // throw is 3 naming time_frame or the field being read
  return readingJson('time_frame', () => readPartnerTimeframe(tf))
}

function readPartnerTimeframe(tf: object): Result<Timeframe, Status> {
  for (const k of Object.keys(tf)) {
    if (k !== 'time_unit' && k !== 'count') return err(invalidArgument(`time_frame.${k.slice(0, 40)}: unknown field`))
  }
  const unit = field(tf, 'time_unit', 'time_frame')
  const count = field(tf, 'count', 'time_frame') ?? 1
  if (typeof unit !== 'string' || !(PARTNER_UNITS as readonly string[]).includes(unit)) {
    return err(invalidArgument(`time_frame.time_unit: must be one of ${PARTNER_UNITS.join(', ')}`))
  }
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 1) {
    return err(invalidArgument('time_frame.count: must be an integer >= 1'))
  }
  return ok({ id: timeframeId(unit as TimeUnit, count), unit: unit as TimeUnit, count })
}
