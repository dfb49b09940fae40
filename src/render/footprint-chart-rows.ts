import { MarketDataError } from '../errors.js'
import { regridFootprint, type FootprintProfile } from '../footprint/index.js'
import { pickRowSize } from '../_lib/row-size-rule.js'
import { describeValue } from '../_lib/describe.js'
import { dec, show, type Scaled } from './text.js'

/**
 * The row height a footprint chart draws its profiles at, as a price step, or undefined to keep theirs:
 * - `'auto'` (the default): the rule of `autoRowSize` over the chart's span of `spanRows` rows of the
 *   profiles' own height (`'auto'` of `footprintProfiles`): a chart of one-tick rows over a crypto day is
 *   coarsened to 30..80 rows, one already within 80 rows is kept;
 * - a number: rows of that many ticks (a whole multiple of the profiles' height; `regridFootprint` refuses
 *   another with `grid_mismatch`).
 * Throws `invalid_option` naming `rowSize` for anything else.
 */
export function chartRowStep(rowSize: unknown, spanRows: number, step: Scaled, tickSize: string): string | undefined {
  if (rowSize === undefined || rowSize === 'auto') {
    const k = pickRowSize(spanRows).rowSize
    return k === 1 ? undefined : show({ units: step.units * BigInt(k), scale: step.scale })
  }
  if (typeof rowSize !== 'number' || !Number.isSafeInteger(rowSize) || rowSize < 1)
    throw new MarketDataError(
      'invalid_option',
      `renderFootprintChart: \`rowSize\` must be 'auto' or an integer >= 1 (ticks), got ${describeValue(rowSize)}`,
      { field: 'rowSize' },
    )
  const t = dec(tickSize, 'tickSize')
  const want = show({ units: t.units * BigInt(rowSize), scale: t.scale })
  return want === show(step) ? undefined : want
}

/** Every profile regridded to rows of `rowSizeValue` (exactly: `regridFootprint`). */
export function regridAll(profiles: readonly FootprintProfile[], rowSizeValue: string): FootprintProfile[] {
  return profiles.map((p) => regridFootprint(p, { rowSizeValue }))
}
