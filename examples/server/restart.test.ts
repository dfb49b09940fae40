// Durable state: the server process is killed with SIGKILL in the middle of a load and restarted on the same
// data directory (the embedded PGlite database). Credits used, the lock-out, partner links and tokens are as
// the answers before the kill left them: every answer a client saw was committed first (none lost), and
// nothing beyond the requests in flight at the kill was charged (no credit granted twice).
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { serverProcesses, type ServerProcess } from './spawn.js'

const REST = '/api/v1/marketdata'
const OP = {
  login: 'svc.partner.external.auth.v1.AuthApi.Login',
  refresh: 'svc.partner.external.auth.v1.AuthApi.Refresh',
  link: 'svc.partner.external.security.v1.LinkApi.LinkSecurity',
  unlink: 'svc.partner.external.security.v1.LinkApi.UnlinkSecurity',
  getLinked: 'svc.partner.external.security.v1.LinkApi.GetLinkedSecurity',
}
const KEY = 'restart-key'
const PARTNER = 'restart-partner'
/** 10 s into a REST window; pinned, so every start sees the same window. */
const NOW = '2026-06-20T15:00:10Z'
const RESET = String(Date.UTC(2026, 5, 20, 15, 1) / 1000)

const servers = serverProcesses('svc-server-restart-')
afterAll(() => servers.cleanup())
const dataDir = join(servers.tmp, 'data')
const start = (): Promise<ServerProcess> =>
  // the first start initialises the database (Postgres's initdb in WebAssembly): slow on a busy machine
  servers.start(
    [
      '--port',
      '0',
      '--now',
      NOW,
      '--days',
      '3',
      '--trades-per-day',
      '100',
      '--api-key',
      KEY,
      '--partner-key',
      PARTNER,
      '--data-dir',
      dataDir,
    ],
    undefined,
    150_000,
  )

async function post(url: string, op: string, body: unknown, token?: string): Promise<any> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (token !== undefined) headers.accesstoken = token
  const r = await fetch(`${url}/partner/${op}`, { method: 'POST', headers, body: JSON.stringify(body) })
  return r.json()
}

interface Load {
  /** `x-ratelimit-remaining` of every 200 answer seen. */
  ok: number[]
  /** Answers seen with 429. */
  limited: number
  /** Requests sent whose answer never came (the kill cut them). */
  cut: number
}

/**
 * GET /exchanges (1,000 credits each) over 12 connections until `stop` says so, then SIGKILL while requests
 * are still in flight: besides whatever the other connections are waiting for, four requests are started in
 * the same turn as the kill, so they cannot have been answered (on a busy machine the other connections'
 * answers may all have arrived already). Resolves once every request has an answer or an error.
 */
async function loadThenKill(p: ServerProcess, stop: (l: Load) => boolean): Promise<Load> {
  const load: Load = { ok: [], limited: 0, cut: 0 }
  let killed = false
  const request = async (): Promise<void> => {
    try {
      const r = await fetch(`${p.url}${REST}/exchanges`, { headers: { 'x-api-key': KEY } })
      await r.arrayBuffer()
      if (r.status === 200) load.ok.push(Number(r.headers.get('x-ratelimit-remaining')))
      else if (r.status === 429) load.limited++
      else throw new Error(`status ${r.status}`)
    } catch (e) {
      if (!killed) throw e
      load.cut++
    }
  }
  const inFlight: Promise<void>[] = []
  const worker = async (): Promise<void> => {
    for (let i = 0; i < 200 && !killed; i++) {
      await request()
      if (!killed && stop(load)) {
        for (let k = 0; k < 4; k++) inFlight.push(request())
        killed = true
        p.child.kill('SIGKILL')
      }
    }
  }
  const exited = new Promise((resolve) => p.child.once('exit', resolve))
  await Promise.all(Array.from({ length: 12 }, worker))
  await Promise.all(inFlight)
  await exited
  return load
}

