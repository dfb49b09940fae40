// JSON Schema pieces the OpenAPI document is built from: JSON value types, references, and patterns derived
// from the library's own rules (timeframe ids from the count rules), so the document cannot drift from them.
import { MarketDataError } from '../errors.js'
import { listTimeframes, type Timeframe } from '../time/index.js'

/** A JSON value. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json }
/** A JSON object (a schema, an operation, the whole document). */
export type JsonObject = { [key: string]: Json }

/** `{ $ref: '#/components/<kind>/<name>' }`. */
export function ref(kind: 'schemas' | 'parameters' | 'responses' | 'headers', name: string): JsonObject {
  return { $ref: `#/components/${kind}/${name}` }
}

/**
 * A regular expression (no anchors) matching the decimal numbers `1..max` without leading zeros, exactly.
 * Throws for a `min` other than 1 (every count rule of the library starts at 1).
 */
export function countPattern(min: number, max: number): string {
  if (min !== 1 || !Number.isSafeInteger(max) || max < 1) {
    throw new MarketDataError(
      'invalid_option',
      `countPattern: needs min 1 and an integer max >= 1 (got ${min}..${max})`,
    )
  }
  const top = String(max)
  const parts: string[] = []
  // every number with fewer digits than max
  for (let len = 1; len < top.length; len++)
    parts.push(len === 1 ? '[1-9]' : `[1-9][0-9]${len === 2 ? '' : `{${len - 1}}`}`)
  // numbers with max's length: a prefix of max, a smaller digit, then any digits
  for (let i = 0; i < top.length; i++) {
    const low = i === 0 ? 1 : 0
    const high = Number(top[i]) - 1
    if (high < low) continue
    const rest = top.length - i - 1
    parts.push(
      `${top.slice(0, i)}${low === high ? String(low) : `[${low}-${high}]`}${rest === 0 ? '' : rest === 1 ? '[0-9]' : `[0-9]{${rest}}`}`,
    )
  }
  parts.push(top)
  return parts.join('|')
}

/**
 * An anchored pattern of the canonical timeframe ids whose unit is in `units`, built from {@link listTimeframes}'
 * count rules: `^(?:(?:[1-9]|[1-4][0-9]|5[0-8]|59)m|...)$`.
 */
export function timeframeIdPattern(units: readonly Timeframe['unit'][]): string {
  const alternatives = listTimeframes()
    .filter((r) => units.includes(r.unit))
    .map((r) => `(?:${countPattern(r.min, r.max)})${r.suffix}`)
  return `^(?:${alternatives.join('|')})$`
}

/** The timeframe ids of `units` in words, from the count rules: `1-59m, 1-23h, 1-6d`. */
export function timeframeIdRanges(units: readonly Timeframe['unit'][]): string {
  return listTimeframes()
    .filter((r) => units.includes(r.unit))
    .map((r) => (r.min === r.max ? `${r.min}${r.suffix}` : `${r.min}-${r.max}${r.suffix}`))
    .join(', ')
}

/** An exact decimal string (prices, volumes): optional `-`, digits, optional fraction; never a float. */
export const DECIMAL_STRING: JsonObject = {
  type: 'string',
  pattern: '^-?[0-9]+(?:\\.[0-9]+)?$',
  description: 'An exact decimal number as a string (never rounded to a float).',
  examples: ['5000.25'],
}

/** A non-negative exact decimal string (volumes). */
export const VOLUME_STRING: JsonObject = { ...DECIMAL_STRING, pattern: '^[0-9]+(?:\\.[0-9]+)?$', examples: ['12.5'] }

/** An ISO 8601 / RFC 3339 UTC date-time string. */
export const DATE_TIME: JsonObject = { type: 'string', format: 'date-time', examples: ['2026-08-20T15:00:00.000Z'] }
