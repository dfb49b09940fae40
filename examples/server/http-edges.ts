// Requests that never reach a route: what Node's parser refused (`clientError`), `CONNECT` (Node hands the
// raw socket over) and HTTP/1.1 requests without a `Host` header. Each gets the service's JSON error with an
// `x-request-id`, then the connection closes. (An `Upgrade` request nothing listens for is an ordinary request
// to Node, so it reaches the routes.)
import { randomUUID } from 'node:crypto'
import { STATUS_CODES, type IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { toHttpResponse, type ApiError } from '../../src/service/index.js'
import { parserRefusal, rawAnswer } from './http.js'
import type { ServerLimits } from './limits.js'

/** Writes the service's JSON error on a raw socket, then closes it. */
export function answerOnSocket(socket: Duplex, error: ApiError, extra: Record<string, string> = {}): void {
  const r = toHttpResponse(error, { 'x-request-id': randomUUID(), ...extra })
  const { 'content-type': _type, ...headers } = r.headers
  socket.end(rawAnswer(r.status, STATUS_CODES[r.status] ?? 'Error', headers, r.body))
}

/**
 * A request Node's parser refused (431 headers too large, 400 malformed, 408 too slow): the service's JSON
 * error, then the connection closes. A client that reset the connection gets nothing.
 */
export function answerClientError(e: NodeJS.ErrnoException, socket: Duplex, limits: ServerLimits): void {
  const answered = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true
  if (e.code === 'ECONNRESET' || answered || !socket.writable) {
    socket.destroy()
    return
  }
  const r = parserRefusal(e.code, limits)
  answerOnSocket(socket, { status: r.status, code: r.code, message: r.message })
}

/** `CONNECT host:port`: this server is no proxy. 405 with the methods it serves. */
export function answerConnect(req: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy())
  answerOnSocket(
    socket,
    { status: 405, code: 'invalid_argument', message: `method CONNECT: not served (this server is no proxy)` },
    { allow: 'GET, HEAD, POST' },
  )
  req.resume()
}

/** The 400 of an HTTP/1.1 request without a `Host` header (RFC 9112 section 3.2), or undefined when it has one. */
export function missingHost(req: IncomingMessage): ApiError | undefined {
  if (req.httpVersionMajor !== 1 || req.httpVersionMinor < 1 || req.headers.host !== undefined) return undefined
  return { status: 400, code: 'invalid_argument', message: 'request: an HTTP/1.1 request needs a Host header' }
}
