import { parseOutputDecimal, type ExactDecimal } from '../decimal/index.js'
import { MAX_TIME } from '../_lib/max-time.js'
import { MarketDataError } from '../errors.js'
import { TPO_MSG } from './messages.js'
import { resolveInitialBalance, resolveTpoGrid, resolveValueAreaPercent, type TpoGrid } from './options.js'
import { addDec } from './from-candles.js'
import {
  buildCandleProfile,
  buildProfile,
  compareDecimal,
  rowOfDecimal,
  type BlockPart,
  type TpoParts,
} from './parts.js'
import type { TpoCandleProfile, TpoProfile } from './types.js'

/** True for a profile built from candles (`rowVolumes: 'unknown'`: no per-row volumes). */
function fromCandles(p: TpoProfile | TpoCandleProfile): p is TpoCandleProfile {
  return typeof p === 'object' && p !== null && (p as { rowVolumes?: unknown }).rowVolumes === 'unknown'
}

function dec(x: unknown, field: string): ExactDecimal {
  const r = parseOutputDecimal(x)
  if (!r.ok) throw new MarketDataError('invalid_decimal', TPO_MSG.notProfile(field), { field })
  return r.value
}

function check(cond: boolean, field: string): void {
  if (!cond) throw new MarketDataError('invalid_option', TPO_MSG.notProfile(field), { field })
}

const isTime = (t: unknown): t is number =>
  typeof t === 'number' && Number.isInteger(t) && t >= -MAX_TIME && t <= MAX_TIME

/**
 * Reads a profile back into parts (per-block row ranges from the rows, volumes at their own scale); a
 * profile from candles (`rowVolumes: 'unknown'`) gives parts without volumes (`buy`/`sell` null).
 */
