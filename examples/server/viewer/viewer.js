// The viewer page's script (plain browser JavaScript, no build step): it calls the REST endpoints a user
// would call, with the page's API key, and draws the answers with the library's SVG renderers.
import { autoRowSize, regridTpo, renderFootprintChart, renderTpoChart } from '/viewer/lib.js'

const API = '/api/v1/marketdata'
const KEY = document.querySelector('meta[name="api-key"]').content
const $ = (id) => document.getElementById(id)
const FRAME_SECONDS = { '5m': 300, '15m': 900, '30m': 1800, '1h': 3600 }
let exchanges = []
let securities = []

async function get(path, params = {}) {
  const q = new URLSearchParams(params).toString()
  const r = await fetch(`${API}${path}${q === '' ? '' : `?${q}`}`, { headers: { 'x-api-key': KEY } })
  const body = await r.json()
  if (!r.ok) throw new Error(`${path}: ${r.status} ${body.error?.message ?? ''}`)
  return body
}

function status(text, error = false) {
  $('status').textContent = text
  $('status').className = error ? 'error' : ''
}

/** Wire times (ISO 8601) back to the library's epoch milliseconds. */
function profileTimes(p) {
  const out = { ...p }
  for (const k of ['time', 'end', 'profileStart', 'openTime', 'closeTime', 'initialBalanceStart']) {
    if (typeof out[k] === 'string') out[k] = Date.parse(out[k])
  }
  if (Array.isArray(out.blocks)) out.blocks = out.blocks.map((t) => Date.parse(t))
  return out
}

function options(select, items, label, value) {
  select.replaceChildren(...items.map((x) => new Option(label(x), value(x))))
}

async function loadSymbols() {
  const ex = $('exchange').value
  securities = (await get(`/exchanges/${encodeURIComponent(ex)}/securities`)).securities
  options(
    $('symbol'),
    securities,
    (s) => `${s.symbol} (${s.name})`,
    (s) => s.symbol,
  )
}

/** A plain candlestick chart of the same bars (SVG built here: the library draws profiles, not candles). */
function candleSvg(candles) {
  const w = Math.max(8, Math.min(24, Math.floor(1000 / Math.max(1, candles.length))))
  const h = 240
  const lo = Math.min(...candles.map((c) => Number(c.low)))
  const hi = Math.max(...candles.map((c) => Number(c.high)))
  const y = (p) => 10 + ((hi - Number(p)) / (hi - lo || 1)) * (h - 20)
  const marks = candles.map((c, i) => {
    const x = 60 + i * w
    const up = Number(c.close) >= Number(c.open)
    const colour = up ? '#16a34a' : '#dc2626'
    const top = y(up ? c.close : c.open)
    const bottom = y(up ? c.open : c.close)
    return (
      `<g class="candle" data-time="${c.time}"><line x1="${x + w / 2}" x2="${x + w / 2}" y1="${y(c.high)}" y2="${y(c.low)}" stroke="${colour}"/>` +
      `<rect x="${x + 1}" width="${w - 2}" y="${top}" height="${Math.max(1, bottom - top)}" fill="${colour}"/></g>`
    )
  })
  const axis = [hi, (hi + lo) / 2, lo].map(
    (p) => `<text x="54" y="${y(p) + 4}" text-anchor="end" font-size="11">${p.toFixed(2)}</text>`,
  )
  return `<svg xmlns="http://www.w3.org/2000/svg" class="candles" data-bars="${candles.length}" width="${70 + candles.length * w}" height="${h}">${axis.join('')}${marks.join('')}</svg>`
}

async function show() {
  const exchange = $('exchange').value
  const symbol = $('symbol').value
  const frame = $('frame').value
  const bars = Number($('range').value)
  const days = Number($('days').value)
  const security = securities.find((s) => s.symbol === symbol)
  const timeZone = exchanges.find((e) => e.code === exchange)?.timezone ?? 'UTC'
  document.body.dataset.state = 'loading'
  status(`loading ${exchange} ${symbol} ...`)
  try {
    // the last `bars` buckets that traded within three days
    const period = String(3 * 86400)
    const candles = (
      await get('/candles', { exchange, symbol, timeframe: frame, period, limit: '1000' })
    ).candles.slice(-bars)
    if (candles.length === 0) throw new Error(`no trades of ${symbol} in the last three days`)
    // rows: about 30..80 over the range the bars cover
    const range = (
      Math.max(...candles.map((c) => Number(c.high))) - Math.min(...candles.map((c) => Number(c.low)))
    ).toFixed(security.pricePrecision)
    const rowSize = autoRowSize({ tickSize: security.tickSize, range }).rowSize
    const from = String(Math.floor(Date.parse(candles[0].time) / 1000))
    const to = String(Math.floor(Date.parse(candles[candles.length - 1].time) / 1000) + FRAME_SECONDS[frame])
    const fp = await get('/footprint', { exchange, symbol, timeframe: frame, from, to, rowSize: String(rowSize) })
    const profiles = fp.profiles
      .map(profileTimes)
      .filter((p) => p.rows.length > 0)
      .slice(-bars)
    const bodies = candles.map((c) => ({ ...c, time: Date.parse(c.time) }))
    $('footprint').innerHTML = renderFootprintChart(profiles, { candles: bodies, timeZone }).replace(
      /^<\?xml[^>]*>/,
      '',
    )
    const tpo = await get('/tpo', { exchange, symbol, timeframe: '1d', period: String(days * 86400) })
    // /tpo answers rows of one tick: re-grid them so that the widest day shows about 30..80 rows
    const ticks = tpo.profiles.map(profileTimes).filter((p) => p.rows.length > 0)
    const widest = ticks.reduce(
      (w, p) => (w === undefined || Number(p.high) - Number(p.low) > Number(w.high) - Number(w.low) ? p : w),
      undefined,
    )
    const tpoRows = widest === undefined ? 1 : autoRowSize({ tickSize: security.tickSize, candles: [widest] }).rowSize
    const periods = ticks.map((p) => regridTpo(p, { rowSize: tpoRows }))
    $('tpo').innerHTML =
      periods.length > 0
        ? renderTpoChart(periods, { timeZone }).replace(/^<\?xml[^>]*>/, '')
        : '<p>no TPO periods in range</p>'
    $('candles').innerHTML = candleSvg(candles)
    status(
      `${exchange} ${symbol}: ${profiles.length} footprint bars (${frame}, rows of ${rowSize} ticks), ${periods.length} TPO periods (rows of ${tpoRows} ticks), ${candles.length} candles`,
    )
    document.body.dataset.state = 'ready'
  } catch (e) {
    status(e.message, true)
    document.body.dataset.state = 'error'
  }
}

async function start() {
  try {
    exchanges = (await get('/exchanges')).exchanges
    options(
      $('exchange'),
      exchanges,
      (e) => `${e.code} (${e.name})`,
      (e) => e.code,
    )
    if (exchanges.some((e) => e.code === 'CME')) $('exchange').value = 'CME'
    await loadSymbols()
    await show()
  } catch (e) {
    status(e.message, true)
    document.body.dataset.state = 'error'
  }
}

$('exchange').addEventListener('change', () => loadSymbols().then(show))
$('symbol').addEventListener('change', show)
$('controls').addEventListener('submit', (e) => {
  e.preventDefault()
  show()
})
start()
