import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { poorExtremes, profileAnalytics, singlePrintZones } from '../../src/analytics/index.js'
import { sampleTrades } from '../../src/sample/index.js'
import { tpoProfiles } from '../../src/tpo/index.js'
import { xmlProblem } from '../render/xml-check.js'
import { run } from './helpers.js'

const tmp = mkdtempSync(join(tmpdir(), 'svc-cli-chart-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

// two sample days as CSV (time in ms)
const cols = sampleTrades({ seed: 4, timeZone: 'America/New_York', days: 2, tradesPerDay: 4000 })
const lines = ['time,price,volume,side']
for (let i = 0; i < cols.time.length; i++)
  lines.push(`${cols.time[i]},${cols.price[i]},${cols.volume[i]},${cols.side[i] === 1 ? 'buy' : 'sell'}`)
const csv = join(tmp, 'two-days.csv')
writeFileSync(csv, `${lines.join('\n')}\n`)
const count = (svg: string, cls: string) => [...svg.matchAll(new RegExp(`class="[^"]*\\b${cls}\\b`, 'g'))].length

describe('--chart bars', () => {
  it('footprint: one SVG of the last N buckets with candle bodies, to stdout or a file', async () => {
    const r = await run([
      'footprint',
      csv,
      '--timeframe',
      '1h',
      '--tick-size',
      '0.25',
      '--row-size',
      '8',
      '--tz',
      'America/New_York',
      '--chart',
      'bars',
      '--last',
      '10',
    ])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('data-bars="10"')
    expect(count(r.stdout, 'fp-candle-body')).toBe(10)
    expect(xmlProblem(r.stdout)).toBeUndefined()
    expect(r.stderr).toContain('wrote a chart of 10 profiles')
    const file = join(tmp, 'fp.svg')
    const f = await run([
      'footprint',
      csv,
      '--tick-size',
      '0.25',
      '--row-size',
      '8',
      '--chart',
      'bars',
      '--cells',
      'delta',
      '--out',
      file,
    ])
    expect(f.code).toBe(0)
    expect(readFileSync(file, 'utf8')).toContain('data-cells="delta"')
    const dir = `${join(tmp, 'charts')}/`
    expect(
      (await run(['footprint', csv, '--tick-size', '0.25', '--row-size', '8', '--chart', 'bars', '--out', dir])).code,
    ).toBe(0)
    expect(readFileSync(join(dir, 'footprint-chart.svg'), 'utf8')).toContain('class="fp-chart"')
  })

  it('tpo: one SVG of every period; without --row-size the rows are sized for 30..80 per period', async () => {
    const r = await run([
      'tpo',
      csv,
      '--tick-size',
      '0.25',
      '--tz',
      'America/New_York',
      '--session-type',
      'MAINSESSION',
      '--chart',
      'bars',
    ])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('data-periods="2"')
    expect(r.stderr).toMatch(
      /row size not given: using \d+ ticks? \([\d.]+\), about \d+ rows over the range of the widest of 2 periods/,
    )
    const rows = Number(/about (\d+) rows/.exec(r.stderr)![1])
    expect(rows).toBeGreaterThanOrEqual(30)
    expect(rows).toBeLessThanOrEqual(80)
    expect(xmlProblem(r.stdout)).toBeUndefined()
    // a given row size is kept
    const given = await run(['tpo', csv, '--tick-size', '0.25', '--row-size', '3', '--chart', 'bars'])
    expect(given.stdout).toContain('row 0.75')
    expect(given.stderr).not.toContain('row size not given')
  })

  it('tpo --analytics: the chart marks every period: single-print zones, poor extremes, open type, IB extension and spike from the analytics functions', async () => {
    const args = ['tpo', csv, '--tick-size', '0.25', '--row-size', '2', '--tz', 'America/New_York', '--chart', 'bars']
    const plain = await run(args)
    const marked = await run([...args, '--analytics'])
    expect(marked.code).toBe(0)
    expect(count(plain.stdout, 'tpo-annotation')).toBe(0)
    // the CSV has no session column: every trade is main session, as in these profiles
    const { session: _, ...unsessioned } = cols
    const opts = { timeframe: '1d', tickSize: '0.25', rowSize: 2, timeZone: 'America/New_York' } as const
    const profiles = tpoProfiles(unsessioned, opts)
    let want = 0
    for (const p of profiles) {
      want += singlePrintZones(p).filter((z) => z.kind === 'single-prints').length
      const e = poorExtremes(p)
      want += (e.poorHigh === null ? 0 : 1) + (e.poorLow === null ? 0 : 1)
      // the day-session reads: the open type, each side of range extension, a spike
      const a = profileAnalytics(p)
      want += (a.openType === null ? 0 : 1) + (a.spike === null ? 0 : 1)
      want +=
        a.rangeExtension === null
          ? 0
          : Number(a.rangeExtension.up.distance !== '0') + Number(a.rangeExtension.down.distance !== '0')
      expect(a.openType).not.toBeNull()
    }
    expect(want).toBeGreaterThan(0)
    expect(count(marked.stdout, 'tpo-annotation')).toBe(want)
    expect(count(marked.stdout, 'tpo-annotation-open-type')).toBe(profiles.length)
    expect(xmlProblem(marked.stdout)).toBeUndefined()
  })

  it('single is the default and keeps the text renderings; bars refuses text formats and --cells needs bars', async () => {
    const text = await run(['tpo', csv, '--tick-size', '0.25', '--row-size', '8', '--last', '1'])
    const single = await run(['tpo', csv, '--tick-size', '0.25', '--row-size', '8', '--last', '1', '--chart', 'single'])
    expect(single.stdout).toBe(text.stdout)
    expect(text.stdout).toContain('POC')
    const bad = await run(['footprint', csv, '--chart', 'bars', '--format', 'json'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--chart bars draws one SVG chart')
    expect((await run(['tpo', csv, '--chart', 'lines'])).stderr).toContain('--chart must be bars or single')
    expect((await run(['footprint', csv, '--cells', 'delta'])).stderr).toContain('add --chart bars')
  })
})
