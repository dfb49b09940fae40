import {
  decimalToString,
  type DecimalInput,
  formatFixed,
  formatUnits,
  parseDecimal,
  POW10,
  UNITS_LIMIT,
} from '../decimal/index.js'
import { parseDataDecimal } from '../decimal/parse.js'
import { doubleText, formatNumberUnits, quotient, unitsText, ZEROS } from '../decimal/units-text.js'

export { formatNumberUnits, unitsText }

/** Minimal form of a sum held as a bigint part plus a number part (|lo| < 2^53). */
export function formatSum(hi: bigint, lo: number, scale: number): string {
  return hi === 0n ? unitsText(lo, scale) : formatUnits(hi + BigInt(lo), scale)
}

/**
 * 2^26, the limb of the value sums: price units below it in magnitude times either 26-bit half of a run
 * volume (units <= 2^52 split as `h * LIMB + l`) is below 2^52, so `pu * vol` is summed exactly in two
 * numbers, the high one weighted by LIMB, with no bigint per run (crypto prices x 8-decimal volumes pass
 * 2^52 units in nearly every run).
 */
export const LIMB = 2 ** 26
/** {@link LIMB} as a bigint. */
export const LIMB_BIG = BigInt(LIMB)
const E8 = 1e8

/**
 * Minimal form of hi + mid * 2^26 + lo (units at `scale`; |mid| <= 2^52, |lo| < 2^53). With hi = 0, mid and lo
 * not negative and 8 to 23 decimals (the value sums of crypto candles) it is printed from integers below 10^8
 * and the integer part, with no bigint: the sum
 * is x * 10^8 + y with x below 2^53 and y below 10^8, computed exactly in doubles.
 */
export function limbSumText(hi: bigint, mid: number, lo: number, scale: number): string {
  if (!(hi === 0n && mid >= 0 && lo >= 0 && scale >= 8 && scale <= 23))
    return mid === 0 ? formatSum(hi, lo, scale) : formatSum(hi + BigInt(mid) * LIMB_BIG, lo, scale)
  // mid = a * 10^8 + b, lo = c * 10^8 + d, b * 2^26 = e * 10^8 + f: every part below 2^53
  const a = quotient(mid, E8)
  const bl = (mid - a * E8) * LIMB
  const c = quotient(lo, E8)
  const e = quotient(bl, E8)
  let x = a * LIMB + c + e
  let y = lo - c * E8 + (bl - e * E8)
  if (y >= E8) {
    y -= E8
    x++
  }
  // at `scale` decimals: integer part x div 10^(scale - 8), fraction (x mod 10^(scale - 8)) then y's 8 digits
  const fd = scale - 8
  if (fd === 0) return y === 0 ? String(x) : `${x}.${trimZeros(padded(y, 8))}`
  const P = POW10[fd] as number
  const ip = quotient(x, P)
  const f1 = x - ip * P
  if (y !== 0) return `${ip}.${padded(f1, fd)}${trimZeros(padded(y, 8))}`
  if (f1 !== 0) return `${ip}.${trimZeros(padded(f1, fd))}`
  return String(ip)
}

/** v (0 <= v < 10^n, n <= 15) in n digits, leading zeros added. */
function padded(v: number, n: number): string {
  const t = String(v)
  return t.length === n ? t : (ZEROS[n - t.length] as string) + t
}

/** d without its trailing zeros (d has a non-zero digit). */
function trimZeros(d: string): string {
  let end = d.length
  while (d.charCodeAt(end - 1) === 48) end--
  return end === d.length ? d : d.slice(0, end)
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
    const u = Math.floor(x * P + 0.5)
    if (u / P === x && u < UNITS_LIMIT && u > -UNITS_LIMIT)
      return cache === undefined ? formatNumberUnits(u, scale, grid ?? 0) : cache.get(u, scale, grid ?? 0)
  }
  if (grid === undefined) return typeof x === 'string' ? plainText(x) : plainNumber(x)
  if (typeof x === 'number') {
    const t = doubleText(x, grid)
    if (t !== undefined) return t
  }
  // a string, or a number whose shortest form has an exponent
  const d = parseDataDecimal(x)
  return d.ok ? formatFixed(d.value.units, d.value.scale, grid) : String(x)
}

