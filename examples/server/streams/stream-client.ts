// A test and bench client of the live streams over a real `ws` connection: the handshake's HTTP answer when it
// is refused, every frame received in order, waiting for a frame of a type, and the close code.
import WebSocket from 'ws'
import { SUBPROTOCOL } from './protocol.js'

/** A refused handshake: the HTTP status, headers and JSON body. */
export interface Refused {
  refused: true
  status: number
  headers: Record<string, string | string[] | undefined>
  body: any
}

export interface StreamClient {
  refused: false
  ws: WebSocket
  /** The handshake's response headers (`x-ratelimit-*`). */
  headers: Record<string, string | string[] | undefined>
  frames: any[]
  /** Resolves with the next frame of `type` (or of one of the types) not yet taken, searching the frames received already too. */
  next(type: string | readonly string[], timeoutMs?: number): Promise<any>
  /** As `next`, without taking the frame (a later `next` still gets it). */
  peek(type: string | readonly string[], timeoutMs?: number): Promise<any>
  send(msg: unknown): void
  closed: Promise<{ code: number; reason: string }>
}

/** Opens `url` (a `ws://.../stream/<kind>` address) with `x-api-key`; resolves once open or refused. */
export function openStream(url: string, key: string): Promise<StreamClient | Refused> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, [SUBPROTOCOL], { headers: { 'x-api-key': key } })
    const frames: any[] = []
    const taken = new Set<number>()
    const waiters: Array<() => void> = []
    let closeInfo: ((v: { code: number; reason: string }) => void) | undefined
    const closed = new Promise<{ code: number; reason: string }>((r) => (closeInfo = r))
    ws.on('message', (data) => {
      frames.push(JSON.parse(String(data)))
      for (const w of waiters.splice(0)) w()
    })
    ws.on('close', (code, reason) => {
      closeInfo!({ code, reason: String(reason) })
      for (const w of waiters.splice(0)) w()
    })
    ws.on('error', (e) => reject(e))
    ws.on('unexpected-response', (_req, res) => {
      let text = ''
      res.on('data', (b: Buffer) => (text += b.toString()))
      res.on('end', () => {
        let body: unknown = text
        try {
          body = JSON.parse(text)
        } catch {}
        resolve({ refused: true, status: res.statusCode ?? 0, headers: res.headers, body })
      })
    })
    ws.on('upgrade', (res) => {
      const headers = res.headers
      ws.once('open', () =>
        resolve({
          refused: false,
          ws,
          headers,
          frames,
          send: (m) => ws.send(typeof m === 'string' ? m : JSON.stringify(m)),
          closed,
          next: (type, timeoutMs) => find(type, true, timeoutMs),
          peek: (type, timeoutMs) => find(type, false, timeoutMs),
        }),
      )
    })
    function find(type: string | readonly string[], take: boolean, timeoutMs = 10_000): Promise<any> {
      return new Promise((ok, fail) => {
        const timer = setTimeout(
          () =>
            fail(new Error(`no ${type} frame in ${timeoutMs} ms; got ${JSON.stringify(frames.map((f) => f.type))}`)),
          timeoutMs,
        )
        const look = (): void => {
          const i = frames.findIndex(
            (f, n) => !taken.has(n) && (type === f.type || (Array.isArray(type) && type.includes(f.type))),
          )
          if (i >= 0) {
            if (take) taken.add(i)
            clearTimeout(timer)
            ok(frames[i])
          } else if (ws.readyState === ws.CLOSED) {
            clearTimeout(timer)
            fail(new Error(`closed before a ${type} frame; got ${JSON.stringify(frames.map((f) => f.type))}`))
          } else waiters.push(look)
        }
        look()
      })
    }
  })
}

/** Opens a stream and subscribes; resolves with the client once `subscribed` (or an `error`) arrived. */
export async function subscribeStream(
  url: string,
  key: string,
  subscription: Record<string, unknown>,
): Promise<StreamClient | Refused> {
  const c = await openStream(url, key)
  if (c.refused) return c
  c.send({ type: 'subscribe', ...subscription })
  await c.peek(['subscribed', 'error']).catch(() => {})
  return c
}
