import { decimalToString, type DecimalInput, formatFixed, formatUnits, parseDecimal } from '../decimal/index.js'

/** Minimal form of integer units |u| < 2^53 at `scale` (no bigint, no exponent). */
export function formatNumberUnits(u: number, scale: number): string {
  if (u === 0) return '0'
  const neg = u < 0
  let d = String(neg ? -u : u)
  let s = scale
  let end = d.length
  while (s > 0 && d.charCodeAt(end - 1) === 48) {
    end--
    s--
  }
  if (end !== d.length) d = d.slice(0, end)
  if (s > 0) {
    if (d.length <= s) d = '0'.repeat(s - d.length + 1) + d
    d = `${d.slice(0, d.length - s)}.${d.slice(d.length - s)}`
  }
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
export function spellPrice(x: DecimalInput, grid: number | undefined): string {
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
