import { describe, expect, it } from 'vitest'
import { renderFootprint, renderFootprintSvg } from '../../src/render/index.js'
import { handFootprint } from './fixtures.js'

const rowLine = (text: string, price: string) => text.split('\n').find((l) => l.trimStart().startsWith(`${price} `))

describe('renderFootprint gaps', () => {
  it('a row with buy = sell prints delta 0 without a sign (only positive deltas get +)', () => {
    const p = handFootprint()
    // 100.50: buy 8, sell 5 -> buy 5, sell 5 (totals adjusted so the profile stays consistent)
    p.rows[3] = ['100.50', '5', '5', 4, 2]
    p.volumeBuy = '27'
    p.volume = '80.5'
    p.delta = '-26.5'
    const line = rowLine(renderFootprint(p), '100.50')!
    expect(line).toMatch(/ 5 x 5 +0 +#+$/)
    expect(line).not.toContain('+0')
  })
})

describe('renderFootprint title', () => {
  it('a bucket ending at midnight is one day: the end prints as a clock time only', () => {
    const p = handFootprint()
    p.time = Date.UTC(2026, 5, 1, 23)
    p.end = Date.UTC(2026, 5, 2, 0)
    expect(renderFootprint(p).split('\n')[0]).toBe('Footprint 2026-06-01 23:00-00:00 UTC | row 0.25 | tick 0.25')
  })
})

describe('renderFootprintSvg delta colours', () => {
  it('a positive delta has the colour of the buy legend, a negative one that of the sell legend, zero neither', () => {
    const p = handFootprint()
    p.rows[3] = ['100.50', '5', '5', 4, 2] // one row with delta 0
    const lines = renderFootprintSvg(p).split('\n')
    const legendFill = (label: string) => {
      const at = lines.findIndex((l) => l.includes(`>${label}<`))
      const rect = lines
        .slice(0, at)
        .reverse()
        .find((l) => l.startsWith('<rect') && l.includes('fill-opacity="0.3"'))
      return /fill="(#[0-9a-f]{6})"/.exec(rect ?? '')?.[1]
    }
    const buy = legendFill('buy volume')
    const sell = legendFill('sell volume')
    expect(buy).toBeDefined()
    expect(sell).toBeDefined()
    expect(buy).not.toBe(sell)
    // the delta column: one text per row, right-aligned, signed (+x / -x) or 0
    const deltas = lines.filter(
      (l) => l.startsWith('<text') && l.includes('text-anchor="end"') && /">([+-][0-9.]+|0)<\/text>$/.test(l),
    )
    const want = p.rows.map((r) => Number(r[1]) - Number(r[2]))
    expect(deltas).toHaveLength(want.length)
    const seen = new Set<number>()
    for (const l of deltas) {
      const d = Number(/">([+-]?[0-9.]+)<\/text>$/.exec(l)![1])
      seen.add(Math.sign(d))
      const fill = /fill="(#[0-9a-f]{6})"/.exec(l)?.[1]
      if (d > 0) expect(fill).toBe(buy)
      else if (d < 0) expect(fill).toBe(sell)
      else expect([buy, sell]).not.toContain(fill)
    }
    expect(seen).toEqual(new Set([1, -1, 0]))
  })
})
