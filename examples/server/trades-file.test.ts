// Loading trades files: the tick size of a file security is checked when it is added, not when it is first used.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { defaultCatalog } from './catalog.js'
import { addFileSecurity, checkTickSize, readTradesFile } from './trades-file.js'

const tmp = mkdtempSync(join(tmpdir(), 'svc-server-trades-file-'))
const file = join(tmp, 'ticks.csv')
writeFileSync(file, 'time,price,volume,side\n1781876400000,5000.25,1,buy\n')
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

test('addFileSecurity throws naming tickSize on a tick size that is not a decimal > 0, and leaves the catalog alone', () => {
  for (const tick of ['0', '-0.25', '0.00', '-0', '', 'abc', '1e-2', '+0.25', ' 0.25', '0.25.1', '4503599627370496']) {
    const catalog = defaultCatalog()
    const before = JSON.stringify(catalog)
    expect(() => addFileSecurity(catalog, file, tick, 0), tick).toThrow(/^tickSize: /)
    expect(JSON.stringify(catalog)).toBe(before)
  }
})

test('addFileSecurity accepts a positive decimal tick size and keeps it as given', () => {
  for (const [tick, decimals] of [
    ['0.25', 2],
    ['0.10', 1],
    ['1', 0],
    ['0.0001', 4],
    ['5', 0],
  ] as const) {
    const catalog = defaultCatalog()
    const s = addFileSecurity(catalog, file, tick, 0)
    expect(s).toMatchObject({ symbol: 'TICKS', tickSize: tick, pricePrecision: decimals })
  }
})

test('checkTickSize names the option it is given', () => {
  expect(checkTickSize('-0.25', '--tick-size')).toEqual({
    ok: false,
    error: '--tick-size: "-0.25" must be a decimal greater than 0 (e.g. 0.25)',
  })
  expect(checkTickSize('0.25', '--tick-size')).toEqual({ ok: true, decimals: 2 })
})

test("two --trades files with the same base name are refused (the second would share the first one's symbol)", () => {
  const a = join(tmp, 'same.csv')
  const sub = mkdtempSync(join(tmp, 'sub-'))
  const b = join(sub, 'same.csv')
  for (const f of [a, b]) writeFileSync(f, 'time,price,volume,side\n1780320600000,5000.25,1,buy\n')
  const catalog = defaultCatalog()
  addFileSecurity(catalog, a, '0.25', 0)
  expect(() => addFileSecurity(catalog, b, '0.25', 1)).toThrow(
    /--trades: .*same\.csv would be security LOCAL\/SAME, which same\.csv already is/,
  )
  // a different name is fine
  const c = join(sub, 'other.csv')
  writeFileSync(c, 'time,price,volume,side\n1780320600000,5000.25,1,buy\n')
  expect(addFileSecurity(catalog, c, '0.25', 2).symbol).toBe('OTHER')
})

test('readTradesFile: the one reader; rows come back sorted by time, ties in file order', async () => {
  const f = join(tmp, 'unsorted.csv')
  writeFileSync(
    f,
    [
      'time,price,volume,side',
      '2026-06-01T14:00:00Z,101,1,buy',
      '2026-06-01T14:00:00.000+00:00,102,2,sell', // the same instant: after the row above
      '2026-06-01 12:00:00Z,99,3,buy',
      '2026-06-01T13:00:00Z,100,4,sell',
      '',
    ].join('\n'),
  )
  const c = await readTradesFile(f)
  expect(Array.from(c.time)).toEqual([
    Date.UTC(2026, 5, 1, 12),
    Date.UTC(2026, 5, 1, 13),
    Date.UTC(2026, 5, 1, 14),
    Date.UTC(2026, 5, 1, 14),
  ])
  expect(Array.from(c.price)).toEqual([99, 100, 101, 102])
  expect(Array.from(c.volume)).toEqual([3, 4, 1, 2])
})

test('readTradesFile: the session column is optional per row (an empty cell is the default session)', async () => {
  const f = join(tmp, 'sessions.csv')
  writeFileSync(
    f,
    'time,price,volume,side,session\n1000,1.5,2,buy,\n2000,1.25,1,sell,PRE_MARKET\n3000,1.5,1,buy,MAINSESSION\n',
  )
  const c = await readTradesFile(f, { timeUnit: 'ms' })
  expect(Array.from(c.time)).toEqual([1000, 2000, 3000])
  const s = Array.from(c.session!)
  // the empty cell reads like MAINSESSION, PRE_MARKET differs
  expect(s[0]).toBe(s[2])
  expect(s[1]).not.toBe(s[0])
})

test('readTradesFile reads what the command line reads (amount, is_buyer_maker, time_ms) and names the option on an error', async () => {
  const f = join(tmp, 'binance.csv')
  writeFileSync(f, 'time_ms,price,amount,is_buyer_maker\n1572964200123,9310.5,0.015,true\n')
  const c = await readTradesFile(f)
  expect([c.time[0], c.price[0], c.volume[0], c.side[0]]).toEqual([1572964200123, 9310.5, 0.015, 2])
  const g = join(tmp, 'local.csv')
  writeFileSync(g, 'time,price,volume,side\n2019-11-05 09:30:00,1,1,buy\n')
  await expect(readTradesFile(g)).rejects.toThrow(/--trades .*local\.csv: line 2: time .* has no offset .*--input-zone/)
  expect((await readTradesFile(g, { inputZone: 'America/New_York' })).time[0]).toBe(Date.UTC(2019, 10, 5, 14, 30))
})
