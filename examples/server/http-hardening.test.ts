// HTTP hardening on raw sockets: Node's parser refusals (431, 400, 408) are the service's JSON error with an
// x-request-id; a body over the cap is 413 from Content-Length or while it streams, without reading the rest;
// the timeouts and the connection limit are set; HEAD answers where GET does; a client that goes away
// mid-body is not logged as an internal error.
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { NOW, OPS, startHarness, type Harness } from './harness.js'
import { DEFAULT_LIMITS } from './limits.js'

const KEY = 'hard-key'
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
let h: Harness
beforeAll(async () => {
  h = await startHarness([{ key: KEY, account: 'hard' }], ['hard-partner'], NOW, (s) => s, {
    limits: { headersTimeoutMs: 400, requestTimeoutMs: 1500, maxConnections: 4 },
  })
})
afterAll(async () => {
  await h.close()
})

interface RawReply {
  status: number
  headers: Record<string, string>
  body: string
  /** The server closed the connection. */
  closed: boolean
}

/** Opens a socket to the server. */
function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(h.server.port, '127.0.0.1', () => resolve(s))
    s.once('error', reject)
  })
}

/** Reads one answer (or nothing) from a socket: resolves when the server closes it or after `waitMs`. */
function readReply(s: Socket, waitMs = 5000): Promise<RawReply | undefined> {
  return new Promise((resolve) => {
    let data = ''
    let closed = false
    const done = (): void => {
      clearTimeout(timer)
      s.destroy()
      const at = data.indexOf('\r\n\r\n')
      if (at < 0) {
        resolve(undefined)
        return
      }
      const [first, ...lines] = data.slice(0, at).split('\r\n')
      const headers: Record<string, string> = {}
      for (const l of lines) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim()
      resolve({ status: Number(first!.split(' ')[1]), headers, body: data.slice(at + 4), closed })
    }
    const timer = setTimeout(done, waitMs)
    s.on('data', (b: Buffer) => {
      data += b.toString('latin1')
    })
    s.on('error', () => {})
    s.on('close', () => {
      closed = true
      done()
    })
  })
}

function expectJsonError(r: RawReply | undefined, status: number, code: string): void {
  expect(r).toBeDefined()
  expect(r!.status).toBe(status)
  expect(r!.headers['content-type']).toBe('application/json; charset=utf-8')
  expect(r!.headers['x-request-id']).toMatch(UUID)
  expect(JSON.parse(r!.body).error.code).toBe(code)
  expect(r!.closed).toBe(true)
}

test("headers over the limit: Node's 431 is the service's JSON error with x-request-id", async () => {
  const s = await open()
  s.write(
    `GET /api/v1/marketdata/exchanges HTTP/1.1\r\nhost: x\r\nx-api-key: ${KEY}\r\nx-big: ${'a'.repeat(DEFAULT_LIMITS.maxHeaderBytes + 100)}\r\n\r\n`,
  )
  const r = await readReply(s)
  expectJsonError(r, 431, 'too_much_data')
  expect(JSON.parse(r!.body).error.message).toContain(`larger than ${DEFAULT_LIMITS.maxHeaderBytes} bytes`)
})

test("a malformed request: Node's 400 is the service's JSON error with x-request-id", async () => {
  const s = await open()
  s.write('NOT HTTP AT ALL\r\n\r\n')
  expectJsonError(await readReply(s), 400, 'invalid_argument')
})

test('headers not finished within headersTimeout: 408 JSON error, connection closed', async () => {
  const s = await open()
  const started = Date.now()
  s.write('GET /api/v1/marketdata/exchanges HTTP/1.1\r\nhost: x\r\n')
  const r = await readReply(s, 8000)
  expectJsonError(r, 408, 'invalid_argument')
  expect(Date.now() - started).toBeLessThan(6000)
  expect(h.server.server.headersTimeout).toBe(400)
  expect(h.server.server.requestTimeout).toBe(1500)
  expect(h.server.server.keepAliveTimeout).toBe(DEFAULT_LIMITS.keepAliveTimeoutMs)
})

const partnerHead = (length: string) =>
  `POST /partner/${OPS.login} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n${length}\r\n`

