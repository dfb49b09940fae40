// Interface A end to end: Login / Refresh with real JWTs, ListSecurities, ListCandles, links per partner,
// token expiry under an injected clock.
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { NOW, OPS, startHarness, type Harness, type Reply } from './harness.js'

const P1 = 'partner-one-key'
const P2 = 'partner-two-key'
const AAPL_GUID = '6f1c2a10-0001-4a5e-9c1d-0000000000a1'
const ES_GUID = '6f1c2a10-0004-4a5e-9c1d-0000000000a4'
const MIN = 60_000

let h: Harness
beforeAll(async () => {
  h = await startHarness([], [P1, P2])
})
afterAll(async () => {
  await h.close()
})

function ok200(r: Reply): void {
  expect(r.status).toBe(200)
  expect(r.headers.get('content-type')).toMatch(/^application\/json/)
  expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  expect(typeof r.body.status.code).toBe('number')
  expect(typeof r.body.status.message).toBe('string')
  expect(Array.isArray(r.body.status.details)).toBe(true)
}

async function login(key = P1): Promise<{ access: string; refresh: string; body: any }> {
  const r = await h.post(OPS.login, { api_key: key })
  ok200(r)
  expect(r.body.status.code).toBe(0)
  return { access: r.body.access_token.token, refresh: r.body.refresh_token.token, body: r.body }
}

describe('Login and Refresh', () => {
  test('Login returns two signed JWTs and their expiry: access 30 minutes, refresh 30 days', async () => {
    h.setNow(NOW)
    const { access, refresh, body } = await login()
    expect(body.access_token.valid_to_time).toBe(new Date(NOW + 30 * MIN).toISOString())
    expect(body.refresh_token.valid_to_time).toBe(new Date(NOW + 30 * 86_400_000).toISOString())
    for (const t of [access, refresh]) expect(t.split('.')).toHaveLength(3)
    const claims = decodeJwt(access)
    expect(claims.exp).toBe(Math.ceil((NOW + 30 * MIN) / 1000))
    expect(claims.iat).toBe(Math.floor(NOW / 1000))
    expect(decodeJwt(refresh).typ).toBe('refresh')
  })

  test('a wrong api_key is 16 UNAUTHENTICATED, a missing one 3 INVALID_ARGUMENT; no tokens', async () => {
    h.setNow(NOW)
    const bad = await h.post(OPS.login, { api_key: 'nope' })
    ok200(bad)
    expect(bad.body.status.code).toBe(16)
    expect(bad.body.access_token).toBeUndefined()
    const missing = await h.post(OPS.login, {})
    expect(missing.body.status.code).toBe(3)
    const notJson = await h.post(OPS.login, '{"api_key":')
    ok200(notJson)
    expect(notJson.body.status.code).toBe(3)
  })

  test('the access token expires when the clock reaches valid_to_time; Refresh gives a new one', async () => {
    h.setNow(NOW)
    const { access, refresh } = await login()
    const ids = { security_ids: [{ guid: AAPL_GUID }] }
    h.setNow(NOW + 30 * MIN - 1)
    expect((await h.post(OPS.listSecurities, ids, access)).body.status.code).toBe(0)
    h.setNow(NOW + 30 * MIN)
    const expired = await h.post(OPS.listSecurities, ids, access)
    ok200(expired)
    expect(expired.body.status.code).toBe(16)
    expect(expired.body.securities).toBeUndefined()
    const r = await h.post(OPS.refresh, { refresh_token: refresh })
    ok200(r)
    expect(r.body.status.code).toBe(0)
    expect(r.body.refresh_token).toBeUndefined()
    expect(r.body.access_token.valid_to_time).toBe(new Date(NOW + 60 * MIN).toISOString())
    expect((await h.post(OPS.listSecurities, ids, r.body.access_token.token)).body.status.code).toBe(0)
    // the refresh token is not an access token and vice versa
    expect((await h.post(OPS.listSecurities, ids, refresh)).body.status.code).toBe(16)
    expect((await h.post(OPS.refresh, { refresh_token: access })).body.status.code).toBe(16)
    // the refresh token expires too
    h.setNow(NOW + 30 * 86_400_000)
    expect((await h.post(OPS.refresh, { refresh_token: refresh })).body.status.code).toBe(16)
  })

  test('operations other than Login and Refresh need a valid accesstoken header', async () => {
    h.setNow(NOW)
    const { access } = await login()
    const forged = `${access.slice(0, -4)}AAAA`
    for (const op of [OPS.listSecurities, OPS.listCandles, OPS.link, OPS.unlink, OPS.getLinked]) {
      for (const token of [undefined, '', 'not.a.jwt', forged]) {
        const r = await h.post(op, { security_guid: ES_GUID }, token)
        ok200(r)
        expect(r.body.status.code).toBe(16)
      }
    }
  })

  test('unknown operations are 404, GET is 405, a non-JSON content type is 3', async () => {
    const r = await fetch(`${h.partner}svc.partner.external.auth.v1.AuthApi.Nope`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    })
    expect(r.status).toBe(404)
    expect(r.headers.get('x-request-id')).toBeTruthy()
    const g = await fetch(`${h.partner}${OPS.login}`)
    expect(g.status).toBe(405)
    expect(g.headers.get('allow')).toBe('POST') // a 405 names the methods the resource takes (RFC 9110)
    const t = await fetch(`${h.partner}${OPS.login}`, {
      method: 'POST',
      body: JSON.stringify({ api_key: P1 }),
      headers: { 'content-type': 'text/plain' },
    })
    expect(((await t.json()) as { status: { code: number } }).status.code).toBe(3)
  })
})

