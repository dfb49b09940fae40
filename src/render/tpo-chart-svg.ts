import type { TpoCandleProfile, TpoProfile } from '../tpo/index.js'
import { Svg, textWidth } from './svg.js'
import { blockLetter } from './text.js'
import {
  tpoChartModel,
  type RenderTpoChartOptions,
  type TpoChartModel,
  type TpoChartPeriod,
} from './tpo-chart-model.js'
import { IB, POC, VA_FILL } from './palette.js'
import { blockColor } from './tpo-svg.js'
import { checkOptions } from '../_lib/closed-options.js'

const PAD = 16
const CHAR_W = 8
const LETTER_ROW_H = 14
const IB_W = 10
const MARK_W = 14
const HIST_W = 56
const GAP = 28
const PREV = '#6b7280'
const NAKED = '#b91c1c'
const SINGLE = '#dc2626'
const EXCESS = '#0d9488'
const POOR = '#ea580c'
const VOLUME = '#93c5fd'
const VOLUME_POC = '#1d4ed8'

interface Geometry {
  rowH: number
  tpoW: number
  top: number
  yOf: (row: number) => number
}

/** Width of a period's column: IB strip, letters, marks strip, volume histogram. */
function columnWidth(p: TpoChartPeriod, g: Geometry): number {
  return IB_W + Math.max(3, p.width) * g.tpoW + MARK_W + (p.maxVolume > 0 ? HIST_W : 0)
}

/**
 * A TPO (Market Profile) chart of several periods side by side on one price grid (days of a week, or
 * the session types of a day): per period the letters (or blocks) coloured from early to late, the value
 * area shaded, the POC outlined, the initial balance as a bracket, open and close markers, single prints,
 * excess (tails of two or more single-print rows) and poor highs / lows marked, and a volume histogram
 * beside the letters with the volume POC in a darker colour; the previous period's POC and value area as
 * dashed lines across each period; naked POCs (`nakedPocs`) as rays to the right edge; the caller's
 * `annotations` (e.g. single-print zones or poor extremes from an analytics function) as labelled ranges.
 * Every mark is a field of the profiles or a library result; nothing is recomputed here.
 *
 * @param profiles - TPO profiles on one price grid (trade or candle profiles; any order, drawn by time).
 * @param opts - `timeZone`, `style` (`'letters'`, `'blocks'`, default by row count), `annotations`, `maxHeight`.
 * @returns A self-contained SVG document.
 * @throws {MarketDataError} `invalid_option` for a bad option or profile, `grid_mismatch` when profiles do not share one `rowSizeValue`.
 * @example
 * const rs = autoRowSize({ tickSize: '0.25', range: '60' }).rowSize
 * const week = tpoProfiles(trades, { timeframe: '1d', tickSize: '0.25', rowSize: rs, timeZone: 'America/New_York' })
 * writeFileSync('tpo-chart.svg', renderTpoChart(week, { timeZone: 'America/New_York' }))
 */
