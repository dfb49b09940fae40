// The command line over files as pipelines write them (test/fixtures/files): the same candles from every
// shape of the six trades with the documented options; gzip from a file and from stdin; OHLCV files for
// candles and TPO; a three-column file for candles and TPO but not footprints (unless --side-rule tick, said);
// the wrong file gets one error naming the line, the column, what was found and the option that fixes it.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { footprintProfiles, type FootprintProfile } from '../../src/footprint/index.js'
import type { Trade } from '../../src/trades/index.js'
import { ROOT, run } from './helpers.js'

/** The trades of a `time,price,volume,side` CSV text. */
const profilesTrades = (csv: string): Trade[] =>
  csv
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','))
    .map(([time, price, volume, side]) => ({
      time: Number(time),
      price: price!,
      volume: volume!,
      side: side as 'buy' | 'sell',
    }))

const f = (name: string) => resolve(ROOT, 'test/fixtures/files', name)
const candles = async (args: string[], stdin = '') => {
  const r = await run(['candles', '--timeframe', '1m', '--format', 'json', ...args], stdin)
  expect(r.stderr).not.toMatch(/svc-marketdata:/)
  expect(r.code).toBe(0)
  return JSON.parse(r.stdout) as { time: number; open: string; close: string; volume: string; trades: number }[]
}

