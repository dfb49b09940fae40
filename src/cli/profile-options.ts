import type { FootprintAggregatorOptions } from '../footprint/index.js'
import type { TpoOptions } from '../tpo/index.js'
import type { RunConfig } from './options.js'

/** The footprint options of a run, with the tick size it uses. */
export function footprintOptions(c: RunConfig, tickSize: string): FootprintAggregatorOptions {
  const o: FootprintAggregatorOptions = { timeframe: c.timeframe, tickSize, timeZone: c.timeZone }
  if (c.rowSize !== undefined) o.rowSize = c.rowSize
  if (c.rowSizeValue !== undefined) o.rowSizeValue = c.rowSizeValue
  if (c.sessions !== undefined) o.sessions = c.sessions
  if (c.from !== undefined) o.from = c.from
  if (c.to !== undefined) o.to = c.to
  if (c.analytics) o.analytics = c.imbalance !== undefined ? { ratio: c.imbalance } : true
  return o
}

/** The TPO options of a run, with the tick size it uses. */
export function tpoOptions(c: RunConfig, tickSize: string): TpoOptions {
  const o: TpoOptions = { timeframe: c.timeframe, tickSize, timeZone: c.timeZone }
  if (c.rowSize !== undefined) o.rowSize = c.rowSize
  if (c.rowSizeValue !== undefined) o.rowSizeValue = c.rowSizeValue
  if (c.blockSize !== undefined) o.blockSize = c.blockSize
  if (c.mergeSessions !== undefined) o.mergeSessions = c.mergeSessions
  if (c.valueAreaPercent !== undefined) o.valueAreaPercent = c.valueAreaPercent
  if (c.initialBalance !== undefined) o.initialBalance = c.initialBalance
  if (c.sessions !== undefined) o.sessions = c.sessions
  return o
}