export function renderTpoChart(
  profiles: readonly (TpoProfile | TpoCandleProfile)[],
  opts: RenderTpoChartOptions = {},
): string {
  checkOptions(opts, ['timeZone', 'style', 'annotations', 'maxHeight'], 'renderTpoChart')
  const m = tpoChartModel(profiles, opts)
  const letters = m.style === 'letters'
  const rowH = letters ? LETTER_ROW_H : Math.max(3, Math.min(12, (opts.maxHeight ?? 720) / Math.max(1, m.rowCount)))
  const top = PAD + 64
  const g: Geometry = {
    rowH,
    tpoW: letters ? CHAR_W : Math.max(3, Math.min(8, rowH)),
    top,
    yOf: (row) => top + (m.rowCount - 1 - row) * rowH,
  }
  const svg = new Svg()
  svg.add('text', { x: PAD, y: PAD + 12, 'font-size': 14, 'font-weight': 'bold' }, m.title)
  const axisW = Math.max(40, ...m.rowPrices.map((p) => textWidth(p))) + 10
  const x0 = PAD + axisW
  const xs: number[] = []
  let x = x0 + 8
  for (const p of m.periods) {
    xs.push(x)
    x += columnWidth(p, g) + GAP
  }
  const right = x
  const plotH = m.rowCount * rowH
  svg.raw(`<g class="tpo-chart" data-periods="${m.periods.length}" data-style="${m.style}">`)
  const every = Math.max(1, Math.ceil(14 / rowH))
  for (let r = 0; r < m.rowCount; r += every) {
    const y = g.yOf(r)
    svg.add('line', { x1: x0, y1: y + rowH, x2: right, y2: y + rowH, stroke: '#f3f4f6', 'stroke-width': 1 })
    svg.add(
      'text',
      { class: 'tpo-price', x: x0 - 6, y: y + rowH / 2 + 4, 'text-anchor': 'end', 'font-size': 11, fill: '#374151' },
      m.rowPrices[r]!,
    )
  }
  svg.add('line', { x1: x0, y1: top, x2: x0, y2: top + plotH, stroke: '#9ca3af', 'stroke-width': 1 })
  m.periods.forEach((p, i) => void drawPeriod(svg, m, p, xs[i]!, g, right))
  svg.raw('</g>')
  const legendY = top + plotH + 30
  let lx = PAD
  const legend: [Record<string, string | number>, string][] = [
    [{ fill: VA_FILL }, 'value area'],
    [{ fill: 'none', stroke: POC, 'stroke-width': 2 }, 'POC'],
    [{ fill: IB }, 'initial balance'],
    [{ fill: PREV }, 'previous POC / VA (dashed)'],
    [{ fill: NAKED }, 'naked POC'],
    [{ fill: SINGLE }, 'single print'],
    [{ fill: EXCESS }, 'excess'],
    [{ fill: POOR }, 'poor high/low'],
    [{ fill: VOLUME }, 'volume'],
    [{ fill: VOLUME_POC }, 'volume POC'],
  ]
  for (const [attrs, label] of legend) {
    svg.add('rect', { x: lx, y: legendY - 10, width: 12, height: 12, ...attrs })
    svg.add('text', { x: lx + 16, y: legendY, 'font-size': 11 }, label)
    lx += 16 + textWidth(label) * 0.92 + 14
  }
  const note = `${letters ? 'letters' : 'blocks'}: one per block (A-Z then a-z), blue (early) to red (late); > open, < close`
  svg.add('text', { x: PAD, y: legendY + 20, 'font-size': 11, fill: '#374151' }, note)
  const width = Math.max(right + PAD, lx, PAD + textWidth(m.title) * 1.15, PAD + textWidth(note))
  return svg.render(width, legendY + 20 + PAD, m.title)
}

