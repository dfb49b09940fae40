import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NOW, testStore } from '../harness.js'
import { startServer, type RunningServer } from '../server.js'

let withPage: RunningServer
let without: RunningServer

beforeAll(async () => {
  withPage = await startServer({
    store: testStore(NOW),
    apiKeys: [{ key: 'k<1>' }],
    partnerKeys: [],
    clock: () => NOW,
    viewerKey: 'k<1>',
  })
  without = await startServer({ store: testStore(NOW), apiKeys: [{ key: 'k' }], partnerKeys: [], clock: () => NOW })
})
afterAll(async () => {
  await withPage.close()
  await without.close()
})

describe('viewer route', () => {
  it('serves the page with its API key escaped into a meta tag, its script and the library bundle', async () => {
    const page = await fetch(`${withPage.url}/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')
    expect(await page.text()).toContain('<meta name="api-key" content="k&#60;1&#62;">')
    const script = await fetch(`${withPage.url}/viewer/viewer.js`)
    expect(await script.text()).toContain("from '/viewer/lib.js'")
    const lib = await fetch(`${withPage.url}/viewer/lib.js`)
    expect(lib.headers.get('content-type')).toContain('text/javascript')
    const code = await lib.text()
    for (const name of ['renderFootprintChart', 'renderTpoChart', 'autoRowSize', 'regridTpo'])
      expect(code).toMatch(new RegExp(`as ${name}[,}]`))
    expect(code).not.toMatch(/from\s*["']/) // one self-contained module: no import left for the browser to resolve
  })

  it('is absent without a viewer key, and the REST endpoints still answer beside it', async () => {
    expect((await fetch(`${without.url}/`)).status).toBe(404)
    expect(
      (await fetch(`${withPage.url}/api/v1/marketdata/exchanges`, { headers: { 'x-api-key': 'k<1>' } })).status,
    ).toBe(200)
    expect((await fetch(`${withPage.url}/`, { method: 'POST' })).status).toBe(405)
  })
})
