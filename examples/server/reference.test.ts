// The server's contract pages: /openapi.json is the library's document with this server's paths as server
// URLs (so the rendered reference can call the server), /reference renders it with Swagger UI from
// node_modules (no network), and nothing else of node_modules is reachable.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { openApiDocument } from '../../src/service/index.js'
import { startHarness, type Harness } from './harness.js'

let h: Harness
beforeAll(async () => {
  h = await startHarness([{ key: 'k' }], [])
})
afterAll(async () => {
  await h.close()
})

const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))

test('GET /openapi.json is the library document with the server relative URLs of this server', async () => {
  const r = await fetch(`${h.base}/openapi.json`)
  expect(r.status).toBe(200)
  expect(r.headers.get('content-type')).toMatch(/^application\/json/)
  const doc = (await r.json()) as { servers: { url: string }[] }
  expect(doc).toEqual(openApiDocument({ restServerUrl: '/api/v1/marketdata', partnerServerUrl: '/partner' }))
  expect(doc.servers).toEqual([{ url: '/api/v1/marketdata', description: 'Interface B (REST)' }])
  // the server URLs resolve to paths this server answers
  const timeframes = await fetch(new URL(`${doc.servers[0]!.url}/timeframes`, h.base), {
    headers: { 'x-api-key': 'k' },
  })
  expect(timeframes.status).toBe(200)
})

test('GET /reference renders the document with Swagger UI served from node_modules, no network', async () => {
  for (const path of ['/reference', '/reference/']) {
    const r = await fetch(`${h.base}${path}`)
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toMatch(/^text\/html/)
    const html = await r.text()
    expect(html).toContain("url: '/openapi.json'")
    expect(html).toContain('validatorUrl: null')
    // every script and stylesheet is local
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)
    expect(sources.sort()).toEqual(['/reference/swagger-ui-bundle.js', '/reference/swagger-ui.css'])
    for (const src of sources) {
      const asset = await fetch(`${h.base}${src}`)
      expect(asset.status).toBe(200)
      expect(Buffer.from(await asset.arrayBuffer()).equals(readFileSync(join(dist, src.split('/').pop()!)))).toBe(true)
    }
  }
  expect((await fetch(`${h.base}/reference/swagger-ui.css`)).headers.get('content-type')).toMatch(/^text\/css/)
})

test('only the two assets are served: other files and traversal are not', async () => {
  for (const path of [
    '/reference/package.json',
    '/reference/index.html',
    '/reference/..%2F..%2Fpackage.json',
    '/reference/swagger-ui.js',
  ]) {
    const r = await fetch(`${h.base}${path}`)
    expect({ path, status: r.status }).toEqual({ path, status: 404 })
  }
  const post = await fetch(`${h.base}/openapi.json`, { method: 'POST' })
  expect(post.status).toBe(404)
})