describe('the command line over a user own files', () => {
  it('every shape of the six trades gives the same two candles', async () => {
    const ref = await candles([f('pandas-noindex.csv')])
    expect(ref.map((k) => [k.time, k.trades])).toEqual([
      [Date.UTC(2019, 10, 5, 14, 30), 4],
      [Date.UTC(2019, 10, 5, 14, 31), 2],
    ])
    const shapes: string[][] = [
      [f('pandas-index.csv')],
      [f('pandas-noindex.csv.gz')],
      [f('binance-aggtrades.csv')],
      [f('binance-trades-noheader.csv'), '--time-column', '5', '--price-column', '2', '--volume-column', '3'],
      [f('coinbase-trades.csv')],
      [f('kraken-trades.csv')],
      [f('local-times.csv'), '--input-zone', 'America/New_York'],
      [f('time-ms.csv')],
      [f('trades-ns.ndjson')],
      [f('trades-duckdb.parquet')],
      [f('trades-binance.parquet')],
    ]
    for (const args of shapes) {
      const got = await candles(args)
      expect(
        got.map((k) => [k.time, Number(k.open), Number(k.close), Number(k.volume), k.trades]),
        args[0],
      ).toEqual(ref.map((k) => [k.time, Number(k.open), Number(k.close), Number(k.volume), k.trades]))
    }
    // gzip on stdin, found by its magic bytes
    const r = await run(['candles', '--timeframe', '1m', '--format', 'json'], readFileSync(f('pandas-noindex.csv.gz')))
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual(ref)
  })

  it('an OHLCV file is told by its header: candles resample it, tpo profiles it', async () => {
    const r = await run(['candles', f('ohlcv-klines.csv'), '--timeframe', '5m', '--format', 'json'])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject([
      { time: Date.UTC(2019, 10, 5, 14, 30), open: '9310.50', high: '9312.75', low: '9310.25', close: '9311.50' },
    ])
    const t = await run(['tpo', f('ohlcv-mdy.csv'), '--input-zone', 'America/New_York', '--tz', 'America/New_York'])
    expect(t.code, t.stderr).toBe(0)
    expect(t.stdout).toMatch(/9312\.75/)
    expect(t.stderr).toMatch(/read 2 candles/)
    const fp = await run(['footprint', f('ohlcv-klines.csv')])
    expect(fp.code).toBe(1)
    expect(fp.stderr).toMatch(/a footprint needs trades/)
  })

  it('Parquet written by DuckDB: decimal columns exact, candles told by their columns', async () => {
    const exact = await candles([f('trades-duckdb.parquet')])
    expect(exact.map((k) => [k.open, k.close, k.volume])).toEqual([
      ['9310.50', '9311.00', '1.718'],
      ['9312.75', '9311.50', '2.25'],
    ])
    const r = await run(['candles', f('candles-duckdb.parquet'), '--timeframe', '5m', '--format', 'json'])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject([{ volume: '3.9680000000123456789', high: '9312.75' }])
    const stdin = await run(['candles', '--input-format', 'parquet'], '')
    expect(stdin.stderr).toMatch(/Parquet cannot be read from stdin/)
  })

  it('trades without a side: candles and TPO read them, a footprint asks for a side or the tick rule', async () => {
    const t = await run(['tpo', f('kraken-trades.csv'), '--tick-size', '0.25'])
    expect(t.code, t.stderr).toBe(0)
    expect(t.stderr).toMatch(/no side column: TPO profiles from 30m candles/)
    const fp = await run(['footprint', f('kraken-trades.csv'), '--tick-size', '0.25'])
    expect(fp.code).toBe(1)
    expect(fp.stderr).toMatch(
      /line 1: expected at least 4 fields .*got 3; name it with --side-column, infer sides with --side-rule tick/,
    )
    const tick = await run([
      'footprint',
      f('kraken-trades.csv'),
      '--tick-size',
      '0.25',
      '--side-rule',
      'tick',
      '--format',
      'json',
    ])
    expect(tick.code, tick.stderr).toBe(0)
    expect(tick.stderr).toMatch(/sides estimated by the tick rule/)
  })

  it('a footprint from tick-rule sides says so in its JSON and NDJSON, on every profile; one from a side column does not', async () => {
    const args = ['footprint', f('kraken-trades.csv'), '--tick-size', '0.25', '--side-rule', 'tick']
    const json = await run([...args, '--format', 'json'])
    expect(json.code, json.stderr).toBe(0)
    const profiles = JSON.parse(json.stdout) as { sides?: string; rows: unknown[] }[]
    expect(profiles.length).toBeGreaterThan(0)
    for (const p of profiles) {
      expect(p.sides).toBe('estimated (tick rule)')
      expect(p.rows.length).toBeGreaterThan(0)
    }
    const nd = await run([...args, '--format', 'ndjson'])
    expect(nd.code, nd.stderr).toBe(0)
    const lines = nd.stdout.trim().split('\n')
    expect(lines).toHaveLength(profiles.length)
    for (const l of lines) expect((JSON.parse(l) as { sides?: string }).sides).toBe('estimated (tick rule)')
    const own = await run(['footprint', f('pandas-noindex.csv'), '--tick-size', '0.25', '--format', 'json'])
    expect(own.code, own.stderr).toBe(0)
    const ownProfiles = JSON.parse(own.stdout) as Record<string, unknown>[]
    expect(ownProfiles.length).toBeGreaterThan(0)
    for (const p of ownProfiles) expect(p).not.toHaveProperty('sides')
  })

  it('--session-hours gives a file without sessions the exchange hours: day-session TPO with an initial balance', async () => {
    const args = [
      'tpo',
      f('local-times.csv'),
      '--input-zone',
      'America/New_York',
      '--tick-size',
      '0.25',
      '--format',
      'json',
    ]
    const r = await run([
      ...args,
      '--session-hours',
      'America/New_York 09:31-16:00 04:00-09:31',
      '--merge-sessions',
      'GROUP_BY_TYPE',
    ])
    expect(r.code, r.stderr).toBe(0)
    const p = JSON.parse(r.stdout) as { sessionType: string; high: string; initialBalance: unknown }[]
    expect(p.map((x) => [x.sessionType, x.high])).toEqual([
      ['PRE_MARKET', '9311.00'],
      ['MAINSESSION', '9312.75'],
    ])
    expect(p[1]!.initialBalance).toEqual({ high: '9312.75', low: '9311.50' })
    const bad = await run([...args, '--session-hours', 'America/New_York 9:30-16:00'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--session-hours: `main` must be local hours hh:mm-hh:mm/)
  })

  it('a count of a unit past the id rules is a custom frame; tick candles print to the millisecond', async () => {
    const k = await candles([f('pandas-noindex.csv'), '--timeframe', '90m'])
    expect(k.map((x) => [x.time, x.trades])).toEqual([[Date.UTC(2019, 10, 5, 13, 30), 6]])
    const t = await run(['candles', f('pandas-noindex.csv'), '--timeframe', '2t'])
    expect(t.stdout).toMatch(/2019-11-05 14:30:00\.123 .*\n2019-11-05 14:30:01\.000 /)
  })

  it('a tick size that does not divide the prices is warned of; one that does is not', async () => {
    const off = await run(['footprint', f('pandas-noindex.csv'), '--tick-size', '0.3'])
    expect(off.stderr).toMatch(/warning: --tick-size 0\.3 does not divide the prices .*multiples of 0\.25/)
    const on = await run(['footprint', f('pandas-noindex.csv'), '--tick-size', '0.05'])
    expect(on.code, on.stderr).toBe(0)
    expect(on.stderr).not.toMatch(/warning/)
  })

  it('a footprint chart or ladder of one-tick crypto data picks its row size (30..80 rows over the whole range, as rowSize auto) unless one is given; JSON keeps one tick', async () => {
    const rows = ['time,price,volume,side']
    for (let i = 0; i < 400; i++)
      rows.push(
        `${1572964200000 + i * 9000},${(30000 + ((i * 37) % 500) * 1.01).toFixed(2)},0.01,${i % 2 ? 'buy' : 'sell'}`,
      )
    const text = `${rows.join('\n')}\n`
    const r = await run(['footprint', '--timeframe', '15m', '--chart', 'bars', '--tick-size', '0.01'], text)
    expect(r.code, r.stderr).toBe(0)
    const m = /row size not given: using (\d+) ticks .* about (\d+) rows/.exec(r.stderr)
    expect(m).not.toBeNull()
    const k = Number(m![1])
    expect(Number(m![2])).toBeLessThanOrEqual(80)
    expect(Number(m![2])).toBeGreaterThanOrEqual(30)
    const json = await run(['footprint', '--timeframe', '15m', '--tick-size', '0.01', '--format', 'json'], text)
    expect(json.stderr).not.toMatch(/row size not given/)
    const profiles = JSON.parse(json.stdout) as FootprintProfile[]
    expect(profiles[0]!.rowSize).toBe(1)
    // the size rowSize 'auto' picks for the same trades
    const auto = footprintProfiles(profilesTrades(text), { timeframe: '15m', tickSize: '0.01', rowSize: 'auto' })
    expect(auto[0]!.rowSize).toBe(k)
    const given = await run(
      ['footprint', '--timeframe', '15m', '--chart', 'bars', '--tick-size', '0.01', '--row-size', String(k)],
      text,
    )
    expect(given.stderr).not.toMatch(/row size not given/)
    expect(given.stdout).toBe(r.stdout)
    const ladder = await run(['footprint', '--timeframe', '15m', '--tick-size', '0.01', '--last', '1'], text)
    expect(ladder.stderr).toContain(`row size not given: using ${k} ticks`)
    expect(ladder.stdout).toContain(`| row ${k / 100} |`)
    const three = await run(
      ['footprint', '--timeframe', '15m', '--chart', 'bars', '--tick-size', '0.01', '--row-size', '3'],
      text,
    )
    expect(three.stderr).not.toMatch(/row size not given/)
  })

  it('a wrong file gets one error: the line, the column, what was found and the option', async () => {
    const noZone = await run(['candles', f('local-times.csv')])
    expect(noZone.code).toBe(1)
    expect(noZone.stderr).toMatch(/line 2: time "2019-11-05 09:30:00.123" has no offset .*--input-zone/)
    const noPrice = await run(['candles'], 'time_ms,last,amount\n1572964200123,1,1\n')
    expect(noPrice.stderr).toMatch(/line 1: the header has no price column .*--price-column/)
    const named = await run(['candles', '--price-column', 'last'], 'time_ms,last,amount\n1572964200123,1,1\n')
    expect(named.code, named.stderr).toBe(0)
  })
})
