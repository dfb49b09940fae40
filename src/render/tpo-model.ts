import { MarketDataError } from '../errors.js'
import type { TpoCandleProfile, TpoProfile } from '../tpo/index.js'
import { blockLetters, type TpoLetters } from './tpo-letters.js'
import { add, checkProfile, cmp, dec, localDate, rowHolds, show, timeLabel, zoneOption } from './text.js'

/** Keys of {@link RenderTpoOptions}. */
export const TPO_RENDER_KEYS = ['timeZone', 'letters'] as const

/** Options of the TPO renderings. */
export interface RenderTpoOptions {
  /** IANA zone of the printed times (period start, block times); default `UTC`. */
  timeZone?: string
  /**
   * `'traded'` (default): letters A, B, C, ... to the blocks that traded, in order; `'fixed'`: one letter per
   * clock period of the day in `timeZone` (30m blocks: 00:00 is A, 09:30 is T), whatever traded.
   */
  letters?: TpoLetters
}

/** One row of the chart, top (high) to bottom (low). */
export interface TpoChartRow {
  price: string
  letters: string
  blockIndexes: number[]
  poc: boolean
  volumePoc: boolean
  valueArea: boolean
  vah: boolean
  val: boolean
  initialBalance: boolean
  ibh: boolean
  ibl: boolean
  singlePrint: boolean
  labels: string[]
}

/** What both TPO renderings draw, computed once from the profile. */
export interface TpoChart {
  title: string
  summary: string[]
  rows: TpoChartRow[]
  /** `A 09:30`, ... one per block. */
  blockLabels: string[]
  blockSize: string
  /** How the letters run, for the legend: `A-Z then a-z` in block order, or fixed by the clock. */
  letterNote: string
}

