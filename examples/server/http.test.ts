// readBody: a request body up to `limit` bytes, `undefined` when it is larger (whatever the chunking).
import type { IncomingMessage } from 'node:http'
import { PassThrough } from 'node:stream'
import { expect, test } from 'vitest'
import { ClientAborted, readBody } from './http.js'

function body(chunks: string[], limit: number): Promise<string | undefined> {
  const s = new PassThrough()
  const p = readBody(s as unknown as IncomingMessage, limit)
  for (const c of chunks) s.write(Buffer.from(c, 'utf8'))
  s.end()
  return p
}

test('readBody returns a body of at most limit bytes, undefined for a larger one', async () => {
  expect(await body(['abc', 'def'], 6)).toBe('abcdef')
  expect(await body(['abcdef'], 6)).toBe('abcdef')
  expect(await body(['abc', 'defg'], 6)).toBeUndefined()
  expect(await body(['abcdefg'], 6)).toBeUndefined()
  // over the limit early, then nothing more: still too large
  expect(await body(['abcdefgh', ''], 6)).toBeUndefined()
  expect(await body([], 6)).toBe('')
})

test('readBody counts bytes, not characters', async () => {
  // 'é' is two bytes in UTF-8: three of them are 6 bytes
  expect(await body(['ééé'], 6)).toBe('ééé')
  expect(await body(['éééé'], 6)).toBeUndefined()
  expect(await body(['ééé', 'x'], 6)).toBeUndefined()
})

test('readBody stops at the first byte over the limit and rejects with ClientAborted when the stream dies mid-body', async () => {
  const s = new PassThrough()
  const p = readBody(s as unknown as IncomingMessage, 4)
  s.write(Buffer.from('abcde'))
  // resolved without the stream ending: the rest is never waited for
  expect(await p).toBeUndefined()
  const t = new PassThrough()
  const q = readBody(t as unknown as IncomingMessage, 100)
  t.write(Buffer.from('ab'))
  t.destroy()
  await expect(q).rejects.toBeInstanceOf(ClientAborted)
})
