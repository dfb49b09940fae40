import { UNITS_LIMIT } from './units.js'

/**
 * Finest volume scale (decimals) an aggregator's fast sums take: at 10^9 whole volumes up to about 4.5
 * million per trade stay below 2^52 units. A rarer, finer volume (`0.30000000000000004`) is summed apart
 * at its own scale, so it costs only its own record instead of pushing every later volume past 2^52.
 */
export const MAX_FAST_VOLUME_SCALE = 9

/**
 * Exact running sums of integer units, indexed 0..n-1: a `Float64Array` fast part plus a bigint overflow
 * part that only sums past ±2^52 touch. The hot-loop pattern is
 * `lo[i] += u; if (lo[i] > UNITS_LIMIT || lo[i] < -UNITS_LIMIT) sums.spill(i)`.
 *
 * @example
 * const s = new ExactSums(1)
 * s.add(0, 2 ** 52); s.add(0, 2 ** 52)
 * s.get(0) // 9007199254740992n
 */
export class ExactSums {
  lo: Float64Array
  private hi: Map<number, bigint> | undefined

  /** @param sums - how many sums, or a zeroed array to hold them (a caller that carves its own memory allocates nothing more) */
  constructor(sums: number | Float64Array) {
    this.lo = typeof sums === 'number' ? new Float64Array(Math.max(1, sums)) : sums
  }

  /** Adds integer units with |u| < 2^52. */
  add(i: number, u: number): void {
    const lo = this.lo
    lo[i] = (lo[i] as number) + u
    const v = lo[i] as number
    if (v > UNITS_LIMIT || v < -UNITS_LIMIT) this.spill(i)
  }

  /** Adds units of any size exactly. */
  addBig(i: number, u: bigint): void {
    const hi = (this.hi ??= new Map())
    hi.set(i, (hi.get(i) ?? 0n) + u)
  }

  /** Moves the fast part of sum `i` into the bigint part. */
  spill(i: number): void {
    const v = this.lo[i] as number
    if (v === 0) return
    this.lo[i] = 0
    this.addBig(i, BigInt(v))
  }

  /** The exact sum `i`. */
  get(i: number): bigint {
    const v = BigInt(this.lo[i] as number)
    const h = this.hi?.get(i)
    return h === undefined ? v : v + h
  }

  /** True when sum `i` is zero. */
  isZero(i: number): boolean {
    return this.lo[i] === 0 && (this.hi?.get(i) ?? 0n) === 0n
  }

  /** Sets sum `i` to zero. */
  reset(i: number): void {
    this.lo[i] = 0
    this.hi?.delete(i)
  }

  /** Clears every sum. */
  clear(): void {
    this.lo.fill(0)
    this.hi = undefined
  }

  /** Grows capacity to at least n sums, keeping values. */
  grow(n: number): void {
    if (n <= this.lo.length) return
    const next = new Float64Array(Math.max(n, this.lo.length * 2))
    next.set(this.lo)
    this.lo = next
  }
}