function drawPeriod(svg: Svg, m: TpoChartModel, p: TpoChartPeriod, x: number, g: Geometry, right: number): void {
  const { rowH, tpoW, yOf, top } = g
  const lx = x + IB_W
  const lw = Math.max(3, p.width) * tpoW
  const mx = lx + lw
  const hx = mx + MARK_W
  const colEnd = x + columnWidth(p, g)
  const rowsH = (r: { low: number; high: number }) => (r.high - r.low + 1) * rowH
  const mid = (row: number) => yOf(row) + rowH / 2
  svg.raw(`<g class="tpo-period" data-time="${p.time}">`)
  svg.add('text', { class: 'tpo-period-label', x, y: top - 28, 'font-size': 11, 'font-weight': 'bold' }, p.label)
  const cw = columnWidth(p, g) + GAP - 6
  p.summary.forEach((line, k) => {
    if (textWidth(line) * 0.85 <= cw)
      svg.add('text', { x, y: top - 14 + k * 11, 'font-size': 10, fill: '#6b7280' }, line)
  })
  if (p.cells.length > 0)
    svg.add('rect', {
      class: 'tpo-va',
      x: lx - 2,
      y: yOf(p.valueArea.high),
      width: lw + 4,
      height: rowsH(p.valueArea),
      fill: VA_FILL,
    })
  for (const a of p.annotations) {
    const lo = Math.min(a.range.low, a.range.high)
    const hi = Math.max(a.range.low, a.range.high)
    svg.add('rect', {
      class: `tpo-annotation tpo-annotation-${a.kind}`,
      x: lx - 2,
      y: yOf(hi),
      width: lw + MARK_W,
      height: rowsH({ low: lo, high: hi }),
      fill: '#fde68a',
      'fill-opacity': 0.35,
      stroke: '#b45309',
      'stroke-width': 1,
      'stroke-dasharray': '3 2',
    })
    svg.add('text', { x: mx + 2, y: yOf(hi) - 2, 'font-size': 9, fill: '#92400e' }, a.label)
  }
  if (p.previous !== null) {
    const line = (y: number, cls: string) =>
      svg.add('line', {
        class: cls,
        x1: x,
        y1: y,
        x2: colEnd,
        y2: y,
        stroke: PREV,
        'stroke-width': 1,
        'stroke-dasharray': '4 3',
      })
    line(mid(p.previous.poc), 'tpo-prev-poc')
    line(yOf(p.previous.valueArea.high), 'tpo-prev-va')
    line(yOf(p.previous.valueArea.low) + rowH, 'tpo-prev-va')
  }
  for (const c of p.cells) {
    const y = yOf(c.row)
    c.blocks.forEach((b, k) => {
      if (m.style === 'letters')
        svg.add(
          'text',
          {
            class: 'tpo-letter',
            x: lx + k * tpoW,
            y: y + rowH - 3,
            'font-size': 12,
            fill: blockColor(b, p.blockCount),
          },
          blockLetter(b),
        )
      else
        svg.add('rect', {
          class: 'tpo-block',
          x: lx + k * tpoW,
          y: y + 0.5,
          width: Math.max(1, tpoW - 1),
          height: Math.max(1, rowH - 1),
          fill: blockColor(b, p.blockCount),
        })
    })
    if (c.volume !== undefined && p.maxVolume > 0) {
      const vol = c.row === p.volumePoc
      svg.add('rect', {
        class: vol ? 'tpo-volume tpo-volume-poc' : 'tpo-volume',
        x: hx,
        y: y + 0.5,
        width: Math.max(0.5, ((HIST_W - 8) * c.volume) / p.maxVolume),
        height: Math.max(1, rowH - 1),
        fill: vol ? VOLUME_POC : VOLUME,
      })
    }
  }
  if (p.cells.length === 0) {
    svg.raw('</g>')
    return
  }
  svg.add('rect', {
    class: 'tpo-poc',
    x: lx - 2,
    y: yOf(p.poc),
    width: lw + 4,
    height: rowH,
    fill: 'none',
    stroke: POC,
    'stroke-width': 2,
  })
  if (p.initialBalance !== null) {
    const y1 = yOf(p.initialBalance.high) + 1
    const y2 = yOf(p.initialBalance.low) + rowH - 1
    svg.add('path', {
      class: 'tpo-ib',
      d: `M ${x + 7} ${y1} H ${x + 3} V ${y2} H ${x + 7}`,
      fill: 'none',
      stroke: IB,
      'stroke-width': 2,
    })
  }
  // open: a triangle pointing right, left of the letters; close: pointing left, right of them
  const tri = (cls: string, tipX: number, dir: number, row: number) => {
    const y = mid(row)
    const h = Math.min(4, rowH / 2)
    svg.add('path', {
      class: cls,
      d: `M ${tipX} ${y} L ${tipX - dir * 5} ${y - h} L ${tipX - dir * 5} ${y + h} Z`,
      fill: '#111827',
    })
  }
  tri('tpo-open', lx - 1, 1, p.open)
  tri('tpo-close', mx + 6, -1, p.close)
  for (const r of p.singlePrints)
    svg.add('rect', {
      class: 'tpo-single-print',
      x: mx + 8,
      y: yOf(r) + 1,
      width: 3,
      height: Math.max(1, rowH - 2),
      fill: SINGLE,
    })
  const excess = (r: { low: number; high: number } | null, cls: string) => {
    if (r !== null)
      svg.add('rect', { class: cls, x: mx + 12, y: yOf(r.high) + 1, width: 2, height: rowsH(r) - 2, fill: EXCESS })
  }
  excess(p.excessHigh, 'tpo-excess tpo-excess-high')
  excess(p.excessLow, 'tpo-excess tpo-excess-low')
  if (p.poorHigh !== null)
    svg.add('line', {
      class: 'tpo-poor tpo-poor-high',
      x1: lx - 2,
      y1: yOf(p.poorHigh),
      x2: mx + 2,
      y2: yOf(p.poorHigh),
      stroke: POOR,
      'stroke-width': 2,
      'stroke-dasharray': '2 2',
    })
  if (p.poorLow !== null)
    svg.add('line', {
      class: 'tpo-poor tpo-poor-low',
      x1: lx - 2,
      y1: yOf(p.poorLow) + rowH,
      x2: mx + 2,
      y2: yOf(p.poorLow) + rowH,
      stroke: POOR,
      'stroke-width': 2,
      'stroke-dasharray': '2 2',
    })
  if (p.nakedPoc)
    svg.add('line', {
      class: 'tpo-naked-poc',
      x1: mx + 2,
      y1: mid(p.poc),
      x2: right,
      y2: mid(p.poc),
      stroke: NAKED,
      'stroke-width': 1.5,
      'stroke-dasharray': '6 3',
    })
  svg.raw('</g>')
}
