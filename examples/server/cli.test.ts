// The command line: `node examples/server ...` on plain Node (the launcher registers tsx), port 0, pinned clock.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { serverProcesses } from './spawn.js'

const servers = serverProcesses('svc-server-cli-')
const tmp = servers.tmp
afterAll(() => servers.cleanup())

/**
 * Starts `node examples/server args` (state in memory: restart.test.ts covers the database) and resolves with
 * everything it printed once the curl examples are out.
 */
const start = (args: string[]): Promise<{ lines: string[]; url: string }> =>
  servers.start([...args, '--memory'], { ...process.env, TZ: 'America/Sao_Paulo' })

const REST = '/api/v1/marketdata'

/** Runs `node examples/server args` expecting it to stop at start-up; resolves with its exit code and output. */
const fail = (args: string[]): Promise<{ code: number | null; out: string; err: string }> =>
  servers.fail([...args, '--memory'])

test.concurrent('a --tick-size that is not a decimal > 0 stops the server at start-up with a message naming it', async () => {
  const file = join(tmp, 'badtick.csv')
  writeFileSync(file, 'time,price,volume,side\n2026-06-19T13:30:00Z,5000.25,2,buy\n')
  const runs = await Promise.all(
    [
      ['0', true],
      ['-0.25', true],
      ['abc', false],
      ['1e-2', false],
    ].map(([tick, withFile]) =>
      fail([
        '--port',
        '0',
        '--now',
        '2026-06-20T15:00:10Z',
        '--trades-per-day',
        '0',
        ...(withFile ? ['--trades', file] : []),
        '--tick-size',
        tick as string,
      ]),
    ),
  )
  for (const [i, tick] of ['0', '-0.25', 'abc', '1e-2'].entries()) {
    const r = runs[i]!
    expect(r.code).toBe(1)
    expect(r.err).toContain(`--tick-size: "${tick}" must be a decimal greater than 0`)
    expect(r.out).not.toContain('listening on')
  }
})

test.concurrent('given keys and a pinned clock: first line is the address, then the curl examples; both interfaces answer', async () => {
  const { lines, url } = await start([
    '--port',
    '0',
    '--now',
    '2026-06-20T15:00:10Z',
    '--api-key',
    'cli-key',
    '--api-key',
    'cli-key-2',
    '--partner-key',
    'cli-partner',
  ])
  expect(Number(new URL(url).port)).toBeGreaterThan(0)
  expect(lines.some((l) => l.includes(`curl -si -H 'x-api-key: cli-key' '${url}${REST}/exchanges'`))).toBe(true)
  const ex = await fetch(`${url}${REST}/exchanges`, { headers: { 'x-api-key': 'cli-key' } })
  expect(ex.status).toBe(200)
  expect(ex.headers.get('x-ratelimit-remaining')).toBe('99000')
  // the clock is pinned: the window, and so the reset, is that of --now
  expect(ex.headers.get('x-ratelimit-reset')).toBe(String(Date.UTC(2026, 5, 20, 15, 1) / 1000))
  const two = await fetch(`${url}${REST}/exchanges`, { headers: { 'x-api-key': 'cli-key-2' } })
  expect(two.headers.get('x-ratelimit-remaining')).toBe('98000')
  expect((await fetch(`${url}${REST}/exchanges`)).status).toBe(401)
  const c = await fetch(`${url}${REST}/candles?exchange=TSE&symbol=7203&timeframe=1d&limit=100`, {
    headers: { 'x-api-key': 'cli-key' },
  })
  const body = (await c.json()) as { candles: Array<{ time: string }> }
  // 60 days of data ending at --now, one daily candle per day (Tokyo days)
  expect(body.candles).toHaveLength(60)
  expect(Date.parse(body.candles.at(-1)!.time)).toBeLessThan(Date.UTC(2026, 5, 20, 15, 0, 10))
  const login = await fetch(`${url}/partner/svc.partner.external.auth.v1.AuthApi.Login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: 'cli-partner' }),
  })
  const tokens = (await login.json()) as { status: { code: number }; access_token: { valid_to_time: string } }
  expect(tokens.status.code).toBe(0)
  expect(tokens.access_token.valid_to_time).toBe('2026-06-20T15:30:10.000Z')
})

test.concurrent('without keys it prints generated ones; --trades loads a CSV file as a LOCAL security', async () => {
  const file = join(tmp, 'mytrades.csv')
  writeFileSync(
    file,
    [
      'time,price,volume,side,session',
      '2026-06-19T13:30:00Z,5000.25,2,buy,MAINSESSION',
      '2026-06-19T13:30:30Z,5001.00,1,sell,MAINSESSION',
      '2026-06-19T13:31:10Z,4999.75,3,sell,',
      '2026-06-19T13:40:00Z,5000.50,0.5,buy,POST_MARKET',
    ].join('\n'),
  )
  const { lines, url } = await start([
    '--port',
    '0',
    '--now',
    '2026-06-20T15:00:10Z',
    '--trades',
    file,
    '--tick-size',
    '0.25',
    '--trades-per-day',
    '300',
  ])
  const keyLine = lines.find((l) => l.startsWith('api keys:'))!
  expect(keyLine).toMatch(/\(generated\)/)
  const key = /api keys:\s+(\S+)/.exec(keyLine)![1]!
  expect(lines.find((l) => l.startsWith('partner keys:'))).toMatch(/\(generated\)/)
  const spec = await fetch(`${url}${REST}/exchanges/LOCAL/securities/MYTRADES`, { headers: { 'x-api-key': key } })
  expect(spec.status).toBe(200)
  expect(await spec.json()).toMatchObject({ symbol: 'MYTRADES', tickSize: '0.25', pricePrecision: 2 })
  const c = await fetch(`${url}${REST}/candles?exchange=LOCAL&symbol=MYTRADES&timeframe=1m`, {
    headers: { 'x-api-key': key },
  })
  const body = (await c.json()) as { candles: Array<{ time: string; open: string; close: string; volume: string }> }
  expect(body.candles.map((k) => [k.time, k.open, k.close, k.volume])).toEqual([
    ['2026-06-19T13:30:00.000Z', '5000.25', '5001.00', '3'],
    ['2026-06-19T13:31:00.000Z', '4999.75', '4999.75', '3'],
    ['2026-06-19T13:40:00.000Z', '5000.50', '5000.50', '0.5'],
  ])
})
