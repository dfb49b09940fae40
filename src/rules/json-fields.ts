// Reading untrusted JSON bodies of interface A: own data properties only (never getters, never the prototype
// chain, `__proto__` is a plain key), unknown fields named, `null` read as absent (proto3 JSON mapping).
import { invalidArgument, type Status } from '../partner/status.js'
import { FIELD_MSG, quote } from './messages.js'

/** A JSON object: not null, not an array. */
export function isJsonObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x)
}

/** The value of an own data property; `undefined` when absent, `null`, or an accessor. */
export function field(obj: object, name: string): unknown {
  const d = Object.getOwnPropertyDescriptor(obj, name)
  if (d === undefined || !('value' in d)) return undefined
  return d.value === null ? undefined : d.value
}

const LIST_MAX = 5

/** An INVALID_ARGUMENT Status naming the unknown fields of `obj` at `path`, or undefined when all are known. */
export function unknownFields(obj: object, path: string, allowed: ReadonlySet<string>): Status | undefined {
  const unknown: string[] = []
  let more = 0
  for (const name of Object.keys(obj)) {
    if (allowed.has(name)) continue
    if (unknown.length < LIST_MAX) unknown.push(quote(name))
    else more++
  }
  if (unknown.length === 0) return undefined
  const where = path === '' ? 'the request body' : path
  const list = unknown.join(', ') + (more > 0 ? ` and ${more} more` : '')
  return invalidArgument(FIELD_MSG.unknownFields(where, list, unknown.length + more > 1))
}

/** Joins a path and a field name (`security_id.guid`). */
export function join(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`
}
