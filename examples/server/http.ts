// Plain node:http plumbing: reading bodies, writing JSON answers.
import type { IncomingMessage, ServerResponse } from 'node:http'

/** An answer the handlers build; the server writes it. */
export interface Answer {
  status: number
  headers: Record<string, string>
  body: unknown
}

/**
 * A body already serialized (JSON by default; set `content-type` in the answer's headers for anything else),
 * written as is: text, or its UTF-8 bytes (as a worker thread hands them over, without a copy).
 */
export class RawBody {
  constructor(readonly text: string | Uint8Array) {}
}

/** The service's 500 body: the cause is logged with the request id, never sent. */
export const INTERNAL_ERROR_BODY = { error: { code: 'internal', message: 'internal error' } } as const

/**
 * Writes an answer as JSON (headers only for a HEAD request). A body that cannot be serialised (a bug: every
 * echoed value is bounded) is logged and answered 500 `internal` with the answer's `x-request-id`.
 */
export function send(res: ServerResponse, a: Answer, head = false): void {
  let text: string | Uint8Array
  let answer = a
  try {
    text = a.body instanceof RawBody ? a.body.text : JSON.stringify(a.body)
  } catch (e) {
    console.error(`[${a.headers['x-request-id'] ?? 'no request id'}] answer not serialisable:`, e)
    const id = a.headers['x-request-id']
    answer = { status: 500, headers: id === undefined ? {} : { 'x-request-id': id }, body: INTERNAL_ERROR_BODY }
    text = JSON.stringify(INTERNAL_ERROR_BODY)
  }
  const headers: Record<string, string | number> = {
    'content-type': 'application/json; charset=utf-8',
    ...answer.headers,
  }
  headers['content-length'] = Buffer.byteLength(text)
  res.writeHead(answer.status, headers)
  res.end(head ? undefined : text)
}

/** The client went away before its request was read: nobody to answer, and not the server's fault. */
export class ClientAborted extends Error {}

/**
 * Reads a request body up to `limit` bytes; `undefined` as soon as it is larger (the rest is not read: answer
 * and close the connection). Rejects with {@link ClientAborted} when the client goes away mid-body.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let done = false
    const finish = (f: () => void): void => {
      if (done) return
      done = true
      req.off('data', onData)
      f()
    }
    const onData = (c: Buffer): void => {
      size += c.length
      if (size > limit) finish(() => resolve(undefined))
      else chunks.push(c)
    }
    req.on('data', onData)
    req.on('end', () => finish(() => resolve(Buffer.concat(chunks).toString('utf8'))))
    req.on('error', () => finish(() => reject(new ClientAborted('client aborted the request'))))
    req.on('close', () => finish(() => reject(new ClientAborted('client closed the connection mid-request'))))
  })
}

/** The declared body length is over `limit` (a 413 before reading anything). */
export function declaredTooLarge(req: IncomingMessage, limit: number): boolean {
  const n = Number(req.headers['content-length'])
  return Number.isFinite(n) && n > limit
}

/** Status, code and message of a request Node's parser refused (`clientError`), by the error's code. */
export function parserRefusal(
  code: string | undefined,
  limits: { maxHeaderBytes: number; headersTimeoutMs: number },
): { status: number; code: 'invalid_argument' | 'too_much_data'; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        code: 'too_much_data',
        message: `request headers: larger than ${limits.maxHeaderBytes} bytes`,
      }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        code: 'invalid_argument',
        message: `request: not received in time (headers within ${limits.headersTimeoutMs} ms)`,
      }
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, code: 'too_much_data', message: 'request body: chunk extensions too large' }
    default:
      return {
        status: 400,
        code: 'invalid_argument',
        message: `request: not valid HTTP/1.1 (${code ?? 'parse error'})`,
      }
  }
}

/** A whole HTTP/1.1 answer as bytes, for a socket the parser gave up on (then closed). */
export function rawAnswer(status: number, reason: string, headers: Record<string, string>, body: unknown): string {
  const text = JSON.stringify(body)
  const lines = [
    `HTTP/1.1 ${status} ${reason}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(text)}`,
    'connection: close',
  ]
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`)
  return `${lines.join('\r\n')}\r\n\r\n${text}`
}
