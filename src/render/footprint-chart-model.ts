import { MarketDataError } from '../errors.js'
import {
  cumulativeDelta,
  footprintAnalytics,
  footprintValueArea,
  type FootprintAnalytics,
  type FootprintProfile,
} from '../footprint/index.js'
import type { RenderFootprintOptions } from './footprint-model.js'
import {
  add,
  approx,
  checkProfile,
  cmp,
  dec,
  localDate,
  position,
  rowsFrom,
  show,
  sub,
  timeLabel,
  zoneOption,
  type Scaled,
} from './text.js'
import { describeValue } from '../_lib/describe.js'
import { resolveGrid, rowPrice } from '../footprint/grid.js'
import { chartRowStep, regridAll } from './footprint-chart-rows.js'

/** What a footprint cell shows: sell x buy, the delta (buy - sell), or the volume (buy + sell). */
export type FootprintCells = 'bidAsk' | 'delta' | 'volume'

/** The open and close of a bar's candle (a `Candle` of the same frame fits); matched to a profile by `time`. */
export interface FootprintChartCandle {
  time: number
  open: string
  close: string
}

/** Options of {@link renderFootprintChart}. */
export interface RenderFootprintChartOptions extends RenderFootprintOptions {
  /** What each cell shows (default `'bidAsk'`). */
  cells?: FootprintCells
  /** Consecutive imbalanced rows that make a stacked imbalance (default 3). */
  stackedRows?: number
  /** Share of volume in each bar's value area, 0 < p <= 100 (default 70). */
  valueAreaPercent?: number
  /**
   * Candles of the same frame, for the open/close body of each bar (`candlesFromTrades` output fits).
   * Footprint profiles carry high and low but not open and close: without a candle a bar shows its wick only.
   */
  candles?: readonly FootprintChartCandle[]
  /** `'auto'` (default): numbers in the cells when they fit within `maxWidth`, else a colour scale. */
  cellMode?: 'auto' | 'text' | 'colour'
  /** Width in pixels the chart should fit in before cells collapse to colour (default 1600). */
  maxWidth?: number
  /** Height in pixels of the price grid in colour mode (default 720). */
  maxHeight?: number
  /**
   * Row height of the chart: `'auto'` (default) coarsens profiles whose span would take more than 80 rows to
   * the `autoRowSize` rule's 30..80 (regridded exactly), keeping a chart within 80 rows as it is; a number
   * draws rows of that many ticks (a whole multiple of the profiles' row height).
   */
  rowSize?: number | 'auto'
}

/** One traded cell: `row` counts grid rows up from the chart's lowest row. */
export interface ChartCell {
  row: number
  price: string
  sell: string
  buy: string
  delta: string
  volume: string
  /** Drawing values only (colour intensity), never printed. */
  deltaValue: number
  volumeValue: number
}

/** One bar of the chart, every mark from a library result. */
export interface ChartBar {
  time: number
  label: string
  cells: ChartCell[]
  highRow: number
  lowRow: number
  /** Exact prices as drawing positions in rows above the chart's lowest row's bottom edge. */
  high: number
  low: number
  open: number | undefined
  close: number | undefined
  pocRow: number
  valueAreaHighRow: number
  valueAreaLowRow: number
  imbalances: { row: number; side: 'buy' | 'sell' }[]
  stacked: { lowRow: number; highRow: number; side: 'buy' | 'sell'; rows: number }[]
  unfinishedHigh: boolean
  unfinishedLow: boolean
  volume: string
  delta: string
  cumulativeDelta: string
  volumeValue: number
  deltaValue: number
  cumulativeDeltaValue: number
}

/** The whole chart: bars on one price grid. */
export interface FootprintChartModel {
  title: string
  subtitle: string
  bars: ChartBar[]
  /** Grid rows from the lowest to the highest traded row of all bars. */
  rowCount: number
  /** Lower bound price of each chart row, index 0 = lowest. */
  rowPrices: string[]
  cells: FootprintCells
  ratio: string
  stackedRows: number
  valueAreaPercent: number
  maxCellVolume: number
  maxCellDelta: number
}

const CELLS: readonly FootprintCells[] = ['bidAsk', 'delta', 'volume']
const MAX_ROWS = 100_000

