import { decimalToString, type DecimalInput, formatFixed, formatUnits, parseDecimal, POW10, UNITS_LIMIT } from '../decimal/index.js'

/**
 * Integer units |u| < 2^53 at `scale` as decimal text with at least `minDecimals` decimals (trailing zeros
 * beyond them dropped): minimal form when `minDecimals` is 0. No bigint, no exponent.
 */
export function formatNumberUnits(u: number, scale: number, minDecimals = 0): string {
  if (u === 0) return minDecimals > 0 ? `0.${'0'.repeat(minDecimals)}` : '0'
  const neg = u < 0
  let d = String(neg ? -u : u)
  let s = scale
  let end = d.length
  while (s > minDecimals && d.charCodeAt(end - 1) === 48) {
    end--
    s--
  }
  if (end !== d.length) d = d.slice(0, end)
  if (s > 0) {
    if (d.length <= s) d = '0'.repeat(s - d.length + 1) + d
    d = `${d.slice(0, d.length - s)}.${d.slice(d.length - s)}`
  }
  if (s < minDecimals) d += (s === 0 ? '.' : '') + '0'.repeat(minDecimals - s)
  return neg ? `-${d}` : d
}

/** Minimal form of a sum held as a bigint part plus a number part (|lo| < 2^53). */
export function formatSum(hi: bigint, lo: number, scale: number): string {
  return hi === 0n ? formatNumberUnits(lo, scale) : formatUnits(hi + BigInt(lo), scale)
}

/** A number's shortest round-trip decimal, without exponent; `-0` is `"0"`. */
function plainNumber(x: number): string {
  const s = String(x)
  if (s.indexOf('e') < 0) return s === '-0' ? '0' : s
  const d = parseDecimal(x)
  return d.ok ? decimalToString(d.value) : s
}

/**
 * The printed form of a candle price: the input's own spelling (numbers by their shortest round-trip
 * form), or, with `grid` decimals, at least that many decimals (more only when the price has more).
 */
export function spellPrice(x: DecimalInput, grid: number | undefined, scale = -1, cache?: PriceStrings): string {
  if (typeof x === 'number' && scale >= 0 && scale <= 22) {
    // integer digits print faster than a double's shortest form; same text when x is exact at `scale`
    const P = POW10[scale] as number
    const u = Math.round(x * P)
    if (u / P === x && u < UNITS_LIMIT && u > -UNITS_LIMIT) return cache === undefined ? formatNumberUnits(u, scale, grid ?? 0) : cache.get(u, scale, grid ?? 0)
  }
  if (grid === undefined) return typeof x === 'string' ? x : plainNumber(x)
  if (typeof x === 'number') {
    const p = plainNumber(x)
    const dot = p.indexOf('.')
    const f = dot < 0 ? 0 : p.length - dot - 1
    if (f >= grid) return p
    return (dot < 0 ? `${p}.` : p) + '0'.repeat(grid - f)
  }
  const d = parseDecimal(x)
  return d.ok ? formatFixed(d.value.units, d.value.scale, grid) : x
}

const SLOTS = 2048

/**
 * A small direct-mapped cache of printed prices by integer units: market prices repeat (a few hundred
 * ticks a day), so most candles reuse strings instead of formatting and allocating them again.
 */
export class PriceStrings {
  private readonly keys = new Float64Array(SLOTS).fill(Number.NaN)
  private readonly strs: string[] = new Array<string>(SLOTS).fill('')
  private scale = -1
  private grid = -1

  get(u: number, scale: number, grid: number): string {
    if (scale !== this.scale || grid !== this.grid) {
      this.keys.fill(Number.NaN)
      this.scale = scale
      this.grid = grid
    }
    const h = Math.abs(u) % SLOTS
    if (this.keys[h] === u) return this.strs[h] as string
    const str = formatNumberUnits(u, scale, grid)
    this.keys[h] = u
    this.strs[h] = str
    return str
  }
}