export function profileToParts(p: TpoProfile | TpoCandleProfile): TpoParts {
  check(typeof p === 'object' && p !== null, 'profile')
  const candles = fromCandles(p)
  // what the parts carry over as they are: times, the block size and session type, the block starts
  // (a period of the last days before 8.64e15 ends past it: its end is a whole ms a Date need not hold)
  check(isTime(p.time) && Number.isSafeInteger(p.end) && p.time < p.end, 'time')
  check(typeof p.blockSize === 'string', 'blockSize')
  check(
    p.sessionType === undefined ||
      p.sessionType === 'MAINSESSION' ||
      p.sessionType === 'PRE_MARKET' ||
      p.sessionType === 'POST_MARKET',
    'sessionType',
  )
  check(isTime(p.openTime) && isTime(p.closeTime) && p.openTime <= p.closeTime, 'openTime')
  check(
    p.initialBalanceStart === undefined || p.initialBalanceStart === null || isTime(p.initialBalanceStart),
    'initialBalanceStart',
  )
  check(Array.isArray(p.blocks) && p.blocks.length > 0, 'blocks')
  for (let b = 0; b < p.blocks.length; b++) {
    const t = p.blocks[b]
    check(isTime(t) && t >= p.time && t < p.end && (b === 0 || t > (p.blocks[b - 1] as number)), 'blocks')
  }
  check(Array.isArray(p.rows) && p.rows.length > 0, 'rows')
  check(Array.isArray(p.blockHighs) && p.blockHighs.length === p.blocks.length, 'blockHighs')
  check(Array.isArray(p.blockLows) && p.blockLows.length === p.blocks.length, 'blockLows')
  const grid = resolveTpoGrid(p.tickSize, p.rowSize)
  // rowSizeValue repeats tickSize x rowSize: it must equal it as a decimal ("0.250" = "0.25", as tickSize is read)
  const rsv = typeof p.rowSizeValue === 'string' ? parseOutputDecimal(p.rowSizeValue) : undefined
  if (rsv === undefined || !rsv.ok || compareDecimal(rsv.value, { units: grid.rowUnitsBig, scale: grid.scale }) !== 0) {
    throw new MarketDataError('invalid_option', TPO_MSG.notProfile('rowSizeValue'), { field: 'rowSizeValue' })
  }
  const va = resolveValueAreaPercent(p.valueAreaPercent)
  const ib = resolveInitialBalance(p.initialBalancePeriod)
  const nb = p.blocks.length
  const rowLow = rowOfDecimal(dec(p.rows[0]?.[0], 'rows'), grid)
  const lowRow = new Array<number>(nb).fill(Infinity)
  const highRow = new Array<number>(nb).fill(-Infinity)
  const buy: bigint[] = []
  const sell: bigint[] = []
  const vb: ExactDecimal[] = []
  const vs: ExactDecimal[] = []
  let scale = 0
  for (let i = 0; i < p.rows.length; i++) {
    const row = p.rows[i]
    check(Array.isArray(row) && Array.isArray(row[1]), 'rows')
    const r = rowLow + i
    // every row on the grid, one after another from the lowest
    check(i === 0 || rowOfDecimal(dec(row?.[0], 'rows'), grid) === r, 'rows')
    for (const b of (row as TpoProfile['rows'][number])[1]) {
      check(typeof b === 'number' && Number.isInteger(b) && b >= 0 && b < nb, 'rows')
      if (r < (lowRow[b] as number)) lowRow[b] = r
      if (r > (highRow[b] as number)) highRow[b] = r
    }
    if (candles) continue
    const b = dec(row?.[2], 'rows')
    const s = dec(row?.[3], 'rows')
    check(b.units >= 0n && s.units >= 0n, 'rows')
    vb.push(b)
    vs.push(s)
    scale = Math.max(scale, b.scale, s.scale)
  }
  for (let i = 0; i < vb.length; i++) {
    buy.push(at(vb[i] as ExactDecimal, scale))
    sell.push(at(vs[i] as ExactDecimal, scale))
  }
  const blocks: BlockPart[] = []
  for (let b = 0; b < nb; b++) {
    check(lowRow[b] !== Infinity, 'blocks')
    blocks.push({
      start: p.blocks[b] as number,
      lowRow: lowRow[b] as number,
      highRow: highRow[b] as number,
      high: dec(p.blockHighs[b], 'blockHighs'),
      low: dec(p.blockLows[b], 'blockLows'),
    })
  }
  return {
    time: p.time,
    end: p.end,
    sessionType: p.sessionType,
    blockSize: p.blockSize,
    grid,
    valueAreaPercent: va.percent,
    valueArea: va.exact,
    initialBalanceMs: ib.ms,
    initialBalancePeriod: ib.id,
    blocks,
    initialBalanceStart: p.initialBalanceStart ?? null,
    open: dec(p.open, 'open'),
    openTime: p.openTime,
    close: dec(p.close, 'close'),
    closeTime: p.closeTime,
    volumeScale: scale,
    rowLow: candles ? 0 : rowLow,
    buy: candles ? null : buy,
    sell: candles ? null : sell,
  }
}

/** The candles' total volume of a profile from candles (null when unknown). */
function candleVolume(p: TpoCandleProfile): ExactDecimal | null {
  if (p.volume === null) return null
  check(typeof p.volume === 'string', 'volume')
  const v = dec(p.volume, 'volume')
  check(v.units >= 0n, 'volume')
  return v
}

function at(d: ExactDecimal, scale: number): bigint {
  return d.units * 10n ** BigInt(scale - d.scale)
}

function sameGrid(a: TpoGrid, b: TpoGrid): void {
  if (a.tickSize !== b.tickSize)
    throw new MarketDataError('grid_mismatch', TPO_MSG.gridMismatch('tickSize', a.tickSize, b.tickSize), {
      field: 'tickSize',
    })
  if (a.rowSizeValue !== b.rowSizeValue)
    throw new MarketDataError('grid_mismatch', TPO_MSG.gridMismatch('rowSizeValue', a.rowSizeValue, b.rowSizeValue), {
      field: 'rowSizeValue',
    })
}

