/**
 * A short, safe description of any value for error messages: never throws (objects with hostile
 * `toString`/`valueOf` are described by their type), never echoes more than 40 characters of a string.
 */
export function describeValue(x: unknown): string {
  if (typeof x === 'string') return JSON.stringify(x.length > 40 ? `${x.slice(0, 40)}…` : x)
  if (typeof x === 'bigint') return `${x}n`
  if (typeof x === 'number' || typeof x === 'boolean' || x === undefined) return String(x)
  if (x === null) return 'null'
  if (Array.isArray(x)) return 'an array'
  return `a value of type ${typeof x}`
}
