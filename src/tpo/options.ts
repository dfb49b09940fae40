import { decimalToString, parseDecimal, UNITS_LIMIT, type ExactDecimal } from '../decimal/index.js'
import { decimalProblemNote } from '../decimal/parse.js'
import { MarketDataError } from '../errors.js'
import { parseClockDuration, resolveTimeframe, type Timeframe, type TimeframeInput } from '../time/index.js'
import { TPO_MSG } from './messages.js'
import type { TpoOptions } from './types.js'
import type { SessionType } from '../trades/index.js'
import { sessionMask } from '../trades/validate.js'

/** The price grid of TPO rows: row k is `[k * rowSizeValue, (k + 1) * rowSizeValue)`, anchored at 0. */
export interface TpoGrid {
  tickSize: string
  /** Decimals of prices on the grid (the tick size's minimal decimals). */
  scale: number
  rowSize: number
  rowSizeValue: string
  /** rowSizeValue x 10^scale, exact and < 2^52. */
  rowUnits: number
  rowUnitsBig: bigint
}

/** Options resolved once: every default applied, every value checked. */
export interface TpoConfig {
  period: Timeframe
  block: Timeframe
  timeZone: string | undefined
  grid: TpoGrid
  grouped: boolean
  valueAreaPercent: number
  valueArea: ExactDecimal
  initialBalanceMs: number
  initialBalancePeriod: string
  /** Bit c set when session code c is kept. */
  sessionMask: number
}

/** Resolves the grid from a tick size and a row size in ticks; throws `invalid_option` naming the option. */
export function resolveTpoGrid(tickSize: unknown, rowSize: unknown): TpoGrid {
  const t = parseDecimal(tickSize)
  if (!t.ok || t.value.units <= 0n)
    throw new MarketDataError('invalid_option', `${TPO_MSG.tickSize(tickSize)}${decimalProblemNote(tickSize)}`, {
      field: 'tickSize',
    })
  const k = rowSize ?? 1
  if (typeof k !== 'number' || !Number.isSafeInteger(k) || k < 1)
    throw new MarketDataError('invalid_option', TPO_MSG.rowSize(rowSize), { field: 'rowSize' })
  const tick = t.value
  const ru = tick.units * BigInt(k)
  if (ru >= BigInt(UNITS_LIMIT))
    throw new MarketDataError(
      'invalid_option',
      TPO_MSG.rowTooLarge(decimalToString({ units: ru, scale: tick.scale })),
      { field: 'rowSize' },
    )
  return {
    tickSize: decimalToString(tick),
    scale: tick.scale,
    rowSize: k,
    rowSizeValue: decimalToString({ units: ru, scale: tick.scale }),
    rowUnits: Number(ru),
    rowUnitsBig: ru,
  }
}

/**
 * The row size in ticks of the options: `rowSize`, or `rowSizeValue` / `tickSize` (a whole number; both
 * given is invalid). A bad tick size is left to {@link resolveTpoGrid}, which names it.
 */
function rowSizeOf(opts: TpoOptions): unknown {
  const rsv = opts.rowSizeValue
  if (rsv === undefined) return opts.rowSize
  if (opts.rowSize !== undefined) throw new MarketDataError('invalid_option', TPO_MSG.rowBoth(), { field: 'rowSize' })
  const t = parseDecimal(opts.tickSize)
  if (!t.ok || t.value.units <= 0n) return opts.rowSize
  const r = parseDecimal(rsv)
  if (!r.ok || r.value.units <= 0n)
    throw new MarketDataError('invalid_option', TPO_MSG.rowSizeValue(rsv), { field: 'rowSizeValue' })
  const scale = Math.max(r.value.scale, t.value.scale)
  const ru = r.value.units * 10n ** BigInt(scale - r.value.scale)
  const tu = t.value.units * 10n ** BigInt(scale - t.value.scale)
  if (ru % tu !== 0n)
    throw new MarketDataError(
      'invalid_option',
      TPO_MSG.rowSizeValueOffTick(decimalToString(r.value), decimalToString(t.value)),
      { field: 'rowSizeValue' },
    )
  const k = ru / tu
  return k > BigInt(Number.MAX_SAFE_INTEGER) ? Number.POSITIVE_INFINITY : Number(k)
}

export { resolveValueAreaPercent } from '../profile/value-area.js'
import { resolveValueAreaPercent } from '../profile/value-area.js'

/** Resolves an `initialBalance` length (`<n>m` / `<n>h`, default `'1h'`) to ms. */
export function resolveInitialBalance(x: unknown): { ms: number; id: string } {
  const s = x ?? '1h'
  const r = parseClockDuration(s as string)
  if (!r.ok) throw new MarketDataError('invalid_option', TPO_MSG.initialBalance(r.error), { field: 'initialBalance' })
  return { ms: r.value, id: s as string }
}

/** Resolves a minute/hour `blockSize` (default `'30m'`). */
export function resolveBlockSize(x: unknown): Timeframe {
  const tf = resolveTimeframe((x ?? '30m') as TimeframeInput, 'blockSize')
  if (tf.unit !== 'MINUTE' && tf.unit !== 'HOUR')
    throw new MarketDataError('invalid_option', TPO_MSG.blockUnit(tf.id), { field: 'blockSize' })
  return tf
}

/** Resolves a `sessions` filter to a bit mask of session codes (default: all three). */
export function resolveSessionMask(x: unknown): number {
  return sessionMask(x as readonly SessionType[] | undefined)
}

/**
 * Resolves {@link TpoOptions} once: a day/week/month period, a minute/hour block, the grid, the value
 * area share, the initial-balance length, session grouping and filter. Throws `MarketDataError`
 * (`invalid_option`) naming the option.
 */
export function resolveTpoOptions(opts: TpoOptions): TpoConfig {
  if (typeof opts !== 'object' || opts === null)
    throw new MarketDataError('invalid_option', TPO_MSG.options(opts), { field: 'options' })
  const period = resolveTimeframe(opts.timeframe, 'timeframe')
  if (period.unit !== 'DAY' && period.unit !== 'WEEK' && period.unit !== 'MONTH') {
    throw new MarketDataError('invalid_option', TPO_MSG.periodUnit(period.id), { field: 'timeframe' })
  }
  const block = resolveBlockSize(opts.blockSize)
  const ms = opts.mergeSessions ?? 'MERGE_ALL'
  if (ms !== 'MERGE_ALL' && ms !== 'GROUP_BY_TYPE')
    throw new MarketDataError('invalid_option', TPO_MSG.mergeSessions(ms), { field: 'mergeSessions' })
  const va = resolveValueAreaPercent(opts.valueAreaPercent)
  const ib = resolveInitialBalance(opts.initialBalance)
  return {
    period,
    block,
    timeZone: opts.timeZone,
    grid: resolveTpoGrid(opts.tickSize, rowSizeOf(opts)),
    grouped: ms === 'GROUP_BY_TYPE',
    valueAreaPercent: va.percent,
    valueArea: va.exact,
    initialBalanceMs: ib.ms,
    initialBalancePeriod: ib.id,
    sessionMask: resolveSessionMask(opts.sessions),
  }
}
