import { isArray } from '../_lib/describe.js'
import { formatFixed, parseDecimal, type ExactDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { parseProfile } from '../footprint/rowset.js'
import { MAX_ROWS } from '../tpo/parts.js'
import { ANALYTICS_MSG } from './messages.js'

/** Where a profile came from: trades (TPO), candles (TPO without row volumes) or a footprint. */
export type ProfileKind = 'tpo' | 'tpo-candles' | 'footprint'

/**
 * A profile read into exact, dense form: one entry per grid row from its lowest to its highest row
 * (rows a footprint did not trade hold zero and `present: false`).
 */
export interface Histogram {
  kind: ProfileKind
  /** The profile's name in messages (`profile`, `profiles[2]`). */
  who: string
  /** Decimals of row prices: the larger of the tick size's and the row size value's. */
  decimals: number
  /** rowSizeValue x 10^decimals. */
  rowUnits: bigint
  rowSizeValue: string
  /** Grid row number of the first entry (row k is `[k, k + 1) x rowSizeValue`). */
  firstRow: bigint
  n: number
  /** TPOs per row (null for a footprint). */
  counts: number[] | null
  /** Buy and sell volume per row in units of 10^-vScale (null when unknown: candles). */
  buy: bigint[] | null
  sell: bigint[] | null
  vScale: number
  /** Rows the input holds (every row of a TPO profile; traded rows of a footprint). */
  present: boolean[]
  /** Trade counts per side (footprint only). */
  tradesBuy: number[] | null
  tradesSell: number[] | null
}

const fail = (fn: string, who: string, field: string, x: unknown, rule: string): never => {
  throw new MarketDataError('invalid_option', ANALYTICS_MSG.field(fn, who, field, x, rule), { field })
}

/** A positive decimal string field. */
function positiveField(fn: string, who: string, o: Record<string, unknown>, field: string): ExactDecimal {
  const x = o[field]
  const r = typeof x === 'string' ? parseDecimal(x) : undefined
  if (r === undefined || !r.ok || r.value.units <= 0n)
    return fail(fn, who, field, x, 'must be a positive decimal string')
  return r.value
}

/** A decimal string field (a price of the profile). */
export function priceField(fn: string, who: string, o: object, field: string): ExactDecimal {
  const x = (o as Record<string, unknown>)[field]
  const r = typeof x === 'string' ? parseDecimal(x) : undefined
  if (r === undefined || !r.ok) return fail(fn, who, field, x, 'must be a decimal string')
  return r.value
}

/** True when `p` looks like a TPO profile (it has `blocks`), false for a footprint. */
export function isTpo(p: unknown): boolean {
  return typeof p === 'object' && p !== null && isArray((p as { blocks?: unknown }).blocks)
}

/** Lower bound of entry `i`, printed with the grid's decimals. */
export function rowPriceOf(h: Histogram, i: number): string {
  return formatFixed((h.firstRow + BigInt(i)) * h.rowUnits, h.decimals, h.decimals)
}

/** Upper end of entry `i` (its lower bound + rowSizeValue) as units at `h.decimals`. */
export function rowTopUnits(h: Histogram, i: number): bigint {
  return (h.firstRow + BigInt(i) + 1n) * h.rowUnits
}

/** buy + sell per entry, or null when volumes are unknown. */
export function totalVolumes(h: Histogram): bigint[] | null {
  if (h.buy === null || h.sell === null) return null
  const out = new Array<bigint>(h.n)
  for (let i = 0; i < h.n; i++) out[i] = (h.buy[i] as bigint) + (h.sell[i] as bigint)
  return out
}

function checkSpan(fn: string, span: bigint): number {
  if (span > BigInt(MAX_ROWS))
    throw new MarketDataError('invalid_option', ANALYTICS_MSG.tooManyRows(fn, span.toString()), { field: 'rows' })
  return Number(span)
}

function readFootprint(p: unknown, fn: string, who: string): Histogram {
  const q = parseProfile(p, fn, { who })
  const { grid, set } = q
  const m = set.rows.length
  if (m === 0) throw new MarketDataError('invalid_option', ANALYTICS_MSG.emptyProfile(fn, who), { field: 'rows' })
  const first = set.rows[0] as number
  const n = checkSpan(fn, BigInt(set.rows[m - 1] as number) - BigInt(first) + 1n)
  const buy = new Array<bigint>(n).fill(0n)
  const sell = new Array<bigint>(n).fill(0n)
  const tb = new Array<number>(n).fill(0)
  const ts = new Array<number>(n).fill(0)
  const present = new Array<boolean>(n).fill(false)
  for (let k = 0; k < m; k++) {
    const i = (set.rows[k] as number) - first
    buy[i] = set.buy[k] as bigint
    sell[i] = set.sell[k] as bigint
    tb[i] = set.nb[k] as number
    ts[i] = set.ns[k] as number
    present[i] = true
  }
  return {
    kind: 'footprint',
    who,
    decimals: grid.decimals,
    rowUnits: BigInt(grid.rowUnits),
    rowSizeValue: grid.rowSizeValue,
    firstRow: BigInt(first),
    n,
    counts: null,
    buy,
    sell,
    vScale: set.vScale,
    present,
    tradesBuy: tb,
    tradesSell: ts,
  }
}

function readTpo(o: Record<string, unknown>, fn: string, who: string): Histogram {
  const tick = positiveField(fn, who, o, 'tickSize')
  const rsv = positiveField(fn, who, o, 'rowSizeValue')
  const decimals = Math.max(tick.scale, rsv.scale)
  const rowUnits = rsv.units * 10n ** BigInt(decimals - rsv.scale)
  const blocks = o.blocks as unknown[]
  const rows = o.rows
  if (!isArray(rows) || rows.length === 0)
    return fail(fn, who, 'rows', rows, 'must be a non-empty array of rows [price, blockIndexes, ...]')
  const candles = o.rowVolumes === 'unknown'
  const n = checkSpan(fn, BigInt(rows.length))
  const counts = new Array<number>(n)
  const buy: bigint[] | null = candles ? null : new Array<bigint>(n)
  const sell: bigint[] | null = candles ? null : new Array<bigint>(n)
  const vols: ExactDecimal[] = []
  let vScale = 0
  let firstRow = 0n
  for (let i = 0; i < n; i++) {
    const row = rows[i]
    const f = `rows[${i}]`
    if (!isArray(row) || typeof row[0] !== 'string' || !isArray(row[1]))
      return fail(fn, who, f, row, 'must be a row [price, blockIndexes, ...]')
    const pr = parseDecimal(row[0])
    if (!pr.ok || pr.value.scale > decimals)
      return fail(
        fn,
        who,
        `${f}.price`,
        row[0],
        `must be a decimal on the grid of rowSizeValue ${formatFixed(rsv.units, rsv.scale, 0)}`,
      )
    const u = pr.value.units * 10n ** BigInt(decimals - pr.value.scale)
    if (u % rowUnits !== 0n)
      return fail(
        fn,
        who,
        `${f}.price`,
        row[0],
        `must lie on the grid of rowSizeValue ${formatFixed(rsv.units, rsv.scale, 0)}`,
      )
    const r = u / rowUnits
    if (i === 0) firstRow = r
    else if (r !== firstRow + BigInt(i))
      return fail(fn, who, `${f}.price`, row[0], 'must be the next grid row (TPO rows run over every row, ascending)')
    for (const b of row[1] as unknown[]) {
      if (typeof b !== 'number' || !Number.isInteger(b) || b < 0 || b >= blocks.length)
        return fail(fn, who, `${f}.blockIndexes`, b, `must be indexes into blocks (0..${blocks.length - 1})`)
    }
    counts[i] = (row[1] as unknown[]).length
    if (!candles) {
      for (const k of [2, 3]) {
        const v = typeof row[k] === 'string' ? parseDecimal(row[k]) : undefined
        if (v === undefined || !v.ok || v.value.units < 0n)
          return fail(
            fn,
            who,
            `${f}.${k === 2 ? 'volumeBuy' : 'volumeSell'}`,
            row[k],
            "must be a decimal string >= 0 (a candle profile says rowVolumes: 'unknown')",
          )
        vols.push(v.value)
        if (v.value.scale > vScale) vScale = v.value.scale
      }
    }
  }
  if (buy !== null && sell !== null) {
    for (let i = 0; i < n; i++) {
      const b = vols[2 * i] as ExactDecimal
      const s = vols[2 * i + 1] as ExactDecimal
      buy[i] = b.units * 10n ** BigInt(vScale - b.scale)
      sell[i] = s.units * 10n ** BigInt(vScale - s.scale)
    }
  }
  return {
    kind: candles ? 'tpo-candles' : 'tpo',
    who,
    decimals,
    rowUnits,
    rowSizeValue: formatFixed(rsv.units, rsv.scale, 0),
    firstRow,
    n,
    counts,
    buy,
    sell,
    vScale,
    present: new Array<boolean>(n).fill(true),
    tradesBuy: null,
    tradesSell: null,
  }
}

/**
 * Reads any of the library's profiles (from `tpoProfiles`, `tpoFromCandles`, `footprintProfiles` or their
 * merges and composites) into a dense histogram. Throws `MarketDataError` (`invalid_option`, or the
 * footprint reader's codes) naming the function, the profile and the field.
 */
export function readHistogram(p: unknown, fn: string, who = 'profile'): Histogram {
  if (typeof p !== 'object' || p === null || isArray(p))
    throw new MarketDataError('invalid_option', ANALYTICS_MSG.notProfile(fn, who, p), { field: who })
  return isTpo(p) ? readTpo(p as Record<string, unknown>, fn, who) : readFootprint(p, fn, who)
}

/** {@link readHistogram} for rules that need a TPO profile: a footprint is refused as such, before its rows are read. */
export function readTpoHistogram(
  p: unknown,
  fn: string,
  who = 'profile',
  hint = 'this rule needs a TPO profile (blocks and TPO counts per row)',
): Histogram {
  if (typeof p === 'object' && p !== null && !isArray(p) && !isTpo(p))
    throw new MarketDataError('invalid_option', ANALYTICS_MSG.notTpo(fn, who, hint), { field: who })
  return readHistogram(p, fn, who)
}
