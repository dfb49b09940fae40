import type { FootprintProfile } from '../footprint/index.js'
import { footprintLadder, type RenderFootprintOptions } from './footprint-model.js'
import { checkOptions } from '../_lib/closed-options.js'
import { FOOTPRINT_RENDER_KEYS } from './footprint-model.js'

const BAR = 20

/**
 * The bid x ask ladder of one footprint profile, highest price on top: per row the price, `>` at the
 * POC (most volume), sell volume (hitting the bid) `x` buy volume (lifting the offer), the delta
 * (buy - sell, signed) and a bar of the row's volume. A `*` marks a diagonal imbalance: a buy volume
 * at least `imbalanceRatio`% (default 300) of the sell volume one row below (star after the buy
 * number), or a sell volume at least that share of the buy volume one row above (star before the sell
 * number). Header: bucket, grid, totals; a legend closes it.
 *
 * @param profile - a profile as the library returned it
 * @param opts - options, see {@link RenderFootprintOptions} (optional)
 * @returns the `string`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * console.log(renderFootprint(footprintProfiles(trades, { timeframe: '1h', tickSize: '0.25' })[0]!))
 */
export function renderFootprint(profile: FootprintProfile, opts: RenderFootprintOptions = {}): string {
  checkOptions(opts, FOOTPRINT_RENDER_KEYS, 'renderFootprint')
  const l = footprintLadder(profile, opts)
  const cells = l.rows.map((r) => ({
    r,
    sell: r.sellImbalance ? `*${r.sell}` : r.sell,
    buy: r.buyImbalance ? `${r.buy}*` : r.buy,
  }))
  const pw = Math.max(5, ...cells.map((c) => c.r.price.length))
  const sw = Math.max(4, ...cells.map((c) => c.sell.length))
  const bw = Math.max(3, ...cells.map((c) => c.buy.length))
  const dw = Math.max(5, ...cells.map((c) => c.r.delta.length))
  const lines = [l.title, ...l.summary, '']
  lines.push(`${'price'.padStart(pw)}   ${'sell'.padStart(sw)} x ${'buy'.padEnd(bw)}  ${'delta'.padStart(dw)}  volume`)
  for (const c of cells) {
    const n = l.maxVolume > 0 ? Math.max(c.r.volume > 0 ? 1 : 0, Math.round((BAR * c.r.volume) / l.maxVolume)) : 0
    const line = `${c.r.price.padStart(pw)} ${c.r.poc ? '>' : ' '} ${c.sell.padStart(sw)} x ${c.buy.padEnd(bw)}  ${c.r.delta.padStart(dw)}  ${'#'.repeat(n)}`
    lines.push(line.trimEnd())
  }
  lines.push('')
  lines.push(`legend: > POC (most volume)  sell x buy  * diagonal imbalance >= ${l.ratio}%  delta = buy - sell`)
  return `${lines.join('\n')}\n`
}
