import { MarketDataError } from '../errors.js'
import { nakedPocs, type TpoCandleProfile, type TpoProfile } from '../tpo/index.js'
import { describeValue } from '../_lib/describe.js'
import { resolveTpoGrid } from '../tpo/options.js'
import { rowPrice } from '../tpo/parts.js'
import { approx, checkProfile, cmp, dec, localDate, rowsFrom, timeLabel, zoneOption, type Scaled } from './text.js'

/**
 * A price range to mark on one period (or on every period when `time` is absent): single-print zones,
 * poor highs and lows, or any other range an analytics function finds. `kind` names it (it becomes the
 * mark's class `tpo-annotation-<kind>` and its default label); `low` and `high` are row prices.
 */
export interface TpoChartAnnotation {
  kind: string
  /** The period's start (`profile.time`); absent: every period. */
  time?: number
  low: string
  high: string
  /** Text beside the mark (default `kind`). */
  label?: string
}

/** Options of {@link renderTpoChart}. */
export interface RenderTpoChartOptions {
  /** IANA zone of the printed times; default `UTC`. */
  timeZone?: string
  /** `'letters'` (a letter per TPO), `'blocks'` (a coloured square per TPO) or `'auto'` (default: letters up to 100 rows). */
  style?: 'auto' | 'letters' | 'blocks'
  /** Ranges to mark, e.g. the single-print zones or poor extremes of an analytics function. */
  annotations?: readonly TpoChartAnnotation[]
  /** Height in pixels of the price grid in blocks style (default 720). */
  maxHeight?: number
}

/** One row of one period: `row` counts grid rows up from the chart's lowest row. */
export interface TpoChartCell {
  row: number
  blocks: number[]
  /** Drawing value of the row's volume (buy + sell), or undefined when the profile has no per-row volume. */
  volume: number | undefined
}

/** A range of chart rows, both ends included. */
export interface RowRange {
  low: number
  high: number
}

export interface TpoChartPeriod {
  time: number
  label: string
  blockCount: number
  cells: TpoChartCell[]
  /** Widest row, in TPOs. */
  width: number
  poc: number
  valueArea: RowRange
  initialBalance: RowRange | null
  volumePoc: number | undefined
  maxVolume: number
  singlePrints: number[]
  excessHigh: RowRange | null
  excessLow: RowRange | null
  poorHigh: number | null
  poorLow: number | null
  open: number
  close: number
  /** The previous period's POC and value area, drawn as lines across this one. */
  previous: { poc: number; valueArea: RowRange } | null
  /** Set when no later block traded through this period's POC (`nakedPocs`). */
  nakedPoc: boolean
  annotations: { kind: string; label: string; range: RowRange }[]
  /** `POC x` and `VA low-high`, printed above the period when they fit. */
  summary: [string, string]
}

export interface TpoChartModel {
  title: string
  periods: TpoChartPeriod[]
  rowCount: number
  rowPrices: string[]
  style: 'letters' | 'blocks'
}

type AnyTpo = TpoProfile | TpoCandleProfile

function fail(field: string, rule: string, got: unknown): never {
  throw new MarketDataError('invalid_option', `renderTpoChart: \`${field}\` ${rule}, got ${describeValue(got)}`, {
    field,
  })
}

/**
 * Lays out TPO periods side by side on one price grid. Every mark is a field of the profile (POC, value
 * area, initial balance, single prints, excess, poor extremes, open, close, volume POC) or a library
 * result (`nakedPocs`); annotations are the caller's ranges (e.g. from an analytics function).
 */