describe('ListSecurities', () => {
  test('one item per id, in order, guid and ticker mixed; not found is 5 NOT_FOUND without security_info', async () => {
    h.setNow(NOW)
    const { access } = await login()
    const ids = [
      { guid: AAPL_GUID },
      { ticker_code: { ticker: 'ES', exchange_code: 'CME' } },
      { guid: 'no-such-guid' },
      { ticker_code: { ticker: 'ES', exchange_code: 'NASDAQ' } },
      { guid: 'x', ticker_code: { ticker: 'ES', exchange_code: 'CME' } },
    ]
    const r = await h.post(OPS.listSecurities, { security_ids: ids }, access)
    ok200(r)
    expect(r.body.status.code).toBe(0)
    const items = r.body.securities
    expect(items.map((i: { status: { code: number } }) => i.status.code)).toEqual([0, 0, 5, 5, 3])
    expect(items.map((i: { security_id: unknown }) => i.security_id)).toEqual(ids)
    expect(items[2].status.message).toBe('NOT_FOUND')
    expect(items[2].security_info).toBeUndefined()
    const aapl = items[0].security_info
    expect(aapl).toMatchObject({
      ticker: 'AAPL',
      exchange_code: 'NASDAQ',
      isin: 'US0378331005',
      status: 1,
      price_precision: 2,
      guid: AAPL_GUID,
    })
    expect(aapl.tick_size).toEqual({ value: '1', scale: '100' })
    expect(items[1].security_info.tick_size).toEqual({ value: '25', scale: '100' })
    expect(items[1].security_info.guid).toBe(ES_GUID)
    const empty = await h.post(OPS.listSecurities, { security_ids: [] }, access)
    expect(empty.body.status.code).toBe(3)
  })
})

