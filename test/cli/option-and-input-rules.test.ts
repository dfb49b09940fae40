import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import { main } from '../../src/cli/main.js'
import { fixture, run } from './helpers.js'

const tmp = mkdtempSync(join(tmpdir(), 'svc-cli-rules-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const T1330 = Date.UTC(2026, 5, 1, 13, 30)

describe('option boundaries (README: Options)', () => {
  it('--to equal to --from is refused: --to must be later than --from (exit 2)', async () => {
    const r = await run(['candles', fixture('trades.csv'), '--from', '1780320600', '--to', '1780320600'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--to must be later than --from')
  })

  it('--value-area takes a percent in (0, 100]: 100 is accepted, 0 and 100.5 are not', async () => {
    const ok = await run(['tpo', fixture('trades.csv'), '--value-area', '100', '--format', 'json'])
    expect(ok.code).toBe(0)
    expect((JSON.parse(ok.stdout) as { valueAreaPercent: number }[])[0]!.valueAreaPercent).toBe(100)
    for (const bad of ['0', '100.5']) {
      const r = await run(['tpo', fixture('trades.csv'), '--value-area', bad])
      expect(r.code, bad).toBe(2)
      expect(r.stderr, bad).toContain('--value-area must be a percent')
    }
  })

  it('--row-size and --last are counts from 1: 0 is a usage error naming the option', async () => {
    const rs = await run(['footprint', fixture('trades.csv'), '--row-size', '0'])
    expect(rs.code).toBe(2)
    expect(rs.stderr).toContain('--row-size must be an integer 1..')
    const last = await run(['candles', fixture('trades.csv'), '--last', '0'])
    expect(last.code).toBe(2)
    expect(last.stderr).toContain('--last must be an integer 1..')
  })

  it('footprint refuses year buckets as usage errors (help: minute..month)', async () => {
    for (const tf of ['1y']) {
      const r = await run(['footprint', fixture('trades.csv'), '--timeframe', tf])
      expect(r.code, tf).toBe(2)
      expect(r.stderr, tf).toContain('--timeframe: footprint buckets are')
    }
  })

  it('--merge-sessions true is MERGE_ALL and false is GROUP_BY_TYPE', async () => {
    const csv = [
      'time,price,volume,side,session',
      '1780317000000,5000.00,1,buy,PRE_MARKET',
      '1780320600000,5000.25,2,buy,MAINSESSION',
      '',
    ].join('\n')
    const count = async (m: string) => {
      const r = await run(['tpo', '--format', 'json', '--merge-sessions', m], csv)
      expect(r.code, m).toBe(0)
      return (JSON.parse(r.stdout) as unknown[]).length
    }
    expect(await count('true')).toBe(await count('MERGE_ALL'))
    expect(await count('true')).toBe(1)
    expect(await count('false')).toBe(await count('GROUP_BY_TYPE'))
    expect(await count('false')).toBe(2)
  })
})

describe('main', () => {
  it("`help <command>` prints that command's help", async () => {
    for (const cmd of ['tpo', 'footprint', 'candles', 'sample', 'demo']) {
      const direct = await run([cmd, '--help'])
      const r = await run(['help', cmd])
      expect(r.code).toBe(0)
      expect(r.stdout).toBe(direct.stdout)
      expect(r.stdout).toContain(`svc-marketdata ${cmd}`)
    }
  })

  it('no FILE and a terminal on stdin is a usage error (exit 2), not a hang', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true })
    const stdout = new PassThrough()
    const stderr = new PassThrough()
    const err: Buffer[] = []
    stderr.on('data', (b: Buffer) => err.push(b))
    const code = await Promise.race([
      main(['candles'], { stdin, stdout, stderr, stderrIsTTY: false }),
      new Promise<number>((r) => setTimeout(() => r(-1), 2000)),
    ])
    stdin.end()
    expect(code).toBe(2)
    expect(Buffer.concat(err).toString('utf8')).toContain('no input')
  })
})

describe('input rules (README: Input)', () => {
  it('a .json file is NDJSON by its extension: a CSV line in it is a bad row', async () => {
    const file = join(tmp, 'trades.json')
    writeFileSync(file, '1780320600000,5000.25,2,buy\n')
    const r = await run(['candles', file, '--format', 'json'])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('line 1: not a JSON object')
  })

  it('a bad first data row (line 1, no header) also suggests --skip-bad', async () => {
    const r = await run(['candles'], '1780320600000,abc,2,buy\n')
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('line 1:')
    expect(r.stderr).toContain('(use --skip-bad to skip bad rows)')
  })

  it('rows in non-decreasing time: equal times are fine', async () => {
    const r = await run(['candles', '--format', 'json'], '1780320600000,5000.25,2,buy\n1780320600000,5000.50,1,sell\n')
    expect(r.code).toBe(0)
    const c = JSON.parse(r.stdout) as { time: number; trades: number }[]
    expect(c).toHaveLength(1)
    expect(c[0]!.trades).toBe(2)
  })

  it('whole numbers from 10^11 up are milliseconds (CSV text and NDJSON numbers), smaller ones seconds', async () => {
    const csv = await run(['candles', '--timeframe', '1t', '--format', 'json'], '100000000000,5,1,buy\n')
    expect(csv.code).toBe(0)
    expect(csv.stderr).toContain('epoch milliseconds')
    expect((JSON.parse(csv.stdout) as { time: number }[])[0]!.time).toBe(1e11)
    const nd = await run(
      ['candles', '--timeframe', '1t', '--format', 'json'],
      '{"time":100000000000,"price":"5","volume":"1","side":"buy"}\n',
    )
    expect(nd.code).toBe(0)
    expect(nd.stderr).toContain('epoch milliseconds')
    expect((JSON.parse(nd.stdout) as { time: number }[])[0]!.time).toBe(1e11)
    const s = await run(['candles', '--format', 'json'], '99999999999,5,1,buy\n')
    expect(s.stderr).toContain('epoch seconds')
  })

  it('epoch seconds with decimals are read to the millisecond (1780320600.5 is ...600500 ms)', async () => {
    const r = await run(
      ['candles', '--timeframe', '1t', '--format', 'json'],
      '1780320600.5,5000.25,2,buy\n1780320600.25,5000.50,1,sell\n',
    )
    expect(r.code, r.stderr).toBe(1) // .25 s = 250 ms is earlier than 500 ms
    const ok = await run(
      ['candles', '--timeframe', '1t', '--format', 'json'],
      '1780320600.05,5000.25,2,buy\n1780320600.5,5000.50,1,sell\n',
    )
    expect(ok.code, ok.stderr).toBe(0)
    expect((JSON.parse(ok.stdout) as { time: number }[]).map((c) => c.time)).toEqual([T1330 + 50, T1330 + 500])
  })

  it('side 1/2 and b/s mean buy/sell', async () => {
    const r = await run(
      ['footprint', '--format', 'json', '--tick-size', '0.25'],
      '1780320600000,5000.25,2,1\n1780320601000,5000.25,3,b\n1780320602000,5000.25,7,2\n',
    )
    expect(r.code, r.stderr).toBe(0)
    const p = (JSON.parse(r.stdout) as { volumeBuy: string; volumeSell: string }[])[0]!
    expect(p.volumeBuy).toBe('5')
    expect(p.volumeSell).toBe('7')
  })

  it('an empty session (bare or as "") is none; NDJSON volume 0 and exponent numbers are decimals', async () => {
    const csv = await run(
      ['candles', '--format', 'json'],
      '1780320600000,5000.25,2,buy,\n1780320601000,5000.25,1,sell,""\n',
    )
    expect(csv.code, csv.stderr).toBe(0)
    expect((JSON.parse(csv.stdout) as { volume: string }[])[0]!.volume).toBe('3')
    const nd = await run(
      ['candles', '--format', 'json'],
      '{"time":1780320600000,"price":5000.25,"volume":0,"side":"buy"}\n{"time":1780320601000,"price":5000.25,"volume":1.5e-1,"side":"sell"}\n',
    )
    expect(nd.code, nd.stderr).toBe(0)
    expect((JSON.parse(nd.stdout) as { volume: string }[])[0]!.volume).toBe('0.15')
  })
})
