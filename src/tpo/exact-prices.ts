// Prices a double cannot hold (a trade object's decimal string with more significant digits than a
// double keeps, `973063183.99440743`): a profile places them exactly, as the footprint does. The typed
// block arrays keep doubles that order every double price the same way as the exact price does, and
// the exact values themselves live beside them, per block, for the rare blocks that have one.
import { formatUnits, nextDown, nextUp, parseDecimal, type ExactDecimal } from '../decimal/index.js'
import { compareDecimal } from './parts.js'

/** The exact extremes and open/close of one block that a double could not carry (undefined: the double is the value). */
export interface ExactBlockPrices {
  high: ExactDecimal | undefined
  low: ExactDecimal | undefined
  /** The open price when the block's double open price is NaN. */
  open: ExactDecimal | undefined
  /** The close price when the block's double close price is NaN. */
  close: ExactDecimal | undefined
}

/** The exact decimal of a double price (its shortest form). */
function exactOfDouble(p: number): ExactDecimal {
  const d = parseDecimal(p)
  if (!d.ok) throw new Error(`not a finite double: ${p}`)
  return d.value
}

/**
 * The double `h` below `x` (not a double) that splits the doubles as `x` does: a double price p is above
 * `x` exactly when p > h. (A double's decimal is the shortest form of it; those forms keep the doubles'
 * order, and only the double nearest `x` may fall on either side of it.)
 */
export function doubleBelow(x: ExactDecimal): number {
  const q = Number(formatUnits(x.units, x.scale))
  return compareDecimal(exactOfDouble(q), x) > 0 ? nextDown(q) : q
}

/** The double `l` above `x` (not a double): a double price p is below `x` exactly when p < l. */
export function doubleAbove(x: ExactDecimal): number {
  const q = Number(formatUnits(x.units, x.scale))
  return compareDecimal(exactOfDouble(q), x) < 0 ? nextUp(q) : q
}

/** The larger of a double extreme (-Infinity: none) and an exact one. */
export function maxExact(d: number, x: ExactDecimal | undefined): ExactDecimal {
  if (x === undefined) return exactOfDouble(d)
  if (d === Number.NEGATIVE_INFINITY) return x
  const e = exactOfDouble(d)
  return compareDecimal(e, x) >= 0 ? e : x
}

/** The smaller of a double extreme (Infinity: none) and an exact one. */
export function minExact(d: number, x: ExactDecimal | undefined): ExactDecimal {
  if (x === undefined) return exactOfDouble(d)
  if (d === Number.POSITIVE_INFINITY) return x
  const e = exactOfDouble(d)
  return compareDecimal(e, x) <= 0 ? e : x
}