describe('ListCandles', () => {
  test('resampled candles in Decimal shape: custom 90-minute frame, bounds', async () => {
    h.setNow(NOW)
    const { access } = await login()
    const body = {
      security_id: { ticker_code: { ticker: 'ES', exchange_code: 'CME' } },
      time_frame: { time_unit: 'MINUTE', count: 90 },
      range: { first_bound_time: '2026-08-19T18:00:00Z', second_bound_time: '2026-08-19T12:00:00Z' },
    }
    const r = await h.post(OPS.listCandles, body, access)
    ok200(r)
    expect(r.body.status.code).toBe(0)
    const c = r.body.candles
    // America/Chicago (UTC-5): 90-minute buckets from local midnight 05:00Z; those starting in [12:00, 18:00)
    expect(c.map((k: { time: string }) => k.time)).toEqual(
      ['12:30', '14:00', '15:30', '17:00'].map((t) => `2026-08-19T${t}:00.000Z`),
    )
    for (const k of c) {
      for (const f of ['open', 'high', 'low', 'close', 'volume']) {
        expect(k[f].value).toMatch(/^-?\d+$/)
        expect(k[f].scale).toMatch(/^10*$/)
      }
      expect([0, 1, 2]).toContain(k.session_type)
    }
  })

  test('a range start inside a bucket: only candles whose time lies in [from, to), each whole', async () => {
    h.setNow(NOW)
    const { access } = await login()
    const es = { ticker_code: { ticker: 'ES', exchange_code: 'CME' } }
    const ask = async (range: Record<string, unknown>) =>
      (await h.post(OPS.listCandles, { security_id: es, time_frame: { time_unit: 'HOUR' }, range }, access)).body
        .candles as Array<{ time: string; volume: unknown }>
    const bounds = await ask({ first_bound_time: '2026-08-19T10:30:00Z', second_bound_time: '2026-08-19T12:30:00Z' })
    expect(bounds.map((k) => k.time)).toEqual(['2026-08-19T11:00:00.000Z', '2026-08-19T12:00:00.000Z'])
    const counted = await ask({ first_bound_time: '2026-08-19T10:30:00Z', count: 3 })
    expect(counted.map((k) => k.time)).toEqual(['11:00', '12:00', '13:00'].map((t) => `2026-08-19T${t}:00.000Z`))
    // returned whole: the 12:00 candle of a range ending at 12:30 equals the one of the aligned range
    const aligned = await ask({ first_bound_time: '2026-08-19T12:00:00Z', second_bound_time: '2026-08-19T13:00:00Z' })
    expect(bounds[1]).toEqual(aligned[0])
    const back = await ask({ first_bound_time: '2026-08-19T10:30:00Z', count: -2 })
    expect(back.map((k) => k.time)).toEqual(['2026-08-19T09:00:00.000Z', '2026-08-19T10:00:00.000Z'])
  })

  test('count backwards, properties and session_types; errors are status 3 and 5', async () => {
    h.setNow(NOW)
    const { access } = await login()
    const r = await h.post(
      OPS.listCandles,
      {
        security_id: { guid: AAPL_GUID },
        time_frame: { time_unit: 'HOUR' },
        range: { first_bound_time: '2026-08-19T20:00:00Z', count: -4 },
        properties: ['CLOSE', 'VOLUME'],
        session_types: ['MAINSESSION'],
      },
      access,
    )
    ok200(r)
    expect(r.body.status.code).toBe(0)
    expect(r.body.candles).toHaveLength(4)
    for (const k of r.body.candles) expect(Object.keys(k).sort()).toEqual(['close', 'time', 'volume'])
    expect(Date.parse(r.body.candles[3].time)).toBeLessThan(Date.UTC(2026, 7, 19, 20))
    const bad = await h.post(
      OPS.listCandles,
      {
        security_id: { guid: AAPL_GUID },
        time_frame: { time_unit: 'MINUTE', count: 0 },
        range: { first_bound_time: '2026-08-19T20:00:00Z', count: 5 },
      },
      access,
    )
    expect(bad.body.status.code).toBe(3)
    expect(bad.body.status.message).toMatch(/count/)
    const unknown = await h.post(
      OPS.listCandles,
      {
        security_id: { guid: 'nope' },
        time_frame: { time_unit: 'DAY' },
        range: { first_bound_time: '2026-08-19T20:00:00Z', count: 5 },
      },
      access,
    )
    expect(unknown.body.status.code).toBe(5)
  })
})

