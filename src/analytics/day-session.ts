// The day session of a TPO profile as exact integers: its blocks, open, close, range and initial balance.
import { isArray } from '../_lib/describe.js'
import type { ExactDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { priceField, readTpoHistogram, type Histogram } from './histogram.js'
import { ANALYTICS_MSG } from './messages.js'

/** One block: start time and traded extremes in units at the session's `scale`, with their text as written. */
export interface SessionBlock {
  start: number
  high: bigint
  low: bigint
  highText: string
  lowText: string
}

/** What the day-session rules read, every price in units at `scale` (at least the grid's decimals). */
export interface DaySession {
  h: Histogram
  scale: number
  /** The grid's row height in units at `scale`. */
  rowUnits: bigint
  /** Blocks in time order. */
  blocks: SessionBlock[]
  /** Blocks of the initial balance: those starting in `[initialBalanceStart, + initialBalancePeriod)`. */
  ibBlocks: number
  open: bigint
  openText: string
  close: bigint
  high: bigint
  low: bigint
  ibHigh: bigint
  ibLow: bigint
  ibHighText: string
  ibLowText: string
}

const fail = (fn: string, who: string, field: string, x: unknown, rule: string): never => {
  throw new MarketDataError('invalid_option', ANALYTICS_MSG.field(fn, who, field, x, rule), { field })
}

/** Milliseconds of an initial-balance period `<n>m` / `<n>h`. */
function periodMs(fn: string, who: string, x: unknown): number {
  const m = typeof x === 'string' ? /^([1-9][0-9]{0,5})([mh])$/.exec(x) : null
  if (m === null) return fail(fn, who, 'initialBalancePeriod', x, "must be a duration '<n>m' or '<n>h'")
  return Number(m[1]) * (m[2] === 'h' ? 3_600_000 : 60_000)
}

/**
 * Refuses a profile that is not a day session: a grouped PRE_MARKET / POST_MARKET profile, a profile
 * without initial balance (no main-session trade), a merged profile with blocks before its main session.
 * A merged profile cannot say which of its later blocks were post-market; the docs say so.
 */
export function checkDaySession(p: object, fn: string, who: string): void {
  const o = p as Record<string, unknown>
  if (o.sessionType !== undefined && o.sessionType !== 'MAINSESSION')
    throw new MarketDataError('invalid_option', ANALYTICS_MSG.notDaySession(fn, who, String(o.sessionType)), {
      field: 'sessionType',
    })
  if (o.initialBalance === null || typeof o.initialBalance !== 'object')
    throw new MarketDataError('invalid_option', ANALYTICS_MSG.noInitialBalance(fn, who), { field: 'initialBalance' })
  const blocks = o.blocks as unknown[]
  const ibs = o.initialBalanceStart
  if (typeof ibs === 'number' && typeof blocks[0] === 'number' && blocks[0] < ibs)
    throw new MarketDataError('invalid_option', ANALYTICS_MSG.beforeMainSession(fn, who), {
      field: 'initialBalanceStart',
    })
}

/** Reads the day session of a TPO profile (see {@link checkDaySession}); `h` when the caller already read it. */
export function readDaySession(p: unknown, fn: string, who = 'profile', h?: Histogram): DaySession {
  const hist = h ?? readTpoHistogram(p, fn, who)
  const o = p as Record<string, unknown>
  checkDaySession(o, fn, who)
  const blocks = o.blocks as unknown[]
  const highs = o.blockHighs
  const lows = o.blockLows
  if (!isArray(highs) || highs.length !== blocks.length)
    fail(fn, who, 'blockHighs', highs, 'must hold one price per block')
  if (!isArray(lows) || lows.length !== blocks.length) fail(fn, who, 'blockLows', lows, 'must hold one price per block')
  const ib = o.initialBalance as object
  const ds: ExactDecimal[] = [
    priceField(fn, who, o, 'open'),
    priceField(fn, who, o, 'close'),
    priceField(fn, who, o, 'high'),
    priceField(fn, who, o, 'low'),
    priceField(fn, who, ib, 'high'),
    priceField(fn, who, ib, 'low'),
  ]
  const bh = (highs as unknown[]).map((_, i) => priceField(fn, `${who}.blockHighs`, highs as object, String(i)))
  const bl = (lows as unknown[]).map((_, i) => priceField(fn, `${who}.blockLows`, lows as object, String(i)))
  let scale = hist.decimals
  for (const d of [...ds, ...bh, ...bl]) if (d.scale > scale) scale = d.scale
  const u = (d: ExactDecimal) => d.units * 10n ** BigInt(scale - d.scale)
  const list: SessionBlock[] = blocks.map((t, i) => {
    if (typeof t !== 'number' || !Number.isFinite(t))
      fail(fn, who, `blocks[${i}]`, t, 'must be a finite epoch-millisecond number')
    return {
      start: t as number,
      high: u(bh[i] as ExactDecimal),
      low: u(bl[i] as ExactDecimal),
      highText: (highs as string[])[i] as string,
      lowText: (lows as string[])[i] as string,
    }
  })
  list.sort((a, b) => a.start - b.start)
  const ibStart = typeof o.initialBalanceStart === 'number' ? o.initialBalanceStart : (list[0]?.start ?? 0)
  const ibEnd = ibStart + periodMs(fn, who, o.initialBalancePeriod)
  const [open, close, high, low, ibHigh, ibLow] = ds.map(u) as [bigint, bigint, bigint, bigint, bigint, bigint]
  return {
    h: hist,
    scale,
    rowUnits: hist.rowUnits * 10n ** BigInt(scale - hist.decimals),
    blocks: list,
    ibBlocks: list.filter((b) => b.start >= ibStart && b.start < ibEnd).length,
    open,
    openText: o.open as string,
    close,
    high,
    low,
    ibHigh,
    ibLow,
    ibHighText: (ib as Record<string, string>).high as string,
    ibLowText: (ib as Record<string, string>).low as string,
  }
}

/**
 * The profiles a multi-day rule reads: every profile, or, when the list holds grouped profiles (any with a
 * `sessionType`), only the MAINSESSION ones — so a GROUP_BY_TYPE list reads as the day sessions. Keeps
 * each profile's index in the caller's list (for messages).
 */
export function daySessionsOf<T>(profiles: readonly T[]): { p: T; i: number }[] {
  const all = profiles.map((p, i) => ({ p, i }))
  const grouped = profiles.some((p) => typeof p === 'object' && p !== null && 'sessionType' in p)
  return grouped ? all.filter(({ p }) => (p as { sessionType?: unknown }).sessionType === 'MAINSESSION') : all
}