/** Merges two sets of parts: blocks of equal start combine (row range hull, extreme prices), volumes add. */
export function mergeParts(a: TpoParts, b: TpoParts): TpoParts {
  if ((a.buy === null) !== (b.buy === null))
    throw new MarketDataError('incompatible', TPO_MSG.mixedVolumes(), { field: 'rowVolumes' })
  sameGrid(a.grid, b.grid)
  if (a.blockSize !== b.blockSize)
    throw new MarketDataError('grid_mismatch', TPO_MSG.gridMismatch('blockSize', a.blockSize, b.blockSize), {
      field: 'blockSize',
    })
  if (a.valueAreaPercent !== b.valueAreaPercent)
    throw new MarketDataError(
      'incompatible',
      TPO_MSG.incompatible('valueAreaPercent', String(a.valueAreaPercent), String(b.valueAreaPercent)),
      { field: 'valueAreaPercent' },
    )
  if (a.initialBalanceMs !== b.initialBalanceMs)
    throw new MarketDataError(
      'incompatible',
      TPO_MSG.incompatible('initialBalancePeriod', a.initialBalancePeriod, b.initialBalancePeriod),
      { field: 'initialBalancePeriod' },
    )
  const byStart = new Map<number, BlockPart>()
  for (const bl of [...a.blocks, ...b.blocks]) {
    const o = byStart.get(bl.start)
    if (o === undefined) byStart.set(bl.start, { ...bl })
    else {
      if (bl.lowRow < o.lowRow) o.lowRow = bl.lowRow
      if (bl.highRow > o.highRow) o.highRow = bl.highRow
      if (compareDecimal(bl.high, o.high) > 0) o.high = bl.high
      if (compareDecimal(bl.low, o.low) < 0) o.low = bl.low
    }
  }
  const blocks = [...byStart.values()].sort((x, y) => x.start - y.start)
  let volumeScale = a.volumeScale
  let buy: bigint[] | null = null
  let sell: bigint[] | null = null
  let rowLow = Math.min(a.rowLow, b.rowLow)
  if (a.buy !== null && b.buy !== null && a.sell !== null && b.sell !== null) {
    volumeScale = Math.max(a.volumeScale, b.volumeScale)
    const fa = 10n ** BigInt(volumeScale - a.volumeScale)
    const fb = 10n ** BigInt(volumeScale - b.volumeScale)
    const rowHigh = Math.max(a.rowLow + a.buy.length, b.rowLow + b.buy.length)
    buy = new Array<bigint>(rowHigh - rowLow).fill(0n)
    sell = new Array<bigint>(rowHigh - rowLow).fill(0n)
    const add = (src: bigint[], from: number, f: bigint, dst: bigint[]) => {
      for (let i = 0; i < src.length; i++)
        dst[from - rowLow + i] = (dst[from - rowLow + i] as bigint) + (src[i] as bigint) * f
    }
    add(a.buy, a.rowLow, fa, buy)
    add(b.buy, b.rowLow, fb, buy)
    add(a.sell, a.rowLow, fa, sell)
    add(b.sell, b.rowLow, fb, sell)
  } else rowLow = 0
  const ibs = [a.initialBalanceStart, b.initialBalanceStart].filter((x): x is number => x !== null)
  const aFirst = a.openTime <= b.openTime
  const bLast = b.closeTime >= a.closeTime
  return {
    ...a,
    time: Math.min(a.time, b.time),
    end: Math.max(a.end, b.end),
    sessionType: a.sessionType === b.sessionType ? a.sessionType : undefined,
    blocks,
    initialBalanceStart: ibs.length === 0 ? null : Math.min(...ibs),
    open: aFirst ? a.open : b.open,
    openTime: aFirst ? a.openTime : b.openTime,
    close: bLast ? b.close : a.close,
    closeTime: bLast ? b.closeTime : a.closeTime,
    volumeScale,
    rowLow,
    buy,
    sell,
  }
}

