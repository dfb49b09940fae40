// Closed options objects: every public function refuses a key it does not know (JavaScript callers get no
// type check, and a silently ignored `rowSizze` is a wrong answer), suggesting the known key it resembles.
import { MarketDataError } from '../errors.js'
import { describeValue } from './describe.js'

/**
 * Edit distance between a and b, compared without case: insertions, deletions, substitutions and swaps
 * of two neighbouring characters each cost 1 (optimal string alignment).
 */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase()
  const y = b.toLowerCase()
  const m = x.length
  const n = y.length
  // three rows: two back (swaps), one back, current
  let prev2 = new Array<number>(n + 1).fill(0)
  let prev = Array.from({ length: n + 1 }, (_, j) => j)
  for (let i = 1; i <= m; i++) {
    const cur = new Array<number>(n + 1)
    cur[0] = i
    for (let j = 1; j <= n; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1
      let d = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost)
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1])
        d = Math.min(d, (prev2[j - 2] as number) + 1)
      cur[j] = d
    }
    prev2 = prev
    prev = cur
  }
  return prev[n] as number
}

/**
 * The known key an unknown one is a near miss of: the single closest by {@link editDistance}, when that
 * distance is at most 2 and at most a third of the known key's length (so `tz` suggests nothing, and two
 * equally close keys suggest neither). Case alone always counts as close (`timezone` -> `timeZone`).
 */
export function suggestKey(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined
  let bestD = Number.POSITIVE_INFINITY
  let tie = false
  for (const k of known) {
    const d = editDistance(key, k)
    const close = key.toLowerCase() === k.toLowerCase() || (d <= 2 && d * 3 <= k.length)
    if (!close) continue
    if (d < bestD) {
      best = k
      bestD = d
      tie = false
    } else if (d === bestD) tie = true
  }
  return tie ? undefined : best
}

/**
 * The refusal of the first own enumerable key of `opts` not in `known` (`invalid_option`, field = that key,
 * with "did you mean X?" when {@link suggestKey} finds one), or undefined when every key is known or `opts`
 * is not an object (the function's own check refuses that). Never throws: an object whose keys cannot be
 * read (a revoked Proxy, a throwing `ownKeys` trap) is refused as field `options`.
 */
export function unknownOption(opts: unknown, known: readonly string[], fn: string): MarketDataError | undefined {
  if (typeof opts !== 'object' || opts === null) return undefined
  let keys: string[]
  try {
    keys = Object.keys(opts)
  } catch {
    return new MarketDataError('invalid_option', `options: the options object of ${fn} cannot be read`, {
      field: 'options',
    })
  }
  for (const key of keys) {
    if (known.includes(key)) continue
    const hint = suggestKey(key, known)
    const name = describeValue(key)
    const message = `${key.length > 40 ? name : key}: unknown option of ${fn}${hint === undefined ? '' : `; did you mean ${hint}?`} (known: ${known.join(', ')})`
    return new MarketDataError('invalid_option', message, { field: key })
  }
  return undefined
}

/**
 * Throws the refusal {@link unknownOption} finds, for functions that throw on bad options.
 *
 * @example checkOptions(opts, ['timeframe', 'timeZone'], 'candlesFromTrades')
 */
export function checkOptions(opts: unknown, known: readonly string[], fn: string): void {
  const e = unknownOption(opts, known, fn)
  if (e !== undefined) throw e
}
