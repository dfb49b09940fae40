import { describe, expect, it } from 'vitest'
import { renderFootprint, renderFootprintSvg, renderTpo, renderTpoSvg } from '../../src/render/index.js'
import { sampleTrades } from '../../src/sample/index.js'
import { tpoProfiles } from '../../src/tpo/index.js'
import { handFootprint, handTpo } from './fixtures.js'
import { xmlProblem } from './xml-check.js'

describe('renderTpo', () => {
  it('draws the letter chart of a hand-built profile exactly', () => {
    // Written from the rules: rows high to low; gutter 1 = initial balance (100.25..101.00), gutter 2 =
    // value area ':' (100.00..101.00) with '>' at the POC; letters in block order; labels on the right.
    const expected = [
      'TPO 2026-06-01 13:30 UTC | 30m blocks | row 0.25',
      'POC 100.50 | value area 100.00 to 101.00 (70%) | initial balance 100.25 to 101.00 (1h)',
      'range 100.00 to 101.25 | open 100.50 | close 100.75 | 13 TPOs | volume 24 (buy 13, sell 11)',
      '',
      '101.25    BD',
      '101.00 |: B     VAH IBH single print',
      '100.75 |: ABD   vPOC',
      '100.50 |> ABCD  POC',
      '100.25 |: AC    IBL',
      '100.00  : C     VAL',
      '',
      'A 13:30  B 14:00  C 14:30  D 15:00',
      'legend: > POC  : value area  | initial balance  letters: one per 30m block, A-Z then a-z',
      '',
    ].join('\n')
    expect(renderTpo(handTpo())).toBe(expected)
  })

  it('prints times in the given zone', () => {
    const text = renderTpo(handTpo(), { timeZone: 'America/New_York' })
    expect(text.split('\n')[0]).toBe('TPO 2026-06-01 09:30 America/New_York | 30m blocks | row 0.25')
    expect(text).toContain('A 09:30  B 10:00  C 10:30  D 11:00')
  })

  it('a session profile is titled where its trading began, not at the period start', () => {
    const tz = 'America/New_York'
    const trades = sampleTrades({ timeZone: tz })
    const opts = { timeframe: '1d', tickSize: '0.25', timeZone: tz } as const
    const [main] = tpoProfiles(trades, { ...opts, sessions: ['MAINSESSION'] })
    expect(renderTpo(main!, { timeZone: tz }).split('\n')[0]).toMatch(/^TPO 2026-06-01 09:30 America\/New_York \|/)
    const [pre] = tpoProfiles(trades, { ...opts, mergeSessions: 'GROUP_BY_TYPE' })
    expect(pre!.sessionType).toBe('PRE_MARKET')
    expect(renderTpoSvg(pre!, { timeZone: tz })).toContain('TPO 2026-06-01 04:00 America/New_York PRE_MARKET')
    expect(main!.time).toBe(Date.parse('2026-06-01T04:00:00Z'))
  })

  it("letters: 'fixed' gives each clock period of the day its letter, 'traded' (default) only the blocks that traded", () => {
    const letter = (t: number, zoneHours: number) => {
      const minute = (((t / 60_000 + zoneHours * 60) % 1440) + 1440) % 1440
      return 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'[Math.floor(minute / 30)]!
    }
    // trades at 00:10 and 01:10 UTC: blocks 00:00 and 01:00, the 00:30 period did not trade
    const day = Date.UTC(2026, 5, 1)
    const trades = [
      { time: day + 10 * 60_000, price: '100', volume: '1', side: 'buy' as const },
      { time: day + 70 * 60_000, price: '101', volume: '1', side: 'sell' as const },
    ]
    const [p] = tpoProfiles(trades, { timeframe: '1d', tickSize: '1' })
    const traded = renderTpo(p!)
    const fixed = renderTpo(p!, { letters: 'fixed' })
    expect(traded).toContain('A 00:00  B 01:00')
    expect(fixed).toContain('A 00:00  C 01:00')
    expect(fixed.split('\n').find((l) => l.startsWith('101'))).toMatch(/^101 .. C/)
    expect(renderTpo(p!, { letters: 'traded' })).toBe(traded)
    // the hand profile's blocks from 13:30 UTC (09:30 in New York, EDT = UTC-4)
    const hand = handTpo()
    const utc = renderTpo(hand, { letters: 'fixed' })
    expect(utc).toContain(
      hand.blocks.map((b) => `${letter(b, 0)} ${new Date(b).toISOString().slice(11, 16)}`).join('  '),
    )
    const ny = renderTpoSvg(hand, { letters: 'fixed', timeZone: 'America/New_York' })
    expect(hand.blocks.map((b) => letter(b, -4)).join('')).toBe('TUVW')
    expect(ny).toContain('T 09:30')
    expect(ny).toContain('fixed (A from 00:00 America/New_York)')
    expect(() => renderTpo(hand, { letters: 'clock' as never })).toThrow(/`letters` must be 'traded' or 'fixed'/)
  })

  it('letters run A..Z, a..z and then start again at A', () => {
    const p = handTpo()
    p.blocks = Array.from({ length: 54 }, (_, i) => Date.UTC(2026, 5, 1) + i * 30 * 60_000)
    p.rows = [['100.00', [53, 0, 25, 26, 51, 52], '1', '1']]
    p.poc = p.valueAreaHigh = p.valueAreaLow = p.volumePoc = '100.00'
    p.singlePrints = []
    p.initialBalance = null
    const rowLine = renderTpo(p)
      .split('\n')
      .find((l) => l.startsWith('100.00'))
    expect(rowLine).toBe('100.00  > AZazAB  POC vPOC VAH VAL')
    // blocks span two days: labels carry the date
    expect(renderTpo(p)).toContain('A 06-01 00:00')
  })

  it('says "none" for a profile without initial balance and leaves the IB gutter empty', () => {
    const p = handTpo()
    p.initialBalance = null
    const text = renderTpo(p)
    expect(text).toContain('initial balance none')
    expect(text).not.toMatch(/^\S+ \|/m)
  })
})

