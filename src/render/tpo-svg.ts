import type { TpoCandleProfile, TpoProfile } from '../tpo/index.js'
import { Svg, textWidth } from './svg.js'
import { wrap } from './text.js'
import { tpoChart, type RenderTpoOptions } from './tpo-model.js'
import { checkOptions } from '../_lib/closed-options.js'
import { TPO_RENDER_KEYS } from './tpo-model.js'
import { IB as IB_STROKE, VA_FILL } from './palette.js'

const ROW_H = 15
const CHAR_W = 9
const POC_FILL = '#fcd34d'
const SINGLE_FILL = '#fecaca'

/** The colour of block i of n: blue (early) to red (late). */
export function blockColor(i: number, n: number): string {
  const h = n <= 1 ? 220 : Math.round(220 - (i / (n - 1)) * 220)
  return `hsl(${h}, 70%, 32%)`
}

/**
 * The TPO letter chart as a self-contained SVG (no external assets): letters coloured by block, the
 * value area shaded, the POC row highlighted, single prints marked, the initial balance as a bracket,
 * a title with the profile's numbers, and a legend with every block's time.
 *
 * @param profile - a profile as the library returned it
 * @param opts - options, see {@link RenderTpoOptions} (optional)
 * @returns the `string`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * writeFileSync('tpo.svg', renderTpoSvg(profile, { timeZone: 'America/New_York' }))
 */
export function renderTpoSvg(profile: TpoProfile | TpoCandleProfile, opts: RenderTpoOptions = {}): string {
  checkOptions(opts, TPO_RENDER_KEYS, 'renderTpoSvg')
  const c = tpoChart(profile, opts)
  const svg = new Svg()
  const pad = 16
  let y = svg.heading(pad, c.title, c.summary)
  const top = y + 16
  const pw = Math.max(0, ...c.rows.map((r) => textWidth(r.price)))
  const lw = Math.max(1, ...c.rows.map((r) => r.letters.length))
  const ibX = pad + pw + 12
  const x0 = ibX + 12
  const lettersW = lw * CHAR_W
  const labelX = x0 + lettersW + 12
  let maxLabel = 0
  const nBlocks = profile.blocks.length
  let ibTop = -1
  let ibBottom = -1
  c.rows.forEach((r, i) => {
    const ry = top + i * ROW_H
    const fill = r.poc ? POC_FILL : r.singlePrint ? SINGLE_FILL : r.valueArea ? VA_FILL : undefined
    if (fill !== undefined) svg.add('rect', { x: x0 - 4, y: ry, width: lettersW + 8, height: ROW_H, fill })
    svg.add(
      'text',
      {
        x: pad + pw,
        y: ry + ROW_H - 4,
        'text-anchor': 'end',
        fill: r.poc ? '#000000' : '#374151',
        'font-weight': r.poc ? 'bold' : 'normal',
      },
      r.price,
    )
    r.blockIndexes.forEach((b, k) => {
      svg.add('text', { x: x0 + k * CHAR_W, y: ry + ROW_H - 4, fill: blockColor(b, nBlocks) }, r.letters[k]!)
    })
    if (r.labels.length > 0) {
      const label = r.labels.join(' ')
      maxLabel = Math.max(maxLabel, textWidth(label))
      svg.add('text', { x: labelX, y: ry + ROW_H - 4, fill: '#6b7280' }, label)
    }
    if (r.initialBalance) {
      if (ibTop < 0) ibTop = ry
      ibBottom = ry + ROW_H
    }
  })
  if (ibTop >= 0) {
    svg.add('line', { x1: ibX, y1: ibTop + 1, x2: ibX, y2: ibBottom - 1, stroke: IB_STROKE, 'stroke-width': 2 })
    svg.add('line', { x1: ibX, y1: ibTop + 1, x2: ibX + 5, y2: ibTop + 1, stroke: IB_STROKE, 'stroke-width': 2 })
    svg.add('line', { x1: ibX, y1: ibBottom - 1, x2: ibX + 5, y2: ibBottom - 1, stroke: IB_STROKE, 'stroke-width': 2 })
  }
  // legend
  y = top + c.rows.length * ROW_H + 24
  const swatches: [string, string][] = [
    [POC_FILL, 'POC (most TPOs)'],
    [VA_FILL, 'value area'],
    [SINGLE_FILL, 'single print'],
  ]
  let x = pad
  for (const [fill, label] of swatches) {
    svg.add('rect', { x, y: y - 10, width: 12, height: 12, fill })
    svg.add('text', { x: x + 16, y }, label)
    x += 16 + textWidth(label) + 18
  }
  svg.add('line', { x1: x + 4, y1: y - 10, x2: x + 4, y2: y + 2, stroke: IB_STROKE, 'stroke-width': 2 })
  svg.add('text', { x: x + 12, y }, 'initial balance')
  x += 12 + textWidth('initial balance')
  let width = Math.max(
    x,
    labelX + maxLabel,
    pad + textWidth(c.title) * 1.15,
    ...c.summary.map((s) => pad + textWidth(s)),
  )
  y += 20
  svg.add('text', { x: pad, y, fill: '#374151' }, `letters: ${c.letterNote}, coloured from early (blue) to late (red)`)
  width = Math.max(width, pad + textWidth(`letters: ${c.letterNote}, coloured from early (blue) to late (red)`))
  const perLine = Math.max(40, Math.floor((width - 2 * pad) / 7.3))
  let bi = 0
  for (const line of wrap(c.blockLabels, perLine)) {
    y += 16
    // one text per block label so each carries its block colour
    let lx = pad
    for (const item of line.split('  ')) {
      svg.add('text', { x: lx, y, fill: blockColor(bi, nBlocks) }, item)
      lx += textWidth(item) + 2 * 7.3
      bi++
    }
  }
  return svg.render(width + pad, y + pad, c.title)
}
