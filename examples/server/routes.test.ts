// Extra routes (ServerOptions.routes) are tried after the built-in ones: they answer their paths, GET and
// HEAD, with a body of any type; paths nobody matches stay the JSON 404.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { NOW, startHarness, type Harness } from './harness.js'
import { RawBody } from './http.js'

let h: Harness
beforeAll(async () => {
  h = await startHarness([], [], NOW, (s) => s, {
    routes: [
      {
        name: 'hello',
        match: (p) => p === '/hello',
        handle: async (req, ctx) =>
          req.method === 'GET' || req.method === 'HEAD'
            ? {
                status: 200,
                headers: { ...ctx.base, 'content-type': 'text/plain; charset=utf-8' },
                body: new RawBody('hello'),
              }
            : {
                status: 405,
                headers: { ...ctx.base, allow: 'GET, HEAD' },
                body: { error: { code: 'invalid_argument', message: 'use GET' } },
              },
      },
      {
        name: 'shadowed',
        match: (p) => p.startsWith('/api/v1/marketdata'),
        handle: async () => ({ status: 500, headers: {}, body: {} }),
      },
    ],
  })
})
afterAll(async () => {
  await h.close()
})

test('an extra route answers its path with its own content type, HEAD without the body; built-in routes come first', async () => {
  const get = await fetch(`${h.base}/hello`)
  expect(get.status).toBe(200)
  expect(get.headers.get('content-type')).toBe('text/plain; charset=utf-8')
  expect(get.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  expect(await get.text()).toBe('hello')
  const head = await fetch(`${h.base}/hello`, { method: 'HEAD' })
  expect(head.headers.get('content-length')).toBe('5')
  expect(await head.text()).toBe('')
  expect((await fetch(`${h.base}/hello`, { method: 'POST' })).status).toBe(405)
  // the REST route is matched before the extra one that would shadow it
  expect((await fetch(`${h.rest}/exchanges`)).status).toBe(401)
  const none = await fetch(`${h.base}/nothing-here`)
  expect(none.status).toBe(404)
  expect(((await none.json()) as any).error.code).toBe('not_found')
})
