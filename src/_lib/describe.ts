/**
 * A short, safe description of any value for error messages: never throws (objects with hostile
 * `toString`/`valueOf` are described by their type), never echoes more than 40 characters of a string.
 */
export function describeValue(x: unknown): string {
  if (typeof x === 'string') return JSON.stringify(x.length > 40 ? `${x.slice(0, 40)}…` : x)
  if (typeof x === 'bigint') return `${x}n`
  if (typeof x === 'number' || typeof x === 'boolean' || x === undefined) return String(x)
  if (x === null) return 'null'
  if (isArray(x)) return 'an array'
  return `a value of type ${typeof x}`
}

/**
 * The text for a message slot meant to hold a string (a message, a name): a string as it is, any other value
 * described by {@link describeValue} (a number as its digits). Never throws, never reads a property.
 */
export function textOf(x: unknown): string {
  return typeof x === 'string' ? x : describeValue(x)
}

/**
 * `Array.isArray` that never throws: false for a revoked Proxy (on which `Array.isArray` throws). Validators
 * use it on untrusted values, then fail on the first read of such a value as on any unreadable one.
 */
export function isArray(x: unknown): x is unknown[] {
  try {
    return Array.isArray(x)
  } catch {
    return false
  }
}

/** A thrown value, described safely: an Error's name and (truncated) message, else its type. Never throws. */
export function showThrown(e: unknown): string {
  try {
    if (e instanceof Error) {
      const name = e.name
      const message = e.message
      if (typeof name === 'string' && typeof message === 'string')
        return `${name.slice(0, 40)} ${describeValue(message)}`
    }
  } catch {
    // a hostile thrown value (a Proxy, throwing getters): fall back to its type
  }
  return describeValue(e)
}
