import { parseDataDecimal, parseDecimal } from './parse.js'

/**
 * A decimal input as the double that carries it exactly (its shortest round-trip form is the same
 * decimal), or NaN when it is not a decimal or a double cannot carry it (more than 15 significant
 * digits that do not survive). Strings of at most 15 significant digits take a fast path. Data syntax
 * (see `parseDataDecimal`): `-`, digits, one `.`, and an optional exponent (`9.417e-05` gives 0.00009417);
 * `0` and `-0` give `0`; `±Infinity` and `NaN` give `NaN`.
 *
 * @example
 * exactDouble('5000.25') // 5000.25
 * exactDouble('0.1000000000000000055511151231257827') // NaN (a double holds 0.1, not this decimal)
 */
export function exactDouble(x: unknown): number {
  if (typeof x === 'number') return x === 0 ? 0 : Number.isFinite(x) ? x : Number.NaN
  if (typeof x !== 'string') return Number.NaN
  const n = x.length
  if (n === 0 || n > 400) return Number.NaN
  // fast path: at most 15 digits in all, read as exact integer units u (< 10^15 < 2^53) and f decimals;
  // u / 10^f is one correctly rounded division of two exact doubles, i.e. the double nearest the
  // decimal, which is what Number(x) gives (and at most 15 significant digits survive the round trip)
  let i = x.charCodeAt(0) === 45 ? 1 : 0
  const first = i
  let u = 0
  let dot = -1
  for (; i < n; i++) {
    const c = x.charCodeAt(i) - 48
    if (c >= 0 && c <= 9) u = u * 10 + c
    else if (c === -2 && dot < 0) dot = i
    else return c === 53 || c === 21 ? exponentDouble(x) : Number.NaN // 'e', 'E'
  }
  const digits = n - first - (dot < 0 ? 0 : 1)
  if (dot === first || dot === n - 1 || digits === 0) return Number.NaN // "", ".5", "5.", "-"
  if (digits <= 15) {
    const v = dot < 0 ? u : u / (POW10_F[n - 1 - dot] as number)
    return v === 0 ? 0 : first === 1 ? -v : v
  }
  return slowExactDouble(x)
}

const POW10_F = new Float64Array([1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15])

/** exactDouble of a string in exponent notation: the double nearest it, when that double is exactly it. */
function exponentDouble(x: string): number {
  const a = parseDataDecimal(x)
  if (!a.ok) return Number.NaN
  const v = Number(x)
  const b = parseDecimal(v)
  if (!b.ok || a.value.units !== b.value.units || a.value.scale !== b.value.scale) return Number.NaN
  return v === 0 ? 0 : v
}

/** exactDouble of a syntactically valid decimal string of more than 15 digits. */
function slowExactDouble(x: string): number {
  const v = Number(x)
  let first = -1
  let last = -1
  for (let i = 0, k = 0; i < x.length; i++) {
    const c = x.charCodeAt(i)
    if (c === 46 || c === 45) continue
    if (c !== 48) {
      if (first < 0) first = k
      last = k
    }
    k++
  }
  if (first < 0 || last - first < 15) return v === 0 ? 0 : v
  const a = parseDecimal(x)
  const b = parseDecimal(v)
  if (!a.ok || !b.ok || a.value.units !== b.value.units || a.value.scale !== b.value.scale) return Number.NaN
  return v
}

const BITS = new Float64Array(1)
const WORD = new BigInt64Array(BITS.buffer)

/** The double next to `x` towards -Infinity (`x` finite). */
export function nextDown(x: number): number {
  if (x === 0) return -Number.MIN_VALUE
  BITS[0] = x
  WORD[0] = (WORD[0] as bigint) + (x > 0 ? -1n : 1n)
  return BITS[0] as number
}

/** The double next to `x` towards +Infinity (`x` finite). */
export function nextUp(x: number): number {
  return -nextDown(-x)
}
