import { MAX_ROW_INDEX } from '../profile/row-limit.js'
import { SESSION_NAMES } from '../trades/types.js'
import { pocIndex } from '../profile/point-of-control.js'
import { formatFixed, formatUnits, parseOutputDecimal, type ExactDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import type { SessionType } from '../trades/types.js'
import { computeAnalytics, type ResolvedAnalyticsOptions } from './analytics-core.js'
import { resolveGrid, rowPrice, unitsAt, type Grid } from './grid.js'
import { FOOTPRINT_MSG } from './messages.js'
import type { FootprintProfile, FootprintRow } from './types.js'
import type { RowSet } from './exact-rows.js'

export type { RowSet } from './exact-rows.js'

/** Bucket and provenance of a profile being built. */
export interface ProfileMeta {
  time: number
  end: number
  profileStart?: number | undefined
  sessionType?: SessionType | undefined
}

/**
 * The volume POC: the row with the most buy + sell volume; ties go to the row nearest the middle of the
 * highest and lowest row; equally near -> the side (above / below the middle) holding more volume; then
 * the lower price. Returns an index into the set (-1 when empty).
 */
export function volumePocIndex(set: RowSet): number {
  const n = set.rows.length
  const tot: bigint[] = new Array(n)
  for (let i = 0; i < n; i++) tot[i] = (set.buy[i] as bigint) + (set.sell[i] as bigint)
  return pocIndex(tot, set.rows)
}

/** Formats a profile from exact rows. `high` / `low` are exact traded prices. */
export function buildProfile(
  meta: ProfileMeta,
  grid: Grid,
  set: RowSet,
  high: ExactDecimal,
  low: ExactDecimal,
  analytics: ResolvedAnalyticsOptions | undefined,
): FootprintProfile {
  const n = set.rows.length
  const rows: FootprintRow[] = new Array(n)
  let vb = 0n
  let vs = 0n
  let cb = 0
  let cs = 0
  const vScale = set.vScale
  for (let i = 0; i < n; i++) {
    const b = set.buy[i] as bigint
    const s = set.sell[i] as bigint
    const nb = set.nb[i] as number
    const ns = set.ns[i] as number
    vb += b
    vs += s
    cb += nb
    cs += ns
    rows[i] = [rowPrice(grid, set.rows[i] as number), formatUnits(b, vScale), formatUnits(s, vScale), nb, ns]
  }
  // counts of merged profiles add up as doubles: refuse a total that no longer holds exactly
  if (!Number.isSafeInteger(cb + cs))
    throw new MarketDataError('inexact', FOOTPRINT_MSG.countSum('trades'), { field: 'trades' })
  const p = assembleProfile(
    meta,
    grid,
    rows,
    volumePocIndex(set),
    { vb, vs, cb, cs, vScale },
    formatFixed(high.units, high.scale, grid.decimals),
    formatFixed(low.units, low.scale, grid.decimals),
  )
  if (analytics !== undefined) p.analytics = computeAnalytics(grid, set, analytics)
  return p
}

/** A profile's totals: buy and sell volume units (at `vScale` decimals, bigints or safe-integer doubles) and trades. */
export interface ProfileTotals {
  vb: bigint | number
  vs: bigint | number
  cb: number
  cs: number
  vScale: number
}

/**
 * The profile object around its formatted rows (`poc`: index of the volume POC row, -1 for none; `high` / `low`:
 * the traded extremes' text at the grid's decimals).
 */
export function assembleProfile(
  meta: ProfileMeta,
  grid: Grid,
  rows: FootprintRow[],
  poc: number,
  t: ProfileTotals,
  high: string,
  low: string,
): FootprintProfile {
  const { cb, cs, vScale } = t
  // (safe-integer doubles: their sum and difference are exact too, the caller checked the sum)
  const vb = t.vb as bigint
  const vs = t.vs as bigint
  const p: FootprintProfile = {
    time: meta.time,
    end: meta.end,
    rowSize: grid.rowSize,
    rowSizeValue: grid.rowSizeValue,
    tickSize: grid.tickSize,
    rows,
    high,
    low,
    volumeBuy: formatUnits(vb, vScale),
    volumeSell: formatUnits(vs, vScale),
    volume: formatUnits(vb + vs, vScale),
    delta: formatUnits(vb - vs, vScale),
    tradesCountBuy: cb,
    tradesCountSell: cs,
    trades: cb + cs,
    volumePoc: poc < 0 ? '' : (rows[poc] as FootprintRow)[0],
  }
  if (meta.profileStart !== undefined) p.profileStart = meta.profileStart
  if (meta.sessionType !== undefined) p.sessionType = meta.sessionType
  return p
}

/** A profile read back into exact form. */
export interface ParsedProfile {
  grid: Grid
  set: RowSet
  high: ExactDecimal
  low: ExactDecimal
}

const SESSIONS: ReadonlySet<unknown> = new Set(SESSION_NAMES)

/** Where a profile sits in the caller's arguments: its name in messages (`b`, `profiles[3]`) and its index. */
export interface ProfileAt {
  who: string
  index?: number | undefined
}

function fail(
  code: 'invalid_option' | 'invalid_decimal' | 'invalid_volume' | 'invalid_session' | 'grid_mismatch',
  msg: string,
  field: string,
  at: ProfileAt,
): never {
  throw new MarketDataError(code, msg, at.index === undefined ? { field } : { field, index: at.index })
}

/** A decimal string field of a profile (grid strings, high, low, row prices); numbers and other types are refused. */
function decimalField(x: unknown, field: string, fn: string, at: ProfileAt): ExactDecimal {
  const r = typeof x === 'string' ? parseOutputDecimal(x) : undefined
  if (r === undefined || !r.ok)
    fail('invalid_decimal', FOOTPRINT_MSG.profileField(fn, at.who, field, x, 'must be a decimal string'), field, at)
  return r.value
}

/** A row volume: a decimal string >= 0. */
function volumeField(x: unknown, field: string, fn: string, at: ProfileAt): ExactDecimal {
  const d = decimalField(x, field, fn, at)
  if (d.units < 0n)
    fail('invalid_volume', FOOTPRINT_MSG.profileField(fn, at.who, field, x, 'must be a decimal string >= 0'), field, at)
  return d
}

/** A row trade count: a safe integer >= 0 (a number). */
function countField(x: unknown, field: string, fn: string, at: ProfileAt): number {
  if (typeof x !== 'number' || !Number.isSafeInteger(x) || x < 0) {
    fail(
      'invalid_option',
      FOOTPRINT_MSG.profileField(fn, at.who, field, x, 'must be an integer >= 0 (a number, at most 2^53 - 1)'),
      field,
      at,
    )
  }
  return x === 0 ? 0 : x // no -0
}

function epochField(x: unknown, field: string, fn: string, at: ProfileAt): void {
  if (typeof x !== 'number' || !Number.isFinite(x))
    fail(
      'invalid_option',
      FOOTPRINT_MSG.profileField(fn, at.who, field, x, 'must be a finite epoch-millisecond number'),
      field,
      at,
    )
}

/**
 * Reads a profile's strings back into exact rows; throws `MarketDataError` naming the field (`rows[i].volumeBuy`)
 * and, through `at`, which profile: `invalid_option` for a non-object, a bad time / count / row shape or row
 * order; `invalid_decimal` for a non-decimal string; `invalid_volume` for a negative volume; `grid_mismatch` for
 * a row price off the grid; `invalid_session` for an unknown `sessionType`.
 */
export function parseProfile(p: unknown, fn: string, at: ProfileAt = { who: 'profile' }): ParsedProfile {
  if (typeof p !== 'object' || p === null || Array.isArray(p))
    fail('invalid_option', FOOTPRINT_MSG.notProfileAt(fn, at.who, p), at.who, at)
  const o = p as Record<string, unknown>
  epochField(o.time, 'time', fn, at)
  epochField(o.end, 'end', fn, at)
  if (o.profileStart !== undefined) epochField(o.profileStart, 'profileStart', fn, at)
  if (o.sessionType !== undefined && !SESSIONS.has(o.sessionType)) {
    fail(
      'invalid_session',
      FOOTPRINT_MSG.profileField(
        fn,
        at.who,
        'sessionType',
        o.sessionType,
        'must be MAINSESSION, PRE_MARKET or POST_MARKET (or absent)',
      ),
      'sessionType',
      at,
    )
  }
  if (
    o.analytics !== undefined &&
    (typeof o.analytics !== 'object' || o.analytics === null || Array.isArray(o.analytics))
  ) {
    fail('invalid_option', FOOTPRINT_MSG.profileAnalytics(fn, at.who, o.analytics), 'analytics', at)
  }
  decimalField(o.tickSize, 'tickSize', fn, at)
  decimalField(o.rowSizeValue, 'rowSizeValue', fn, at)
  const high = decimalField(o.high, 'high', fn, at)
  const low = decimalField(o.low, 'low', fn, at)
  const rowsIn = o.rows
  if (!Array.isArray(rowsIn))
    fail(
      'invalid_option',
      FOOTPRINT_MSG.profileField(fn, at.who, 'rows', rowsIn, 'must be an array of rows'),
      'rows',
      at,
    )
  let grid: Grid
  try {
    grid = resolveGrid(o.tickSize, undefined, o.rowSizeValue)
  } catch (e) {
    if (e instanceof MarketDataError)
      fail(e.code as 'invalid_option', `${fn}: ${at.who}.${e.message}`, e.field ?? 'rowSizeValue', at)
    throw e
  }
  const n = rowsIn.length
  const prices: ExactDecimal[] = new Array(n)
  const buys: ExactDecimal[] = new Array(n)
  const sells: ExactDecimal[] = new Array(n)
  const set: RowSet = {
    rows: new Array(n),
    buy: new Array(n),
    sell: new Array(n),
    nb: new Array(n),
    ns: new Array(n),
    vScale: 0,
  }
  let vScale = 0
  for (let i = 0; i < n; i++) {
    const r: unknown = rowsIn[i]
    if (!Array.isArray(r) || r.length !== 5)
      fail('invalid_option', FOOTPRINT_MSG.rowShape(fn, at.who, i, r), `rows[${i}]`, at)
    prices[i] = decimalField(r[0], `rows[${i}].price`, fn, at)
    const b = volumeField(r[1], `rows[${i}].volumeBuy`, fn, at)
    const s = volumeField(r[2], `rows[${i}].volumeSell`, fn, at)
    buys[i] = b
    sells[i] = s
    set.nb[i] = countField(r[3], `rows[${i}].tradesCountBuy`, fn, at)
    set.ns[i] = countField(r[4], `rows[${i}].tradesCountSell`, fn, at)
    vScale = Math.max(vScale, b.scale, s.scale)
  }
  set.vScale = vScale
  const ru = BigInt(grid.rowUnits)
  let prev = -Infinity
  for (let i = 0; i < n; i++) {
    const pd = prices[i] as ExactDecimal
    const text = (rowsIn[i] as unknown[])[0] as string
    const off = pd.scale > grid.decimals
    const atGrid = off ? 0n : unitsAt(pd, grid.decimals)
    if (off || atGrid % ru !== 0n)
      fail('grid_mismatch', FOOTPRINT_MSG.rowOffGrid(fn, at.who, i, text, grid.rowSizeValue), `rows[${i}].price`, at)
    const big = atGrid / ru
    // row indexes are doubles: past 2^53 they would silently name a neighbouring row (as in the engine)
    if (big > MAX_ROW_INDEX || big < -MAX_ROW_INDEX)
      fail('invalid_decimal', FOOTPRINT_MSG.rowFar(fn, at.who, i, text, grid.rowSizeValue), `rows[${i}].price`, at)
    const row = Number(big)
    if (!(row > prev)) fail('invalid_option', FOOTPRINT_MSG.rowOrder(fn, at.who, i), `rows[${i}].price`, at)
    prev = row
    set.rows[i] = row
    set.buy[i] = unitsAt(buys[i] as ExactDecimal, vScale)
    set.sell[i] = unitsAt(sells[i] as ExactDecimal, vScale)
  }
  if (n > 0) {
    // high / low are traded prices: they lie in the highest / lowest row (a profile without rows has nothing to hold them to)
    const rowOf = (row: number, up: number): ExactDecimal => ({
      units: (BigInt(row) + BigInt(up)) * ru,
      scale: grid.decimals,
    })
    const within = (x: ExactDecimal, row: number) =>
      compareExact(x, rowOf(row, 0)) >= 0 && compareExact(x, rowOf(row, 1)) < 0
    if (!within(high, set.rows[n - 1] as number))
      fail(
        'invalid_option',
        FOOTPRINT_MSG.profileField(
          fn,
          at.who,
          'high',
          o.high,
          `must lie in the highest row (${(rowsIn[n - 1] as unknown[])[0] as string}, row size ${grid.rowSizeValue})`,
        ),
        'high',
        at,
      )
    if (!within(low, set.rows[0] as number))
      fail(
        'invalid_option',
        FOOTPRINT_MSG.profileField(
          fn,
          at.who,
          'low',
          o.low,
          `must lie in the lowest row (${(rowsIn[0] as unknown[])[0] as string}, row size ${grid.rowSizeValue})`,
        ),
        'low',
        at,
      )
  }
  return { grid, set, high, low }
}

/** Compares two exact decimals. */
export function compareExact(a: ExactDecimal, b: ExactDecimal): number {
  const s = Math.max(a.scale, b.scale)
  const x = unitsAt(a, s)
  const y = unitsAt(b, s)
  return x < y ? -1 : x > y ? 1 : 0
}

/**
 * Accumulates rows of several sets (any volume scales) into one; `map` sends a source row index to a
 * target row index (identity for a merge, coarsening for a re-grid).
 */
export class RowAccumulator {
  private readonly at = new Map<number, number>()
  private readonly rows: number[] = []
  private buy: bigint[] = []
  private sell: bigint[] = []
  private readonly nb: number[] = []
  private readonly ns: number[] = []
  private vScale = 0

  add(set: RowSet, map: (row: number) => number = (r) => r): void {
    if (set.vScale > this.vScale) {
      const f = 10n ** BigInt(set.vScale - this.vScale)
      this.buy = this.buy.map((x) => x * f)
      this.sell = this.sell.map((x) => x * f)
      this.vScale = set.vScale
    }
    const f = 10n ** BigInt(this.vScale - set.vScale)
    for (let i = 0; i < set.rows.length; i++) {
      const row = map(set.rows[i] as number)
      let k = this.at.get(row)
      if (k === undefined) {
        k = this.rows.length
        this.at.set(row, k)
        this.rows.push(row)
        this.buy.push(0n)
        this.sell.push(0n)
        this.nb.push(0)
        this.ns.push(0)
      }
      this.buy[k] = (this.buy[k] as bigint) + (set.buy[i] as bigint) * f
      this.sell[k] = (this.sell[k] as bigint) + (set.sell[i] as bigint) * f
      this.nb[k] = (this.nb[k] as number) + (set.nb[i] as number)
      this.ns[k] = (this.ns[k] as number) + (set.ns[i] as number)
    }
  }

  /** The accumulated rows in ascending order. */
  result(): RowSet {
    const order = this.rows.map((_, i) => i).sort((a, b) => (this.rows[a] as number) - (this.rows[b] as number))
    return {
      rows: order.map((i) => this.rows[i] as number),
      buy: order.map((i) => this.buy[i] as bigint),
      sell: order.map((i) => this.sell[i] as bigint),
      nb: order.map((i) => this.nb[i] as number),
      ns: order.map((i) => this.ns[i] as number),
      vScale: this.vScale,
    }
  }
}
