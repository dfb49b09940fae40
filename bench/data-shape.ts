// What a bench data set is like: the properties that decide which fast paths pay off (runs of one price,
// trades per bucket) and whether a float peer can be checked for exact equality.
import type { TradeColumns } from '../src/trades/index.js'

/** Mean length of runs of equal consecutive prices (1 = the price changes every trade). */
export function meanPriceRun(price: Float64Array): number {
  if (price.length === 0) return 0
  let runs = 1
  for (let i = 1; i < price.length; i++) if (price[i] !== price[i - 1]) runs++
  return price.length / runs
}

/** Mean trades per non-empty UTC bucket of `ms`. */
export function meanPerBucket(time: Float64Array, ms: number): number {
  if (time.length === 0) return 0
  let buckets = 0
  let end = -Infinity
  for (let i = 0; i < time.length; i++) {
    const t = time[i] as number
    if (t >= end) {
      buckets++
      end = (Math.floor(t / ms) + 1) * ms
    }
  }
  return time.length / buckets
}

const FIVES = [1n, 5n, 25n, 125n, 625n, 3125n, 15625n, 78125n, 390625n, 1953125n, 9765625n, 48828125n, 244140625n]

/**
 * Whether a double is exactly its shortest decimal form (0.25 is; 0.1 is not): the decimal m / 10^d is a
 * binary fraction exactly when 5^d divides m. Only such data lets float sums be checked for equality.
 */
export function isExactDouble(x: number): boolean {
  const s = String(x)
  if (s.includes('e')) return false
  const dot = s.indexOf('.')
  if (dot < 0) return true
  const d = s.length - dot - 1
  if (d >= FIVES.length) return false
  return BigInt(s.replace('.', '').replace('-', '')) % (FIVES[d] as bigint) === 0n
}

function allExact(a: Float64Array, limit: number): boolean {
  const n = Math.min(a.length, limit)
  for (let i = 0; i < n; i++) if (!isExactDouble(a[i] as number)) return false
  return true
}

/** One line describing a data set, printed before its rows. */
export function describeData(name: string, c: TradeColumns, frames: readonly [string, number][]): string {
  const n = c.time.length
  const span = n > 1 ? ((c.time[n - 1] as number) - (c.time[0] as number)) / 3_600_000 : 0
  const perBucket = frames.map(([id, ms]) => `${id} ${meanPerBucket(c.time, ms).toFixed(1)}`).join(', ')
  // checking a million values is enough to tell: the generators draw every value the same way
  const exact = allExact(c.price, 1_000_000) && allExact(c.volume, 1_000_000)
  return `${name}: ${n} trades over ${span.toFixed(1)} h (${(n / Math.max(span, 1e-9) / 3600).toFixed(2)} trades/s); mean run of equal prices ${meanPriceRun(c.price).toFixed(2)}; mean trades per bucket ${perBucket}; every price and volume an exact double: ${exact ? 'yes' : 'no'}`
}