export function tpoChart(profile: TpoProfile | TpoCandleProfile, opts: RenderTpoOptions = {}): TpoChart {
  // a profile from candles (tpoFromCandles) has no per-row volumes: no vPOC, and its total volume only
  const candles =
    typeof profile === 'object' && profile !== null && (profile as { rowVolumes?: unknown }).rowVolumes === 'unknown'
  const p = profile as TpoProfile
  checkProfile(p, ['rows', 'blocks', 'singlePrints'], ['time', 'end', 'blocks'])
  if (p.initialBalance !== null && (typeof p.initialBalance !== 'object' || p.initialBalance === undefined))
    throw new MarketDataError('invalid_option', 'render: field `initialBalance` must be {high, low} or null', {
      field: 'initialBalance',
    })
  // the fields the chart prints as they are
  const field = (f: string, ok: boolean, want: string) => {
    if (!ok) throw new MarketDataError('invalid_option', `render: field \`${f}\` must be ${want}`, { field: f })
  }
  field('blockSize', typeof p.blockSize === 'string', 'a timeframe id')
  field('sessionType', p.sessionType === undefined || typeof p.sessionType === 'string', 'a session type')
  field('tpoCount', typeof p.tpoCount === 'number', 'a number')
  field('valueAreaPercent', p.valueAreaPercent === undefined || typeof p.valueAreaPercent === 'number', 'a number')
  field(
    'initialBalancePeriod',
    p.initialBalancePeriod === undefined || typeof p.initialBalancePeriod === 'string',
    'a duration id',
  )
  for (const f of ['high', 'low', 'open', 'close'] as const) dec(p[f], f)
  for (const row of p.rows as unknown[][]) {
    field(
      'rows',
      typeof row[0] === 'string' &&
        Array.isArray(row[1]) &&
        (row[1] as unknown[]).every((k) => typeof k === 'number' && Number.isInteger(k) && k >= 0),
      'rows [price, block indexes, ...]',
    )
  }
  const tz = zoneOption(opts?.timeZone)
  const letterOf = blockLetters(p, opts?.letters, tz)
  const step = dec(p.rowSizeValue, 'rowSizeValue')
  const poc = dec(p.poc, 'poc')
  const vpoc = candles ? undefined : dec(p.volumePoc, 'volumePoc')
  const vah = dec(p.valueAreaHigh, 'valueAreaHigh')
  const val = dec(p.valueAreaLow, 'valueAreaLow')
  const ib =
    p.initialBalance === null
      ? null
      : {
          high: dec(p.initialBalance.high, 'initialBalance.high'),
          low: dec(p.initialBalance.low, 'initialBalance.low'),
        }
  const singles = p.singlePrints.map((s) => dec(s, 'singlePrints'))
  const rows: TpoChartRow[] = []
  for (let i = p.rows.length - 1; i >= 0; i--) {
    const [price, idx] = p.rows[i]!
    const r = dec(price, 'rows.price')
    const sorted = [...idx].sort((a, b) => a - b)
    let letters = ''
    for (const k of sorted) letters += letterOf(k)
    const row: TpoChartRow = {
      price,
      letters,
      blockIndexes: sorted,
      poc: cmp(r, poc) === 0,
      volumePoc: vpoc !== undefined && cmp(r, vpoc) === 0,
      valueArea: cmp(val, r) <= 0 && cmp(r, vah) <= 0,
      vah: cmp(r, vah) === 0,
      val: cmp(r, val) === 0,
      initialBalance: ib !== null && cmp(r, ib.high) <= 0 && cmp(ib.low, add(r, step)) < 0,
      ibh: ib !== null && rowHolds(r, step, ib.high),
      ibl: ib !== null && rowHolds(r, step, ib.low),
      singlePrint: singles.some((s) => cmp(s, r) === 0),
      labels: [],
    }
    if (row.poc) row.labels.push('POC')
    if (row.volumePoc) row.labels.push('vPOC')
    if (row.vah) row.labels.push('VAH')
    if (row.val) row.labels.push('VAL')
    if (row.ibh) row.labels.push('IBH')
    if (row.ibl) row.labels.push('IBL')
    if (row.singlePrint) row.labels.push('single print')
    rows.push(row)
  }
  const multiDay = p.blocks.length > 0 && localDate(p.blocks[0]!, tz) !== localDate(p.blocks[p.blocks.length - 1]!, tz)
  const blockLabels = p.blocks.map((b, i) => `${letterOf(i)} ${timeLabel(b, tz, multiDay ? 'day-clock' : 'clock')}`)
  const volumeText = candles
    ? candleVolumeText(profile as TpoCandleProfile)
    : `${show(add(dec(p.volumeBuy, 'volumeBuy'), dec(p.volumeSell, 'volumeSell')))} (buy ${p.volumeBuy}, sell ${p.volumeSell})`
  const ibText = p.initialBalance === null ? 'none' : `${p.initialBalance.low} to ${p.initialBalance.high}`
  // tolerate hand-made profiles without these two fields
  const ibPeriod = p.initialBalancePeriod as string | undefined
  const vaPercent = p.valueAreaPercent as number | undefined
  // titled where its trading began (a main-session day at 09:30, not at the period's midnight)
  const title = `TPO ${timeLabel(p.blocks[0] ?? p.time, tz)} ${tz}${p.sessionType !== undefined ? ` ${p.sessionType}` : ''} | ${p.blockSize} blocks | row ${p.rowSizeValue}`
  const summary = [
    `POC ${p.poc} | value area ${p.valueAreaLow} to ${p.valueAreaHigh}${vaPercent !== undefined ? ` (${vaPercent}%)` : ''} | initial balance ${ibText}${ibPeriod !== undefined && p.initialBalance !== null ? ` (${ibPeriod})` : ''}`,
    `range ${p.low} to ${p.high} | open ${p.open} | close ${p.close} | ${p.tpoCount} TPOs | volume ${volumeText}`,
  ]
  const letterNote =
    opts?.letters === 'fixed'
      ? `one per ${p.blockSize} of the clock, fixed (A from 00:00 ${tz})`
      : `one per ${p.blockSize} block, A-Z then a-z`
  return { title, summary, rows, blockLabels, blockSize: p.blockSize, letterNote }
}

/** The volume of a profile from candles: the candles' total; per-row and per-side volumes are unknown. */
function candleVolumeText(p: TpoCandleProfile): string {
  const v = p.volume === null ? 'unknown' : show(dec(p.volume, 'volume'))
  return `${v} (from candles: per-row and per-side volumes unknown)`
}
