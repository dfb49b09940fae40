import type { FootprintProfile } from '../footprint/index.js'
import {
  footprintChartModel,
  type ChartBar,
  type ChartCell,
  type FootprintChartModel,
  type RenderFootprintChartOptions,
} from './footprint-chart-model.js'
import { Svg, textWidth } from './svg.js'
import { xml } from './text.js'
import { BUY, IB as UNFINISHED, POC, SELL } from './palette.js'
import { checkOptions } from '../_lib/closed-options.js'

const VA = '#2563eb'
const TEXT_ROW_H = 16
const GAP = 10
const PAD = 16

/** Colour of a cell: volume as a blue scale, delta (and sell x buy) as green / red by sign, stronger with size. */
function cellFill(m: FootprintChartModel, c: ChartCell, max: number): string {
  if (m.cells === 'volume')
    return `rgba(37,99,235,${(0.06 + max * (m.maxCellVolume > 0 ? c.volumeValue / m.maxCellVolume : 0)).toFixed(3)})`
  const share =
    m.cells === 'delta'
      ? m.maxCellDelta > 0
        ? Math.abs(c.deltaValue) / m.maxCellDelta
        : 0
      : m.maxCellVolume > 0
        ? c.volumeValue / m.maxCellVolume
        : 0
  const rgb = c.deltaValue > 0 ? '22,163,74' : c.deltaValue < 0 ? '220,38,38' : '107,114,128'
  return `rgba(${rgb},${(0.06 + max * share).toFixed(3)})`
}

/** Width of the widest cell text of a cells mode. */
function cellTextWidth(m: FootprintChartModel): number {
  let w = 0
  for (const b of m.bars) {
    for (const c of b.cells) {
      const t =
        m.cells === 'bidAsk'
          ? 2 * Math.max(textWidth(c.sell), textWidth(c.buy)) + 22
          : textWidth(m.cells === 'delta' ? c.delta : c.volume) + 12
      w = Math.max(w, t)
    }
  }
  return w
}

/**
 * A footprint chart: N consecutive footprint profiles along a time axis on one price grid. Per bar: the
 * cells (sell x buy, delta or volume, the `cells` option) on a colour scale, the candle outline (open/close
 * body from `candles`, high/low wick from the profile), the bar's POC and value area, diagonal imbalances,
 * stacked-imbalance zones and unfinished auctions; under the bars a totals row (volume, delta, cumulative
 * delta); a price axis on the grid and a time axis. With few bars the cells print their numbers; when the
 * numbers would not fit in `maxWidth` the cells collapse to the colour scale alone (`cellMode`).
 *
 * Every mark comes from a library result: `footprintAnalytics` (or the profile's own `analytics`),
 * `footprintValueArea`, `cumulativeDelta`, the profile's `volumePoc`, `high` and `low`.
 *
 * @param profiles - Footprint profiles of one security on one price grid (any order; drawn by time).
 * @param opts - `cells`, `candles`, `imbalanceRatio`, `minVolume`, `stackedRows`, `valueAreaPercent`, `cellMode`, `maxWidth`, `maxHeight`, `timeZone`, `rowSize` (default `'auto'`: at most 80 rows, coarsened exactly when the profiles' span needs more).
 * @returns A self-contained SVG document.
 * @throws {MarketDataError} `invalid_option` for a bad option or profile, `grid_mismatch` when profiles do not share one `rowSizeValue`.
 * @example
 * const profiles = footprintProfiles(trades, { timeframe: '15m', tickSize: '0.25', rowSize: 4 })
 * writeFileSync('footprint-chart.svg', renderFootprintChart(profiles.slice(-10), { cells: 'bidAsk', candles }))
 */