/** A price string as printed: its own spelling, with exponent notation written out (`"9.417e-05"` -> `"0.00009417"`). */
function plainText(x: string): string {
  if (x.indexOf('e') < 0 && x.indexOf('E') < 0) return x
  const d = parseDataDecimal(x)
  return d.ok ? decimalToString(d.value) : x
}

/** Slots of a new cache (2^6), and the most it grows to (2^11) while it keeps missing. */
const MIN_BITS = 6
const MAX_BITS = 11
const NO_KEYS = new Float64Array(0)

/**
 * A small direct-mapped cache of printed prices by integer units: market prices repeat (a few hundred
 * ticks a day), so most candles reuse strings instead of formatting and allocating them again. It starts
 * with 64 slots and grows (to 512, then 2048) after twice as many misses as it has slots, so a call with a
 * few candles does not pay for a table it never fills.
 */
export class PriceStrings {
  private bits = 0
  private keys = NO_KEYS
  private strs: string[] = []
  private nums = NO_KEYS
  private numStrs: string[] = []
  private misses = 0
  private scale = -1
  private grid = -1
  private readonly f64 = new Float64Array(1)
  private readonly words = new Int32Array(this.f64.buffer)

  /** Empty tables of 2^bits slots for prices at (scale, grid). */
  private reset(scale: number, grid: number, bits = Math.max(this.bits, MIN_BITS)): void {
    const n = 1 << bits
    if (bits !== this.bits) {
      this.bits = bits
      this.keys = new Float64Array(n)
      this.nums = new Float64Array(n)
      this.strs = new Array<string>(n).fill('')
      this.numStrs = new Array<string>(n).fill('')
    }
    this.keys.fill(Number.NaN)
    this.nums.fill(Number.NaN)
    this.misses = 0
    this.scale = scale
    this.grid = grid
  }

  /** Counts a miss; past twice the slots, the tables grow (emptied). */
  private missed(): void {
    if (++this.misses > 2 << this.bits && this.bits < MAX_BITS)
      this.reset(this.scale, this.grid, Math.min(MAX_BITS, this.bits + 3))
  }

  get(u: number, scale: number, grid: number): string {
    if (scale !== this.scale || grid !== this.grid) this.reset(scale, grid)
    // integer units below 2^53: the low bits (ToInt32 is modular) pick the slot, no floating modulo
    const h = (u | 0) & ((1 << this.bits) - 1)
    if (this.keys[h] === u) return this.strs[h] as string
    const str = formatNumberUnits(u, scale, grid)
    this.missed()
    const k = (u | 0) & ((1 << this.bits) - 1)
    this.keys[k] = u
    this.strs[k] = str
    return str
  }

  /**
   * The printed form of a number price, {@link spellPrice}(x, grid, scale), by the double itself: no
   * conversion to units on a hit. (0 and -0 print alike, so `===` is the right key test.)
   */
  number(x: number, scale: number, grid: number | undefined): string {
    // no grid prints as grid 0 (minimal form), so both share the slots' (scale, grid) key
    const g = grid ?? 0
    if (scale !== this.scale || g !== this.grid) this.reset(scale, g)
    this.f64[0] = x
    const hash = Math.imul((this.words[0] as number) ^ (this.words[1] as number), 0x9e3779b1)
    const h = hash >>> (32 - this.bits)
    if (this.nums[h] === x) return this.numStrs[h] as string
    // spellPrice may look the units up through get(), which counts its own miss (and may grow the tables)
    const misses = this.misses
    const bits = this.bits
    const str = spellPrice(x, grid, scale, this)
    if (this.misses === misses && this.bits === bits) this.missed()
    const k = hash >>> (32 - this.bits)
    this.nums[k] = x
    this.numStrs[k] = str
    return str
  }
}
