import { pocIndex } from '../tpo/point-of-control.js'
import { decimalsOf, formatFixed, formatUnits, type ExactDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import type { SessionType } from '../trades/types.js'
import { computeAnalytics, type ResolvedAnalyticsOptions } from './analytics-core.js'
import { exact, resolveGrid, rowPrice, unitsAt, type Grid } from './grid.js'
import { MSG } from './messages.js'
import type { FootprintProfile, FootprintRow } from './types.js'

/** Rows of one profile in exact form: ascending row indexes, volumes as units at `vScale`. */
export interface RowSet {
  rows: number[]
  buy: bigint[]
  sell: bigint[]
  nb: number[]
  ns: number[]
  vScale: number
}

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
  const poc = volumePocIndex(set)
  const p: FootprintProfile = {
    time: meta.time,
    end: meta.end,
    rowSize: grid.rowSize,
    rowSizeValue: grid.rowSizeValue,
    tickSize: grid.tickSize,
    rows,
    high: formatFixed(high.units, high.scale, grid.decimals),
    low: formatFixed(low.units, low.scale, grid.decimals),
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
  if (analytics !== undefined) p.analytics = computeAnalytics(grid, set, analytics)
  return p
}

/** A profile read back into exact form. */
export interface ParsedProfile {
  grid: Grid
  set: RowSet
  high: ExactDecimal
  low: ExactDecimal
}

function isProfile(p: unknown): p is FootprintProfile {
  if (typeof p !== 'object' || p === null) return false
  const o = p as Partial<FootprintProfile>
  return typeof o.time === 'number' && typeof o.end === 'number' && typeof o.rowSizeValue === 'string' &&
    typeof o.tickSize === 'string' && Array.isArray(o.rows) && typeof o.high === 'string' && typeof o.low === 'string'
}

/** Reads a profile's strings back into exact rows; throws `MarketDataError` when it is malformed. */
export function parseProfile(p: FootprintProfile, fn: string): ParsedProfile {
  if (!isProfile(p)) throw new MarketDataError('invalid_option', MSG.notProfile(fn))
  const grid = resolveGrid(p.tickSize, undefined, p.rowSizeValue)
  const n = p.rows.length
  let vScale = 0
  for (let i = 0; i < n; i++) {
    const r = p.rows[i] as FootprintRow
    vScale = Math.max(vScale, decimalsOf(r[1]), decimalsOf(r[2]))
  }
  const set: RowSet = { rows: new Array(n), buy: new Array(n), sell: new Array(n), nb: new Array(n), ns: new Array(n), vScale }
  const ru = BigInt(grid.rowUnits)
  let prev = -Infinity
  for (let i = 0; i < n; i++) {
    const r = p.rows[i] as FootprintRow
    const pd = exact(r[0], 'rows.price')
    const off = pd.scale > grid.decimals
    const atGrid = off ? 0n : unitsAt(pd, grid.decimals)
    if (off || atGrid % ru !== 0n) throw new MarketDataError('grid_mismatch', `${fn}: row price ${r[0]} is not on the grid of rowSizeValue ${grid.rowSizeValue}`, { field: 'rows' })
    const row = Number(atGrid / ru)
    if (!(row > prev)) throw new MarketDataError('invalid_option', `${fn}: rows must be in strictly ascending price`, { field: 'rows' })
    prev = row
    set.rows[i] = row
    set.buy[i] = unitsAt(exact(r[1], 'rows.volumeBuy'), vScale)
    set.sell[i] = unitsAt(exact(r[2], 'rows.volumeSell'), vScale)
    set.nb[i] = r[3]
    set.ns[i] = r[4]
  }
  return { grid, set, high: exact(p.high, 'high'), low: exact(p.low, 'low') }
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
