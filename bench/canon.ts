// Canonical text forms of results, written independently of the library so the equality gate checks it.

/** Minimal form of a plain decimal string: no trailing fractional zeros, "0" for zero ("5000.50" -> "5000.5"). */
export function norm(s: string): string {
  let t = s
  if (t.includes('.')) {
    let e = t.length
    while (t.charCodeAt(e - 1) === 48) e--
    if (t.charCodeAt(e - 1) === 46) e--
    t = t.slice(0, e)
  }
  if (t === '-0') return '0'
  return t
}

/** Exact decimal text of integer units / 10^scale with exactly `scale` decimals. */
export function fixed(units: bigint | number, scale: number): string {
  let u = typeof units === 'bigint' ? units : BigInt(units)
  const neg = u < 0n
  if (neg) u = -u
  let s = u.toString()
  if (scale > 0) {
    if (s.length <= scale) s = '0'.repeat(scale - s.length + 1) + s
    s = `${s.slice(0, s.length - scale)}.${s.slice(s.length - scale)}`
  }
  return neg && u !== 0n ? `-${s}` : s
}

/** Minimal exact decimal text of units / 10^scale. */
export function minimal(units: bigint | number, scale: number): string {
  return norm(fixed(units, scale))
}

/**
 * Minimal decimal text of a double that holds an exact short decimal (every value of the ES data: multiples
 * of 0.25 with at most 15 significant digits); throws when the shortest round-trip form uses an exponent.
 */
export function numText(x: number): string {
  const s = String(x)
  if (s.includes('e')) throw new Error(`bench: ${s} has no plain short decimal form`)
  return norm(s)
}

/**
 * First difference of two canonical forms whose `|`-separated fields may differ by float rounding: fields
 * equal as text, or numbers within a relative `tolerance`. For float peers on data that is not exact doubles
 * (sums of 0.1-like values round); selections (prices), times and counts must still agree to the digit.
 */
export function closeLines(
  tolerance: number,
): (expected: readonly string[], actual: readonly string[]) => string | undefined {
  return (expected, actual) => {
    if (expected.length !== actual.length) return `length: expected ${expected.length} lines, got ${actual.length}`
    for (let i = 0; i < expected.length; i++) {
      const e = (expected[i] as string).split('|')
      const a = (actual[i] as string).split('|')
      const bad =
        e.length !== a.length ||
        e.some((x, k) => {
          const y = a[k] as string
          if (x === y) return false
          const u = Number(x)
          const v = Number(y)
          return !(Math.abs(u - v) <= tolerance * Math.max(Math.abs(u), Math.abs(v)))
        })
      if (bad) return `line ${i}: expected ${expected[i]} got ${actual[i]} (relative tolerance ${tolerance})`
    }
    return undefined
  }
}