/**
 * Merges two partial profiles exactly: profiles of the same period built from any split of its trades
 * (e.g. by time across workers) merge into the profile of all of them; blocks present in both combine.
 * Profiles of different periods merge into a composite (see {@link compositeTpoProfile}). Both must
 * share tick size, row size, block size, value-area share and initial-balance length
 * (`grid_mismatch` / `incompatible` otherwise). When `a` and `b` hold trades at the same earliest
 * (latest) time, `a` is taken as first (`b` as last), as in the concatenation `a ++ b`. Profiles from
 * {@link tpoFromCandles} (`rowVolumes: 'unknown'`) merge into one of that kind (their total `volume`s
 * add); a profile from trades and one from candles are refused (`incompatible`, field `rowVolumes`).
 *
 * @param a - A profile (or partial profile) from trades, or from candles.
 * @param b - Another of the same kind, on the same grid and blocks.
 * @returns The merged profile, of the inputs' kind.
 * @throws MarketDataError `grid_mismatch` / `incompatible` for other settings or mixed kinds, `invalid_option` for a malformed profile.
 * @example
 * const [a] = tpoProfiles(morning, opts), [b] = tpoProfiles(afternoon, opts)
 * mergeTpoProfiles(a, b) // deep-equals tpoProfiles([...morning, ...afternoon], opts)[0]
 */
export function mergeTpoProfiles(a: TpoProfile, b: TpoProfile): TpoProfile
export function mergeTpoProfiles(a: TpoCandleProfile, b: TpoCandleProfile): TpoCandleProfile
export function mergeTpoProfiles(
  a: TpoProfile | TpoCandleProfile,
  b: TpoProfile | TpoCandleProfile,
): TpoProfile | TpoCandleProfile
export function mergeTpoProfiles(
  a: TpoProfile | TpoCandleProfile,
  b: TpoProfile | TpoCandleProfile,
): TpoProfile | TpoCandleProfile {
  return build([a, b])
}

/** Merges profiles of one kind: from trades (row volumes added) or from candles (total volumes added). */
function build(profiles: readonly (TpoProfile | TpoCandleProfile)[]): TpoProfile | TpoCandleProfile {
  let acc = profileToParts(profiles[0] as TpoProfile)
  for (let i = 1; i < profiles.length; i++) acc = mergeParts(acc, profileToParts(profiles[i] as TpoProfile))
  if (acc.buy !== null) return buildProfile(acc)
  let volume: ExactDecimal | null = { units: 0n, scale: 0 }
  for (const p of profiles) {
    const v = candleVolume(p as TpoCandleProfile)
    volume = volume === null || v === null ? null : addDec(volume, v)
  }
  return buildCandleProfile(acc, volume)
}

/**
 * A composite profile of N profiles (e.g. the last 5 days as one profile): every block of every profile,
 * volumes added per row, POC, value area and every other field recomputed over the whole. `time` is the
 * earliest period start, `end` the latest end; the initial balance is the first one's (it starts at the
 * first main-session block). Profiles from {@link tpoFromCandles} make a composite of that kind
 * (multi-day composites from candles: rows, POC, value area and initial balance; their total `volume`s
 * add); mixing them with profiles from trades is refused.
 *
 * @param profiles - At least one profile, all from trades or all from candles, on one grid.
 * @returns The composite profile, of the inputs' kind.
 * @throws MarketDataError `invalid_option` on an empty list, `grid_mismatch` / `incompatible` on mismatched grids or mixed kinds.
 * @example compositeTpoProfile(tpoProfiles(trades, { timeframe: '1d', tickSize: '0.25' }).slice(-5)).poc
 */
export function compositeTpoProfile(profiles: readonly TpoProfile[]): TpoProfile
export function compositeTpoProfile(profiles: readonly TpoCandleProfile[]): TpoCandleProfile
export function compositeTpoProfile(profiles: readonly (TpoProfile | TpoCandleProfile)[]): TpoProfile | TpoCandleProfile
export function compositeTpoProfile(
  profiles: readonly (TpoProfile | TpoCandleProfile)[],
): TpoProfile | TpoCandleProfile {
  if (!Array.isArray(profiles) || profiles.length === 0)
    throw new MarketDataError('invalid_option', TPO_MSG.noProfiles(), { field: 'profiles' })
  return build(profiles)
}
