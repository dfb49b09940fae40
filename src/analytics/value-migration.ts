import { isArray } from '../_lib/describe.js'
import { formatFixed } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { resolveValueAreaPercent } from '../tpo/options.js'
import { priceField, readHistogram, rowPriceOf, type Histogram } from './histogram.js'
import { ANALYTICS_MSG } from './messages.js'
import { choiceOption, readOptions, unreadableAsError } from './options.js'
import { pocAndValueArea, seriesOf } from './series.js'
import type { AnalyticsProfile, ValueMigration, ValueMigrationOptions, ValueRelation } from './types.js'

const KEYS = ['basis', 'valueAreaPercent'] as const

/** A value area as the half-open price interval `[low, top)` in units at `scale`, with its row prices. */
export interface Value {
  time: number
  low: bigint
  top: bigint
  scale: number
  /** The row height in units at `scale`, and the histogram read. */
  rs: bigint
  h: Histogram
  valueAreaLow: string
  valueAreaHigh: string
}

/** A profile's value area (TPO fields, or a footprint's volume value area by the library's walk), exact. */
export function profileValue(
  p: unknown,
  who: string,
  fn: string,
  basis: 'tpo' | 'volume' | undefined,
  percent: number,
): Value {
  const h: Histogram = readHistogram(p, fn, who)
  const o = p as Record<string, unknown>
  const time = o.time
  if (typeof time !== 'number' || !Number.isFinite(time))
    throw new MarketDataError(
      'invalid_option',
      ANALYTICS_MSG.field(fn, who, 'time', time, 'must be a finite epoch-millisecond number'),
      { field: 'time' },
    )
  const b = basis ?? (h.kind === 'footprint' ? 'volume' : 'tpo')
  let valueAreaLow: string
  let valueAreaHigh: string
  if (h.kind === 'footprint') {
    const v = seriesOf(h, b, fn, '', 'basis')
    const r = pocAndValueArea(v, percent)
    valueAreaLow = rowPriceOf(h, r.low)
    valueAreaHigh = rowPriceOf(h, r.high)
  } else {
    if (b === 'volume' && h.kind === 'tpo-candles')
      throw new MarketDataError('invalid_option', ANALYTICS_MSG.noVolumes(fn, who, "use { basis: 'tpo' }"), {
        field: 'basis',
      })
    valueAreaLow = o[b === 'tpo' ? 'valueAreaLow' : 'volumeValueAreaLow'] as string
    valueAreaHigh = o[b === 'tpo' ? 'valueAreaHigh' : 'volumeValueAreaHigh'] as string
  }
  const lo = priceField(fn, who, { valueAreaLow }, 'valueAreaLow')
  const hi = priceField(fn, who, { valueAreaHigh }, 'valueAreaHigh')
  const scale = Math.max(h.decimals, lo.scale, hi.scale)
  const at = (units: bigint, s: number) => units * 10n ** BigInt(scale - s)
  const rs = at(h.rowUnits, h.decimals)
  return {
    time,
    low: at(lo.units, lo.scale),
    top: at(hi.units, hi.scale) + rs,
    scale,
    rs,
    h,
    valueAreaLow: formatFixed(lo.units, lo.scale, h.decimals),
    valueAreaHigh: formatFixed(hi.units, hi.scale, h.decimals),
  }
}

/**
 * The relation of two value areas, each the half-open interval `[valueAreaLow, valueAreaHigh + rowSizeValue)`
 * (a value area's rows are whole rows). Rules, in this order (`p` previous, `c` current):
 * higher: c.low >= p.top · lower: c.top <= p.low · unchanged: equal areas · inside: c.low > p.low and
 * c.top < p.top · outside: c.low < p.low and c.top > p.top · overlapping-higher: c.low >= p.low and
 * c.top >= p.top (one edge may be shared, the other moved up) · overlapping-lower: otherwise (c.low <= p.low
 * and c.top <= p.top).
 */
export function relationOf(p: { low: bigint; top: bigint }, c: { low: bigint; top: bigint }): ValueRelation {
  if (c.low >= p.top) return 'higher'
  if (c.top <= p.low) return 'lower'
  if (c.low === p.low && c.top === p.top) return 'unchanged'
  if (c.low > p.low && c.top < p.top) return 'inside'
  if (c.low < p.low && c.top > p.top) return 'outside'
  return c.low >= p.low && c.top >= p.top ? 'overlapping-higher' : 'overlapping-lower'
}

