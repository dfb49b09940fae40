import type { FootprintProfile } from '../footprint/index.js'
import { footprintLadder, type RenderFootprintOptions } from './footprint-model.js'
import { Svg, textWidth } from './svg.js'
import { checkOptions } from '../_lib/closed-options.js'
import { FOOTPRINT_RENDER_KEYS } from './footprint-model.js'
import { BUY, POC as POC_STROKE, SELL } from './palette.js'

const ROW_H = 18
const SIDE_W = 170

/**
 * The footprint ladder as a self-contained SVG: per row the sell volume as a red bar growing left and
 * the buy volume as a green bar growing right, their numbers, the delta, the POC row outlined and
 * diagonal imbalances in bold with a dark frame; title, totals and a legend.
 *
 * @param profile - a profile as the library returned it
 * @param opts - options, see {@link RenderFootprintOptions} (optional)
 * @returns the `string`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * writeFileSync('footprint.svg', renderFootprintSvg(profile, { imbalanceRatio: 300 }))
 */
export function renderFootprintSvg(profile: FootprintProfile, opts: RenderFootprintOptions = {}): string {
  checkOptions(opts, FOOTPRINT_RENDER_KEYS, 'renderFootprintSvg')
  const l = footprintLadder(profile, opts)
  const svg = new Svg()
  const pad = 16
  let y = svg.heading(pad, l.title, l.summary)
  const pw = Math.max(textWidth('price'), ...l.rows.map((r) => textWidth(r.price)))
  const cx = pad + pw + 16 + SIDE_W
  const deltaX = cx + SIDE_W + 16 + 60
  y += 28
  svg.add('text', { x: pad + pw, y, 'text-anchor': 'end', 'font-weight': 'bold' }, 'price')
  svg.add('text', { x: cx - 6, y, 'text-anchor': 'end', 'font-weight': 'bold', fill: SELL }, 'sell (bid)')
  svg.add('text', { x: cx + 6, y, 'font-weight': 'bold', fill: BUY }, 'buy (ask)')
  svg.add('text', { x: deltaX, y, 'text-anchor': 'end', 'font-weight': 'bold' }, 'delta')
  const top = y + 8
  let maxSide = 0
  for (const r of l.rows) maxSide = Math.max(maxSide, Number(r.sell), Number(r.buy))
  l.rows.forEach((r, i) => {
    const ry = top + i * ROW_H
    const base = ry + ROW_H - 5
    const ws = maxSide > 0 ? ((SIDE_W - 4) * Number(r.sell)) / maxSide : 0
    const wb = maxSide > 0 ? ((SIDE_W - 4) * Number(r.buy)) / maxSide : 0
    if (i % 2 === 0) svg.add('rect', { x: pad, y: ry, width: deltaX - pad + 4, height: ROW_H, fill: '#f9fafb' })
    svg.add('rect', { x: cx - ws, y: ry + 2, width: ws, height: ROW_H - 4, fill: SELL, 'fill-opacity': 0.3 })
    svg.add('rect', { x: cx, y: ry + 2, width: wb, height: ROW_H - 4, fill: BUY, 'fill-opacity': 0.3 })
    if (r.sellImbalance)
      svg.add('rect', {
        x: cx - SIDE_W,
        y: ry + 1,
        width: SIDE_W - 1,
        height: ROW_H - 2,
        fill: 'none',
        stroke: SELL,
        'stroke-width': 1.5,
      })
    if (r.buyImbalance)
      svg.add('rect', {
        x: cx + 1,
        y: ry + 1,
        width: SIDE_W - 1,
        height: ROW_H - 2,
        fill: 'none',
        stroke: BUY,
        'stroke-width': 1.5,
      })
    if (r.poc)
      svg.add('rect', {
        x: pad - 4,
        y: ry,
        width: deltaX - pad + 12,
        height: ROW_H,
        fill: 'none',
        stroke: POC_STROKE,
        'stroke-width': 2,
      })
    svg.add('text', { x: pad + pw, y: base, 'text-anchor': 'end', 'font-weight': r.poc ? 'bold' : 'normal' }, r.price)
    svg.add(
      'text',
      {
        x: cx - 6,
        y: base,
        'text-anchor': 'end',
        fill: r.sellImbalance ? '#7f1d1d' : '#111827',
        'font-weight': r.sellImbalance ? 'bold' : 'normal',
      },
      r.sell,
    )
    svg.add(
      'text',
      {
        x: cx + 6,
        y: base,
        fill: r.buyImbalance ? '#14532d' : '#111827',
        'font-weight': r.buyImbalance ? 'bold' : 'normal',
      },
      r.buy,
    )
    svg.add(
      'text',
      { x: deltaX, y: base, 'text-anchor': 'end', fill: r.deltaSign > 0 ? BUY : r.deltaSign < 0 ? SELL : '#6b7280' },
      r.delta,
    )
  })
  svg.add('line', { x1: cx, y1: top, x2: cx, y2: top + l.rows.length * ROW_H, stroke: '#9ca3af', 'stroke-width': 1 })
  y = top + l.rows.length * ROW_H + 26
  let x = pad
  const legend: [Record<string, string | number>, string][] = [
    [{ fill: 'none', stroke: POC_STROKE, 'stroke-width': 2 }, 'POC (most volume)'],
    [{ fill: SELL, 'fill-opacity': 0.3 }, 'sell volume'],
    [{ fill: BUY, 'fill-opacity': 0.3 }, 'buy volume'],
    [{ fill: 'none', stroke: '#111827', 'stroke-width': 1.5 }, `diagonal imbalance >= ${l.ratio}%`],
  ]
  for (const [attrs, label] of legend) {
    svg.add('rect', { x, y: y - 10, width: 12, height: 12, ...attrs })
    svg.add('text', { x: x + 16, y }, label)
    x += 16 + textWidth(label) + 18
  }
  y += 18
  const note = 'imbalance: buy at a row vs sell one row below, or sell vs buy one row above; delta = buy - sell'
  svg.add('text', { x: pad, y, fill: '#374151' }, note)
  const width = Math.max(
    x,
    deltaX + 8,
    pad + textWidth(note),
    pad + textWidth(l.title) * 1.15,
    ...l.summary.map((s) => pad + textWidth(s)),
  )
  return svg.render(width + pad, y + pad, l.title)
}
