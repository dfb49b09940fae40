import { formatUnits } from '../decimal/index.js'
import { MAX_TIME } from '../_lib/max-time.js'
import { MarketDataError } from '../errors.js'
import { createBucketer, resolveTimeframe, type Bucketer, type Timeframe } from '../time/index.js'
import { sessionMask } from '../trades/index.js'
import type { SessionType } from '../trades/types.js'
import { resolveAnalyticsOptions, type ResolvedAnalyticsOptions } from './analytics-core.js'
import { resolveGrid, type Grid } from './grid.js'
import { FOOTPRINT_MSG } from './messages.js'
import type { FootprintOptions } from './types.js'

/** A footprint engine's options, resolved and checked once. */
export interface EngineOptions {
  grid: Grid
  timeframe: Timeframe
  bucketer: Bucketer
  /** The `from` / `to` options (-Infinity / Infinity when absent). */
  from: number
  to: number
  /** keep[code] === 1 when session code is selected (256 entries: any byte indexes it). */
  keep: Uint8Array
  /** True when every session is kept (no per-record session test). */
  allSessions: boolean
  /** The one session selected, echoed by every profile (undefined for none or several). */
  sessionType: SessionType | undefined
  analytics: ResolvedAnalyticsOptions | undefined
  /** The resolved options that shape the output (what a checkpoint must match). */
  optionsKey: Record<string, unknown>
}

/**
 * Resolves the options of a footprint function or aggregator named `fn`.
 * Throws `invalid_option` naming the option.
 */
export function resolveEngineOptions(opts: FootprintOptions, fn: string): EngineOptions {
  if (typeof opts !== 'object' || opts === null)
    throw new MarketDataError('invalid_option', FOOTPRINT_MSG.optionsMissing(fn))
  const timeframe = resolveTimeframe(opts.timeframe)
  if (timeframe.unit === 'TICK')
    throw new MarketDataError('invalid_option', FOOTPRINT_MSG.tickFrame(timeframe.id), { field: 'timeframe' })
  if (opts.rowSize === 'auto')
    throw new MarketDataError('invalid_option', FOOTPRINT_MSG.rowAutoStream(fn), { field: 'rowSize' })
  const grid = resolveGrid(opts.tickSize, opts.rowSize, opts.rowSizeValue)
  const bucketer = createBucketer(timeframe, opts.timeZone === undefined ? {} : { timeZone: opts.timeZone })
  const from = checkBound(opts.from, 'from', -Infinity)
  const to = checkBound(opts.to, 'to', Infinity)
  const sessions = opts.sessions
  // the trades module's rule (session names compared, not looked up: 'toString' is no session)
  const mask = sessionMask(sessions)
  const keep = new Uint8Array(256)
  for (let c = 0; c < 3; c++) keep[c] = (mask >> c) & 1
  const distinct = new Set(sessions ?? [])
  const analytics =
    opts.analytics === undefined || opts.analytics === false ? undefined : resolveAnalyticsOptions(opts.analytics)
  const optionsKey = {
    timeframe: `${timeframe.count} ${timeframe.unit}`,
    timeZone: opts.timeZone ?? 'UTC',
    tickSize: grid.tickSize,
    rowSizeValue: grid.rowSizeValue,
    priceDecimals: grid.decimals,
    from: String(from),
    to: String(to),
    sessions: mask,
    analytics:
      analytics === undefined
        ? null
        : [
            formatUnits(analytics.ratio.units, analytics.ratio.scale),
            formatUnits(analytics.minVolume.units, analytics.minVolume.scale),
            analytics.stackedRows,
          ],
  }
  return {
    grid,
    timeframe,
    bucketer,
    from,
    to,
    keep,
    allSessions: keep[0] === 1 && keep[1] === 1 && keep[2] === 1,
    sessionType: distinct.size === 1 ? (sessions?.[0] as SessionType) : undefined,
    analytics,
    optionsKey,
  }
}

function checkBound(x: unknown, field: 'from' | 'to', dflt: number): number {
  if (x === undefined) return dflt
  // a whole ms within the Date range, as trade times: profileStart echoes it
  if (typeof x !== 'number' || !(x >= -MAX_TIME && x <= MAX_TIME) || Math.floor(x) !== x)
    throw new MarketDataError('invalid_option', FOOTPRINT_MSG.range(field, x), { field })
  return x
}