test('a body declared over the cap is 413 before anything of it is sent', async () => {
  const s = await open()
  s.write(`${partnerHead(`content-length: ${DEFAULT_LIMITS.maxBodyBytes + 1}`)}\r\n`)
  const r = await readReply(s)
  expect(r!.status).toBe(413)
  expect(r!.headers['x-request-id']).toMatch(UUID)
  expect(JSON.parse(r!.body).status).toMatchObject({
    code: 3,
    message: `request body: larger than ${DEFAULT_LIMITS.maxBodyBytes} bytes`,
  })
  expect(r!.closed).toBe(true)
})

test('a streamed (chunked) body is refused with 413 as soon as it passes the cap, the rest never sent', async () => {
  const s = await open()
  s.write(`${partnerHead('transfer-encoding: chunked')}\r\n`)
  const chunk = 'a'.repeat(256 * 1024)
  for (let i = 0; i < 5; i++) s.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)
  // no terminating chunk: the answer must come anyway
  const r = await readReply(s)
  expect(r!.status).toBe(413)
  expect(JSON.parse(r!.body).status.code).toBe(3)
})

test('HEAD answers where GET does: same status and headers, no body', async () => {
  h.setNow(NOW + 60_000)
  const get = await fetch(`${h.rest}/exchanges`, { headers: { 'x-api-key': KEY } })
  const getBody = await get.text()
  const head = await fetch(`${h.rest}/exchanges`, { method: 'HEAD', headers: { 'x-api-key': KEY } })
  expect(head.status).toBe(200)
  expect(await head.text()).toBe('')
  expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(getBody)))
  expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'))
  expect(head.headers.get('x-ratelimit-limit')).toBe('100000')
  expect(head.headers.get('x-request-id')).toMatch(UUID)
  const missing = await fetch(`${h.rest}/exchanges/NOPE/securities`, { method: 'HEAD', headers: { 'x-api-key': KEY } })
  expect(missing.status).toBe(404)
  expect(await missing.text()).toBe('')
})

test('a client that aborts mid-body is not logged as an internal error, and the server goes on', async () => {
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
  try {
    for (let i = 0; i < 3; i++) {
      const s = await open()
      s.write(`${partnerHead('content-length: 1000')}\r\n{"api_key":`)
      await new Promise((r) => setTimeout(r, 100))
      s.destroy()
    }
    await new Promise((r) => setTimeout(r, 300))
    expect(logged).not.toHaveBeenCalled()
    expect((await h.post(OPS.login, { api_key: 'hard-partner' })).body.status.code).toBe(0)
  } finally {
    logged.mockRestore()
  }
})

test('at most maxConnections open connections: one more is closed unanswered, the others still answer', async () => {
  const held = await Promise.all(Array.from({ length: 4 }, open))
  await new Promise((r) => setTimeout(r, 100))
  const extra = await open()
  extra.write(`GET /api/v1/marketdata/timeframes HTTP/1.1\r\nhost: x\r\nx-api-key: ${KEY}\r\n\r\n`)
  expect(await readReply(extra, 3000)).toBeUndefined()
  const first = held[0]!
  first.write(`GET /api/v1/marketdata/timeframes HTTP/1.1\r\nhost: x\r\nx-api-key: ${KEY}\r\nconnection: close\r\n\r\n`)
  expect((await readReply(first))!.status).toBe(200)
  for (const s of held) s.destroy()
})

test('an HTTP/1.1 request without Host: 400 invalid_argument as the service JSON with x-request-id', async () => {
  const s = await open()
  s.write(`GET /api/v1/marketdata/timeframes HTTP/1.1\r\nx-api-key: ${KEY}\r\n\r\n`)
  const r = await readReply(s)
  expectJsonError(r, 400, 'invalid_argument')
  expect(JSON.parse(r!.body).error.message).toContain('Host header')
})

test('CONNECT: 405 as the service JSON with x-request-id and allow, connection closed', async () => {
  const s = await open()
  s.write('CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n')
  const r = await readReply(s)
  expectJsonError(r, 405, 'invalid_argument')
  expect(r!.headers.allow).toBe('GET, HEAD, POST')
})

test('other malformed requests (HTTP/2 preface, two Content-Lengths, bad method) get the JSON 400', async () => {
  for (const raw of [
    'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
    `POST /partner/${OPS.login} HTTP/1.1\r\nhost: x\r\ncontent-length: 1\r\ncontent-length: 2\r\n\r\nab`,
    'FOO\x01 / HTTP/1.1\r\nhost: x\r\n\r\n',
  ]) {
    const s = await open()
    s.write(raw)
    expectJsonError(await readReply(s), 400, 'invalid_argument')
  }
})
