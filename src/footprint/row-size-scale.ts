import { decimalToString, parseDecimal, type DecimalInput, type ExactDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { compareExact } from './rowset.js'
import { unitsAt } from './grid.js'
import { FOOTPRINT_MSG } from './messages.js'
import { checkOptions } from '../_lib/closed-options.js'
import { niceCeil } from '../_lib/nice-number.js'

/** Options of {@link rowSizeScale}. */
export interface RowSizeScaleOptions {
  /** Tick size of the security. */
  tickSize: DecimalInput
  /** A typical high - low of one bucket of the timeframe (e.g. the median of recent candles). */
  typicalRange?: DecimalInput
  /** Or recent bucket ranges (high - low); their median is used (lower middle for an even count). */
  ranges?: readonly DecimalInput[]
  /** Rows a bucket should show at the suggested default (default 30). */
  targetRows?: number
  /** Fewest rows at the largest offered size (default 5). */
  minRows?: number
  /** Most rows at the smallest offered size (default 300). */
  maxRows?: number
  /** Largest row size in ticks ever offered (default 1000, the REST `rowSize` limit). */
  maxRowSize?: number
}

/** What `GET /footprint/row-size-scale` answers: row sizes in ticks a settings UI should offer. */
export interface RowSizeScale {
  /** Smallest offered row size (ticks); every offered size is a multiple of it. */
  min: number
  /** Largest offered row size (ticks). */
  max: number
  /** Slider step (ticks), equal to `min`. */
  step: number
  /** Suggested row size (ticks). */
  default: number
  /** The tick size (minimal form) and the default as an absolute price step. */
  tickSize: string
  defaultRowSizeValue: string
  /** The typical range used, in ticks (rounded up), or null when none was given. */
  rangeTicks: number | null
}

const ceilDiv = (a: number, b: number): number => Math.ceil(a / b)

function posInt(x: unknown, dflt: number, field: string): number {
  const v = x ?? dflt
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1)
    throw new MarketDataError('invalid_option', FOOTPRINT_MSG.rowsOption(field, x), { field })
  return v
}

/**
 * The row sizes (in ticks) to offer for a security and timeframe, from its tick size and a typical bucket
 * range R (T = ceil(R / tickSize) ticks):
 * - `step` = `min` = the 1-2-5 number >= T / maxRows (so the finest offer shows at most ~300 rows);
 * - `default` = the smallest multiple of `step` >= T / targetRows (about 30 rows);
 * - `max` = the smallest multiple of `step` >= T / minRows (about 5 rows), at least `default`;
 * - all capped at `maxRowSize` (1000). Without a range: min 1, step 1, default 1, max `maxRowSize`.
 * Every offered size is a multiple of `min`, so profiles stored at `min` re-grid to any of them.
 *
 * @param opts - options, see {@link RowSizeScaleOptions}
 * @returns the `RowSizeScale`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * rowSizeScale({ tickSize: '0.25', typicalRange: '30' }) // { min: 1, max: 24, step: 1, default: 4, ... }
 */
export function rowSizeScale(opts: RowSizeScaleOptions): RowSizeScale {
  if (typeof opts !== 'object' || opts === null)
    throw new MarketDataError('invalid_option', FOOTPRINT_MSG.optionsMissing('rowSizeScale'))
  checkOptions(
    opts,
    ['tickSize', 'typicalRange', 'ranges', 'targetRows', 'minRows', 'maxRows', 'maxRowSize'],
    'rowSizeScale',
  )
  const t = parseDecimal(opts.tickSize)
  if (!t.ok || t.value.units <= 0n)
    throw new MarketDataError('invalid_option', FOOTPRINT_MSG.tickSize(opts.tickSize), { field: 'tickSize' })
  const tick = t.value
  const targetRows = posInt(opts.targetRows, 30, 'targetRows')
  const minRows = posInt(opts.minRows, 5, 'minRows')
  const maxRows = posInt(opts.maxRows, 300, 'maxRows')
  const cap = posInt(opts.maxRowSize, 1000, 'maxRowSize')
  let range: ExactDecimal | undefined
  if (opts.typicalRange !== undefined) {
    const r = parseDecimal(opts.typicalRange)
    if (!r.ok || r.value.units < 0n)
      throw new MarketDataError('invalid_option', FOOTPRINT_MSG.typicalRange(opts.typicalRange), {
        field: 'typicalRange',
      })
    range = r.value
  } else if (opts.ranges !== undefined) {
    if (!Array.isArray(opts.ranges))
      throw new MarketDataError('invalid_option', FOOTPRINT_MSG.ranges(), { field: 'ranges' })
    const xs: ExactDecimal[] = []
    for (const x of opts.ranges) {
      const r = parseDecimal(x)
      if (!r.ok || r.value.units < 0n)
        throw new MarketDataError('invalid_option', FOOTPRINT_MSG.ranges(), { field: 'ranges' })
      xs.push(r.value)
    }
    xs.sort(compareExact)
    if (xs.length > 0) range = xs[(xs.length - 1) >> 1]
  }
  const ticksValue = (ticks: number): string =>
    decimalToString({ units: tick.units * BigInt(ticks), scale: tick.scale })
  if (range === undefined) {
    return {
      min: 1,
      max: cap,
      step: 1,
      default: 1,
      tickSize: decimalToString(tick),
      defaultRowSizeValue: ticksValue(1),
      rangeTicks: null,
    }
  }
  const s = Math.max(range.scale, tick.scale)
  const ru = unitsAt(range, s)
  const tu = unitsAt(tick, s)
  const big = (ru + tu - 1n) / tu
  const T = Math.max(1, big > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(big))
  const step = Math.min(cap, niceCeil(ceilDiv(T, maxRows)))
  const mult = (rows: number): number =>
    Math.min(Math.max(step, Math.floor(cap / step) * step), step * Math.max(1, ceilDiv(T, rows * step)))
  const dflt = mult(targetRows)
  const max = Math.max(dflt, mult(minRows))
  return {
    min: step,
    max,
    step,
    default: dflt,
    tickSize: decimalToString(tick),
    defaultRowSizeValue: ticksValue(dflt),
    rangeTicks: T,
  }
}