describe('renderFootprint', () => {
  it('draws the sell x buy ladder of a hand-built profile exactly', () => {
    // Widths: price 6, sell 4 (header), buy 3 ('12*'), delta 5 (header); bar = round(20 * volume / 48).
    const expected = [
      'Footprint 2026-06-01 14:00-15:00 UTC | row 0.25 | tick 0.25',
      'volume 83.5 (buy 30, sell 53.5) | delta -23.5 | trades 28 (buy 13, sell 15)',
      'high 100.75 | low 99.75 | POC 100.25 | imbalance >= 300%',
      '',
      ' price   sell x buy  delta  volume',
      '100.75    1.5 x 2     +0.5  #',
      '100.50      5 x 8       +3  #####',
      '100.25 >  *40 x 8      -32  ####################',
      '100.00      3 x 12*     +9  ######',
      ' 99.75      4 x 0       -4  ##',
      '',
      'legend: > POC (most volume)  sell x buy  * diagonal imbalance >= 300%  delta = buy - sell',
      '',
    ].join('\n')
    expect(renderFootprint(handFootprint())).toBe(expected)
  })

  it('the imbalance threshold is an option', () => {
    // at 250% the sell 5 at 100.50 vs buy 2 at 100.75 is an imbalance too
    const text = renderFootprint(handFootprint(), { imbalanceRatio: 250 })
    expect(text).toContain('100.50     *5 x 8       +3  #####')
    // at 1000% none of them is
    const rows = renderFootprint(handFootprint(), { imbalanceRatio: 1000 })
      .split('\n')
      .filter((l) => / x /.test(l) && !l.startsWith('legend'))
    expect(rows.length).toBe(6)
    for (const l of rows) expect(l).not.toContain('*')
  })
})

describe('SVG renderings', () => {
  it('are well-formed XML with a title, a legend and no external references', () => {
    for (const svg of [
      renderTpoSvg(handTpo()),
      renderFootprintSvg(handFootprint()),
      renderTpoSvg(handTpo(), { timeZone: 'Asia/Tokyo' }),
    ]) {
      expect(xmlProblem(svg)).toBeUndefined()
      expect(svg).toContain('<svg xmlns="http://www.w3.org/2000/svg"')
      expect(svg).toMatch(/<title>[^<]+<\/title>/)
      expect(svg).not.toMatch(/href|url\(|@import|<script/i)
    }
    const tpo = renderTpoSvg(handTpo())
    for (const s of ['POC (most TPOs)', 'value area', 'single print', 'initial balance', '100.50', 'A 13:30'])
      expect(tpo).toContain(s)
    const fp = renderFootprintSvg(handFootprint())
    for (const s of ['POC (most volume)', 'sell (bid)', 'buy (ask)', 'diagonal imbalance &gt;= 300%', '-32', '53.5'])
      expect(fp).toContain(s)
  })

  it('escape text taken from the profile', () => {
    const p = handTpo()
    p.blockSize = '<30m & "x">'
    const svg = renderTpoSvg(p)
    expect(xmlProblem(svg)).toBeUndefined()
    expect(svg).toContain('&lt;30m &amp; &quot;x&quot;&gt;')
  })

  it('draws one letter per TPO and one bar pair per footprint row', () => {
    const tpo = renderTpoSvg(handTpo())
    const letters = [...tpo.matchAll(/<text [^>]*>([A-Za-z])<\/text>/g)].length
    expect(letters).toBe(13)
    const fp = renderFootprintSvg(handFootprint())
    expect([...fp.matchAll(/fill-opacity="0.3"/g)].length).toBe(5 * 2 + 2) // + 2 legend swatches
  })
})
