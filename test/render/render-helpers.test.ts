// Wrapping, block-time labels in a zone, column widths of the ladder and SVG number precision.
import { describe, expect, it } from 'vitest'
import { renderFootprint, renderFootprintSvg, renderTpo } from '../../src/render/index.js'
import { wrap } from '../../src/render/text.js'
import { handFootprint, handTpo } from './fixtures.js'

describe('wrap', () => {
  it('joins items with two spaces and starts a new line only when the next item would pass the width', () => {
    // 'aaaa  bbbb' is exactly 10 characters: it fits a width of 10
    expect(wrap(['aaaa', 'bbbb'], 10)).toEqual(['aaaa  bbbb'])
    expect(wrap(['aaaa', 'bbbb'], 9)).toEqual(['aaaa', 'bbbb'])
    expect(wrap(['aaaa', 'bbbbb'], 10)).toEqual(['aaaa', 'bbbbb'])
    expect(wrap(['a', 'b', 'c', 'd'], 4)).toEqual(['a  b', 'c  d'])
    expect(wrap([], 10)).toEqual([])
  })

  it('no wrapped line is longer than the width unless a single item is', () => {
    const items = Array.from({ length: 40 }, (_, i) => 'x'.repeat(1 + (i % 7)))
    for (const width of [5, 9, 10, 17, 30]) {
      const lines = wrap(items, width)
      expect(lines.join('  ')).toBe(items.join('  '))
      for (const l of lines) if (l.includes('  ')) expect(l.length).toBeLessThanOrEqual(width)
      // greedy: the first item of the next line would not have fitted
      for (let i = 0; i + 1 < lines.length; i++)
        expect(lines[i]!.length + 2 + lines[i + 1]!.split('  ')[0]!.length).toBeGreaterThan(width)
    }
  })
})

describe('TPO block labels in the rendering zone', () => {
  const blockLine = (text: string) => text.split('\n').find((l) => l.startsWith('A '))!
  const M30 = 30 * 60_000

  it('blocks of one local day print clock times only, even when they cross midnight UTC', () => {
    const p = handTpo()
    const t0 = Date.UTC(2026, 5, 1, 23) // 19:00 New York
    p.blocks = [t0, t0 + M30, t0 + 2 * M30, t0 + 3 * M30]
    expect(blockLine(renderTpo(p, { timeZone: 'America/New_York' }))).toBe('A 19:00  B 19:30  C 20:00  D 20:30')
  })

  it('blocks over two local days carry the local date, even when they lie in one UTC day', () => {
    const p = handTpo()
    const t0 = Date.UTC(2026, 5, 1, 14) // 23:00 Tokyo
    p.blocks = [t0, t0 + M30, t0 + 2 * M30, t0 + 3 * M30]
    const line = blockLine(renderTpo(p, { timeZone: 'Asia/Tokyo' }))
    expect(line).toContain('06-01 23:00')
    expect(line).toContain('06-02 00:00')
    expect(line).toContain('06-02 00:30')
  })
})

describe('footprint ladder columns', () => {
  const lines = (text: string) => text.split('\n')
  const header = (text: string) => lines(text).find((l) => l.includes('sell x buy'))!

  it('short prices and volumes stay aligned under the header words', () => {
    const p = handFootprint()
    // one-character prices, one-character volumes, deltas short
    p.rows = [
      ['1', '2', '1', 1, 1],
      ['2', '1', '2', 1, 1],
    ]
    p.rowSizeValue = '1'
    p.tickSize = '1'
    p.high = '2'
    p.low = '1'
    p.volumeBuy = '3'
    p.volumeSell = '3'
    p.volume = '6'
    p.delta = '0'
    p.volumePoc = '1'
    const text = renderFootprint(p, { imbalanceRatio: 1000 })
    const h = header(text)
    const rows = lines(text).filter((l) => /^\s*\d.* x /.test(l))
    expect(rows).toHaveLength(2)
    for (const r of rows) {
      // the x between sell and buy sits under the header's x
      expect(r.indexOf(' x ')).toBe(h.indexOf(' x '))
      // prices end where the word price ends; deltas end where the word delta ends
      expect(r.slice(0, h.indexOf('price') + 5).trim()).toMatch(/^[12]$/)
      const deltaEnd = h.indexOf('delta') + 5
      expect(r.slice(0, deltaEnd)).toMatch(/(^|\s)([+-]\d|0)$/)
    }
  })

  it('a row with volume gets a bar of at least one #, however small beside the largest row', () => {
    const p = handFootprint()
    p.rows[4] = ['100.75', '0.1', '0', 1, 0] // 0.1 next to the POC row's 48
    p.volumeBuy = '28.6'
    p.volumeSell = '52'
    p.volume = '80.6'
    p.delta = '-23.4'
    const row = lines(renderFootprint(p)).find((l) => l.startsWith('100.75'))!
    expect(row).toMatch(/ #+$/)
  })
})

describe('SVG numbers', () => {
  it('bar widths keep two decimals: proportional to volume within 0.005', () => {
    const p = handFootprint()
    const svg = renderFootprintSvg(p)
    const rects = svg.split('\n').filter((l) => l.startsWith('<rect') && l.includes('fill-opacity="0.3"'))
    // the ladder: per row (highest price first) a sell bar, then a buy bar; the legend swatches follow
    const shown = [...p.rows].reverse()
    const widths = rects.slice(0, 2 * shown.length).map((l) => Number(/ width="([^"]+)"/.exec(l)![1]))
    const volumes = shown.flatMap((r) => [Number(r[2]), Number(r[1])])
    const maxV = Math.max(...volumes)
    const maxW = Math.max(...widths)
    widths.forEach((w, i) => {
      expect(Math.abs(w - (maxW * volumes[i]!) / maxV), `bar ${i}: ${w}`).toBeLessThanOrEqual(0.0051)
    })
    for (const m of svg.matchAll(/ (?:x|y|width|height|x1|x2|y1|y2)="([^"]+)"/g))
      expect(m[1]).toMatch(/^-?\d+(\.\d{1,2})?$/)
  })
})
