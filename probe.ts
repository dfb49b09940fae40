import { sampleMarketTrades } from './src/sample/index.js'
import { footprintProfiles } from './src/footprint/index.js'
const c = sampleMarketTrades('thin-altcoin', { seed: 42, trades: 100_000 })
const v2 = { ...c, volume: c.volume.map((x) => Math.round(x)) }
const p2 = { ...c, price: c.price.map((x) => Math.round(x * 1e6) / 1e6) }
for (let r = 0; r < 3; r++) {
  for (const [name, d] of [['thin', c], ['whole volumes', v2], ['prices on grid', p2]] as const) {
    const t = performance.now(); const out = footprintProfiles(d, { timeframe: '5m', tickSize: '0.000001' }); console.log(name, (performance.now() - t).toFixed(0), 'ms', out.length)
  }
}
