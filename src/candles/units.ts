import { UNITS_LIMIT_BIG, MAX_FAST_SCALE } from '../decimal/units.js'
import { POW10, stringToUnits, UNITS_LIMIT } from '../decimal/index.js'
import { parseDataDecimal } from '../decimal/parse.js'

/**
 * One field of a chunk as exact integer units at an adaptive scale (internal; the candle twin of the
 * trades reader's price/volume conversion). `out[i]` is NaN where |units| >= 2^52: then `bigAt(i)`.
 */
export class UnitsColumn {
  scale: number
  readonly out: Float64Array
  private big: Map<number, bigint> | undefined
  private objs: ArrayLike<unknown> | undefined
  private key = ''
  private missingAsZero = false
  private src: Float64Array | undefined
  private from = 0
  private n = 0
  private nonNegative = false
  private fail: ((i: number) => never) | undefined

  constructor(capacity: number, scale = 0) {
    this.out = new Float64Array(capacity)
    this.scale = scale
  }

  bigAt(i: number): bigint {
    const v = this.out[i] as number
    if (v === v) return BigInt(v)
    return this.big?.get(i) ?? 0n
  }

  /** Reads numbers src[from, from + n). `fail(i)` is called (and must throw) for an invalid entry. */
  fromNumbers(src: Float64Array, from: number, n: number, nonNegative: boolean, fail: (i: number) => never): void {
    this.read(src, undefined, '', false, from, n, nonNegative, fail)
  }

  /** Reads field `key` of objects[from, from + n) (decimal inputs); `missingAsZero` reads an absent field as 0. */
  fromObjects(
    objs: ArrayLike<unknown>,
    from: number,
    n: number,
    key: string,
    missingAsZero: boolean,
    nonNegative: boolean,
    fail: (i: number) => never,
  ): void {
    this.read(undefined, objs, key, missingAsZero, from, n, nonNegative, fail)
  }

  private read(
    src: Float64Array | undefined,
    objs: ArrayLike<unknown> | undefined,
    key: string,
    missingAsZero: boolean,
    from: number,
    n: number,
    nonNegative: boolean,
    fail: (i: number) => never,
  ): void {
    this.src = src
    this.objs = objs
    this.key = key
    this.missingAsZero = missingAsZero
    this.from = from
    this.n = n
    this.nonNegative = nonNegative
    this.fail = fail
    this.fill()
  }

  /** Raises the scale to s (>= current) and converts the last input again. */
  raise(s: number): void {
    if (s <= this.scale) return
    this.scale = s
    this.fill()
  }

  private valueAt(i: number): unknown {
    const o = (this.objs as ArrayLike<unknown>)[this.from + i] as Record<string, unknown>
    const x = o[this.key]
    return x === undefined && this.missingAsZero ? 0 : x
  }

  private fill(): void {
    const out = this.out
    const n = this.n
    const nonNeg = this.nonNegative
    for (;;) {
      this.big = undefined
      const scale = this.scale
      let failed = false
      if (scale <= MAX_FAST_SCALE) {
        const P = POW10[scale] as number
        const src = this.src
        if (src !== undefined) {
          const from = this.from
          for (let i = 0; i < n; i++) {
            const x = src[from + i] as number
            const u = Math.floor(x * P + 0.5)
            if (u / P === x && u < UNITS_LIMIT && u > -UNITS_LIMIT && (!nonNeg || x >= 0)) out[i] = u
            else {
              out[i] = Number.NaN
              failed = true
            }
          }
        } else {
          for (let i = 0; i < n; i++) {
            const x = this.valueAt(i)
            let u: number
            if (typeof x === 'string') u = stringToUnits(x, scale)
            else if (typeof x === 'number') {
              u = Math.floor(x * P + 0.5)
              if (!(u / P === x && u < UNITS_LIMIT && u > -UNITS_LIMIT)) u = Number.NaN
            } else u = Number.NaN
            if (u === u && (!nonNeg || u >= 0)) out[i] = u
            else {
              out[i] = Number.NaN
              failed = true
            }
          }
        }
      } else {
        out.fill(Number.NaN, 0, n)
        failed = n > 0
      }
      if (!failed) return
      const big = new Map<number, bigint>()
      let grew = false
      for (let i = 0; i < n; i++) {
        if (out[i] === out[i]) continue
        const x = this.src !== undefined ? this.src[this.from + i] : this.valueAt(i)
        const d = parseDataDecimal(x)
        const fail = this.fail as (i: number) => never
        if (!d.ok) {
          fail(i)
          continue
        }
        if (nonNeg && d.value.units < 0n) fail(i)
        if (d.value.scale > scale) {
          // grow at the first entry that needs it and convert again
          this.scale = d.value.scale
          grew = true
          break
        }
        const u = d.value.units * 10n ** BigInt(scale - d.value.scale)
        // a value only the fast reader's syntax missed (exponent notation) keeps the fast path
        if (u < UNITS_LIMIT_BIG && u > -UNITS_LIMIT_BIG) out[i] = Number(u)
        else big.set(i, u)
      }
      if (grew) continue
      this.big = big
      return
    }
  }
}

/** 10^k as a bigint. */
export function pow10Big(k: number): bigint {
  return 10n ** BigInt(k)
}