export function renderFootprintChart(
  profiles: readonly FootprintProfile[],
  opts: RenderFootprintChartOptions = {},
): string {
  checkOptions(
    opts,
    [
      'cells',
      'stackedRows',
      'valueAreaPercent',
      'candles',
      'cellMode',
      'maxWidth',
      'maxHeight',
      'imbalanceRatio',
      'minVolume',
      'timeZone',
      'rowSize',
    ],
    'renderFootprintChart',
  )
  const m = footprintChartModel(profiles, opts)
  const n = m.bars.length
  const maxWidth = opts.maxWidth ?? 1600
  const maxHeight = opts.maxHeight ?? 720
  // the price labels and the totals row's labels ('cum. delta') share the left margin
  const axisW = Math.max(textWidth('cum. delta'), ...m.rowPrices.map((p) => textWidth(p))) + 12
  const textW = cellTextWidth(m)
  const mode =
    opts.cellMode === 'text' || opts.cellMode === 'colour'
      ? opts.cellMode
      : axisW + n * (textW + GAP) <= maxWidth
        ? 'text'
        : 'colour'
  // colour mode: each bar gets an equal slot of the width left after the axis, a quarter of it as the gap
  // (less half a time label, which may stand out past the last bar)
  const labelW = Math.max(0, ...m.bars.map((b) => textWidth(b.label)))
  const slot = Math.max(
    6,
    Math.min(48, Math.floor((maxWidth - 2 * PAD - axisW - 4 - GAP - labelW / 2) / Math.max(1, n))),
  )
  const gap = mode === 'text' ? GAP : Math.max(2, Math.round(slot / 4))
  const colW = mode === 'text' ? textW : slot - gap
  const rowH = mode === 'text' ? TEXT_ROW_H : Math.max(2, Math.min(12, maxHeight / Math.max(1, m.rowCount)))
  const svg = new Svg()
  svg.add('text', { x: PAD, y: PAD + 12, 'font-size': 14, 'font-weight': 'bold' }, m.title)
  svg.add('text', { x: PAD, y: PAD + 30, fill: '#374151' }, m.subtitle)
  const x0 = PAD + axisW
  const top = PAD + 48
  const plotH = m.rowCount * rowH
  const xOf = (i: number) => x0 + gap + i * (colW + gap)
  const yOf = (row: number) => top + (m.rowCount - 1 - row) * rowH
  const yAt = (pos: number) => top + (m.rowCount - pos) * rowH
  const right = xOf(n) + 4
  svg.raw(`<g class="fp-chart" data-bars="${n}" data-mode="${mode}" data-cells="${m.cells}">`)
  // price axis on the grid: a label every k rows so labels do not overlap
  const every = Math.max(1, Math.ceil(14 / rowH))
  for (let r = 0; r < m.rowCount; r += every) {
    const y = yOf(r)
    svg.add('line', {
      class: 'fp-grid',
      x1: x0,
      y1: y + rowH,
      x2: right,
      y2: y + rowH,
      stroke: '#e5e7eb',
      'stroke-width': 1,
    })
    svg.add(
      'text',
      { class: 'fp-price', x: x0 - 6, y: y + rowH / 2 + 4, 'text-anchor': 'end', fill: '#374151', 'font-size': 11 },
      m.rowPrices[r]!,
    )
  }
  svg.add('line', { x1: x0, y1: top, x2: x0, y2: top + plotH, stroke: '#9ca3af', 'stroke-width': 1 })
  m.bars.forEach((b, i) => void drawBar(svg, m, b, xOf(i), colW, rowH, gap, mode, yOf, yAt))
  // totals row: volume, delta, cumulative delta
  const totalsTop = top + plotH + 12
  const lineH = mode === 'text' ? 16 : 14
  const labels = ['volume', 'delta', 'cum. delta']
  labels.forEach(
    (l, k) =>
      void svg.add(
        'text',
        { x: x0 - 6, y: totalsTop + k * lineH + 11, 'text-anchor': 'end', 'font-size': 11, fill: '#374151' },
        l,
      ),
  )
  const maxVol = Math.max(0, ...m.bars.map((b) => b.volumeValue))
  const maxDelta = Math.max(0, ...m.bars.map((b) => Math.abs(b.deltaValue)))
  const cumVals = m.bars.map((b) => b.cumulativeDeltaValue)
  const cumMax = Math.max(0, ...cumVals.map(Math.abs))
  const cumPts: string[] = []
  const sign = (v: number) => (v > 0 ? BUY : v < 0 ? SELL : '#6b7280')
  // numbers when every bar's three totals fit its slot, else bars and colours for all (numbers in tooltips)
  const fits = (s: string) => textWidth(s) * 0.9 <= colW + gap - 2
  const totalsAsText = m.bars.every((b) => fits(b.volume) && fits(b.delta) && fits(b.cumulativeDelta))
  m.bars.forEach((b, i) => {
    const x = xOf(i)
    if (totalsAsText) {
      svg.add(
        'text',
        { class: 'fp-total-volume', x: x + colW / 2, y: totalsTop + 11, 'text-anchor': 'middle', 'font-size': 11 },
        b.volume,
      )
      svg.add(
        'text',
        {
          class: 'fp-total-delta',
          x: x + colW / 2,
          y: totalsTop + lineH + 11,
          'text-anchor': 'middle',
          'font-size': 11,
          fill: sign(b.deltaValue),
        },
        b.delta,
      )
      svg.add(
        'text',
        {
          class: 'fp-total-cumdelta',
          x: x + colW / 2,
          y: totalsTop + 2 * lineH + 11,
          'text-anchor': 'middle',
          'font-size': 11,
          fill: sign(b.cumulativeDeltaValue),
        },
        b.cumulativeDelta,
      )
    } else {
      const vh = maxVol > 0 ? ((lineH - 2) * b.volumeValue) / maxVol : 0
      svg.raw(
        `<rect class="fp-total-volume" x="${x}" y="${(totalsTop + lineH - 1 - vh).toFixed(2)}" width="${colW}" height="${vh.toFixed(2)}" fill="#9ca3af"><title>volume ${xml(b.volume)}</title></rect>`,
      )
      const a = maxDelta > 0 ? 0.15 + (0.85 * Math.abs(b.deltaValue)) / maxDelta : 0.15
      svg.raw(
        `<rect class="fp-total-delta" x="${x}" y="${totalsTop + lineH + 1}" width="${colW}" height="${lineH - 2}" fill="${sign(b.deltaValue)}" fill-opacity="${a.toFixed(3)}"><title>delta ${xml(b.delta)}</title></rect>`,
      )
      const cy = totalsTop + 2.5 * lineH - (cumMax > 0 ? ((lineH / 2 - 1) * b.cumulativeDeltaValue) / cumMax : 0)
      cumPts.push(`${(x + colW / 2).toFixed(2)},${cy.toFixed(2)}`)
    }
  })
  if (!totalsAsText && n > 0)
    svg.add('line', {
      x1: x0,
      y1: totalsTop + 2.5 * lineH,
      x2: right,
      y2: totalsTop + 2.5 * lineH,
      stroke: '#e5e7eb',
      'stroke-width': 1,
    })
  if (cumPts.length > 0)
    svg.add('polyline', {
      class: 'fp-total-cumdelta',
      points: cumPts.join(' '),
      fill: 'none',
      stroke: '#374151',
      'stroke-width': 1.5,
    })
  // time axis
  const timeY = totalsTop + 3 * lineH + 14
  const labelEvery = Math.max(1, Math.ceil((labelW + 8) / (colW + gap)))
  m.bars.forEach((b, i) => {
    if (i % labelEvery === 0)
      svg.add(
        'text',
        { class: 'fp-time', x: xOf(i) + colW / 2, y: timeY, 'text-anchor': 'middle', 'font-size': 11, fill: '#374151' },
        b.label,
      )
  })
  svg.raw('</g>')
  const legendY = timeY + 24
  let x = PAD
  const legend: [Record<string, string | number>, string][] = [
    [{ fill: 'none', stroke: POC, 'stroke-width': 2 }, 'POC'],
    [{ fill: VA, 'fill-opacity': 0.8 }, `value area (${m.valueAreaPercent}%)`],
    [{ fill: 'none', stroke: BUY, 'stroke-width': 2 }, 'buy imbalance'],
    [{ fill: 'none', stroke: SELL, 'stroke-width': 2 }, 'sell imbalance'],
    [{ fill: BUY, 'fill-opacity': 0.25, stroke: BUY }, `stacked (>= ${m.stackedRows} rows)`],
    [{ fill: UNFINISHED }, 'unfinished auction'],
  ]
  for (const [attrs, label] of legend) {
    svg.add('rect', { x, y: legendY - 10, width: 12, height: 12, ...attrs })
    svg.add('text', { x: x + 16, y: legendY, 'font-size': 11 }, label)
    x += 16 + textWidth(label) + 14
  }
  const lastLabel = n > 0 ? xOf(n - 1) + colW / 2 + textWidth(m.bars[n - 1]!.label) / 2 : 0
  const width = Math.max(right + PAD, lastLabel + PAD, x, PAD + textWidth(m.title) * 1.15, PAD + textWidth(m.subtitle))
  return svg.render(width, legendY + PAD, m.title)
}

