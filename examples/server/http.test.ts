// readBody: a request body up to `limit` bytes, `undefined` when it is larger (whatever the chunking).
import type { IncomingMessage } from 'node:http'
import { PassThrough } from 'node:stream'
import { expect, test } from 'vitest'
import { readBody } from './http.js'

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
