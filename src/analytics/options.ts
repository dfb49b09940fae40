import { isArray, showThrown } from '../_lib/describe.js'
import { parseDecimal, type ExactDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { compareDecimal as compareExact } from '../tpo/parts.js'
import { ANALYTICS_MSG } from './messages.js'

/**
 * Reads a closed options object: `undefined` is `{}`; anything but a plain object, or an object with a key
 * outside `keys`, is refused (`invalid_option` naming the function and the key).
 */
export function readOptions(fn: string, x: unknown, keys: readonly string[]): Record<string, unknown> {
  if (x === undefined) return {}
  if (typeof x !== 'object' || x === null || isArray(x))
    throw new MarketDataError('invalid_option', ANALYTICS_MSG.options(fn, x, keys), { field: 'options' })
  const o = x as Record<string, unknown>
  for (const k of Object.keys(o)) {
    if (!keys.includes(k))
      throw new MarketDataError('invalid_option', ANALYTICS_MSG.unknownOption(fn, k, keys), { field: k })
  }
  return o
}

/** An option that is a decimal in `[min, max]` (bounds exact; `max` optional); `fallback` when absent. */
export function decimalOption(
  fn: string,
  name: string,
  x: unknown,
  fallback: string,
  min: string,
  max?: string,
  rule?: string,
): ExactDecimal {
  const v = x ?? fallback
  const r = typeof v === 'string' || typeof v === 'number' ? parseDecimal(v) : undefined
  const lo = parseDecimal(min)
  const hi = max === undefined ? undefined : parseDecimal(max)
  const bad = () =>
    new MarketDataError(
      'invalid_option',
      ANALYTICS_MSG.option(
        fn,
        name,
        x,
        rule ?? `must be a decimal >= ${min}${max === undefined ? '' : ` and <= ${max}`}`,
      ),
      { field: name },
    )
  if (r === undefined || !r.ok || !lo.ok) throw bad()
  if (compareExact(r.value, lo.value) < 0) throw bad()
  if (hi?.ok && compareExact(r.value, hi.value) > 0) throw bad()
  return r.value
}

/** An option that is an integer in `[min, max]`; `fallback` when absent. */
export function integerOption(
  fn: string,
  name: string,
  x: unknown,
  fallback: number,
  min: number,
  max: number,
  rule?: string,
): number {
  const v = x ?? fallback
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max) {
    throw new MarketDataError(
      'invalid_option',
      ANALYTICS_MSG.option(fn, name, x, rule ?? `must be an integer from ${min} to ${max}`),
      { field: name },
    )
  }
  return v
}

/** An option that is one of `values`; `fallback` when absent. */
export function choiceOption<T extends string>(
  fn: string,
  name: string,
  x: unknown,
  values: readonly T[],
  fallback: T,
): T {
  const v = x ?? fallback
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
    throw new MarketDataError(
      'invalid_option',
      ANALYTICS_MSG.option(fn, name, x, `must be one of ${values.map((s) => `'${s}'`).join(', ')}`),
      { field: name },
    )
  }
  return v as T
}

/**
 * Runs a public function's body; a value the caller passed that throws when read (a throwing getter, a
 * revoked Proxy) becomes a `MarketDataError` (`invalid_option`) naming the function, never a raw TypeError.
 */
export function unreadableAsError<T>(fn: string, body: () => T): T {
  try {
    return body()
  } catch (e) {
    if (e instanceof MarketDataError) throw e
    throw new MarketDataError('invalid_option', ANALYTICS_MSG.unreadable(fn, showThrown(e)), { field: 'profile' })
  }
}
