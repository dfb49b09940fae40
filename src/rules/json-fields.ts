// Reading untrusted JSON bodies of interface A: own data properties only (never getters, never the prototype
// chain, `__proto__` is a plain key), unknown fields named, `null` read as absent (proto3 JSON mapping).
// JSON.parse makes plain values only; a caller's object may still be a Proxy whose traps throw (or a revoked
// one): the readers then throw Unreadable with the path, and readingJson turns it into a Status naming it.
import { invalidArgument, type Status } from '../partner/status.js'
import { err, ok, type Result } from '../result.js'
import { FIELD_MSG, quote } from './messages.js'

/** Thrown by the readers below when reading the value at `path` threw; caught by {@link readingJson}. */
export class Unreadable {
  constructor(readonly path: string) {}
}

/**
 * Runs a validator's body: a value that could not be read (an {@link Unreadable} with its path, or any other
 * throw while reading, named `root`) becomes 3 INVALID_ARGUMENT instead of an exception.
 */
export function readingJson<T>(root: string, read: () => Result<T, Status>): Result<T, Status> {
  try {
    return read()
  } catch (e) {
    return err(invalidArgument(FIELD_MSG.unreadable(e instanceof Unreadable ? e.path : root)))
  }
}

/** A JSON object: not null, not an array (`path` names it if it cannot be read: a revoked Proxy). */
export function isJsonObject(x: unknown, path: string): x is Record<string, unknown> {
  if (typeof x !== 'object' || x === null) return false
  try {
    return !Array.isArray(x)
  } catch {
    throw new Unreadable(path)
  }
}

/**
 * A JSON object with no field outside `allowed` (at `path`, '' for the request body), or the Status refusing it:
 * `notObject` when it is not an object, the unknown fields named otherwise.
 */
export function closedObject(
  x: unknown,
  path: string,
  allowed: ReadonlySet<string>,
  notObject: string,
): Result<Record<string, unknown>, Status> {
  if (!isJsonObject(x, path === '' ? 'the request body' : path)) return err(invalidArgument(notObject))
  const unknown = unknownFields(x, path, allowed)
  return unknown === undefined ? ok(x) : err(unknown)
}

/** The value of an own data property of `obj` (at `path`); `undefined` when absent, `null`, or an accessor. */
export function field(obj: object, name: string, path: string): unknown {
  let d: PropertyDescriptor | undefined
  try {
    d = Object.getOwnPropertyDescriptor(obj, name)
  } catch {
    throw new Unreadable(join(path, name))
  }
  if (d === undefined || !('value' in d)) return undefined
  return d.value === null ? undefined : d.value
}

/** The own keys of `obj` (at `path`). */
function keysOf(obj: object, path: string): string[] {
  try {
    return Object.keys(obj)
  } catch {
    throw new Unreadable(path === '' ? 'the request body' : path)
  }
}

/** The length of an array at `path`. */
export function lengthOf(arr: unknown[], path: string): number {
  try {
    return arr.length
  } catch {
    throw new Unreadable(path)
  }
}

/** Item `i` of an array at `path` (`path[i]` names it when its read throws). */
export function itemOf(arr: unknown[], i: number, path: string): unknown {
  try {
    return arr[i]
  } catch {
    throw new Unreadable(`${path}[${i}]`)
  }
}

const LIST_MAX = 5

/** An INVALID_ARGUMENT Status naming the unknown fields of `obj` at `path`, or undefined when all are known. */
export function unknownFields(obj: object, path: string, allowed: ReadonlySet<string>): Status | undefined {
  const unknown: string[] = []
  let more = 0
  for (const name of keysOf(obj, path)) {
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