function align(v: Value, scale: number): { low: bigint; top: bigint } {
  const f = 10n ** BigInt(scale - v.scale)
  return { low: v.low * f, top: v.top * f }
}

export function resolveMigrationOptions(
  fn: string,
  options: unknown,
): { basis: 'tpo' | 'volume' | undefined; percent: number } {
  const o = readOptions(fn, options, KEYS)
  const basis = o.basis === undefined ? undefined : choiceOption(fn, 'basis', o.basis, ['tpo', 'volume'], 'tpo')
  let percent: number
  try {
    percent = resolveValueAreaPercent(o.valueAreaPercent).percent
  } catch {
    throw new MarketDataError(
      'invalid_option',
      ANALYTICS_MSG.option(fn, 'valueAreaPercent', o.valueAreaPercent, 'must be a number with 0 < p <= 100'),
      { field: 'valueAreaPercent' },
    )
  }
  return { basis, percent }
}

function migration(a: Value, b: Value): ValueMigration {
  const s = Math.max(a.scale, b.scale)
  return {
    previousTime: a.time,
    time: b.time,
    relation: relationOf(align(a, s), align(b, s)),
    previous: { valueAreaLow: a.valueAreaLow, valueAreaHigh: a.valueAreaHigh },
    current: { valueAreaLow: b.valueAreaLow, valueAreaHigh: b.valueAreaHigh },
  }
}

/**
 * Value migration from one period to the next (Dalton, Mind over Markets: where today's value area lies
 * against yesterday's — higher, overlapping-higher, unchanged, inside, outside, overlapping-lower, lower).
 * Each value area is the interval of its rows, `[valueAreaLow, valueAreaHigh + rowSizeValue)`, so profiles
 * on different grids compare exactly. The rule table is in docs/analytics.md; swapping the two periods
 * mirrors the answer (higher ↔ lower, overlapping-higher ↔ overlapping-lower, inside ↔ outside, unchanged
 * both ways).
 *
 * TPO profiles use their `valueAreaLow` / `valueAreaHigh` (`basis: 'volume'`: the volume value area, which
 * candle profiles do not have); footprints use the volume value area of their rows, computed with the
 * library's walk and `valueAreaPercent` (default 70).
 *
 * @param previous - the earlier period's profile
 * @param current - the later period's profile
 * @param options - `{ basis?, valueAreaPercent? }`
 * @returns the relation and the two value areas compared
 * @throws MarketDataError `invalid_option` for a malformed profile or option, or `basis: 'volume'` on a candle profile
 * @example
 * valueMigration(monday, tuesday).relation // 'overlapping-higher'
 */
export function valueMigration(
  previous: AnalyticsProfile,
  current: AnalyticsProfile,
  options?: ValueMigrationOptions,
): ValueMigration {
  return unreadableAsError('valueMigration', () => {
    const fn = 'valueMigration'
    const o = resolveMigrationOptions(fn, options)
    return migration(
      profileValue(previous, 'previous', fn, o.basis, o.percent),
      profileValue(current, 'current', fn, o.basis, o.percent),
    )
  })
}

/**
 * {@link valueMigration} along a list of profiles: entry i compares profiles[i] with profiles[i + 1], in
 * the order given (one fewer entry than profiles).
 *
 * @param profiles - profiles of consecutive periods, in time order
 * @param options - `{ basis?, valueAreaPercent? }`
 * @returns one migration per consecutive pair
 * @throws MarketDataError `invalid_option` as {@link valueMigration}, naming `profiles[i]`
 * @example
 * valueMigrations(tpoProfiles(trades, { timeframe: '1d', tickSize: '0.25' })).map((m) => m.relation) // ['higher', 'inside']
 */
export function valueMigrations(
  profiles: readonly AnalyticsProfile[],
  options?: ValueMigrationOptions,
): ValueMigration[] {
  return unreadableAsError('valueMigrations', () => {
    const fn = 'valueMigrations'
    const o = resolveMigrationOptions(fn, options)
    if (!isArray(profiles))
      throw new MarketDataError('invalid_option', ANALYTICS_MSG.noProfiles(fn), { field: 'profiles' })
    const values = profiles.map((p, i) => profileValue(p, `profiles[${i}]`, fn, o.basis, o.percent))
    const out: ValueMigration[] = []
    for (let i = 1; i < values.length; i++) out.push(migration(values[i - 1] as Value, values[i] as Value))
    return out
  })
}