function drawBar(
  svg: Svg,
  m: FootprintChartModel,
  b: ChartBar,
  x: number,
  w: number,
  rowH: number,
  gap: number,
  mode: 'text' | 'colour',
  yOf: (row: number) => number,
  yAt: (pos: number) => number,
): void {
  svg.raw(`<g class="fp-bar" data-time="${b.time}">`)
  for (const c of b.cells) {
    const y = yOf(c.row)
    svg.add('rect', {
      class: 'fp-cell',
      x,
      y,
      width: w,
      height: rowH,
      fill: cellFill(m, c, mode === 'text' ? 0.3 : 0.85),
    })
    if (mode === 'text') {
      const base = y + rowH - 4
      if (m.cells === 'bidAsk') {
        svg.add('text', { x: x + w / 2 - 6, y: base, 'text-anchor': 'end', 'font-size': 11 }, c.sell)
        svg.add('text', { x: x + w / 2, y: base, 'text-anchor': 'middle', 'font-size': 11, fill: '#9ca3af' }, 'x')
        svg.add('text', { x: x + w / 2 + 6, y: base, 'font-size': 11 }, c.buy)
      } else
        svg.add(
          'text',
          { x: x + w / 2, y: base, 'text-anchor': 'middle', 'font-size': 11 },
          m.cells === 'delta' ? c.delta : c.volume,
        )
    }
  }
  for (const z of b.stacked) {
    const y = yOf(z.highRow)
    const colour = z.side === 'buy' ? BUY : SELL
    svg.add('rect', {
      class: `fp-stacked fp-stacked-${z.side}`,
      x: x - 2,
      y,
      width: w + 4,
      height: (z.highRow - z.lowRow + 1) * rowH,
      fill: colour,
      'fill-opacity': 0.18,
      stroke: colour,
      'stroke-width': 1,
    })
  }
  for (const im of b.imbalances) {
    const y = yOf(im.row)
    const half = w / 2
    svg.add('rect', {
      class: `fp-imbalance fp-imbalance-${im.side}`,
      x: im.side === 'buy' ? x + half : x,
      y: y + 0.5,
      width: half,
      height: Math.max(1, rowH - 1),
      fill: 'none',
      stroke: im.side === 'buy' ? BUY : SELL,
      'stroke-width': mode === 'text' ? 1.5 : 1,
    })
  }
  svg.add('rect', {
    class: 'fp-poc',
    x: x - 1,
    y: yOf(b.pocRow),
    width: w + 2,
    height: rowH,
    fill: 'none',
    stroke: POC,
    'stroke-width': 2,
  })
  // value area: a bar just right of the column
  svg.add('rect', {
    class: 'fp-va',
    x: x + w + 1,
    y: yOf(b.valueAreaHighRow),
    width: Math.max(1, gap / 5),
    height: (b.valueAreaHighRow - b.valueAreaLowRow + 1) * rowH,
    fill: VA,
    'fill-opacity': 0.8,
  })
  // candle: wick at the left edge from high to low, body outline around the cells from open to close
  const up = b.open !== undefined && b.close !== undefined && b.close >= b.open
  const candleColour = b.open === undefined ? '#374151' : up ? BUY : SELL
  const wx = x - Math.max(1, gap / 2)
  svg.add('line', {
    class: 'fp-wick',
    x1: wx,
    y1: yOf(b.highRow),
    x2: wx,
    y2: yOf(b.lowRow) + rowH,
    stroke: candleColour,
    'stroke-width': 1.5,
  })
  if (b.open !== undefined && b.close !== undefined) {
    // open and close at the centre of their rows, as the cells they traded in
    const hi = Math.floor(Math.max(b.open, b.close)) + 0.5
    const lo = Math.floor(Math.min(b.open, b.close)) + 0.5
    svg.add('rect', {
      class: `fp-candle-body fp-candle-${up ? 'up' : 'down'}`,
      x: x - 2,
      y: yAt(hi),
      width: w + 4,
      height: Math.max(1, (hi - lo) * rowH),
      fill: 'none',
      stroke: candleColour,
      'stroke-width': 1.5,
    })
  }
  const ua = (row: number, above: boolean) => {
    const y = above ? yOf(row) - 3 : yOf(row) + rowH + 1
    svg.add('rect', {
      class: `fp-unfinished fp-unfinished-${above ? 'high' : 'low'}`,
      x: x + w / 2 - 4,
      y,
      width: 8,
      height: 2,
      fill: UNFINISHED,
    })
  }
  if (b.unfinishedHigh) ua(b.highRow, true)
  if (b.unfinishedLow) ua(b.lowRow, false)
  svg.raw('</g>')
}