describe('links', () => {
  test('link, overwrite, read, unlink; unlinked reads and unlinks are 5; links are per partner', async () => {
    h.setNow(NOW)
    const one = (await login(P1)).access
    const two = (await login(P2)).access
    const get = (t: string) => h.post(OPS.getLinked, { security_guid: ES_GUID }, t)
    expect((await get(one)).body.status.code).toBe(5)
    const linked = await h.post(OPS.link, { security_guid: ES_GUID, partner_security_id: 'ES-1' }, one)
    ok200(linked)
    expect(linked.body.status.code).toBe(0)
    expect((await get(one)).body.linked_security).toEqual({ security_guid: ES_GUID, partner_security_id: 'ES-1' })
    expect((await get(two)).body.status.code).toBe(5)
    expect(
      (await h.post(OPS.link, { security_guid: ES_GUID, partner_security_id: 'ES-2' }, one)).body.status.code,
    ).toBe(0)
    expect((await get(one)).body.linked_security.partner_security_id).toBe('ES-2')
    expect(
      (await h.post(OPS.link, { security_guid: ES_GUID, partner_security_id: 'mine' }, two)).body.status.code,
    ).toBe(0)
    expect((await get(two)).body.linked_security.partner_security_id).toBe('mine')
    expect((await get(one)).body.linked_security.partner_security_id).toBe('ES-2')
    const un = await h.post(OPS.unlink, { security_guid: ES_GUID }, one)
    expect(un.body.status.code).toBe(0)
    expect((await get(one)).body.status.code).toBe(5)
    expect((await h.post(OPS.unlink, { security_guid: ES_GUID }, one)).body.status.code).toBe(5)
    expect((await get(two)).body.linked_security.partner_security_id).toBe('mine')
    const invalid = await h.post(OPS.link, { security_guid: ES_GUID }, one)
    expect(invalid.body.status.code).toBe(3)
    expect((await get(one)).body.status.code).toBe(5)
  })
})

describe('content type and body size', () => {
  const send = (contentType: string, body: string): Promise<{ status: number; body: any }> =>
    fetch(`${h.partner}${OPS.login}`, { method: 'POST', body, headers: { 'content-type': contentType } }).then(
      async (r) => ({ status: r.status, body: await r.json() }),
    )

  test('Content-Type must be application/json (media types are case-insensitive; parameters allowed)', async () => {
    h.setNow(NOW)
    const body = JSON.stringify({ api_key: P1 })
    for (const t of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON',
      'APPLICATION/JSON;charset=UTF-8',
    ]) {
      const r = await send(t, body)
      expect(r.status, t).toBe(200)
      expect(r.body.status.code, t).toBe(0)
    }
    for (const t of [
      'application/jsonp',
      'text/plain; x=application/json',
      'text/application/json',
      'application/x-www-form-urlencoded',
      'application/json-seq',
      'application/json-patch+json',
      'application/json.x',
    ]) {
      const r = await send(t, body)
      expect(r.status, t).toBe(200)
      expect(r.body.status.code, t).toBe(3)
      expect(r.body.access_token, t).toBeUndefined()
    }
  })

  test('a large JSON body is read whole; a body of many megabytes is refused with HTTP 413 and status 3, never a 500', async () => {
    h.setNow(NOW)
    const big = await send('application/json', JSON.stringify({ api_key: P1, padding: 'x'.repeat(200_000) }))
    expect(big.status).toBe(200)
    expect(big.body.status.code).toBe(0)
    const huge = await send('application/json', JSON.stringify({ api_key: P1, padding: 'x'.repeat(8 * 1024 * 1024) }))
    expect(huge.status).toBe(413)
    expect(huge.body.status.code).toBe(3)
    expect(huge.body.access_token).toBeUndefined()
  })
})
