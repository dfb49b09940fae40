// The viewer page following live streams in a real Chromium: the candle panel is a lightweight-charts chart
// (a screenshot of it is compared with the same chart emptied: the test fails when nothing is drawn), trades
// pushed into the server's embedded feed change the last candle and the open bar's footprint cells, and a
// 0.0014 market is labelled at its own decimals.
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultCatalog } from '../../examples/server/catalog.js'
import { NOW } from '../../examples/server/harness.js'
import { startServer, type RunningServer } from '../../examples/server/server.js'
import { memoryState } from '../../examples/server/state.js'
import { sampleStore } from '../../examples/server/store.js'
import { attachStreams, type StreamServer } from '../../examples/server/streams/attach.js'
import { memoryFeed, type MemoryFeed } from '../../examples/server/streams/live-feed.js'
import { liveStore, type LiveStore } from '../../examples/server/streams/live-store.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const KEY = 'live-viewer-key'
const SHOTS =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? resolve(import.meta.dirname, '../../docs/images')
    : mkdtempSync(join(tmpdir(), 'live-viewer-shots-'))

let server: RunningServer
let streams: StreamServer
let feed: MemoryFeed
let store: LiveStore
let browser: Browser
let page: Page

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `no Chromium at ${CHROMIUM}: install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH`,
    )
  const catalog = defaultCatalog()
  // a market quoted at 0.0014: a chart labelled with two decimals would read 0.00 everywhere
  catalog.securities.push({
    ...catalog.securities.find((s) => s.symbol === 'AAPL')!,
    guid: '00000000-0000-4000-8000-000000000014',
    symbol: 'PENNY',
    name: 'Penny Token',
    isin: undefined,
    tickSize: '0.00001',
    pricePrecision: 5,
    sample: { startPrice: '0.0014', seed: 5 },
  })
  store = liveStore(sampleStore({ now: NOW, days: 10, tradesPerDay: 1500, catalog }))
  feed = memoryFeed(store)
  const state = memoryState()
  const apiKeys = [{ key: KEY }]
  server = await startServer({ store, apiKeys, partnerKeys: [], clock: () => NOW, viewerKey: KEY, state })
  streams = await attachStreams(server.server, { store, feed, apiKeys, state, clock: () => NOW })
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
  page = await browser.newPage({ viewport: { width: 1500, height: 1100 } })
  page.setDefaultTimeout(60_000)
})

afterAll(async () => {
  await browser?.close()
  await streams?.close()
  await server?.close()
})

async function ready(action: () => Promise<unknown>): Promise<void> {
  await page.evaluate("document.body.dataset.state = 'waiting'; document.body.dataset.live = 'off'")
  await action()
  await page.waitForFunction("document.body.dataset.state === 'ready' || document.body.dataset.state === 'error'")
  if ((await page.evaluate('document.body.dataset.state')) !== 'ready')
    throw new Error(`viewer: ${await page.locator('#status').textContent()}`)
  await page.waitForFunction("document.body.dataset.live === 'on'")
}

/** Pixels that differ between two PNG screenshots of one size, counted in the page (no image library). */
async function differingPixels(a: Buffer, b: Buffer): Promise<number> {
  return page.evaluate(
    `(async ([a, b]) => {
      const load = async (s) => { const i = new Image(); i.src = 'data:image/png;base64,' + s; await i.decode(); return i }
      const [x, y] = await Promise.all([load(a), load(b)])
      const px = (img) => { const c = document.createElement('canvas'); c.width = img.width; c.height = img.height
        const g = c.getContext('2d'); g.drawImage(img, 0, 0); return g.getImageData(0, 0, img.width, img.height).data }
      const p = px(x), q = px(y)
      if (p.length !== q.length) return -1
      let n = 0
      for (let i = 0; i < p.length; i += 4) if (Math.abs(p[i] - q[i]) + Math.abs(p[i + 1] - q[i + 1]) + Math.abs(p[i + 2] - q[i + 2]) > 30) n++
      return n
    })(${JSON.stringify([a.toString('base64'), b.toString('base64')])})`,
  ) as Promise<number>
}

describe('live viewer', () => {
  it('draws the candles with lightweight-charts; the screenshot differs from the same chart emptied', async () => {
    await ready(() => page.goto(`${server.url}/`))
    expect(await page.locator('#chart canvas').count()).toBeGreaterThan(0)
    expect(await page.evaluate('window.viewer.series.data().length')).toBe(10)
    mkdirSync(SHOTS, { recursive: true })
    const drawn = await page.locator('#chart').screenshot({ path: join(SHOTS, 'candle-chart.png') })
    const data = await page.evaluate('JSON.stringify(window.viewer.series.data())')
    await page.evaluate('window.viewer.series.setData([])')
    await page.waitForTimeout(200)
    const empty = await page.locator('#chart').screenshot()
    await page.evaluate(`window.viewer.series.setData(JSON.parse(${JSON.stringify(data)}))`)
    const n = await differingPixels(drawn, empty)
    // ten candles with wicks cover thousands of pixels; an empty chart (grid, axes only) differs by none
    expect(n).toBeGreaterThan(2000)
    expect(await page.locator('#legend').textContent()).toMatch(/^O \d+\.\d{2} {2}H /)
  })

  it('the last candle and the open footprint bar change as trades arrive', async () => {
    const s = store.security('CME', 'ES')!
    const before = (await page.evaluate('JSON.stringify(window.viewer.series.data().at(-1))')) as string
    const updates = Number((await page.locator('#footprint').getAttribute('data-updates')) ?? '0')
    const price = s.trades.price[s.trades.price.length - 1]! + 20
    // 30m frame: a trade a second after the server's clock lands in the open bar
    const t = NOW + 1000
    expect(feed.push('CME', 'ES', [{ time: t, price, volume: 7, side: 'buy' }]).appended).toBe(1)
    await page.waitForFunction(`window.viewer.series.data().at(-1).high === ${price}`)
    const after = JSON.parse((await page.evaluate('JSON.stringify(window.viewer.series.data().at(-1))')) as string)
    expect(after.close).toBe(price)
    expect(JSON.stringify(after)).not.toBe(before)
    await page.waitForFunction(`Number(document.getElementById('footprint').dataset.updates ?? 0) > ${updates}`)
    expect(await page.locator('#footprint').innerHTML()).toContain(price.toFixed(2))
    await page.locator('#chart').screenshot({ path: join(SHOTS, 'candle-chart-live.png') })
  })

  it('labels a 0.0014 market at its own decimals', async () => {
    await ready(async () => {
      await page.selectOption('#exchange', 'NASDAQ')
      await page.waitForFunction("[...document.querySelectorAll('#symbol option')].some((o) => o.value === 'PENNY')")
      await page.selectOption('#symbol', 'PENNY')
    })
    // the exchange's first symbol loads (and reports ready) before PENNY's candles replace it: wait for those
    await page.waitForFunction(`window.viewer.series.data().at(-1)?.close < 1`)
    const legend = (await page.locator('#legend').textContent()) ?? ''
    expect(legend).toMatch(/^O 0\.00\d{3} {2}H 0\.00\d{3} {2}L 0\.00\d{3} {2}C 0\.00\d{3}$/)
    expect(legend).not.toContain('0.00 ')
    const label = await page.evaluate('window.viewer.series.priceFormatter().format(0.0014)')
    expect(label).toBe('0.00140')
    await page.locator('#chart').screenshot({ path: join(SHOTS, 'candle-chart-penny.png') })
  })
})
