import { isArray } from '../_lib/describe.js'
import { formatFixed, type ExactDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { compareDecimal } from '../tpo/parts.js'
import { daySessionsOf } from './day-session.js'
import { priceField, readTpoHistogram, type Histogram } from './histogram.js'
import { ANALYTICS_MSG } from './messages.js'
import { integerOption, readOptions, unreadableAsError } from './options.js'
import type { BalanceBracket, BalanceBracketOptions } from './read-types.js'
import type { AnyTpoProfile } from './types.js'

const FN = 'balanceBrackets'

/** A profile's value area as exact row numbers and its traded range. */
interface Day {
  time: number
  /** First and last value-area row (row k is [k, k + 1) x rowSizeValue). */
  lo: bigint
  hi: bigint
  high: ExactDecimal
  low: ExactDecimal
  highText: string
  lowText: string
}

/** Grid row of a row price of `h` (checked to lie on its grid). */
export function rowOf(fn: string, h: Histogram, d: ExactDecimal, field: string, x: unknown): bigint {
  const u = d.units * 10n ** BigInt(Math.max(0, h.decimals - d.scale))
  if (d.scale > h.decimals || u % h.rowUnits !== 0n)
    throw new MarketDataError(
      'invalid_option',
      ANALYTICS_MSG.field(fn, h.who, field, x, 'must be a row price of the profile'),
      {
        field,
      },
    )
  return u / h.rowUnits
}

/** Refuses a profile on another grid than the first one (`grid_mismatch`). */
export function sameGrid(fn: string, first: Histogram, h: Histogram, index: number): void {
  const d = Math.max(first.decimals, h.decimals)
  if (first.rowUnits * 10n ** BigInt(d - first.decimals) !== h.rowUnits * 10n ** BigInt(d - h.decimals))
    throw new MarketDataError(
      'grid_mismatch',
      ANALYTICS_MSG.gridMismatch(fn, h.who, first.rowSizeValue, h.rowSizeValue),
      {
        field: 'rowSizeValue',
        index,
      },
    )
}

/**
 * Multi-day balance (Dalton, Markets in Profile: brackets): runs of at least `minDays` (3) consecutive
 * profiles whose value areas all share at least one row — overlapping value, the market in balance —
 * with the bracket's high and low (the days' highest high and lowest low) and the rows every value area
 * holds. Runs are found left to right and do not overlap: a run ends at the first day whose value shares
 * no row with all the run's days, and the next run may start there. A grouped (GROUP_BY_TYPE) list reads
 * its MAINSESSION profiles only, so brackets are of day sessions. All profiles on one `rowSizeValue`.
 *
 * @param profiles - TPO profiles of consecutive periods (trades or candles), in time order
 * @param options - `{ minDays? }`, an integer >= 2
 * @returns the brackets `{ start, last, days, high, low, value: { low, high, rows } }`, in time order
 * @throws MarketDataError `invalid_option` for a footprint, a malformed profile, a bad option;
 *   `grid_mismatch` for profiles on different grids
 * @example
 * balanceBrackets(tpoProfiles(trades, { timeframe: '1d', tickSize: '0.25' })) // [{ days: 4, high: '5012.00', low: '4990.25', value: { low: '5001.00', high: '5003.50', rows: 11 }, ... }]
 */
export function balanceBrackets(profiles: readonly AnyTpoProfile[], options?: BalanceBracketOptions): BalanceBracket[] {
  return unreadableAsError(FN, () => {
    const o = readOptions(FN, options, ['minDays'])
    const minDays = integerOption(FN, 'minDays', o.minDays, 3, 2, 1_000_000)
    if (!isArray(profiles))
      throw new MarketDataError('invalid_option', ANALYTICS_MSG.noProfiles(FN), { field: 'profiles' })
    let first: Histogram | undefined
    const days: Day[] = daySessionsOf(profiles).map(({ p, i }) => {
      const who = `profiles[${i}]`
      const h = readTpoHistogram(p, FN, who)
      first ??= h
      sameGrid(FN, first, h, i)
      const q = p as unknown as Record<string, unknown>
      const time = q.time
      if (typeof time !== 'number' || !Number.isFinite(time))
        throw new MarketDataError(
          'invalid_option',
          ANALYTICS_MSG.field(FN, who, 'time', time, 'must be a finite epoch-millisecond number'),
          { field: 'time' },
        )
      return {
        time,
        lo: rowOf(FN, h, priceField(FN, who, q, 'valueAreaLow'), 'valueAreaLow', q.valueAreaLow),
        hi: rowOf(FN, h, priceField(FN, who, q, 'valueAreaHigh'), 'valueAreaHigh', q.valueAreaHigh),
        high: priceField(FN, who, q, 'high'),
        low: priceField(FN, who, q, 'low'),
        highText: q.high as string,
        lowText: q.low as string,
      }
    })
    const out: BalanceBracket[] = []
    const g = first
    for (let i = 0; i < days.length; ) {
      let lo = days[i]!.lo
      let hi = days[i]!.hi
      let j = i + 1
      while (j < days.length) {
        const nlo = days[j]!.lo > lo ? days[j]!.lo : lo
        const nhi = days[j]!.hi < hi ? days[j]!.hi : hi
        if (nlo > nhi) break
        lo = nlo
        hi = nhi
        j++
      }
      if (j - i >= minDays && g !== undefined) {
        const run = days.slice(i, j)
        const top = run.reduce((a, b) => (compareDecimal(b.high, a.high) > 0 ? b : a))
        const bottom = run.reduce((a, b) => (compareDecimal(b.low, a.low) < 0 ? b : a))
        out.push({
          start: days[i]!.time,
          last: days[j - 1]!.time,
          days: j - i,
          high: top.highText,
          low: bottom.lowText,
          value: {
            low: formatFixed(lo * g.rowUnits, g.decimals, g.decimals),
            high: formatFixed(hi * g.rowUnits, g.decimals, g.decimals),
            rows: Number(hi - lo + 1n),
          },
        })
        i = j
      } else i++
    }
    return out
  })
}