function fail(field: string, rule: string, got: unknown): never {
  throw new MarketDataError('invalid_option', `renderFootprintChart: \`${field}\` ${rule}, got ${describeValue(got)}`, {
    field,
  })
}

/**
 * Lays out N footprint profiles on one price grid, in time order: per bar its cells, POC and value area
 * (`footprintValueArea`), imbalances, stacked imbalances and unfinished auctions (`footprintAnalytics`, or
 * the profile's own `analytics` when it carries them), totals and cumulative delta (`cumulativeDelta`). The
 * profiles are first regridded to the chart's `rowSize` (`regridded`: already done).
 */
export function footprintChartModel(
  profiles: readonly FootprintProfile[],
  opts: RenderFootprintChartOptions = {},
  regridded = false,
): FootprintChartModel {
  if (!Array.isArray(profiles)) fail('profiles', 'must be an array of footprint profiles', profiles)
  if (typeof opts !== 'object' || opts === null) fail('options', 'must be an object', opts)
  const cells = opts.cells ?? 'bidAsk'
  if (!CELLS.includes(cells)) fail('cells', "must be 'bidAsk', 'delta' or 'volume'", opts.cells)
  const tz = zoneOption(opts.timeZone)
  profiles.forEach((p) => void checkProfile(p, ['rows'], ['time', 'end']))
  const sorted = [...profiles].sort((a, b) => a.time - b.time)
  const withRows = sorted.filter((p) => p.rows.length > 0)
  const step = withRows.length > 0 ? dec(withRows[0]!.rowSizeValue, 'rowSizeValue') : { units: 1n, scale: 0 }
  for (const p of withRows) {
    if (cmp(dec(p.rowSizeValue, 'rowSizeValue'), step) !== 0) {
      throw new MarketDataError(
        'grid_mismatch',
        `renderFootprintChart: every profile needs the same rowSizeValue (one price grid), got ${withRows[0]!.rowSizeValue} and ${p.rowSizeValue}`,
        { field: 'rowSizeValue' },
      )
    }
  }
  let base: Scaled | undefined
  let top: Scaled | undefined
  for (const p of withRows) {
    const lo = dec(p.rows[0]![0], 'rows.price')
    const hi = dec(p.rows[p.rows.length - 1]![0], 'rows.price')
    if (base === undefined || cmp(lo, base) < 0) base = lo
    if (top === undefined || cmp(hi, top) > 0) top = hi
  }
  const rowCount = base === undefined || top === undefined ? 0 : rowsFrom(base, step, top) + 1
  if (!regridded && withRows.length > 0) {
    const coarse = chartRowStep(opts.rowSize, rowCount - 1, step, withRows[0]!.tickSize)
    if (coarse !== undefined) return footprintChartModel(regridAll(sorted, coarse), opts, true)
  }
  if (rowCount > MAX_ROWS)
    fail(
      'profiles',
      `span more than ${MAX_ROWS} rows of ${show(step)} (regrid them with regridFootprint first)`,
      `${rowCount} rows`,
    )
  const b0 = base ?? { units: 0n, scale: 0 }
  const rowPrices: string[] = []
  if (withRows.length > 0) {
    const grid = resolveGrid(withRows[0]!.tickSize, undefined, withRows[0]!.rowSizeValue)
    const baseRow = rowsFrom({ units: 0n, scale: 0 }, step, b0)
    for (let r = 0; r < rowCount; r++) rowPrices.push(rowPrice(grid, baseRow + r))
  }
  const ratio = opts.imbalanceRatio ?? 300
  const stackedRows = opts.stackedRows ?? 3
  const vaPercent = opts.valueAreaPercent ?? 70
  const candleAt = new Map<number, FootprintChartCandle>()
  if (opts.candles !== undefined) {
    if (!Array.isArray(opts.candles)) fail('candles', 'must be an array of candles', opts.candles)
    for (const k of opts.candles) {
      if (typeof k !== 'object' || k === null || typeof k.time !== 'number')
        fail('candles', 'must hold candles with a number `time`', k)
      candleAt.set(k.time, k)
    }
  }
  const cum = cumulativeDelta(sorted)
  const multiDay =
    sorted.length > 0 && localDate(sorted[0]!.time, tz) !== localDate(sorted[sorted.length - 1]!.time, tz)
  let maxCellVolume = 0
  let maxCellDelta = 0
  let an0: FootprintAnalytics | undefined
  const bars: ChartBar[] = sorted.map((p: FootprintProfile, i: number): ChartBar => {
    const an: FootprintAnalytics =
      p.analytics ??
      footprintAnalytics(p, {
        ratio,
        ...(opts.minVolume !== undefined ? { minVolume: opts.minVolume } : {}),
        stackedRows,
      })
    an0 ??= an
    const row = (price: string) => rowsFrom(b0, step, dec(price, 'rows.price'))
    const cellsOut: ChartCell[] = p.rows.map(([price, vb, vs]) => {
      const b = dec(vb, 'rows.volumeBuy')
      const s = dec(vs, 'rows.volumeSell')
      const d = sub(b, s)
      const v = add(b, s)
      const cell = {
        row: row(price),
        price,
        sell: vs,
        buy: vb,
        delta: show(d, true),
        volume: show(v),
        deltaValue: approx(d),
        volumeValue: approx(v),
      }
      maxCellVolume = Math.max(maxCellVolume, cell.volumeValue)
      maxCellDelta = Math.max(maxCellDelta, Math.abs(cell.deltaValue))
      return cell
    })
    const va = p.rows.length > 0 ? footprintValueArea(p, { valueAreaPercent: vaPercent }) : undefined
    const k = candleAt.get(p.time)
    const c = cum[i]!
    return {
      time: p.time,
      label: timeLabel(p.time, tz, multiDay ? 'day-clock' : 'clock'),
      cells: cellsOut,
      highRow: cellsOut.length > 0 ? cellsOut[cellsOut.length - 1]!.row : 0,
      lowRow: cellsOut.length > 0 ? cellsOut[0]!.row : 0,
      high: position(b0, step, dec(p.high, 'high')),
      low: position(b0, step, dec(p.low, 'low')),
      open: k === undefined ? undefined : position(b0, step, dec(k.open, 'candles.open')),
      close: k === undefined ? undefined : position(b0, step, dec(k.close, 'candles.close')),
      pocRow: va === undefined ? 0 : row(va.volumePoc),
      valueAreaHighRow: va === undefined ? 0 : row(va.valueAreaHigh),
      valueAreaLowRow: va === undefined ? 0 : row(va.valueAreaLow),
      imbalances: an.imbalances.map((x) => ({ row: row(x.price), side: x.side })),
      stacked: an.stackedImbalances.map((x) => ({
        lowRow: row(x.low),
        highRow: row(x.high),
        side: x.side,
        rows: x.rows,
      })),
      unfinishedHigh: an.unfinishedHigh,
      unfinishedLow: an.unfinishedLow,
      volume: p.volume,
      delta: c.delta,
      cumulativeDelta: c.cumulativeDelta,
      volumeValue: approx(dec(p.volume, 'volume')),
      deltaValue: approx(dec(c.delta, 'delta')),
      cumulativeDeltaValue: approx(dec(c.cumulativeDelta, 'cumulativeDelta')),
    }
  })
  const first = sorted[0]
  const last = sorted[sorted.length - 1]
  const title =
    first === undefined || last === undefined
      ? 'Footprint chart: no profiles'
      : `Footprint ${timeLabel(first.time, tz)} to ${timeLabel(last.end, tz, localDate(first.time, tz) === localDate(last.end - 1, tz) ? 'clock' : 'full')} ${tz} | ${bars.length} bars | row ${withRows[0]?.rowSizeValue ?? '-'}`
  const ratioText = an0?.ratio ?? String(ratio)
  const subtitle = `cells: ${cells === 'bidAsk' ? 'sell x buy' : cells} | POC and ${vaPercent}% value area per bar | imbalance >= ${ratioText}%, stacked >= ${an0?.stackedRows ?? stackedRows} rows`
  return {
    title,
    subtitle,
    bars,
    rowCount,
    rowPrices,
    cells,
    ratio: ratioText,
    stackedRows: an0?.stackedRows ?? stackedRows,
    valueAreaPercent: vaPercent,
    maxCellVolume,
    maxCellDelta,
  }
}