export function tpoChartModel(profiles: readonly AnyTpo[], opts: RenderTpoChartOptions = {}): TpoChartModel {
  if (!Array.isArray(profiles)) fail('profiles', 'must be an array of TPO profiles', profiles)
  if (typeof opts !== 'object' || opts === null) fail('options', 'must be an object', opts)
  const tz = zoneOption(opts.timeZone)
  if (opts.style !== undefined && !['auto', 'letters', 'blocks'].includes(opts.style))
    fail('style', "must be 'auto', 'letters' or 'blocks'", opts.style)
  const notes = opts.annotations ?? []
  if (!Array.isArray(notes)) fail('annotations', 'must be an array of {kind, low, high}', notes)
  for (const a of notes) {
    if (typeof a !== 'object' || a === null || typeof a.kind !== 'string' || !/^[A-Za-z0-9_-]+$/.test(a.kind))
      fail('annotations', 'must hold {kind, low, high} with a kind of letters, digits, - or _', a)
    if (a.time !== undefined && typeof a.time !== 'number')
      fail('annotations', 'time must be a number (the period start)', a.time)
    if (a.label !== undefined && typeof a.label !== 'string') fail('annotations', 'label must be a string', a.label)
  }
  profiles.forEach((p) => void checkProfile(p, ['rows', 'blocks', 'singlePrints'], ['time', 'end', 'blocks']))
  const sorted = [...profiles].sort((a, b) => a.time - b.time)
  const withRows = sorted.filter((p) => p.rows.length > 0)
  const step = withRows.length > 0 ? dec(withRows[0]!.rowSizeValue, 'rowSizeValue') : { units: 1n, scale: 0 }
  let base: Scaled | undefined
  let top: Scaled | undefined
  for (const p of withRows) {
    if (cmp(dec(p.rowSizeValue, 'rowSizeValue'), step) !== 0) {
      throw new MarketDataError(
        'grid_mismatch',
        `renderTpoChart: every profile needs the same rowSizeValue (one price grid), got ${withRows[0]!.rowSizeValue} and ${p.rowSizeValue}`,
        { field: 'rowSizeValue' },
      )
    }
    const lo = dec(p.rows[0]![0], 'rows.price')
    const hi = dec(p.rows[p.rows.length - 1]![0], 'rows.price')
    if (base === undefined || cmp(lo, base) < 0) base = lo
    if (top === undefined || cmp(hi, top) > 0) top = hi
  }
  const b0 = base ?? { units: 0n, scale: 0 }
  const rowCount = base === undefined || top === undefined ? 0 : rowsFrom(b0, step, top) + 1
  if (rowCount > 100_000)
    fail(
      'profiles',
      'span more than 100000 rows (build them with a larger rowSize: autoRowSize picks one)',
      `${rowCount} rows`,
    )
  // row prices printed as the profiles print them (grid decimals)
  const rowPrices: string[] = []
  if (withRows.length > 0) {
    const grid = resolveTpoGrid(withRows[0]!.tickSize, withRows[0]!.rowSize)
    const baseRow = rowsFrom({ units: 0n, scale: 0 }, step, b0)
    for (let r = 0; r < rowCount; r++) rowPrices.push(rowPrice(grid, baseRow + r))
  }
  const row = (x: string, field: string) => {
    const d = dec(x, field)
    return cmp(d, b0) < 0 ? -1 : rowsFrom(b0, step, d)
  }
  const naked = nakedPocs(sorted as TpoProfile[])
  const multiDay =
    sorted.length > 0 && localDate(sorted[0]!.time, tz) !== localDate(sorted[sorted.length - 1]!.end - 1, tz)
  const style =
    opts.style === 'letters' || opts.style === 'blocks' ? opts.style : rowCount <= 100 ? 'letters' : 'blocks'
  let prev: TpoChartPeriod | null = null
  const periods = sorted.map((p, k): TpoChartPeriod => {
    const cells: TpoChartCell[] = []
    let width = 0
    let maxVolume = 0
    for (const r of p.rows) {
      const vb = r[2] as string | undefined
      const vs = r[3] as string | undefined
      const volume =
        typeof vb === 'string' && typeof vs === 'string'
          ? approx(dec(vb, 'rows.volumeBuy')) + approx(dec(vs, 'rows.volumeSell'))
          : undefined
      if (volume !== undefined) maxVolume = Math.max(maxVolume, volume)
      cells.push({ row: row(r[0], 'rows.price'), blocks: [...r[1]].sort((a, b) => a - b), volume })
      width = Math.max(width, r[1].length)
    }
    const lowRow = cells.length > 0 ? cells[0]!.row : 0
    const highRow = cells.length > 0 ? cells[cells.length - 1]!.row : 0
    const volumePoc = 'volumePoc' in p && typeof p.volumePoc === 'string' ? row(p.volumePoc, 'volumePoc') : undefined
    const ib =
      p.initialBalance === null
        ? null
        : {
            low: row(p.initialBalance.low, 'initialBalance.low'),
            high: row(p.initialBalance.high, 'initialBalance.high'),
          }
    const period: TpoChartPeriod = {
      time: p.time,
      label: `${multiDay ? localDate(p.time, tz) : timeLabel(p.time, tz)}${p.sessionType !== undefined ? ` ${p.sessionType}` : ''}`,
      blockCount: p.blocks.length,
      cells,
      width,
      poc: row(p.poc, 'poc'),
      valueArea: { low: row(p.valueAreaLow, 'valueAreaLow'), high: row(p.valueAreaHigh, 'valueAreaHigh') },
      initialBalance: ib,
      volumePoc,
      maxVolume,
      singlePrints: p.singlePrints.map((s: string) => row(s, 'singlePrints')),
      excessHigh: p.excessHigh > 0 ? { low: highRow - p.excessHigh + 1, high: highRow } : null,
      excessLow: p.excessLow > 0 ? { low: lowRow, high: lowRow + p.excessLow - 1 } : null,
      poorHigh: p.poorHigh ? highRow : null,
      poorLow: p.poorLow ? lowRow : null,
      open: row(p.open, 'open'),
      close: row(p.close, 'close'),
      previous: prev === null ? null : { poc: prev.poc, valueArea: prev.valueArea },
      nakedPoc: naked[k]!.naked,
      annotations: notes
        .filter((a) => a.time === undefined || a.time === p.time)
        .map((a) => ({
          kind: a.kind,
          label: a.label ?? a.kind,
          range: { low: row(a.low, 'annotations.low'), high: row(a.high, 'annotations.high') },
        })),
      summary: [`POC ${p.poc}`, `VA ${p.valueAreaLow}-${p.valueAreaHigh}`],
    }
    prev = period
    return period
  })
  const first = sorted[0]
  const last = sorted[sorted.length - 1]
  const title =
    first === undefined || last === undefined
      ? 'TPO chart: no profiles'
      : `TPO ${localDate(first.time, tz)} to ${localDate(last.end - 1, tz)} ${tz} | ${periods.length} periods | ${first.blockSize} blocks | row ${withRows[0]?.rowSizeValue ?? '-'}`
  return { title, periods, rowCount, rowPrices, style }
}
