import { decimalToString, formatUnits, parseDecimal, type ExactDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { rowPrice, unitsAt, type Grid } from './grid.js'
import { FOOTPRINT_MSG } from './messages.js'
import type { RowSet } from './exact-rows.js'
import type {
  FootprintAnalytics,
  FootprintAnalyticsOptions,
  FootprintImbalance,
  FootprintStackedImbalance,
} from './types.js'
import { checkOptions } from '../_lib/closed-options.js'
import { ANALYTICS_OPTION_KEYS } from './types.js'

/** Analytics options with defaults applied (exact decimals). */
export interface ResolvedAnalyticsOptions {
  ratio: ExactDecimal
  minVolume: ExactDecimal
  stackedRows: number
}

/**
 * Resolves analytics options once (defaults: ratio 300%, minVolume 0, stackedRows 3); throws `invalid_option`.
 * `o` must be undefined, `true` or an options object (arrays, null and other values are refused, naming `field`).
 */
export function resolveAnalyticsOptions(
  o: unknown,
  field: 'analytics' | 'options' = 'analytics',
): ResolvedAnalyticsOptions {
  if (o !== undefined && o !== true && (typeof o !== 'object' || o === null || Array.isArray(o))) {
    throw new MarketDataError(
      'invalid_option',
      field === 'analytics' ? FOOTPRINT_MSG.analyticsOption(o) : FOOTPRINT_MSG.analyticsArgument(o),
      { field },
    )
  }
  checkOptions(o, ANALYTICS_OPTION_KEYS, field === 'analytics' ? 'the analytics option' : 'footprintAnalytics')
  const opts: FootprintAnalyticsOptions = o === true || o === undefined ? {} : (o as FootprintAnalyticsOptions)
  const r = parseDecimal(opts.ratio ?? 300)
  if (!r.ok || r.value.units <= 0n)
    throw new MarketDataError('invalid_option', FOOTPRINT_MSG.ratio(opts.ratio), { field: 'ratio' })
  const m = parseDecimal(opts.minVolume ?? 0)
  if (!m.ok || m.value.units < 0n)
    throw new MarketDataError('invalid_option', FOOTPRINT_MSG.minVolume(opts.minVolume), { field: 'minVolume' })
  const k = opts.stackedRows ?? 3
  if (typeof k !== 'number' || !Number.isSafeInteger(k) || k < 2)
    throw new MarketDataError('invalid_option', FOOTPRINT_MSG.stackedRows(opts.stackedRows), { field: 'stackedRows' })
  return { ratio: r.value, minVolume: m.value, stackedRows: k }
}

/** dominant x 100 >= ratio% x against, and dominant >= minVolume, dominant > 0 (exact). */
function imbalanced(dom: bigint, against: bigint, vScale: number, o: ResolvedAnalyticsOptions): boolean {
  if (dom <= 0n) return false
  const ms = Math.max(vScale, o.minVolume.scale)
  if (dom * 10n ** BigInt(ms - vScale) < unitsAt(o.minVolume, ms)) return false
  return dom * 100n * 10n ** BigInt(o.ratio.scale) >= o.ratio.units * against
}

function runs(
  rows: number[],
  flags: boolean[],
  side: 'buy' | 'sell',
  grid: Grid,
  min: number,
  out: [number, FootprintStackedImbalance][],
): void {
  let i = 0
  const n = rows.length
  while (i < n) {
    if (!flags[i]) {
      i++
      continue
    }
    let j = i
    while (j + 1 < n && flags[j + 1] && (rows[j + 1] as number) === (rows[j] as number) + 1) j++
    if (j - i + 1 >= min)
      out.push([
        i,
        { side, low: rowPrice(grid, rows[i] as number), high: rowPrice(grid, rows[j] as number), rows: j - i + 1 },
      ])
    i = j + 1
  }
}

/**
 * Diagonal imbalances (buy at row r vs sell at row r - 1; sell at r vs buy at r + 1, compared only when
 * that diagonal row traded), stacked imbalances (>= stackedRows consecutive grid rows imbalanced on the
 * same side), unfinished auctions (both sides traded in the top / bottom row).
 */
export function computeAnalytics(grid: Grid, set: RowSet, o: ResolvedAnalyticsOptions): FootprintAnalytics {
  const n = set.rows.length
  const rows = set.rows
  const vs = set.vScale
  const buyFlags: boolean[] = new Array(n).fill(false)
  const sellFlags: boolean[] = new Array(n).fill(false)
  const imbalances: FootprintImbalance[] = []
  for (let i = 0; i < n; i++) {
    const r = rows[i] as number
    if (i > 0 && rows[i - 1] === r - 1) {
      const b = set.buy[i] as bigint
      const against = set.sell[i - 1] as bigint
      if (imbalanced(b, against, vs, o)) {
        buyFlags[i] = true
        imbalances.push({
          price: rowPrice(grid, r),
          side: 'buy',
          volume: formatUnits(b, vs),
          against: formatUnits(against, vs),
        })
      }
    }
    if (i + 1 < n && rows[i + 1] === r + 1) {
      const s = set.sell[i] as bigint
      const against = set.buy[i + 1] as bigint
      if (imbalanced(s, against, vs, o)) {
        sellFlags[i] = true
        imbalances.push({
          price: rowPrice(grid, r),
          side: 'sell',
          volume: formatUnits(s, vs),
          against: formatUnits(against, vs),
        })
      }
    }
  }
  const found: [number, FootprintStackedImbalance][] = []
  runs(rows, buyFlags, 'buy', grid, o.stackedRows, found)
  runs(rows, sellFlags, 'sell', grid, o.stackedRows, found)
  // ascending by low price; buy before sell at the same low (stable sort keeps that order)
  const stacked = found.sort((a, b) => a[0] - b[0]).map((x) => x[1])
  const top = n - 1
  return {
    ratio: decimalToString(o.ratio),
    minVolume: decimalToString(o.minVolume),
    stackedRows: o.stackedRows,
    imbalances,
    stackedImbalances: stacked,
    unfinishedHigh: n > 0 && (set.nb[top] as number) > 0 && (set.ns[top] as number) > 0,
    unfinishedLow: n > 0 && (set.nb[0] as number) > 0 && (set.ns[0] as number) > 0,
  }
}
