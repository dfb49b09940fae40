import { err, ok, type Result } from '../result.js'
import { invalidArgumentError, type ApiError } from '../_lib/api-error.js'
import { QUERY_MSG, PARAM_MSG } from './messages.js'

/** Query input of {@link parseHistoryQuery}: `URLSearchParams` or a record of string / string[] (e.g. a framework's parsed query). */
export type QueryInput = URLSearchParams | Readonly<Record<string, string | readonly string[]>>

/**
 * Collects the query's parameters into a Map (never a plain object: user keys such as `__proto__` stay plain
 * keys). Stops at the first parameter not in `allowed`, the second occurrence of a parameter that is not in
 * `repeatable`, or a value that is not a string. Linear in the size of the input.
 */
export function collectParams(
  query: unknown,
  allowed: ReadonlySet<string>,
  repeatable: ReadonlySet<string>,
  unknownMessage: (name: string) => string,
): Result<Map<string, string[]>, ApiError> {
  const params = new Map<string, string[]>()
  const add = (name: unknown, value: unknown): ApiError | undefined => {
    // a look-alike's pairs may hold anything: a name that is not a string is not a query
    if (typeof name !== 'string') return invalidArgumentError(QUERY_MSG.notQuery(), 'query')
    if (!allowed.has(name)) return invalidArgumentError(unknownMessage(name), name)
    if (typeof value !== 'string') return invalidArgumentError(`${name}: ${PARAM_MSG.notString()}`, name)
    const list = params.get(name)
    if (list === undefined) params.set(name, [value])
    else if (!repeatable.has(name)) return invalidArgumentError(`${name}: ${PARAM_MSG.repeated()}`, name)
    else list.push(value)
    return undefined
  }

  // a Proxy (or a look-alike's iterator) that throws while being read: 400 naming the parameter being read
  let reading = 'query'
  try {
    if (isSearchParams(query)) {
      for (const [name, value] of query) {
        const e = add(name, value)
        if (e !== undefined) return err(e)
      }
      return ok(params)
    }
    if (typeof query !== 'object' || query === null || Array.isArray(query)) {
      return err(invalidArgumentError(QUERY_MSG.notQuery(), 'query'))
    }
    for (const name of Object.keys(query)) {
      reading = name
      // Read the own property's descriptor: never runs a getter, never walks the prototype chain.
      const descriptor = Object.getOwnPropertyDescriptor(query, name)
      const raw: unknown = descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined
      if (Array.isArray(raw)) {
        for (let i = 0; i < raw.length; i++) {
          const e = add(name, raw[i])
          if (e !== undefined) return err(e)
        }
      } else {
        const e = add(name, raw)
        if (e !== undefined) return err(e)
      }
    }
    return ok(params)
  } catch {
    return err(invalidArgumentError(QUERY_MSG.unreadable(reading), reading))
  }
}

// URLSearchParams of this realm, or a look-alike (a polyfill or another realm's class): iterable pairs with getAll.
function isSearchParams(query: unknown): query is Iterable<[string, unknown]> {
  if (typeof URLSearchParams !== 'undefined' && query instanceof URLSearchParams) return true
  if (typeof query !== 'object' || query === null || Array.isArray(query)) return false
  const q = query as { getAll?: unknown; [Symbol.iterator]?: unknown }
  return typeof q.getAll === 'function' && typeof q[Symbol.iterator] === 'function'
}
