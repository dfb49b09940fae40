import { POW10, parseDecimal, type ExactDecimal } from '../decimal/index.js'
import { compareExact } from './rowset.js'

/**
 * The extreme traded prices of a bucket, kept in three forms: units of the engine's price scale below 2^52
 * (the object and exact paths), bigint units past it, and doubles (the columnar path, read by their
 * shortest form only at the end). Infinity / null where none was seen.
 */
export interface PriceExtremes {
  minP: number
  maxP: number
  minBig: bigint | null
  maxBig: bigint | null
  minD: number
  maxD: number
}

/**
 * The sign of u / 10^scale - d, exact: decided on doubles when they are far apart (their rounding is far
 * below the margin), else on the exact decimals.
 */
function compareUnitsDouble(u: bigint, scale: number, d: number): number {
  if (scale <= 22) {
    const a = Number(u) / (POW10[scale] as number)
    const diff = a - d
    if (Math.abs(diff) > 1e-9 * Math.max(Math.abs(a), Math.abs(d))) return diff > 0 ? 1 : -1
  }
  return compareExact({ units: u, scale }, exactDouble(d))
}

/** The exact decimal of a finite double (its shortest form). */
function exactDouble(x: number): ExactDecimal {
  const r = parseDecimal(x)
  return r.ok ? r.value : { units: 0n, scale: 0 }
}

/**
 * Exact high and low prices (units at `pScale` for the unit paths, doubles for the columnar path). On a tie
 * the units win (their scale); a double is read into its shortest form only when it is the answer.
 */
export function exactExtremes(p: PriceExtremes, pScale: number): { high: ExactDecimal; low: ExactDecimal } {
  const hasD = p.maxD !== -Infinity
  let uHi: bigint | null = null
  let uLo: bigint | null = null
  if (p.maxP !== -Infinity) {
    uHi = BigInt(p.maxP)
    uLo = BigInt(p.minP)
  }
  if (p.maxBig !== null && p.minBig !== null) {
    if (uHi === null || p.maxBig > uHi) uHi = p.maxBig
    if (uLo === null || p.minBig < uLo) uLo = p.minBig
  }
  if (uHi === null || uLo === null) {
    // columnar records only (the usual case): the doubles' shortest forms
    if (hasD) return { high: exactDouble(p.maxD), low: exactDouble(p.minD) }
    const zero = { units: 0n, scale: pScale }
    return { high: zero, low: zero }
  }
  const high = { units: uHi, scale: pScale }
  const low = { units: uLo, scale: pScale }
  if (!hasD) return { high, low }
  return {
    high: compareUnitsDouble(uHi, pScale, p.maxD) < 0 ? exactDouble(p.maxD) : high,
    low: compareUnitsDouble(uLo, pScale, p.minD) > 0 ? exactDouble(p.minD) : low,
  }
}
