// The row sizes the command line picks when none is given (the autoRowSize rule, 30..80 rows): a footprint
// picture over the whole input's price range (the library's rowSize 'auto' works on the result, the command
// streams, so the range is read first), a TPO chart over its widest period, a TPO letter chart per profile.
import { createCandleAggregator, type Candle } from '../candles/index.js'
import { compareExactDecimals, formatUnits, parseDecimal, type ExactDecimal } from '../decimal/index.js'
import type { TradeRecord } from '../io/index.js'
import { autoRowSize, regridTpo, type TpoProfile } from '../tpo/index.js'
import type { Trade } from '../trades/index.js'
import { withAnySide } from './from-candles.js'
import type { Batch } from './input.js'
import type { RunConfig } from './options.js'
import { inferTickSize } from './tick-size.js'

/** The file's batches once more (a file is read twice when a row size is picked; stdin cannot be). */
export type Reread = () => Promise<{ batches: AsyncIterable<Batch<unknown>> }>

/** True when a footprint run draws pictures and no row size was given: then its rows are picked. */
export function picksFootprintRows(c: RunConfig): boolean {
  return (
    c.command === 'footprint' &&
    c.rowSize === undefined &&
    c.rowSizeValue === undefined &&
    (c.chart === 'bars' || c.format === 'text' || c.format === 'svg')
  )
}

/** The exact difference high - low as a decimal string. */
function span(high: ExactDecimal, low: ExactDecimal): string {
  const s = Math.max(high.scale, low.scale)
  return formatUnits(high.units * 10n ** BigInt(s - high.scale) - low.units * 10n ** BigInt(s - low.scale), s)
}

/** The lowest and highest of some decimal strings (undefined when none parses). */
function extremes(xs: Iterable<unknown>): { low: ExactDecimal; high: ExactDecimal } | undefined {
  let low: ExactDecimal | undefined
  let high: ExactDecimal | undefined
  for (const x of xs) {
    const r = parseDecimal(x)
    if (!r.ok) continue
    if (low === undefined || compareExactDecimals(r.value, low) < 0) low = r.value
    if (high === undefined || compareExactDecimals(r.value, high) > 0) high = r.value
  }
  return low === undefined || high === undefined ? undefined : { low, high }
}

/**
 * The row size (ticks) of a run that gave none: a footprint's over the range of the whole input (a file is
 * read once more for it: candles of the frame; from stdin the first batch's prices stand in, which gives more
 * rows, never fewer), the same rule and range as `footprintProfiles`' rowSize 'auto'; a TPO chart's over its
 * widest period. Says what it picked on stderr.
 */
export async function pickRowSize(
  c: RunConfig,
  first: Trade[],
  reread: Reread | undefined,
  note: (m: string) => void,
): Promise<number> {
  const tick = c.tickSize ?? inferTickSize(first)
  let r: ReturnType<typeof autoRowSize>
  let what: string
  if (reread !== undefined) {
    const periods = createCandleAggregator({
      timeframe: c.timeframe,
      timeZone: c.timeZone,
      ...(c.sessions !== undefined ? { sessions: c.sessions } : {}),
    })
    const again = await reread()
    for await (const batch of again.batches) periods.addTrades(withAnySide(batch.records as TradeRecord[]))
    const candles = periods.finish()
    if (c.command === 'footprint') {
      const lo = extremes(candles.map((k) => k.low))
      const hi = extremes(candles.map((k) => k.high))
      r = autoRowSize({ tickSize: tick, ...(lo && hi ? { range: span(hi.high, lo.low) } : {}) })
      what = `the price range of the whole input (${candles.length} bucket${candles.length === 1 ? '' : 's'})`
    } else {
      // the widest period gets at most 80 rows (the choice of the widest only reads numbers; the size is exact)
      const widest = candles.reduce<Candle | undefined>(
        (w, k) => (w === undefined || Number(k.high) - Number(k.low) > Number(w.high) - Number(w.low) ? k : w),
        undefined,
      )
      r = autoRowSize({ tickSize: tick, candles: widest === undefined ? [] : [widest] })
      what = `the range of the widest of ${candles.length} period${candles.length === 1 ? '' : 's'}`
    }
  } else {
    const x = extremes(first.map((t) => t.price))
    r = autoRowSize({ tickSize: tick, ...(x ? { range: span(x.high, x.low) } : {}) })
    what = `the range of the first ${first.length} prices`
  }
  note(
    `row size not given: using ${r.rowSize} tick${r.rowSize === 1 ? '' : 's'} (${r.rowSizeValue}), about ${r.rows} rows over ${what} (set it with --row-size)`,
  )
  return r.rowSize
}

/**
 * A TPO profile for the letter chart of a run that gave no row size: the profile itself when its range fits
 * in 80 rows, else regridded (exactly, `regridTpo`) to the rule's size for its range, with the header line
 * saying so. Profiles from candles are printed as they are.
 */
export function tpoForText(p: TpoProfile): { profile: TpoProfile; header?: string } {
  if ((p as { rowVolumes?: unknown }).rowVolumes === 'unknown' || p.rows.length <= 80) return { profile: p }
  const high = parseDecimal(p.high)
  const low = parseDecimal(p.low)
  if (!high.ok || !low.ok) return { profile: p }
  // a run without a row size builds one-tick rows: the rule's size is a multiple of them
  const r = autoRowSize({ tickSize: p.tickSize, range: span(high.value, low.value) })
  if (r.rowSize === 1 || r.rowSize % p.rowSize !== 0) return { profile: p }
  return {
    profile: regridTpo(p, { rowSize: r.rowSize }),
    header: `rows of ${r.rowSize} ticks (${r.rowSizeValue}) picked for the text: ${p.rows.length} rows of ${p.rowSizeValue} would not fit a screen (set --row-size to choose)`,
  }
}
