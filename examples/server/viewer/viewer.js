// The viewer page's script (plain browser JavaScript, no build step): it calls the REST endpoints a user
// would call, with the page's API key, draws the answers with the library's SVG renderers and the candles with
// lightweight-charts, then follows the live candle and footprint streams of the shown security and frame.
import { autoRowSize, regridTpo, renderFootprintChart, renderTpoChart } from '/viewer/lib.js'
import { createCandleChart, follow } from '/viewer/live.js'

const API = '/api/v1/marketdata'
const KEY = document.querySelector('meta[name="api-key"]').content
const $ = (id) => document.getElementById(id)
const FRAME_SECONDS = { '5m': 300, '15m': 900, '30m': 1800, '1h': 3600 }
let exchanges = []
let securities = []
const stopLive = []
const candleChart = createCandleChart($('chart'), $('legend'))
window.viewer = { chart: candleChart.chart, series: candleChart.series }

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

async function show() {
  const exchange = $('exchange').value
  const symbol = $('symbol').value
  const frame = $('frame').value
  const bars = Number($('range').value)
  const days = Number($('days').value)
  const security = securities.find((s) => s.symbol === symbol)
  const timeZone = exchanges.find((e) => e.code === exchange)?.timezone ?? 'UTC'
  document.body.dataset.state = 'loading'
  document.body.dataset.live = 'off'
  for (const stop of stopLive.splice(0)) stop()
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
    const drawFootprint = () => {
      $('footprint').innerHTML = renderFootprintChart(profiles.slice(-bars), {
        candles: bodies.slice(-bars),
        timeZone,
      }).replace(/^<\?xml[^>]*>/, '')
    }
    drawFootprint()
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
    candleChart.setData(candles, security)
    // live: the open bar's candle and footprint cells change as trades arrive
    const put = (list, item) => {
      const i = list.findIndex((x) => x.time === item.time)
      if (i >= 0) list[i] = item
      else if (list.length === 0 || list[list.length - 1].time < item.time) list.push(item)
    }
    let live = 0
    const onFrame = (f) => {
      if (f.type === 'subscribed' && ++live === 2) document.body.dataset.live = 'on'
      if (f.type === 'error') status(`live stream: ${f.code}: ${f.message}`, true)
    }
    stopLive.push(
      follow('candles', { exchange, symbol, timeframe: frame }, (f) => {
        onFrame(f)
        if ((f.type === 'snapshot' || f.type === 'update' || f.type === 'closed') && f.bucket !== null) {
          candleChart.update(f.bucket)
          put(bodies, { ...f.bucket, time: Date.parse(f.bucket.time) })
        }
      }),
      follow('footprint', { exchange, symbol, timeframe: frame, rowSize }, (f) => {
        onFrame(f)
        if ((f.type === 'snapshot' || f.type === 'update' || f.type === 'closed') && f.bucket !== null) {
          put(profiles, profileTimes(f.bucket))
          drawFootprint()
          $('footprint').dataset.updates = String(Number($('footprint').dataset.updates ?? '0') + 1)
        }
      }),
    )
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
