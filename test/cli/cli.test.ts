import fc from 'fast-check'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { xmlProblem } from '../render/xml-check.js'
import { fixture, run } from './helpers.js'

const tmp = mkdtempSync(join(tmpdir(), 'svc-cli-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const T1330 = Date.UTC(2026, 5, 1, 13, 30)
const T1331 = Date.UTC(2026, 5, 1, 13, 31)
const T1400 = Date.UTC(2026, 5, 1, 14, 0)

describe('input', () => {
  it('epoch ms, epoch seconds and ISO 8601 times give the same candles, and the kind is stated', async () => {
    const ms = await run(['candles', fixture('trades.csv'), '--format', 'json'])
    const s = await run(['candles', fixture('seconds.csv'), '--format', 'json'])
    const iso = await run(['candles', fixture('trades.ndjson'), '--format', 'json'])
    for (const r of [ms, s, iso]) expect(r.code).toBe(0)
    expect(s.stderr).toContain('epoch seconds')
    expect(iso.stderr).toContain('ISO 8601')
    expect(JSON.parse(s.stdout)).toEqual(JSON.parse(ms.stdout))
    expect(JSON.parse(iso.stdout)).toEqual(JSON.parse(ms.stdout))
    expect((JSON.parse(ms.stdout) as { time: number }[]).map((c) => c.time)).toEqual([T1330, T1331, T1400])
  })

  it('reads stdin when no file is given', async () => {
    const r = await run(['candles', '--format', 'ndjson'], readFileSync(fixture('trades.csv'), 'utf8'))
    expect(r.code).toBe(0)
    expect(r.stdout.trim().split('\n')).toHaveLength(3)
  })

  it('--skip-bad skips bad rows (bad price, side, volume, time going backwards) and reports the count', async () => {
    const r = await run(['candles', fixture('bad.csv'), '--skip-bad', '--format', 'json'])
    expect(r.code).toBe(0)
    expect(r.stderr).toContain('skipped 4 bad rows')
    const candles = JSON.parse(r.stdout) as { time: number; volume: string }[]
    expect(candles.map((c) => [c.time, c.volume])).toEqual([
      [T1330, '2'],
      [T1331, '5'],
    ])
  })

  it('names the line and the rule of each kind of bad row', async () => {
    const cases: [string, string][] = [
      [
        'time,price,volume,side\n1780320600000,5000,1,buy\n1780320600000,5000,1,hold\n',
        'line 3: side "hold" is not buy or sell',
      ],
      [
        'time,price,volume,side\n1780320600000,5000,1,buy\n1780320500000,5000,1,buy\n',
        'line 3: time 2026-06-01T13:28:20.000Z is earlier than the previous row',
      ],
      ['time,price,volume,side\n1780320600000,5000,-2,buy\n', 'line 2: volume "-2" is not a decimal >= 0'],
      [
        '1780320600000,5000,1,buy\nnot-a-time,5000,1,buy\n',
        'line 2: time "not-a-time" is not epoch milliseconds like the first row',
      ],
      [
        '2026-06-01T10:00:00,5000,1,buy\n',
        'line 1: time "2026-06-01T10:00:00" has no offset (Z or ±hh:mm): name the zone it is in with --input-zone',
      ],
      ['1780320600000,5000\n', 'line 1: expected at least 3 fields'],
      [
        '{"time":1780320600000,"price":"5000","volume":"1","side":"buy","session":"LUNCH"}\n',
        'line 1: session "LUNCH" is not MAINSESSION',
      ],
      ['{"time":1780320600000,"price":"5e3x","volume":"1","side":"buy"}\n', 'line 1: price "5e3x" is not a decimal'],
      ['{"time":1780320600000\n', 'line 1: not a JSON object'],
      ['stamp,price,volume,side\n1,2,3,buy\n', 'line 1: the header has no time column'],
    ]
    for (const [input, message] of cases) {
      const r = await run(['candles'], input)
      expect(r.code, input).toBe(1)
      expect(r.stderr, input).toContain(message)
    }
  })

  it('empty input is not an error: JSON [] and a note', async () => {
    for (const input of ['', 'time,price,volume,side\n', '\n\n']) {
      const r = await run(['tpo', '--format', 'json', '--tick-size', '0.25'], input)
      expect(r.code).toBe(0)
      expect(r.stdout).toBe('[]\n')
      expect(r.stderr).toContain('no trades in the input')
    }
    const file = await run(['footprint', fixture('empty.csv'), '--format', 'ndjson'])
    expect(file.code).toBe(0)
    expect(file.stdout).toBe('')
  })

  it('--from / --to keep [from, to) and take Unix seconds or RFC 3339', async () => {
    const a = await run([
      'candles',
      fixture('trades.csv'),
      '--format',
      'json',
      '--from',
      '2026-06-01T13:31:00Z',
      '--to',
      String(T1400 / 1000),
    ])
    expect(a.code).toBe(0)
    expect((JSON.parse(a.stdout) as { time: number }[]).map((c) => c.time)).toEqual([T1331])
    expect(a.stderr).toContain('4 outside --from/--to left out')
  })

  it('shows a progress bar only when stderr is a terminal and the input is a file', async () => {
    const csv = readFileSync(fixture('trades.csv'), 'utf8')
    const file = await run(['candles', fixture('trades.csv')], '', true)
    expect(file.stderr).toContain('] 100%')
    expect(file.stderr).toContain('\r\x1b[K')
    const stdin = await run(['candles'], csv, true)
    expect(stdin.stderr).not.toContain('%')
    const notTty = await run(['candles', fixture('trades.csv')], '', false)
    expect(notTty.stderr).not.toContain('%')
  })

  it('a missing file is bad input (exit 1)', async () => {
    const r = await run(['candles', join(tmp, 'nope.csv')])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('cannot read')
  })
})

describe('footprint and tpo', () => {
  it('footprint JSON rows of the fixture, worked out by hand', async () => {
    const r = await run([
      'footprint',
      fixture('trades.csv'),
      '--timeframe',
      '1h',
      '--tick-size',
      '0.25',
      '--format',
      'json',
    ])
    expect(r.code).toBe(0)
    const [p13, p14] = JSON.parse(r.stdout) as { time: number; rows: unknown[]; volumePoc: string; delta: string }[]
    expect(p13!.time).toBe(Date.UTC(2026, 5, 1, 13))
    expect(p13!.rows).toEqual([
      ['5000.00', '0', '3', 0, 1],
      ['5000.25', '2', '0', 1, 0],
      ['5000.50', '0', '2.5', 0, 2],
      ['5000.75', '5', '0', 1, 0],
    ])
    expect(p13!.volumePoc).toBe('5000.75')
    expect(p13!.delta).toBe('1.5')
    expect(p14!.rows).toEqual([['5001.00', '4', '0', 1, 0]])
  })

  it('infers the tick size when not given and says so', async () => {
    const r = await run(['footprint', fixture('trades.csv'), '--format', 'json'])
    expect(r.code).toBe(0)
    expect(r.stderr).toContain('tick size not given: using 0.25')
    expect((JSON.parse(r.stdout) as { tickSize: string }[])[0]!.tickSize).toBe('0.25')
  })

  it('footprint text is the ladder; --analytics adds analytics to JSON', async () => {
    const t = await run(['footprint', fixture('trades.csv'), '--tick-size', '0.25'])
    expect(t.code).toBe(0)
    expect(t.stdout).toContain('5000.75 >    0 x 5')
    const j = await run(['footprint', fixture('trades.csv'), '--tick-size', '0.25', '--format', 'json', '--analytics'])
    expect((JSON.parse(j.stdout) as { analytics?: { ratio: string } }[])[0]!.analytics?.ratio).toBe('300')
  })

  it('tpo: one daily profile, letter chart with block A at 13:30 and B at 14:00', async () => {
    const j = await run(['tpo', fixture('trades.csv'), '--tick-size', '0.25', '--format', 'json'])
    expect(j.code).toBe(0)
    const [p] = JSON.parse(j.stdout) as { poc: string; blocks: number[]; rows: [string, number[]][] }[]
    expect(p!.blocks).toEqual([T1330, T1400])
    // block A spans 5000.00..5000.75, block B is 5001.00 alone
    expect(p!.rows.map((r) => [r[0], r[1]])).toEqual([
      ['5000.00', [0]],
      ['5000.25', [0]],
      ['5000.50', [0]],
      ['5000.75', [0]],
      ['5001.00', [1]],
    ])
    const t = await run(['tpo', fixture('trades.csv'), '--tick-size', '0.25'])
    expect(t.stdout).toContain('A 13:30  B 14:00')
    expect(t.stdout).toMatch(/^5001\.00 .. B/m)
  })

  it('tpo text of thousands of one-tick rows picks a row size and says so in the header; --row-size wins; JSON keeps one tick', async () => {
    const rows = ['time,price,volume,side']
    for (let i = 0; i < 600; i++)
      rows.push(
        `${Date.UTC(2026, 5, 1) + i * 120_000},${(90000 + 1800 * Math.sin(i / 90)).toFixed(1)},0.5,${i % 2 ? 'buy' : 'sell'}`,
      )
    const csv = `${rows.join('\n')}\n`
    const t = await run(['tpo', '--tick-size', '0.1'], csv)
    expect(t.code, t.stderr).toBe(0)
    const lines = t.stdout.split('\n')
    expect(lines[1]).toMatch(
      /^rows of 500 ticks \(50\) picked for the text: 3600\d rows of 0\.1 would not fit a screen/,
    )
    expect(lines[0]).toContain('| row 50')
    const priceLines = lines.filter((l) => /^\d+\.?\d* /.test(l))
    expect(priceLines.length).toBeLessThanOrEqual(80)
    expect(priceLines.length).toBeGreaterThanOrEqual(30)
    const given = await run(['tpo', '--tick-size', '0.1', '--row-size', '20'], csv)
    expect(given.stdout).not.toContain('picked for the text')
    expect(given.stdout.split('\n')[0]).toContain('| row 2')
    expect(given.stdout.split('\n').length).toBeGreaterThan(1800)
    const j = await run(['tpo', '--tick-size', '0.1', '--format', 'json'], csv)
    expect((JSON.parse(j.stdout) as { rowSize: number }[])[0]!.rowSize).toBe(1)
  })

  it('tpo --letters fixed letters each block by its clock period (13:30 is b, 14:00 is c in 30m UTC blocks); a bad value is a usage error', async () => {
    const t = await run(['tpo', fixture('trades.csv'), '--tick-size', '0.25', '--letters', 'fixed'])
    expect(t.code).toBe(0)
    expect(t.stdout).toContain('b 13:30  c 14:00')
    expect(t.stdout).toMatch(/^5001\.00 .. c/m)
    expect(t.stdout).toContain('fixed (A from 00:00 UTC)')
    const ny = await run([
      'tpo',
      fixture('trades.csv'),
      '--tick-size',
      '0.25',
      '--letters',
      'fixed',
      '--tz',
      'America/New_York',
    ])
    expect(ny.stdout).toContain('T 09:30  U 10:00')
    const bad = await run(['tpo', fixture('trades.csv'), '--letters', 'clock'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--letters must be traded or fixed')
  })

  it('--merge-sessions GROUP_BY_TYPE gives a profile per session type', async () => {
    const input =
      'time,price,volume,side,session\n1780300800000,10,1,buy,PRE_MARKET\n1780320600000,11,1,buy,MAINSESSION\n'
    const r = await run(['tpo', '--tick-size', '1', '--merge-sessions', 'GROUP_BY_TYPE', '--format', 'json'], input)
    expect(r.code).toBe(0)
    expect((JSON.parse(r.stdout) as { sessionType: string }[]).map((p) => p.sessionType)).toEqual([
      'PRE_MARKET',
      'MAINSESSION',
    ])
  })

  it('svg: one picture to stdout; several need --out DIR/ (else exit 2); --last 1 keeps the last', async () => {
    const one = await run(['tpo', fixture('trades.csv'), '--tick-size', '0.25', '--format', 'svg'])
    expect(one.code).toBe(0)
    expect(xmlProblem(one.stdout)).toBeUndefined()
    const many = await run(['footprint', fixture('trades.csv'), '--tick-size', '0.25', '--format', 'svg'])
    expect(many.code).toBe(2)
    expect(many.stderr).toContain('--out DIR/')
    const last = await run([
      'footprint',
      fixture('trades.csv'),
      '--tick-size',
      '0.25',
      '--format',
      'svg',
      '--last',
      '1',
    ])
    expect(last.code).toBe(0)
    expect(last.stdout).toContain('5001.00')
    expect(last.stdout).not.toContain('5000.75')
    const dir = `${join(tmp, 'svgs')}/`
    const files = await run([
      'footprint',
      fixture('trades.csv'),
      '--tick-size',
      '0.25',
      '--format',
      'svg',
      '--out',
      dir,
    ])
    expect(files.code).toBe(0)
    const names = readdirSync(dir).sort()
    expect(names).toEqual(['footprint-20260601-1300.svg', 'footprint-20260601-1400.svg'])
    for (const n of names) expect(xmlProblem(readFileSync(join(dir, n), 'utf8'))).toBeUndefined()
  })

  it('--session-type filters sessions; --row-size-value sets the grid; --input-format overrides detection', async () => {
    const input =
      'time,price,volume,side,session\n1780300800000,10.00,1,buy,PRE_MARKET\n1780320600000,11.25,2,sell,MAINSESSION\n1780320601000,11.75,3,buy,MAINSESSION\n'
    const r = await run(
      [
        'footprint',
        '--tick-size',
        '0.25',
        '--row-size-value',
        '1',
        '--timeframe',
        '1d',
        '--session-type',
        'mainsession',
        '--format',
        'json',
      ],
      input,
    )
    expect(r.code).toBe(0)
    const [p] = JSON.parse(r.stdout) as { rows: unknown[]; rowSizeValue: string }[]
    expect(p!.rowSizeValue).toBe('1')
    expect(p!.rows).toEqual([['11.00', '3', '2', 1, 1]])
    const forced = await run(['candles', '--input-format', 'ndjson'], input)
    expect(forced.code).toBe(1)
    expect(forced.stderr).toContain('line 1: not a JSON object')
  })

  it('--out that cannot be written is a clear error, never a crash: usage (2) when it cannot be opened, bad output (1) when a write fails', async () => {
    const missing = join(tmp, 'no-such-dir', 'x.json')
    const r = await run(['candles', fixture('trades.csv'), '--format', 'json', '--out', missing])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(new RegExp(`--out: cannot write ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: E`))
    const dir = await run(['candles', fixture('trades.csv'), '--format', 'json', '--out', tmp])
    expect(dir.code).toBe(2)
    expect(dir.stderr).toContain(`--out: ${tmp} is a directory`)
    const sample = await run(['sample', '--trades-per-day', '10', '--out', join(tmp, 'no-such-dir', 's.csv')])
    expect(sample.code).toBe(2)
    expect(sample.stderr).toContain('--out: cannot write')
    const svgDir = await run([
      'tpo',
      fixture('trades.csv'),
      '--tick-size',
      '0.25',
      '--format',
      'svg',
      '--out',
      '/dev/null/x/',
    ])
    expect(svgDir.code).toBe(2)
    expect(svgDir.stderr).toContain('--out: cannot create the directory /dev/null/x/')
    if (existsSync('/dev/full')) {
      const full = await run(['candles', fixture('trades.csv'), '--format', 'json', '--out', '/dev/full'])
      expect(full.code).toBe(1)
      expect(full.stderr).toContain('cannot write /dev/full: ENOSPC')
    }
  })

  it('--skip-bad also skips rows the library refuses (a price too far from 0 for the row grid, the same rule for TPO and footprint), with the same result as without them', async () => {
    const rows = [
      'time,price,volume,side',
      '1780320600000,5000,1,buy',
      '1780320601000,5000.25,2,sell',
      '1780320602000,5001,3,buy',
    ]
    const cases: Array<[string, string, string]> = [
      // TPO sums any exact volume and places any exact price whose row fits, as the footprint does
      ['tpo', '1780320601500,99999999999999999999999,1,buy', 'too far from 0'],
      ['footprint', '1780320601500,99999999999999999999999,1,buy', 'too far from 0'],
    ]
    for (const [cmd, bad, why] of cases) {
      const withBad = [...rows.slice(0, 3), bad, rows[3], bad.replace('1780320601500', '1780320602500')].join('\n')
      const clean = await run([cmd, '--tick-size', '0.25', '--format', 'json'], rows.join('\n'))
      const skipped = await run([cmd, '--tick-size', '0.25', '--format', 'json', '--skip-bad'], withBad)
      expect(skipped.code).toBe(0)
      expect(skipped.stderr).toContain('skipped 2 bad rows')
      expect(skipped.stderr).toContain('read 3 trades')
      expect(JSON.parse(skipped.stdout)).toEqual(JSON.parse(clean.stdout))
      const stop = await run([cmd, '--tick-size', '0.25', '--format', 'json'], withBad)
      expect(stop.code).toBe(1)
      expect(stop.stderr).toContain(`line 4: `)
      expect(stop.stderr).toContain(why)
    }
  })

  it('one distinct price guesses its last decimal place as the tick (not the price itself)', async () => {
    const r = await run(
      ['footprint', '--format', 'json'],
      'time,price,volume,side\n1780320600000,5000.25,1,buy\n1780320601000,5000.25,2,sell\n',
    )
    expect(r.code).toBe(0)
    expect(r.stderr).toContain('tick size not given: using 0.01')
  })

  it('a price the guessed grid cannot hold is a bad row naming the line and the price, after the guess is stated', async () => {
    for (const cmd of ['footprint', 'tpo']) {
      const r = await run(
        [cmd, '--format', 'json'],
        'time,price,volume,side\n1780320600000,99999999999999999999999,1,buy\n',
      )
      expect(r.code).toBe(1)
      expect(r.stderr).toContain('tick size not given: using 1')
      expect(r.stderr).toMatch(/line 2: price: "?99999999999999999999999/)
    }
  })

  it('a first row naming no known column is data, not a header: a corrupted first time is a bad row (--skip-bad skips it)', async () => {
    const input = 'x1780320600000,5000,1,buy\n1780320601000,5000,1,buy\n'
    const skipped = await run(['candles', '--format', 'json', '--skip-bad'], input)
    expect(skipped.code).toBe(0)
    expect(skipped.stderr).toContain('skipped 1 bad row')
    expect(JSON.parse(skipped.stdout)).toHaveLength(1)
    const stop = await run(['candles', '--format', 'json'], input)
    expect(stop.code).toBe(1)
    expect(stop.stderr).toContain('line 1: time')
    const typo = await run(['candles', '--format', 'json'], 'tmie,price,volume,side\n1780320601000,5000,1,buy\n')
    expect(typo.code).toBe(1)
    expect(typo.stderr).toContain('line 1: the header has no time column')
  })

  it('a failed run leaves no output file behind (no empty SVG, no half JSON array)', async () => {
    const json = join(tmp, 'part.json')
    const unsorted =
      'time,price,volume,side\n1780320600000,5000,1,buy\n1780400600000,5000,1,buy\n1780320600000,5000,1,buy\n'
    const r = await run(['candles', '--format', 'json', '--out', json], unsorted)
    expect(r.code).toBe(1)
    expect(existsSync(json)).toBe(false)
    const svg = join(tmp, 'multi.svg')
    const two = 'time,price,volume,side\n1780320600000,5000,1,buy\n1780500600000,5000,1,buy\n'
    const m = await run(['tpo', '--tick-size', '1', '--format', 'svg', '--out', svg], two)
    expect(m.code).toBe(2)
    expect(existsSync(svg)).toBe(false)
    const ok = await run(['tpo', '--tick-size', '1', '--format', 'svg', '--last', '1', '--out', svg], two)
    expect(ok.code).toBe(0)
    expect(existsSync(svg)).toBe(true)
  })

  it('a failed run leaves an existing --out file as it was (the output is written beside it and renamed on success)', async () => {
    const json = join(tmp, 'keep.json')
    writeFileSync(json, 'earlier result\n')
    const unsorted =
      'time,price,volume,side\n1780320600000,5000,1,buy\n1780400600000,5000,1,buy\n1780320600000,5000,1,buy\n'
    const r = await run(['candles', '--format', 'json', '--out', json], unsorted)
    expect(r.code).toBe(1)
    expect(readFileSync(json, 'utf8')).toBe('earlier result\n')
    // no temporary file is left in the directory
    expect(readdirSync(tmp).filter((f) => f.endsWith('.tmp'))).toEqual([])
    const ok = await run(['candles', '--format', 'json', '--out', json], unsorted.split('\n').slice(0, 3).join('\n'))
    expect(ok.code).toBe(0)
    expect(JSON.parse(readFileSync(json, 'utf8'))).toHaveLength(2)
  })

  it('--out naming the input file is refused before anything is written (exit 2; the input is untouched)', async () => {
    const file = join(tmp, 'same.csv')
    const text = readFileSync(fixture('trades.csv'), 'utf8')
    writeFileSync(file, text)
    for (const cmd of ['candles', 'footprint', 'tpo']) {
      const r = await run([cmd, file, '--tick-size', '0.25', '--out', file])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('is the input file')
      expect(readFileSync(file, 'utf8')).toBe(text)
    }
  })

  it('a trade at the last valid instant (8.64e15 ms) renders as text and SVG too (its bucket ends past the Date range)', async () => {
    const input = 'time,price,volume,side\n8640000000000000,5000.25,1,buy\n'
    for (const args of [
      ['tpo'],
      ['footprint', '-t', '1M'],
      ['tpo', '--format', 'svg'],
      ['footprint', '--format', 'svg'],
      ['candles'],
      ['candles', '--tz', 'America/Sao_Paulo'],
    ]) {
      const r = await run([...args, '--tick-size', '0.25'], input)
      expect([args.join(' '), r.code]).toEqual([args.join(' '), 0])
    }
  })

  it('sample: option values the generator refuses are usage errors (exit 2)', async () => {
    for (const args of [
      ['--tick-size', '0.0000000000000001'],
      ['--start-price', '1000000000000000'],
      ['--trades-per-day', '99999999999999999999'],
    ]) {
      const r = await run(['sample', ...args])
      expect([args.join(' '), r.code]).toEqual([args.join(' '), 2])
    }
  })

  it('--out writes to a file', async () => {
    const out = join(tmp, 'candles.json')
    const r = await run(['candles', fixture('trades.csv'), '--format', 'json', '--out', out])
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('')
    expect((JSON.parse(readFileSync(out, 'utf8')) as unknown[]).length).toBe(3)
  })
})

describe('usage', () => {
  it('help texts say what is accepted: no 1y for TPO or footprint (refused), svg only where there is svg', async () => {
    const tpo = (await run(['tpo', '--help'])).stdout
    const fp = (await run(['footprint', '--help'])).stdout
    const candles = (await run(['candles', '--help'])).stdout
    expect(tpo).not.toMatch(/\b1y\b/)
    expect(fp).not.toMatch(/\b1y\b/)
    for (const h of [tpo, fp]) expect(h).toMatch(/--format json\|ndjson\|text\|svg +default text/)
    expect(candles).not.toContain('svg')
    for (const cmd of ['tpo', 'footprint']) {
      const r = await run([cmd, fixture('trades.csv'), '--tick-size', '0.25', '--timeframe', '1y'])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('1y')
    }
  })

  it('sample --start must be a calendar date (2026-02-29 and 2026-13-01 are not; 2028-02-29 is)', async () => {
    for (const d of ['2026-02-29', '2026-13-01', '2026-04-31']) {
      const r = await run(['sample', '--trades-per-day', '5', '--start', d])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(`--start: ${d} is not a calendar date`)
    }
    const ok = await run(['sample', '--trades-per-day', '5', '--start', '2028-02-29', '--time-format', 'iso'])
    expect(ok.code).toBe(0)
    expect(ok.stdout.split('\n')[1]).toMatch(/^2028-02-29T/)
  })

  it('sample --start: any YYYY-MM-DD is taken exactly when it is a calendar date (property, against days-in-month)', async () => {
    const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
    const daysIn = (y: number, m: number) => [31, leap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] ?? 0
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1000, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        async (y, m, d) => {
          const date = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`
          const r = await run([
            'sample',
            '--days',
            '1',
            '--trades-per-day',
            '1',
            '--start',
            date,
            '--time-format',
            'iso',
          ])
          if (m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m)) {
            expect(r.code).toBe(0)
            expect(r.stdout.split('\n')[1]?.slice(0, 10)).toBe(date)
          } else {
            expect(r.code).toBe(2)
            expect(r.stderr).toContain(`--start: ${date} is not a calendar date`)
          }
        },
      ),
      { numRuns: 150 },
    )
  })

  it('--help for the tool and for each command, exit 0', async () => {
    const main = await run(['--help'])
    expect(main.code).toBe(0)
    expect(main.stdout).toContain('Commands:')
    const version = await run(['--version'])
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/)
    for (const cmd of ['tpo', 'footprint', 'candles', 'sample', 'demo']) {
      const r = await run([cmd, '--help'])
      expect(r.code).toBe(0)
      expect(r.stdout).toContain(`svc-marketdata ${cmd}`)
    }
  })

  it('usage errors exit 2 and say what is wrong', async () => {
    const cases: [string[], string][] = [
      [['nope'], 'unknown command "nope"'],
      [['tpo', fixture('trades.csv'), '--bogus'], 'tpo has no option --bogus'],
      [['footprint', fixture('trades.csv'), '--timeframe', '60m'], '--timeframe 60m: write it as 1h'],
      [['footprint', fixture('trades.csv'), '--timeframe', '5x'], 'not a supported timeframe id'],
      [['candles', fixture('trades.csv'), '--tz', 'Mars/Base'], '--tz must be an IANA time zone'],
      [['footprint', fixture('trades.csv'), '--row-size', '2', '--row-size-value', '0.5'], 'not both'],
      [['tpo', 'a.csv', 'b.csv'], 'at most one input FILE'],
      [['candles', fixture('trades.csv'), '--format', 'svg'], '--format must be one of json, ndjson, text'],
      [['candles', fixture('trades.csv'), '--from', 'yesterday'], '--from'],
      [
        ['candles', fixture('trades.csv'), '--from', '1780322400', '--to', '1780320600'],
        '--to must be later than --from',
      ],
      [['tpo', fixture('trades.csv'), '--tick-size', '0'], '--tick-size must be a positive decimal'],
      [['tpo', fixture('trades.csv'), '--block-size', '7d'], 'blockSize'],
      [['tpo', fixture('trades.csv'), '--merge-sessions', 'maybe'], '--merge-sessions must be'],
      [['sample', '--days', 'x'], '--days must be an integer'],
    ]
    for (const [argv, message] of cases) {
      const r = await run(argv)
      expect(r.code, argv.join(' ')).toBe(2)
      expect(r.stderr, argv.join(' ')).toContain(message)
    }
  })
})

describe('sample and demo', () => {
  it('sample writes a CSV the other commands read back', async () => {
    const file = join(tmp, 'sample.csv')
    const w = await run(['sample', '--out', file, '--days', '2', '--trades-per-day', '2000', '--seed', '3'])
    expect(w.code).toBe(0)
    expect(readFileSync(file, 'utf8').split('\n')[0]).toBe('time,price,volume,side,session')
    const r = await run(['tpo', file, '--tz', 'America/New_York', '--format', 'json'])
    expect(r.code).toBe(0)
    expect(r.stderr).toContain('read 4000 trades')
    expect((JSON.parse(r.stdout) as unknown[]).length).toBe(2)
    const nd = await run([
      'sample',
      '--format',
      'ndjson',
      '--time-format',
      'ms',
      '--trades-per-day',
      '10',
      '--volume-decimals',
      '8',
    ])
    const lines = nd.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { time: number; volume: string })
    expect(lines).toHaveLength(10)
    expect(typeof lines[0]!.time).toBe('number')
  })

  it('demo prints a TPO chart, a footprint ladder, candles and the commands, and writes the SVGs', async () => {
    const dir = join(tmp, 'demo')
    const r = await run(['demo', '--out-dir', dir])
    expect(r.code).toBe(0)
    for (const s of [
      'TPO 2026-06-01 09:30 America/New_York',
      'legend: > POC',
      'Footprint 2026-06-01 10:00-11:00',
      'sell x buy',
      'resampled to 1h',
      'npx svc-marketdata tpo',
    ]) {
      expect(r.stdout).toContain(s)
    }
    for (const f of ['tpo.svg', 'footprint.svg', 'footprint-chart.svg', 'footprint-chart-60.svg', 'tpo-chart.svg']) {
      expect(xmlProblem(readFileSync(join(dir, f), 'utf8'))).toBeUndefined()
    }
    expect(readFileSync(join(dir, 'footprint-chart.svg'), 'utf8')).toContain('data-mode="text"')
    expect(readFileSync(join(dir, 'footprint-chart-60.svg'), 'utf8')).toContain('data-bars="60" data-mode="colour"')
    expect(readFileSync(join(dir, 'tpo-chart.svg'), 'utf8')).toContain('data-periods="5"')
    expect(existsSync(join(dir, 'sample.csv'))).toBe(true)
  })
})
