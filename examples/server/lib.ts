// Library functions whose folders were still landing while this example was written, looked up by name on the
// public API ('../../src/index.js'). A function the build does not export makes its endpoint answer 503
// `unavailable` instead of failing the whole server at start.
import * as api from '../../src/index.js'
import type { tpoProfiles } from '../../src/tpo/index.js'

/** The late-landing part of the library surface the server uses. */
export interface Lib {
  tpoProfiles: typeof tpoProfiles
}

/** Thrown when the build lacks a library function; the server answers 503 `unavailable`. */
export class Unavailable extends Error {
  constructor(readonly fn: string) {
    super(`${fn} is not available in this build of svc-marketdata`)
  }
}

const table = api as unknown as Record<string, unknown>

/** The library function `name`, or throws {@link Unavailable}. */
export function lib<K extends keyof Lib>(name: K): Lib[K] {
  const f = table[name]
  if (typeof f !== 'function') throw new Unavailable(name)
  return f as Lib[K]
}
