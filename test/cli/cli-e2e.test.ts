import { describe, expect, it } from 'vitest'
import { fixture, spawnCli } from './helpers.js'

// The expected candles of test/fixtures/cli/trades.csv, worked out by hand:
// 13:30 -> 5000.25 (2 buy), 5000.50 (1 sell), 5000.00 (3 sell); 13:31 -> 5000.75 (5 buy), 5000.50 (1.5 sell); 14:00 -> 5001.00 (4 buy)
const CANDLES = [
  {
    time: Date.UTC(2026, 5, 1, 13, 30),
    open: '5000.25',
    high: '5000.50',
    low: '5000.00',
    close: '5000.00',
    volume: '6',
    value: '30001',
    trades: 3,
    session: 'MAINSESSION',
  },
  {
    time: Date.UTC(2026, 5, 1, 13, 31),
    open: '5000.75',
    high: '5000.75',
    low: '5000.50',
    close: '5000.50',
    volume: '6.5',
    value: '32504.5',
    trades: 2,
    session: 'MAINSESSION',
  },
  {
    time: Date.UTC(2026, 5, 1, 14, 0),
    open: '5001.00',
    high: '5001.00',
    low: '5001.00',
    close: '5001.00',
    volume: '4',
    value: '20004',
    trades: 1,
    session: 'MAINSESSION',
  },
]

/** Sample-like trades as CSV lines, generated lazily in chunks: a large input that never sits in memory. */
async function* bigInput(days: number, perDay: number): AsyncGenerator<string> {
  yield 'time,price,volume,side\n'
  const day0 = Date.UTC(2026, 5, 1, 13, 30)
  for (let d = 0; d < days; d++) {
    let lines = ''
    for (let i = 0; i < perDay; i++) {
      const t = day0 + d * 86_400_000 + i * 100
      const ticks = 20_000 + ((i * 7919) % 41) - 20
      lines += `${t},${(ticks * 25) / 100},${1 + (i % 5)},${i % 3 === 0 ? 'sell' : 'buy'}\n`
      if (lines.length > 60_000) {
        yield lines
        lines = ''
      }
    }
    yield lines
  }
}

describe.concurrent('svc-marketdata (spawned)', () => {
  it('candles from a CSV file, as JSON, exit 0', async () => {
    const r = await spawnCli(['candles', fixture('trades.csv'), '--format', 'json'])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual(CANDLES)
    expect(r.stderr).toContain('time column: epoch milliseconds (detected from line 2')
  })

  it('NDJSON from stdin gives the same candles', async () => {
    const { readFileSync } = await import('node:fs')
    const r = await spawnCli(['candles', '--format', 'ndjson'], readFileSync(fixture('trades.ndjson'), 'utf8'))
    expect(r.code).toBe(0)
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(CANDLES)
    expect(r.stderr).toContain('ISO 8601')
  })

  it('a bad row stops with its line number and exit 1', async () => {
    const stop = await spawnCli(['candles', fixture('bad.csv')])
    expect(stop.code).toBe(1)
    expect(stop.stdout).toBe('')
    expect(stop.stderr).toContain('line 3: price "abc" is not a decimal')
  })

  it('streams a large generated input from stdin', async () => {
    const days = 3
    const perDay = 100_000
    const r = await spawnCli(
      ['footprint', '--timeframe', '1d', '--tick-size', '0.25', '--format', 'ndjson'],
      bigInput(days, perDay),
    )
    expect(r.code).toBe(0)
    const profiles = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { trades: number; volume: string })
    expect(profiles.length).toBe(days)
    for (const p of profiles) expect(p.trades).toBe(perDay)
    // volume per day: sum over i of 1 + (i % 5) = perDay / 5 * (1+2+3+4+5)
    for (const p of profiles) expect(p.volume).toBe(String((perDay / 5) * 15))
    expect(r.stderr).toContain(`read ${days * perDay} trades`)
  })

  it('a usage error exits 2', async () => {
    const bad = await spawnCli(['tpo', fixture('trades.csv'), '--timeframe', '1h'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('not a TPO period')
  })
})
