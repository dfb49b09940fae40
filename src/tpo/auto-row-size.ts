import { describeValue } from '../_lib/describe.js'
import { decimalToString, parseDecimal, type DecimalInput, type ExactDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { AUTO_MAX_ROWS, AUTO_MIN_ROWS, pickRowSize, rangeTicks } from '../_lib/row-size-rule.js'
import { checkOptions } from '../_lib/closed-options.js'

/** Options of {@link autoRowSize}. */
export interface AutoRowSizeOptions {
  /** Tick size of the security, a positive decimal. */
  tickSize: DecimalInput
  /** The price range a profile should show (high - low of a typical day), a decimal >= 0. */
  range?: DecimalInput
  /** Or several ranges (recent days' high - low): their median is used (the lower middle for an even count). */
  ranges?: readonly DecimalInput[]
  /** Or candles of past periods (daily candles for a TPO day): the median of their high - low is used. */
  candles?: readonly { high: DecimalInput; low: DecimalInput }[]
  /** Fewest rows wanted (default 30). */
  minRows?: number
  /** Most rows wanted (default 80). */
  maxRows?: number
}

/** What {@link autoRowSize} picks. */
export interface AutoRowSize {
  /** Row height in ticks (an integer >= 1): pass it as the `rowSize` option. */
  rowSize: number
  /** The same as an absolute price step (minimal form). */
  rowSizeValue: string
  /** Rows the range spans at that size, at most (the range's ticks / rowSize, rounded up, plus one). */
  rows: number
}

function count(x: unknown, dflt: number, field: string): number {
  const v = x ?? dflt
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 2)
    throw new MarketDataError(
      'invalid_option',
      `autoRowSize: \`${field}\` must be an integer >= 2, got ${describeValue(x)}`,
      { field },
    )
  return v
}

function decimal(x: unknown, field: string, min?: 0): ExactDecimal {
  const r = parseDecimal(x)
  if (!r.ok || (min === 0 && r.value.units < 0n))
    throw new MarketDataError(
      'invalid_option',
      `autoRowSize: \`${field}\` must be a decimal${min === 0 ? ' >= 0' : ''}, got ${describeValue(x)}`,
      { field },
    )
  return r.value
}

/**
 * A row size on the tick grid that shows a price range in about `minRows`..`maxRows` rows (30..80 by
 * default: a TPO day a trader can read, not 3,600 rows of a crypto day at tick 0.1). The range in ticks
 * T is rounded up; the row size is the smallest of 1, 2, 5, 10, 20, 50, ... ticks giving at most
 * `maxRows` rows (T / k rounded up, plus one for a range that straddles a row edge); when that number
 * of rows falls under `minRows` (a window narrower than the 1-2-5 steps), the smallest whole number of
 * ticks that fits is used instead. A range of fewer than `minRows` ticks gets one tick per row. Pure; it
 * does not change the defaults of `tpoProfiles` (row size 1): callers pass its `rowSize` explicitly.
 *
 * @param opts - `tickSize`, and `range`, `ranges` or `candles` (without any, one tick per row); `minRows`, `maxRows`.
 * @returns The row size in ticks, as a price step, and the rows the range spans.
 * @throws {MarketDataError} `invalid_option` naming the field: a tick size that is not a positive decimal, a negative or malformed range, `minRows` / `maxRows` not integers >= 2 or `minRows > maxRows`.
 * @example
 * autoRowSize({ tickSize: '0.1', range: '3600' }) // { rowSize: 500, rowSizeValue: '50', rows: 73 }
 * autoRowSize({ tickSize: '0.25', range: '42.5' }) // { rowSize: 5, rowSizeValue: '1.25', rows: 35 }
 */
export function autoRowSize(opts: AutoRowSizeOptions): AutoRowSize {
  if (typeof opts !== 'object' || opts === null)
    throw new MarketDataError(
      'invalid_option',
      `autoRowSize: \`options\` must be an object {tickSize, range}, got ${describeValue(opts)}`,
      { field: 'options' },
    )
  checkOptions(opts, ['tickSize', 'range', 'ranges', 'candles', 'minRows', 'maxRows'], 'autoRowSize')
  const t = parseDecimal(opts.tickSize)
  if (!t.ok || t.value.units <= 0n)
    throw new MarketDataError(
      'invalid_option',
      `autoRowSize: \`tickSize\` must be a positive decimal, got ${describeValue(opts.tickSize)}`,
      { field: 'tickSize' },
    )
  const tick = t.value
  const minRows = count(opts.minRows, AUTO_MIN_ROWS, 'minRows')
  const maxRows = count(opts.maxRows, AUTO_MAX_ROWS, 'maxRows')
  if (minRows > maxRows)
    throw new MarketDataError(
      'invalid_option',
      `autoRowSize: \`minRows\` (${minRows}) must not exceed \`maxRows\` (${maxRows})`,
      { field: 'minRows' },
    )
  let range: ExactDecimal | undefined
  if (opts.range !== undefined) range = decimal(opts.range, 'range', 0)
  else if (opts.ranges !== undefined) {
    if (!Array.isArray(opts.ranges))
      throw new MarketDataError(
        'invalid_option',
        `autoRowSize: \`ranges\` must be an array of decimals >= 0, got ${describeValue(opts.ranges)}`,
        { field: 'ranges' },
      )
    const xs = opts.ranges.map((x, i) => decimal(x, `ranges[${i}]`, 0))
    xs.sort((a, b) => {
      const s = Math.max(a.scale, b.scale)
      const d = a.units * 10n ** BigInt(s - a.scale) - b.units * 10n ** BigInt(s - b.scale)
      return d < 0n ? -1 : d > 0n ? 1 : 0
    })
    range = xs[(xs.length - 1) >> 1]
  } else if (opts.candles !== undefined) {
    if (!Array.isArray(opts.candles))
      throw new MarketDataError(
        'invalid_option',
        `autoRowSize: \`candles\` must be an array of {high, low}, got ${describeValue(opts.candles)}`,
        { field: 'candles' },
      )
    const spans = opts.candles.map((k: unknown, i) => {
      if (typeof k !== 'object' || k === null)
        throw new MarketDataError(
          'invalid_option',
          `autoRowSize: \`candles[${i}]\` must be a candle {high, low}, got ${describeValue(k)}`,
          { field: `candles[${i}]` },
        )
      const { high, low } = k as { high?: unknown; low?: unknown }
      const h = decimal(high, `candles[${i}].high`)
      const l = decimal(low, `candles[${i}].low`)
      const sc = Math.max(h.scale, l.scale)
      const units = h.units * 10n ** BigInt(sc - h.scale) - l.units * 10n ** BigInt(sc - l.scale)
      if (units < 0n)
        throw new MarketDataError('invalid_option', `autoRowSize: \`candles[${i}]\` has high below low`, {
          field: `candles[${i}]`,
        })
      return decimalToString({ units, scale: sc })
    })
    return autoRowSize({ tickSize: opts.tickSize, ranges: spans, minRows, maxRows })
  }
  const at = (k: number) => ({
    rowSize: k,
    rowSizeValue: decimalToString({ units: tick.units * BigInt(k), scale: tick.scale }),
  })
  if (range === undefined) return { ...at(1), rows: 1 }
  const s = Math.max(range.scale, tick.scale)
  const ticks = rangeTicks(range.units * 10n ** BigInt(s - range.scale), tick.units * 10n ** BigInt(s - tick.scale))
  const picked = pickRowSize(ticks, minRows, maxRows)
  return { ...at(picked.rowSize), rows: picked.rows }
}
