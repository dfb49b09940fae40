// A user's own history over HTTP: a 2019 trades file (pandas' datetime text, gzipped, New York sessions) is read
// through the one reader and answered for footprint and TPO, its data floor the file's first trade (said in the
// banner); with --data-floor after it, the answer is empty and its body says why.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, expect, test } from 'vitest'
import { sampleTrades } from '../../src/sample/index.js'
import { SESSION_NAMES } from '../../src/index.js'
import { sharedContract } from './contract.js'
import { serverProcesses } from './spawn.js'

const servers = serverProcesses('svc-server-history-')
afterAll(() => servers.cleanup())
const REST = '/api/v1/marketdata'

/** Two 2019 trading days, written as pandas writes a DataFrame (index column, `2019-11-04 09:30:00.123000+00:00`). */
function writeHistory(): string {
  const c = sampleTrades({ start: Date.UTC(2019, 10, 4), days: 2, tradesPerDay: 2000, tickSize: '0.25' })
  const lines = [',timestamp,price,size,side,session']
  for (let i = 0; i < c.time.length; i++) {
    const t = new Date(c.time[i]!).toISOString().replace('T', ' ').replace('Z', '000+00:00')
    lines.push(
      `${i},${t},${c.price[i]},${c.volume[i]},${c.side[i] === 1 ? 'buy' : 'sell'},${SESSION_NAMES[c.session![i]!]}`,
    )
  }
  const file = join(servers.tmp, 'es-2019.csv.gz')
  writeFileSync(file, gzipSync(lines.join('\n')))
  return file
}

/** The top-level fields of a body that its response schema in the OpenAPI document does not declare. */
function undeclared(schema: 'FootprintResponse' | 'TpoResponse', body: object): string[] {
  const schemas = (sharedContract().document.components as { schemas: Record<string, { properties: object }> }).schemas
  return Object.keys(body).filter((k) => !Object.hasOwn(schemas[schema]!.properties, k))
}

const get = async (url: string, key: string) => {
  const r = await fetch(url, { headers: { 'x-api-key': key } })
  return {
    status: r.status,
    body: (await r.json()) as { profiles: { time: string; profileStart?: string }[]; note?: string },
  }
}

test('the server answers footprint and TPO for a 2019 file; its floor is the first trade, and a later --data-floor is said in the body', async () => {
  const file = writeHistory()
  const base = ['--port', '0', '--memory', '--trades', file, '--tick-size', '0.25', '--trades-per-day', '50']
  const a = await servers.start([...base, '--api-key', 'k1'])
  expect(a.lines.some((l) => l.startsWith('data floor:   2026-05-29T00:00:00.000Z'))).toBe(true)
  expect(a.lines.some((l) => /LOCAL\/ES-2019: 2019-11-04T\d\d:\d\d:\d\d\.\d{3}Z \(its first trade\)/.test(l))).toBe(
    true,
  )
  const range = 'from=2019-11-04T00:00:00Z&to=2019-11-06T00:00:00Z'
  const fp = await get(`${a.url}${REST}/footprint?exchange=LOCAL&symbol=ES-2019&timeframe=1h&${range}`, 'k1')
  expect(fp.status).toBe(200)
  expect(fp.body.profiles.length).toBeGreaterThan(20)
  expect(fp.body.profiles[0]!.time.startsWith('2019-11-04')).toBe(true)
  expect(fp.body.note).toBeUndefined()
  const tpo = await get(`${a.url}${REST}/tpo?exchange=LOCAL&symbol=ES-2019&timeframe=1d&${range}`, 'k1')
  expect(tpo.status).toBe(200)
  expect(tpo.body.profiles.map((p) => p.time.slice(0, 10))).toEqual(['2019-11-04', '2019-11-05'])

  const b = await servers.start([...base, '--api-key', 'k2', '--data-floor', '2020-01-01T00:00:00Z'])
  expect(b.lines.some((l) => l.startsWith('data floor:   2020-01-01T00:00:00.000Z (--data-floor'))).toBe(true)
  const empty = await get(`${b.url}${REST}/tpo?exchange=LOCAL&symbol=ES-2019&timeframe=1d&${range}`, 'k2')
  expect(empty.status).toBe(200)
  expect(empty.body.profiles).toEqual([])
  expect(empty.body.note).toMatch(
    /ends before 2020-01-01T00:00:00.000Z, the data floor of this security .*--data-floor/,
  )
  // the document declares the note where the server sends it, and the emptied answers keep to it
  expect(sharedContract().validate('TpoResponse', empty.body)).toEqual([])
  expect(undeclared('TpoResponse', empty.body)).toEqual([])
  const emptyFp = await get(`${b.url}${REST}/footprint?exchange=LOCAL&symbol=ES-2019&timeframe=1h&${range}`, 'k2')
  expect(emptyFp.status).toBe(200)
  expect(emptyFp.body.profiles).toEqual([])
  expect(emptyFp.body.note).toMatch(/^no profiles: the range ends before /)
  expect(sharedContract().validate('FootprintResponse', emptyFp.body)).toEqual([])
  expect(undeclared('FootprintResponse', emptyFp.body)).toEqual([])
}, 120_000)
