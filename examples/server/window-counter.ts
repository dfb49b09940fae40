// A fixed-window counter per name (the Login throttle): at most `limit` hits per window of `windowMs`, on the
// server's clock. Only the current window's names are kept, so memory is bounded by one window's callers.
import { retryAfterSeconds, windowStartOf } from '../../src/credits/window.js'

export interface WindowCounter {
  /** Counts a hit for `name` at `now`: 0 when allowed, else the seconds until the window ends (nothing counted). */
  hit(name: string, now: number): number
}

export function createWindowCounter(windowMs: number, limit: number): WindowCounter {
  let window = Number.NEGATIVE_INFINITY
  let counts = new Map<string, number>()
  return {
    hit(name, now) {
      const w = windowStartOf(now, windowMs)
      if (w > window) {
        window = w
        counts = new Map()
      }
      const n = counts.get(name) ?? 0
      if (n >= limit) return retryAfterSeconds(window + windowMs, now)
      counts.set(name, n + 1)
      return 0
    },
  }
}
