// The viewer's candle chart (TradingView's lightweight-charts, its standalone build served from node_modules)
// and its live streams (the server's WebSocket streams, authenticated with the page's key as a subprotocol).
const LWC = window.LightweightCharts
const KEY = document.querySelector('meta[name="api-key"]').content
const STREAM = '/api/v1/marketdata/stream'

/** Decimals to label prices with: the security's quoted precision, or the tick size's when it has more. */
export function priceDecimals(security) {
  const t = String(security.tickSize)
  return Math.max(security.pricePrecision ?? 0, t.includes('.') ? t.split('.')[1].length : 0)
}

const bar = (c) => ({
  time: Math.floor(Date.parse(c.time) / 1000),
  open: Number(c.open),
  high: Number(c.high),
  low: Number(c.low),
  close: Number(c.close),
})

/** A candlestick chart with a time axis, crosshair, zoom and pan, and a legend of the bar under the crosshair. */
export function createCandleChart(el, legend) {
  const chart = LWC.createChart(el, {
    autoSize: true,
    layout: { background: { color: '#ffffff' }, textColor: '#111827' },
    grid: { vertLines: { color: '#f3f4f6' }, horzLines: { color: '#f3f4f6' } },
    crosshair: { mode: LWC.CrosshairMode.Normal },
    timeScale: { timeVisible: true, secondsVisible: false },
  })
  const series = chart.addSeries(LWC.CandlestickSeries, {
    upColor: '#16a34a',
    downColor: '#dc2626',
    wickUpColor: '#16a34a',
    wickDownColor: '#dc2626',
    borderVisible: false,
  })
  let decimals = 2
  const fmt = (b) =>
    b === undefined
      ? ''
      : `O ${b.open.toFixed(decimals)}  H ${b.high.toFixed(decimals)}  L ${b.low.toFixed(decimals)}  C ${b.close.toFixed(decimals)}`
  const lastBar = () => {
    const d = series.data()
    return d[d.length - 1]
  }
  chart.subscribeCrosshairMove((p) => {
    legend.textContent = fmt(p.seriesData?.get(series) ?? lastBar())
  })
  return {
    chart,
    series,
    setData(candles, security) {
      decimals = priceDecimals(security)
      series.applyOptions({ priceFormat: { type: 'price', precision: decimals, minMove: Number(security.tickSize) } })
      series.setData(candles.map(bar))
      chart.timeScale().fitContent()
      legend.textContent = fmt(lastBar())
      el.dataset.bars = String(candles.length)
    },
    update(c) {
      const b = bar(c)
      const last = lastBar()
      // a closed bucket older than the newest bar on the chart is already drawn whole
      if (last !== undefined && b.time < last.time) return
      series.update(b)
      legend.textContent = fmt(lastBar())
      el.dataset.bars = String(series.data().length)
      el.dataset.updates = String(Number(el.dataset.updates ?? '0') + 1)
    },
  }
}

/** Opens a stream of `kind` and subscribes; `onFrame` gets every frame. Returns its close. */
export function follow(kind, subscription, onFrame) {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws'
  const ws = new WebSocket(`${scheme}://${location.host}${STREAM}/${kind}`, ['svc-marketdata.v1', `x-api-key.${KEY}`])
  ws.onopen = () => ws.send(JSON.stringify({ type: 'subscribe', ...subscription }))
  ws.onmessage = (e) => onFrame(JSON.parse(e.data))
  ws.onclose = (e) => onFrame({ type: 'closed-connection', code: e.code, reason: e.reason })
  return () => ws.close()
}