async function remainingNow(url: string): Promise<{ status: number; remaining: number; reset: string | null }> {
  const r = await fetch(`${url}${REST}/timeframes`, { headers: { 'x-api-key': KEY } })
  await r.arrayBuffer()
  return {
    status: r.status,
    remaining: Number(r.headers.get('x-ratelimit-remaining')),
    reset: r.headers.get('x-ratelimit-reset'),
  }
}

test('kill -9 mid-load and restart on the same data directory: credits, lock-out, links and tokens are as before', async () => {
  // 1. First life: tokens, links, then load killed mid-way.
  const first = await start()
  expect(first.lines.some((l) => l.startsWith('state:') && l.includes('pglite'))).toBe(true)
  const tokens = await post(first.url, OP.login, { api_key: PARTNER })
  expect(tokens.status.code).toBe(0)
  const guids = ['g-1', 'g-2', 'g-3']
  for (const [i, g] of guids.entries())
    expect(
      (await post(first.url, OP.link, { security_guid: g, partner_security_id: `P${i}` }, tokens.access_token.token))
        .status.code,
    ).toBe(0)
  expect((await post(first.url, OP.unlink, { security_guid: 'g-2' }, tokens.access_token.token)).status.code).toBe(0)
  expect(
    (await post(first.url, OP.link, { security_guid: 'g-3', partner_security_id: 'P3-new' }, tokens.access_token.token))
      .status.code,
  ).toBe(0)

  const a = await loadThenKill(first, (l) => l.ok.length >= 40)
  expect(a.ok.length).toBeGreaterThanOrEqual(40)
  expect(a.cut).toBeGreaterThan(0)
  const seenUsed = 100_000 - Math.min(...a.ok)

  // 2. Second life: the credits as committed before the kill.
  const second = await start()
  const r = await remainingNow(second.url)
  expect(r.status).toBe(200)
  const usedAfter = 100_000 - r.remaining - 1000 // this request's own 1,000
  // none lost: every answer seen was committed; none granted twice: at most the requests cut in flight more
  expect(usedAfter).toBeGreaterThanOrEqual(seenUsed)
  expect(usedAfter).toBeLessThanOrEqual(1000 * (a.ok.length + a.cut))
  expect(usedAfter % 1000).toBe(0)
  // links exactly as left
  const access = tokens.access_token.token
  expect(await post(second.url, OP.getLinked, { security_guid: 'g-1' }, access)).toMatchObject({
    status: { code: 0 },
    linked_security: { security_guid: 'g-1', partner_security_id: 'P0' },
  })
  expect((await post(second.url, OP.getLinked, { security_guid: 'g-2' }, access)).status.code).toBe(5)
  expect(await post(second.url, OP.getLinked, { security_guid: 'g-3' }, access)).toMatchObject({
    linked_security: { partner_security_id: 'P3-new' },
  })
  // the refresh token of the first life still refreshes, and its new access token works
  const refreshed = await post(second.url, OP.refresh, { refresh_token: tokens.refresh_token.token })
  expect(refreshed.status.code).toBe(0)
  expect(
    (await post(second.url, OP.getLinked, { security_guid: 'g-1' }, refreshed.access_token.token)).status.code,
  ).toBe(0)

  // 3. Spend the window to a lock-out, then kill again with requests in flight.
  const b = await loadThenKill(second, (l) => l.limited >= 5)
  expect(b.limited).toBeGreaterThanOrEqual(5)
  const lastRemaining = Math.min(...b.ok)
  expect(lastRemaining).toBeLessThan(1000)

  // 4. Third life: still locked out in the same window, with the balance the lock-out left.
  const third = await start()
  const locked = await remainingNow(third.url)
  expect(locked.status).toBe(429)
  expect(locked.reset).toBe(RESET)
  expect(locked.remaining).toBe(lastRemaining)
  third.child.kill('SIGTERM')
}, 400_000)
