import {
  UNITS_LIMIT,
  decimalToString,
  formatFixed,
  parseDecimal,
  type DecimalInput,
  type ExactDecimal,
} from '../decimal/index.js'
import { decimalProblemNote } from '../decimal/parse.js'
import { MarketDataError } from '../errors.js'
import { FOOTPRINT_MSG } from './messages.js'

/** A resolved price grid: rows `[k * rowSizeValue, (k + 1) * rowSizeValue)` anchored at 0. */
export interface Grid {
  /** Minimal forms. */
  tickSize: string
  rowSizeValue: string
  /** rowSizeValue / tickSize (whole unless an absolute rowSizeValue is off the tick multiple). */
  rowSize: number
  /** Price decimals: the larger of the tick size's and the row size value's (minimal) decimals. */
  decimals: number
  /** rowSizeValue x 10^decimals (exact, < 2^52). */
  rowUnits: number
}

function positive(x: unknown, field: 'tickSize' | 'rowSizeValue'): ExactDecimal {
  const r = parseDecimal(x)
  if (!r.ok || r.value.units <= 0n)
    throw new MarketDataError('invalid_option', `${FOOTPRINT_MSG[field](x)}${decimalProblemNote(x)}`, { field })
  return r.value
}

/** Scales an exact decimal to `scale` decimals (scale >= its own). */
export function unitsAt(d: ExactDecimal, scale: number): bigint {
  return d.units * 10n ** BigInt(scale - d.scale)
}

/**
 * Resolves the grid options: `rowSize` in ticks (default 1) or an absolute `rowSizeValue`; both is an error.
 * Throws `MarketDataError` (`invalid_option`) naming the option.
 */
export function resolveGrid(tickSize: unknown, rowSize: unknown, rowSizeValue: unknown): Grid {
  const tick = positive(tickSize, 'tickSize')
  if (rowSize !== undefined && rowSizeValue !== undefined)
    throw new MarketDataError('invalid_option', FOOTPRINT_MSG.rowBoth(), { field: 'rowSize' })
  let row: ExactDecimal
  let ticks: number
  if (rowSizeValue !== undefined) {
    row = positive(rowSizeValue, 'rowSizeValue')
    const scale = Math.max(row.scale, tick.scale)
    const ru = unitsAt(row, scale)
    const tu = unitsAt(tick, scale)
    ticks = ru % tu === 0n ? Number(ru / tu) : Number(ru) / Number(tu)
  } else {
    const k = rowSize ?? 1
    if (typeof k !== 'number' || !Number.isSafeInteger(k) || k < 1)
      throw new MarketDataError('invalid_option', FOOTPRINT_MSG.rowSize(rowSize), { field: 'rowSize' })
    row = { units: tick.units * BigInt(k), scale: tick.scale }
    ticks = k
  }
  const decimals = Math.max(tick.scale, row.scale)
  const ru = unitsAt(row, decimals)
  if (ru >= BigInt(UNITS_LIMIT))
    throw new MarketDataError('invalid_option', FOOTPRINT_MSG.rowTooLarge(decimalToString(row)), {
      field: 'rowSizeValue',
    })
  return {
    tickSize: decimalToString(tick),
    rowSizeValue: decimalToString(row),
    rowSize: ticks,
    decimals,
    rowUnits: Number(ru),
  }
}

/** Lower bound of row `row`, printed with the grid's decimals. */
export function rowPrice(grid: Grid, row: number): string {
  const u = row * grid.rowUnits
  return formatFixed(Number.isSafeInteger(u) ? u : BigInt(row) * BigInt(grid.rowUnits), grid.decimals, grid.decimals)
}

/** Parses a decimal that is known valid (a profile's own strings); throws `MarketDataError` otherwise. */
export function exact(x: DecimalInput, field: string): ExactDecimal {
  const r = parseDecimal(x)
  if (!r.ok) throw new MarketDataError('invalid_decimal', `${field}: ${r.error}`, { field })
  return r.value
}
