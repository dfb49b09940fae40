import { MAX_ROW_INDEX } from '../profile/row-limit.js'
import { formatFixed, formatUnits, type ExactDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import type { SessionType } from '../trades/index.js'
import { TPO_MSG } from './messages.js'
import type { TpoGrid } from './options.js'
import { pocIndex } from '../profile/point-of-control.js'
import { profileShape } from './profile-shape.js'
import type { TpoCandleProfile, TpoProfile } from './types.js'
import { valueAreaRange } from '../profile/value-area.js'

/** One block of a profile: its start, the rows it marks and its extreme traded prices. */
export interface BlockPart {
  start: number
  lowRow: number
  highRow: number
  high: ExactDecimal
  low: ExactDecimal
}

/**
 * Everything a profile is computed from: what trades, candles or merged profiles reduce to. Per-row
 * volumes are `volumeScale`-scaled integers from row `rowLow` on, or null when unknown (candles).
 */
export interface TpoParts {
  time: number
  end: number
  sessionType: SessionType | undefined
  blockSize: string
  grid: TpoGrid
  valueAreaPercent: number
  valueArea: ExactDecimal
  initialBalanceMs: number
  initialBalancePeriod: string
  /** Ascending start. */
  blocks: BlockPart[]
  initialBalanceStart: number | null
  open: ExactDecimal
  openTime: number
  close: ExactDecimal
  closeTime: number
  volumeScale: number
  rowLow: number
  buy: bigint[] | null
  sell: bigint[] | null
}

/** Most rows one profile may span (every row is output). */
export const MAX_ROWS = 1_000_000
/** Rows of all the profiles one call returns (every grid row from a profile's low to its high is output, so a few trades far apart could otherwise ask for gigabytes). */
export const MAX_TOTAL_ROWS = 4_000_000

/** Rows a profile of these parts spans (highest block row - lowest + 1). */
export function rowCount(p: TpoParts): number {
  let lo = Number.POSITIVE_INFINITY
  let hi = Number.NEGATIVE_INFINITY
  for (const b of p.blocks) {
    if (b.lowRow < lo) lo = b.lowRow
    if (b.highRow > hi) hi = b.highRow
  }
  return hi >= lo ? hi - lo + 1 : 0
}

/** Compares two exact decimals. */
export function compareDecimal(a: ExactDecimal, b: ExactDecimal): number {
  const s = Math.max(a.scale, b.scale)
  const x = a.units * 10n ** BigInt(s - a.scale)
  const y = b.units * 10n ** BigInt(s - b.scale)
  return x < y ? -1 : x > y ? 1 : 0
}

/** Largest row number (either sign) a profile places a price on, as the footprint. */

/** Row number of an exact price on the grid: floor(price / rowSizeValue), refused past ±(2^53 - 1). */
export function rowOfDecimal(d: ExactDecimal, grid: TpoGrid): number {
  let num = d.units
  let den = grid.rowUnitsBig
  if (d.scale > grid.scale) den *= 10n ** BigInt(d.scale - grid.scale)
  else num *= 10n ** BigInt(grid.scale - d.scale)
  let q = num / den
  if (num % den !== 0n && num < 0n) q -= 1n
  // row numbers are doubles: past 2^53 they would silently name a neighbouring row (the footprint's rule)
  if (q > MAX_ROW_INDEX || q < -MAX_ROW_INDEX)
    throw new MarketDataError('invalid_decimal', TPO_MSG.priceRow(tradedPrice(grid, d), grid.rowSizeValue), {
      field: 'price',
    })
  return Number(q)
}

/** Lower bound of row `r`, with the grid's decimals. */
export function rowPrice(grid: TpoGrid, r: number): string {
  const u = r * grid.rowUnits
  return formatFixed(Number.isSafeInteger(u) ? u : BigInt(r) * grid.rowUnitsBig, grid.scale, grid.scale)
}

/** A traded price with the grid's decimals, or more when it has more. */
export function tradedPrice(grid: TpoGrid, d: ExactDecimal): string {
  return formatFixed(d.units, d.scale, grid.scale)
}

/** The part of a profile that does not depend on per-row volumes. */
export type TpoCore = Omit<
  TpoProfile,
  'rows' | 'volumePoc' | 'volumeValueAreaHigh' | 'volumeValueAreaLow' | 'volumeBuy' | 'volumeSell'
> & {
  rows: [string, number[]][]
}

/** Builds every field of a profile from its parts (the one place the TPO rules are applied). */
export function buildCore(p: TpoParts): { core: TpoCore; rowLow: number; n: number } {
  const grid = p.grid
  const blocks = p.blocks
  const nb = blocks.length
  let rowLow = Infinity
  let rowHigh = -Infinity
  let high = (blocks[0] as BlockPart).high
  let low = (blocks[0] as BlockPart).low
  for (let b = 0; b < nb; b++) {
    const bl = blocks[b] as BlockPart
    if (bl.lowRow < rowLow) rowLow = bl.lowRow
    if (bl.highRow > rowHigh) rowHigh = bl.highRow
    if (compareDecimal(bl.high, high) > 0) high = bl.high
    if (compareDecimal(bl.low, low) < 0) low = bl.low
  }
  const n = rowHigh - rowLow + 1
  if (n > MAX_ROWS) throw new MarketDataError('invalid_option', TPO_MSG.tooManyRows(n), { field: 'rowSize' })
  const idx: number[][] = new Array(n)
  for (let i = 0; i < n; i++) idx[i] = []
  for (let b = 0; b < nb; b++) {
    const bl = blocks[b] as BlockPart
    for (let r = bl.lowRow; r <= bl.highRow; r++) (idx[r - rowLow] as number[]).push(b)
  }
  const counts: number[] = new Array(n)
  const countsBig: bigint[] = new Array(n)
  let total = 0
  for (let i = 0; i < n; i++) {
    const c = (idx[i] as number[]).length
    counts[i] = c
    countsBig[i] = BigInt(c)
    total += c
  }
  const poc = pocIndex(countsBig)
  const va = valueAreaRange(countsBig, poc, p.valueArea)
  let above = 0
  for (let i = poc + 1; i < n; i++) above += counts[i] as number
  const shape = profileShape(counts)
  const prices: string[] = new Array(n)
  for (let i = 0; i < n; i++) prices[i] = rowPrice(grid, rowLow + i)
  const rows: [string, number[]][] = new Array(n)
  for (let i = 0; i < n; i++) rows[i] = [prices[i] as string, idx[i] as number[]]
  let initialBalance: { high: string; low: string } | null = null
  const s = p.initialBalanceStart
  if (s !== null) {
    let ibHigh: ExactDecimal | undefined
    let ibLow: ExactDecimal | undefined
    for (let b = 0; b < nb; b++) {
      const bl = blocks[b] as BlockPart
      if (bl.start < s || bl.start >= s + p.initialBalanceMs) continue
      if (ibHigh === undefined || compareDecimal(bl.high, ibHigh) > 0) ibHigh = bl.high
      if (ibLow === undefined || compareDecimal(bl.low, ibLow) < 0) ibLow = bl.low
    }
    if (ibHigh !== undefined && ibLow !== undefined)
      initialBalance = { high: tradedPrice(grid, ibHigh), low: tradedPrice(grid, ibLow) }
  }
  const core: TpoCore = {
    time: p.time,
    end: p.end,
    blockSize: p.blockSize,
    blocks: blocks.map((b) => b.start),
    rowSize: grid.rowSize,
    rowSizeValue: grid.rowSizeValue,
    rows,
    poc: prices[poc] as string,
    valueAreaHigh: prices[va.high] as string,
    valueAreaLow: prices[va.low] as string,
    initialBalance,
    high: tradedPrice(grid, high),
    low: tradedPrice(grid, low),
    open: tradedPrice(grid, p.open),
    close: tradedPrice(grid, p.close),
    tpoCount: total,
    tpoAbovePoc: above,
    tpoBelowPoc: total - above - (counts[poc] as number),
    singlePrints: shape.singlePrints.map((i) => prices[i] as string),
    poorHigh: shape.poorHigh,
    poorLow: shape.poorLow,
    excessHigh: shape.excessHigh,
    excessLow: shape.excessLow,
    tickSize: grid.tickSize,
    openTime: p.openTime,
    closeTime: p.closeTime,
    blockHighs: blocks.map((b) => tradedPrice(grid, b.high)),
    blockLows: blocks.map((b) => tradedPrice(grid, b.low)),
    valueAreaPercent: p.valueAreaPercent,
    initialBalancePeriod: p.initialBalancePeriod,
    initialBalanceStart: s,
  }
  if (p.sessionType !== undefined) core.sessionType = p.sessionType
  return { core, rowLow, n }
}

/**
 * Builds a {@link TpoCandleProfile} from parts without per-row volumes (candles, or merged candle
 * profiles); `volume` is the candles' exact total, or null when a candle had none.
 */
export function buildCandleProfile(p: TpoParts, volume: ExactDecimal | null): TpoCandleProfile {
  const { core } = buildCore(p)
  return { ...core, rowVolumes: 'unknown', volume: volume === null ? null : formatUnits(volume.units, volume.scale) }
}

/** Builds a {@link TpoProfile} from parts that carry per-row volumes. */
export function buildProfile(p: TpoParts): TpoProfile {
  const { core, rowLow, n } = buildCore(p)
  const buy = p.buy as bigint[]
  const sell = p.sell as bigint[]
  const off = rowLow - p.rowLow
  const vs = p.volumeScale
  const vol: bigint[] = new Array(n)
  const rows = core.rows as unknown as TpoProfile['rows']
  let totalBuy = 0n
  let totalSell = 0n
  for (let i = 0; i < n; i++) {
    const b = buy[i + off] ?? 0n
    const s = sell[i + off] ?? 0n
    totalBuy += b
    totalSell += s
    vol[i] = b + s
    const row = rows[i] as unknown as unknown[]
    row.push(formatUnits(b, vs), formatUnits(s, vs))
  }
  const vp = pocIndex(vol)
  const vva = valueAreaRange(vol, vp, p.valueArea)
  const price = (i: number) => (rows[i] as TpoProfile['rows'][number])[0]
  const out = core as unknown as TpoProfile
  out.volumePoc = price(vp)
  out.volumeValueAreaHigh = price(vva.high)
  out.volumeValueAreaLow = price(vva.low)
  out.volumeBuy = formatUnits(totalBuy, vs)
  out.volumeSell = formatUnits(totalSell, vs)
  return orderFields(out)
}

const ORDER: readonly (keyof TpoProfile)[] = [
  'time',
  'end',
  'sessionType',
  'blockSize',
  'blocks',
  'rowSize',
  'rowSizeValue',
  'rows',
  'poc',
  'volumePoc',
  'valueAreaHigh',
  'valueAreaLow',
  'volumeValueAreaHigh',
  'volumeValueAreaLow',
  'initialBalance',
  'high',
  'low',
  'open',
  'close',
  'tpoCount',
  'tpoAbovePoc',
  'tpoBelowPoc',
  'singlePrints',
  'poorHigh',
  'poorLow',
  'excessHigh',
  'excessLow',
  'volumeBuy',
  'volumeSell',
  'tickSize',
  'openTime',
  'closeTime',
  'blockHighs',
  'blockLows',
  'valueAreaPercent',
  'initialBalancePeriod',
  'initialBalanceStart',
]

/** A stable field order (readable JSON, deterministic equality in tests). */
function orderFields(p: TpoProfile): TpoProfile {
  const o: Record<string, unknown> = {}
  for (const k of ORDER) if (p[k] !== undefined) o[k] = p[k]
  return o as unknown as TpoProfile
}
