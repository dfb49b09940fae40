import type { TpoCandleProfile, TpoProfile } from '../tpo/index.js'
import { wrap } from './text.js'
import { tpoChart, type RenderTpoOptions } from './tpo-model.js'
import { checkOptions } from '../_lib/closed-options.js'
import { TPO_RENDER_KEYS } from './tpo-model.js'

/**
 * The classic Market Profile letter chart of one TPO profile, highest price on top. Each row:
 * price, an initial-balance gutter (`|`), a value-area gutter (`:` inside the value area, `>` at the
 * POC), the row's block letters (A..Z, a..z, then again, in block order, collapsed to the left), and
 * labels (`POC`, `vPOC`, `VAH`, `VAL`, `IBH`, `IBL`, `single print`). A header sums the profile up; the
 * block times and a legend follow the rows. Times print in `timeZone` (default UTC).
 *
 * @param profile - a profile as the library returned it
 * @param opts - options, see {@link RenderTpoOptions} (optional)
 * @returns the `string`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * console.log(renderTpo(tpoProfiles(trades, { timeframe: '1d', tickSize: '0.25' })[0]!))
 */
export function renderTpo(profile: TpoProfile | TpoCandleProfile, opts: RenderTpoOptions = {}): string {
  checkOptions(opts, TPO_RENDER_KEYS, 'renderTpo')
  const c = tpoChart(profile, opts)
  const pw = Math.max(0, ...c.rows.map((r) => r.price.length))
  const lw = Math.max(0, ...c.rows.map((r) => r.letters.length))
  const lines = [c.title, ...c.summary, '']
  for (const r of c.rows) {
    const ib = r.initialBalance ? '|' : ' '
    const va = r.poc ? '>' : r.valueArea ? ':' : ' '
    const line = `${r.price.padStart(pw)} ${ib}${va} ${r.letters.padEnd(lw)}  ${r.labels.join(' ')}`
    lines.push(line.trimEnd())
  }
  lines.push('')
  lines.push(...wrap(c.blockLabels, 78))
  lines.push(`legend: > POC  : value area  | initial balance  letters: ${c.letterNote}`)
  return `${lines.join('\n')}\n`
}
