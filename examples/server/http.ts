// Plain node:http plumbing: reading bodies, writing JSON answers.
import type { IncomingMessage, ServerResponse } from 'node:http'

/** An answer the handlers build; the server writes it. */
export interface Answer {
  status: number
  headers: Record<string, string>
  body: unknown
}

/** A body already serialized as JSON (written as is). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** Writes an answer as JSON (headers only for a HEAD request). */
export function send(res: ServerResponse, a: Answer, head = false): void {
  const text = a.body instanceof RawJson ? a.body.text : JSON.stringify(a.body)
  const headers: Record<string, string | number> = { 'content-type': 'application/json; charset=utf-8', ...a.headers }
  headers['content-length'] = Buffer.byteLength(text)
  res.writeHead(a.status, headers)
  res.end(head ? undefined : text)
}

/** Reads a request body up to `limit` bytes; `undefined` when it is larger. */
export function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let over = false
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size > limit) over = true
      else chunks.push(c)
    })
    req.on('end', () => resolve(over ? undefined : Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}
