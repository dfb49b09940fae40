import { formatUnits, type ExactDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { readHistogram, rowPriceOf, type Histogram } from './histogram.js'
import { ANALYTICS_MSG } from './messages.js'
import { choiceOption, decimalOption, integerOption, readOptions, unreadableAsError } from './options.js'
import { seriesOf, type ProfileSource } from './series.js'
import type { AnalyticsProfile, VolumeNode, VolumeNodeOptions, VolumeNodes } from './types.js'

const FN = 'volumeNodes'
const KEYS = ['source', 'smoothing', 'minProminence'] as const

/** Node options with defaults applied. */
export interface ResolvedNodeOptions {
  source: ProfileSource
  smoothing: number
  minProminence: ExactDecimal
}

/** Resolves {@link VolumeNodeOptions} once (defaults: source from the profile, smoothing 3, minProminence 10). */
export function resolveNodeOptions(fn: string, x: unknown, defaultSource: ProfileSource): ResolvedNodeOptions {
  const o = readOptions(fn, x, KEYS)
  const rule = 'must be an odd integer from 1 to 99 (rows in the centred window; 1 = no smoothing)'
  const smoothing = integerOption(fn, 'smoothing', o.smoothing, 3, 1, 99, rule)
  if (smoothing % 2 === 0)
    throw new MarketDataError('invalid_option', ANALYTICS_MSG.option(fn, 'smoothing', o.smoothing, rule), {
      field: 'smoothing',
    })
  return {
    source: choiceOption(fn, 'source', o.source, ['volume', 'tpo'], defaultSource),
    smoothing,
    minProminence: decimalOption(
      fn,
      'minProminence',
      o.minProminence,
      '10',
      '0',
      '100',
      'must be a decimal percent from 0 to 100 (of the highest smoothed value)',
    ),
  }
}

/**
 * Centred moving sums of width `w` (odd) with zeros beyond both ends (no trading outside the range), padded
 * with one zero entry on each side: index k of the result is row k - 1. A window sum is `w` times the
 * moving mean, so extrema and prominence ratios are those of the mean, kept exact.
 */
function smoothedPadded(values: readonly bigint[], w: number): bigint[] {
  const n = values.length
  const h = (w - 1) / 2
  const prefix = new Array<bigint>(n + 1)
  prefix[0] = 0n
  for (let i = 0; i < n; i++) prefix[i + 1] = (prefix[i] as bigint) + (values[i] as bigint)
  const out = new Array<bigint>(n + 2).fill(0n)
  for (let i = 0; i < n; i++)
    out[i + 1] = (prefix[Math.min(n, i + h + 1)] as bigint) - (prefix[Math.max(0, i - h)] as bigint)
  return out
}

interface Extremum {
  /** First and last padded index of the (plateau) run. */
  a: number
  b: number
  /** Height above the higher of its two bases (peaks) or depth below the lower of its two walls (valleys). */
  prominence: bigint
}

/**
 * For every index k of `v`, the lowest value from k back to (not including) the nearest index before k
 * holding a strictly higher value, or to the start: the base an extremum at k reaches walking left. One
 * pass with a stack of strictly decreasing values, each entry holding the lowest value of the stretch it
 * closes, so a whole profile costs O(n), whatever its shape.
 */
function leftBases(v: readonly bigint[]): bigint[] {
  const out = new Array<bigint>(v.length)
  const stack: { value: bigint; low: bigint }[] = []
  for (let k = 0; k < v.length; k++) {
    const x = v[k] as bigint
    let low = x
    while (stack.length > 0 && (stack[stack.length - 1] as { value: bigint }).value <= x) {
      const e = stack.pop() as { low: bigint }
      if (e.low < low) low = e.low
    }
    out[k] = low
    stack.push({ value: x, low })
  }
  return out
}

/**
 * Strict local maxima of `s` (`sign` 1) or minima (`sign` -1), flat runs counting as one, with their
 * topographic prominence (the rule of scipy.signal.peak_prominences): from the run, walk each way while
 * values stay at or below the peak (at or above the valley), stop at a strictly higher (lower) value or
 * the end; the base on each side is the lowest (highest) value walked; prominence = height minus the
 * higher base (the lower wall minus depth). Runs that touch the padding are not extrema.
 */
function extrema(s: readonly bigint[], sign: 1n | -1n): Extremum[] {
  const m = s.length
  const v = s.map((x) => x * sign)
  const left = leftBases(v)
  const right = leftBases([...v].reverse()).reverse()
  const out: Extremum[] = []
  let a = 0
  while (a < m) {
    let b = a
    while (b + 1 < m && v[b + 1] === v[a]) b++
    const top = v[a] as bigint
    if (a > 0 && b < m - 1 && (v[a - 1] as bigint) < top && (v[b + 1] as bigint) < top) {
      const l = left[a] as bigint
      const r = right[b] as bigint
      out.push({ a, b, prominence: top - (l > r ? l : r) })
    }
    a = b + 1
  }
  return out
}

/** prominence / max as a percent, floored to 2 decimals ("12.5"). */
function percentOf(p: bigint, max: bigint): string {
  return formatUnits((p * 10_000n) / max, 2)
}

/** High and low nodes of a dense series (see {@link volumeNodes} for the rules). */
export function nodesOfSeries(
  h: Histogram,
  values: readonly bigint[],
  o: ResolvedNodeOptions,
  vScale: number,
): VolumeNodes {
  const s = smoothedPadded(values, o.smoothing)
  let max = 0n
  for (const x of s) if (x > max) max = x
  const node = (e: Extremum): VolumeNode => {
    const mid = e.a + Math.floor((e.b - e.a) / 2) - 1
    return {
      price: rowPriceOf(h, mid),
      low: rowPriceOf(h, e.a - 1),
      high: rowPriceOf(h, e.b - 1),
      value: formatUnits(values[mid] as bigint, vScale),
      prominence: percentOf(e.prominence, max),
    }
  }
  // prominence >= minProminence% of the highest smoothed value (exact); nothing when every value is 0
  const keep = (e: Extremum) =>
    max > 0n && e.prominence * 100n * 10n ** BigInt(o.minProminence.scale) >= o.minProminence.units * max
  return {
    source: o.source,
    smoothing: o.smoothing,
    minProminence: formatUnits(o.minProminence.units, o.minProminence.scale),
    highVolumeNodes: extrema(s, 1n).filter(keep).map(node),
    lowVolumeNodes: extrema(s, -1n).filter(keep).map(node),
  }
}

/**
 * High and low volume nodes (HVN / LVN) of a profile: local maxima and minima of its row histogram after
 * smoothing, kept when prominent enough.
 *
 * - Histogram: buy + sell volume per grid row (`source: 'volume'`, the default for trade TPO profiles and
 *   footprints; a footprint's untraded rows inside its range count as 0) or TPOs per row (`source: 'tpo'`,
 *   the default for `tpoFromCandles` profiles, whose row volumes are unknown).
 * - Smoothing: a centred moving mean over `smoothing` rows (odd, default 3; 1 = none), with zero volume
 *   beyond the profile's extremes.
 * - Extrema: strict local maxima (HVN) and minima (LVN) of the smoothed values; a flat run is one node,
 *   reported at its middle row (the lower of two middles) with its `low` / `high` rows. A row at an extreme
 *   of the profile can be an HVN (beyond it the volume is 0), never an LVN.
 * - Prominence (scipy's topographic prominence): an HVN's height above the higher of the lowest points
 *   reached walking each way until a higher value; an LVN's depth below the lower of the highest points
 *   reached walking each way until a lower value. Kept when >= `minProminence` percent (default 10) of
 *   the highest smoothed value; reported as that percent, floored to 2 decimals.
 *
 * Source: py-market-profile's `high_value_nodes` / `low_value_nodes` (scipy `argrelextrema` on the raw
 * histogram, no smoothing, no threshold: `{ smoothing: 1, minProminence: 0 }` is the nearest setting).
 *
 * @param profile - a TPO profile (trades or candles) or a footprint profile
 * @param options - `{ source?, smoothing?, minProminence? }`
 * @returns the nodes in ascending price, with the options used
 * @throws MarketDataError `invalid_option` for a malformed profile or option, for `source: 'volume'` on a
 *   candle profile and for `source: 'tpo'` on a footprint
 * @example
 * volumeNodes(profile, { smoothing: 1, minProminence: 20 }).highVolumeNodes
 * // [{ price: '5001.00', low: '5001.00', high: '5001.00', value: '340', prominence: '71.42' }]
 */
export function volumeNodes(profile: AnalyticsProfile, options?: VolumeNodeOptions): VolumeNodes {
  return unreadableAsError('volumeNodes', () => {
    const h = readHistogram(profile, FN)
    const o = resolveNodeOptions(FN, options, h.kind === 'tpo-candles' ? 'tpo' : 'volume')
    const values = seriesOf(h, o.source, FN, "use { source: 'tpo' } for TPO-count nodes")
    return nodesOfSeries(h, values, o, o.source === 'tpo' ? 0 : h.vScale)
  })
}
