import { expect } from 'vitest'
import {
  parseHistoryQuery,
  validateListCandlesRequest,
  type ApiError,
  type HistoryEndpoint,
  type HistoryRequest,
  type ListCandlesQuery,
} from '../../src/rules/index.js'
import { bucketEnd, bucketStart, parseTimeframe, type Timeframe } from '../../src/time/index.js'
import type { TimeframeId } from '../../src/time/index.js'

/** A fixed clock: Wednesday 2026-06-10T12:34:56.789Z. */
export const NOW = Date.UTC(2026, 5, 10, 12, 34, 56, 789)
export const HOUR = 3_600_000
export const DAY = 86_400_000

export const BASE = { exchange: 'XNAS', symbol: 'AAPL' }

export function tf(id: string): Timeframe {
  const r = parseTimeframe(id)
  if (!r.ok) throw new Error(`test timeframe ${id}: ${r.error.message}`)
  return r.value
}

/** Parses and expects success. */
export function parsed(endpoint: HistoryEndpoint, query: Record<string, string | string[]>, now = NOW): HistoryRequest {
  const r = parseHistoryQuery(endpoint, query, { now })
  if (!r.ok) throw new Error(`expected ${endpoint} ${JSON.stringify(query)} to parse: ${r.error.message}`)
  return r.value
}

/** Parses and expects one 400 invalid_argument naming `parameter`. */
export function rejected(
  endpoint: HistoryEndpoint,
  query: Record<string, string | string[]> | URLSearchParams,
  parameter: string,
  now = NOW,
): ApiError {
  const r = parseHistoryQuery(endpoint, query, { now })
  if (r.ok)
    throw new Error(
      `expected ${endpoint} ${JSON.stringify(query instanceof URLSearchParams ? String(query) : query)} to be rejected naming ${parameter}`,
    )
  expect(r.error.status).toBe(400)
  expect(r.error.code).toBe('invalid_argument')
  expect(r.error.parameter).toBe(parameter)
  return r.error
}

/** Slow reference: number of buckets overlapping [from, to), walking bucketStart/bucketEnd one by one. */
export function slowSlotCount(timeframe: Timeframe, from: number, to: number, timeZone = 'UTC'): number {
  if (!(from < to)) return 0
  let n = 0
  for (let s = bucketStart(from, timeframe, { timeZone }); s < to; s = bucketEnd(s, timeframe, { timeZone })) n++
  return n
}

/** The spec's footprint history depth table at both ends of every row: [timeframe id, days]. */
export const DEPTH_TABLE: [TimeframeId, number][] = [
  ['1m', 30],
  ['4m', 30],
  ['5m', 45],
  ['14m', 45],
  ['15m', 90],
  ['29m', 90],
  ['30m', 120],
  ['59m', 120],
  ['1h', 180],
  ['3h', 180],
  ['4h', 270],
  ['23h', 270],
  ['1d', 365],
  ['6d', 365],
  ['1w', 1095],
  ['3w', 1095],
  ['1M', 1095],
  ['11M', 1095],
]

// ---- ListCandles (interface A) ----

export const LC_T0 = '2026-06-01T00:00:00Z'
export const LC_T0_MS = Date.UTC(2026, 5, 1)
/** A valid ListCandles body (15m candles, 4 hours from LC_T0) with fields replaced or added. */
export const lcBody = (extra: Record<string, unknown> = {}) => ({
  security_id: { guid: 'g-1' },
  time_frame: { time_unit: 'MINUTE', count: 15 },
  range: { first_bound_time: LC_T0, duration: 'PT4H' },
  ...extra,
})

/** Validates a ListCandles body and expects success. */
export function lcValid(b: unknown): ListCandlesQuery {
  const r = validateListCandlesRequest(b)
  if (!r.ok) throw new Error(`expected valid: ${r.error.message}`)
  return r.value
}

/** Validates a ListCandles body and expects status 3 without details, the message mentioning `mentions`. */
export function lcInvalid(b: unknown, mentions: string): string {
  const r = validateListCandlesRequest(b)
  if (r.ok) throw new Error(`expected invalid: ${JSON.stringify(b)}`)
  expect(r.error.code).toBe(3)
  expect(r.error.details).toEqual([])
  expect(r.error.message).toContain(mentions)
  return r.error.message
}
