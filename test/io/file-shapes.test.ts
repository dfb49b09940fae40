// svc-marketdata/io over files shaped as real pipelines write them (test/fixtures/files: exchange dumps, pandas
// to_csv with and without its index, three-column files, local times, NDJSON in nanoseconds): each reads, with
// the documented options, to the same six trades; a wrong file gets one error naming the line, the column,
// what was found and the option that fixes it.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseDecimal } from '../../src/decimal/index.js'
import { readCandles, readTrades, type TextReaderOptions } from '../../src/io/index.js'

const file = (name: string) => readFileSync(new URL(`../fixtures/files/${name}`, import.meta.url), 'utf8')
const norm = (x: string | number) => {
  const r = parseDecimal(String(x))
  if (!r.ok) throw new Error(String(x))
  const { units, scale } = r.value
  const s = units.toString().padStart(scale + 1, '0')
  return scale === 0 ? s : `${s.slice(0, -scale)}.${s.slice(-scale)}`.replace(/\.?0+$/, '')
}

/** The six trades every fixture holds (2019-11-05, 09:30 New York = 14:30 UTC). */
const SIX = [
  [Date.UTC(2019, 10, 5, 14, 30, 0, 123), '9310.5', '0.015', 'buy'],
  [Date.UTC(2019, 10, 5, 14, 30, 0, 456), '9310.25', '0.2', 'sell'],
  [Date.UTC(2019, 10, 5, 14, 30, 1, 0), '9310.25', '1.5', 'sell'],
  [Date.UTC(2019, 10, 5, 14, 30, 2, 789), '9311', '0.003', 'buy'],
  [Date.UTC(2019, 10, 5, 14, 31, 5, 1), '9312.75', '0.25', 'buy'],
  [Date.UTC(2019, 10, 5, 14, 31, 59, 999), '9311.5', '2', 'sell'],
] as const

const shape = (text: string, opts: TextReaderOptions) =>
  readTrades(text, opts).map((t) => [t.time, norm(t.price), norm(t.volume), (t as { side?: string }).side])

describe('files as pipelines write them', () => {
  const cases: [string, TextReaderOptions][] = [
    ['binance-aggtrades.csv', {}],
    ['binance-trades-noheader.csv', { columns: { time: 5, price: 2, volume: 3, side: 6 } }],
    ['coinbase-trades.csv', {}],
    ['pandas-index.csv', {}],
    ['pandas-noindex.csv', {}],
    ['local-times.csv', { inputZone: 'America/New_York' }],
    ['time-ms.csv', {}],
    ['trades-ns.ndjson', {}],
  ]
  it.each(cases)('%s reads to the six trades', (name, opts) => {
    expect(shape(file(name), opts)).toEqual(SIX.map((t) => [...t]))
  })

  it('a three-column file (Kraken) reads without sides for candles and TPO, with estimated sides by the tick rule', () => {
    const text = file('kraken-trades.csv')
    expect(shape(text, { sideRule: 'optional' })).toEqual(SIX.map(([t, p, v]) => [t, p, v, undefined]))
    // up, down, equal (keeps sell), up, up, down
    expect(shape(text, { sideRule: 'tick' }).map((r) => r[3])).toEqual(['buy', 'sell', 'sell', 'buy', 'buy', 'sell'])
    expect(() => readTrades(text)).toThrow(/line 1: .*got 3.*sideRule 'tick'.*sideRule 'optional'/)
  })

  it('columns named by option win over the usual names, in CSV and NDJSON', () => {
    const csv = 'when,last,px,qty,dir\n1572964200123,1,9310.5,0.015,b\n'
    expect(readTrades(csv, { columns: { time: 'WHEN', side: 'dir' } })).toEqual([
      { time: 1572964200123, price: '9310.5', volume: '0.015', side: 'buy' },
    ])
    const nd = '{"when":1572964200,"last":9310.5,"q":"0.015","side":"s"}\n'
    expect(readTrades(nd, { columns: { time: 'when', price: 'last' } })).toEqual([
      { time: 1572964200000, price: '9310.5', volume: '0.015', side: 'sell' },
    ])
  })

  it('times: the unit given, named by the header, or inferred; a fraction beyond the ms is floored', () => {
    const at = (t: string, o: TextReaderOptions = {}) => readTrades(`${t},1,1,b`, o)[0]!.time
    expect(at('1572964200')).toBe(1572964200000)
    expect(at('1572964200123')).toBe(1572964200123)
    expect(at('1572964200123456')).toBe(1572964200123)
    expect(at('1572964200123456789')).toBe(1572964200123)
    expect(at('1572964200.9999')).toBe(1572964200999)
    expect(at('86400', { timeUnit: 'ms' })).toBe(86400)
    expect(at('2019-11-05 14:30:00.1234567+01:00')).toBe(Date.UTC(2019, 10, 5, 13, 30, 0, 123))
    expect(at('2019-11-05T14:30', { inputZone: 'UTC' })).toBe(Date.UTC(2019, 10, 5, 14, 30))
    expect(at('11/5/2019 9:30', { inputZone: 'Asia/Tokyo' })).toBe(Date.UTC(2019, 10, 5, 0, 30))
    expect(readTrades('time_s,price,volume,side\n1572964200123,1,1,b\n')[0]!.time).toBe(1572964200123000)
  })

  it('a date-time without an offset needs inputZone, and is refused without it, naming the option', () => {
    expect(() => readTrades(file('local-times.csv'))).toThrow(
      /line 2: time "2019-11-05 09:30:00.123" has no offset .*inputZone/,
    )
  })

  it('local times in a zone: the skipped hour is refused, the repeated hour keeps the file in order', () => {
    const o = { inputZone: 'America/New_York', sorted: true } as const
    expect(() => readTrades('2019-03-10 02:30:00,1,1,b', o)).toThrow(/does not exist in America\/New_York/)
    // 01:30 EDT then 01:10 (must be EST, an hour later in UTC) then 01:40 EST
    const t = readTrades('2019-11-03 01:30:00,1,1,b\n2019-11-03 01:10:00,1,1,b\n2019-11-03 01:40:00,1,1,b', o)
    expect(t.map((x) => new Date(x.time).toISOString())).toEqual([
      '2019-11-03T05:30:00.000Z',
      '2019-11-03T06:10:00.000Z',
      '2019-11-03T06:40:00.000Z',
    ])
  })

  it('a header without a needed column is a bad record naming the column and the option', () => {
    expect(() => readTrades('time,qty,side\n1,1,b\n')).toThrow(
      expect.objectContaining({
        code: 'invalid_record',
        message: expect.stringMatching(/no price column.*columns\.price/),
      }),
    )
    expect(() => readTrades('t,p,v,side\n1,1,1,b\n', { columns: { side: 'aggr' } })).toThrow(
      /columns\.side is "aggr", which the header does not name/,
    )
  })

  it('OHLCV exports read as candles: spreadsheet month/day/year times in a zone, epoch open times', () => {
    const a = readCandles(file('ohlcv-mdy.csv'), { inputZone: 'America/New_York' })
    const b = readCandles(file('ohlcv-klines.csv'))
    expect(a.map((c) => c.time)).toEqual([Date.UTC(2019, 10, 5, 14, 30), Date.UTC(2019, 10, 5, 14, 31)])
    expect(b).toEqual(a)
  })
})
