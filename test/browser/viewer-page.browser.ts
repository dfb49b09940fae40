import { existsSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NOW, testStore } from '../../examples/server/harness.js'
import { startServer, type RunningServer } from '../../examples/server/server.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const KEY = 'viewer-test-key'
// UPDATE_SCREENSHOTS=1 writes the PNGs shown in docs/charts.md; otherwise they go to a temporary directory
const SHOTS =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? resolve(import.meta.dirname, '../../docs/images')
    : mkdtempSync(join(tmpdir(), 'viewer-shots-'))

// page scripts as strings: they run in the browser (the test's TypeScript has no DOM types)
const MARK_WAITING = "document.body.dataset.state = 'waiting'"

let server: RunningServer
let browser: Browser
let page: Page

async function rest(path: string): Promise<any> {
  const r = await fetch(`${server.url}/api/v1/marketdata${path}`, { headers: { 'x-api-key': KEY } })
  expect(r.status).toBe(200)
  return r.json()
}

/** Waits for the page to finish drawing after an action, and fails with the page's own message if it could not. */
async function drawn(action: () => Promise<unknown>): Promise<void> {
  await page.evaluate(MARK_WAITING)
  await action()
  await page.waitForFunction("document.body.dataset.state === 'ready' || document.body.dataset.state === 'error'")
  const state = await page.evaluate('document.body.dataset.state')
  if (state !== 'ready') throw new Error(`viewer: ${await page.locator('#status').textContent()}`)
}

const attr = (sel: string, name: string) => page.locator(sel).first().getAttribute(name)

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `no Chromium at ${CHROMIUM}: install Debian's package (apt-get install -y chromium; .ci/run does this) or set CHROMIUM_PATH. This test never passes without a browser.`,
    )
  }
  server = await startServer({
    store: testStore(NOW),
    apiKeys: [{ key: KEY }],
    partnerKeys: [],
    clock: () => NOW,
    viewerKey: KEY,
  })
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
  page = await browser.newPage({ viewport: { width: 1700, height: 1000 } })
  page.setDefaultTimeout(60_000)
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe('viewer page at /', () => {
  it('draws the footprint chart, TPO chart and candles of the default security from the REST endpoints', async () => {
    await drawn(() => page.goto(`${server.url}/`))
    expect(await page.locator('#exchange').inputValue()).toBe('CME')
    expect(await page.locator('#symbol').inputValue()).toBe('ES')
    expect(await attr('#footprint .fp-chart', 'data-bars')).toBe('10')
    expect(await page.locator('#footprint .fp-bar').count()).toBe(10)
    expect(await attr('#chart', 'data-bars')).toBe('10')
    const tpo = (await rest('/tpo?exchange=CME&symbol=ES&timeframe=1d&period=432000')).profiles.filter(
      (p: { rows: unknown[] }) => p.rows.length > 0,
    )
    expect(await attr('#tpo .tpo-chart', 'data-periods')).toBe(String(tpo.length))
    expect(await page.locator('#tpo .tpo-period').count()).toBe(tpo.length)
    mkdirSync(SHOTS, { recursive: true })
    await page.locator('#footprint svg').screenshot({ path: join(SHOTS, 'footprint-chart.png') })
    await page.locator('#tpo svg').screenshot({ path: join(SHOTS, 'tpo-chart.png') })
  })

  it('follows a symbol change, an exchange change and a longer range', async () => {
    await drawn(() => page.selectOption('#symbol', 'NQ'))
    expect(await page.locator('#status').textContent()).toContain('CME NQ: 10 footprint bars')
    expect(await page.locator('#footprint .fp-bar').count()).toBe(10)
    expect(await attr('#chart', 'data-bars')).toBe('10')
    await drawn(() => page.selectOption('#exchange', 'NASDAQ'))
    expect(await page.locator('#symbol').inputValue()).toBe('AAPL')
    expect(await page.locator('#status').textContent()).toContain('NASDAQ AAPL')
    expect(await page.locator('#footprint .fp-bar').count()).toBe(10)
    await drawn(async () => {
      await page.selectOption('#range', '60')
      await page.click('#show')
    })
    expect(await attr('#footprint .fp-chart', 'data-bars')).toBe('60')
    expect(await attr('#footprint .fp-chart', 'data-mode')).toBe('colour')
    expect(await attr('#chart', 'data-bars')).toBe('60')
    await page.locator('#footprint svg').screenshot({ path: join(SHOTS, 'footprint-chart-60.png') })
  })

  it('shows an API error on the page instead of a chart (a listed security without trades)', async () => {
    await page.selectOption('#range', '10')
    await page.evaluate(MARK_WAITING)
    await page.selectOption('#symbol', 'NEWCO')
    await page.waitForFunction("document.body.dataset.state === 'error'")
    expect(await page.locator('#status').getAttribute('class')).toBe('error')
  })
})
