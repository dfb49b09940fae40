import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { formatInTimeZone } from 'date-fns-tz'
import { candlesFromTrades, resampleCandles, type Candle } from '../candles/index.js'
import { footprintProfiles } from '../footprint/index.js'
import {
  renderFootprint,
  renderFootprintChart,
  renderFootprintSvg,
  renderTpo,
  renderTpoChart,
  renderTpoSvg,
} from '../render/index.js'
import { sampleTrades } from '../sample/index.js'
import { autoRowSize, tpoProfiles } from '../tpo/index.js'
import type { Io } from './aggregate.js'
import { argsError } from './arg-errors.js'
import { usage } from './cli-error.js'
import { Out } from './output.js'
import { writeSample } from './sample-command.js'

const TZ = 'America/New_York'
const TICK = '0.25'

function candleTable(candles: Candle[]): string {
  const head = `${'time (New York)'.padEnd(16)}  ${'open'.padStart(8)} ${'high'.padStart(8)} ${'low'.padStart(8)} ${'close'.padStart(8)} ${'volume'.padStart(8)} ${'trades'.padStart(7)}`
  const rows = candles.map(
    (k) =>
      `${formatInTimeZone(k.time, TZ, 'yyyy-MM-dd HH:mm').padEnd(16)}  ${k.open.padStart(8)} ${k.high.padStart(8)} ${k.low.padStart(8)} ${k.close.padStart(8)} ${k.volume.padStart(8)} ${String(k.trades ?? '').padStart(7)}`,
  )
  return [head, ...rows].join('\n')
}

/**
 * The charts: footprint bars of the main session (numbers in the cells) and of the whole day in 15-minute
 * bars (a colour scale), and a TPO chart of a generated week; row sizes from `autoRowSize`.
 */
function writeCharts(dir: string, seed: number): string[] {
  const trades = sampleTrades({ seed, timeZone: TZ })
  const main = { timeZone: TZ, sessions: ['MAINSESSION' as const] }
  const [day] = candlesFromTrades(trades, { timeframe: '1d', tickSize: TICK, ...main })
  if (day === undefined) return []
  const rowSize = autoRowSize({ tickSize: TICK, candles: [day] }).rowSize
  const m30 = footprintProfiles(trades, { timeframe: '30m', tickSize: TICK, rowSize, ...main })
  const c30 = candlesFromTrades(trades, { timeframe: '30m', tickSize: TICK, ...main })
  writeFileSync(join(dir, 'footprint-chart.svg'), renderFootprintChart(m30, { candles: c30, timeZone: TZ }))
  const fineRow = autoRowSize({ tickSize: TICK, candles: [day], minRows: 60, maxRows: 160 }).rowSize
  const m15 = footprintProfiles(trades, { timeframe: '15m', tickSize: TICK, rowSize: fineRow, timeZone: TZ }).slice(-60)
  const c15 = candlesFromTrades(trades, { timeframe: '15m', tickSize: TICK, timeZone: TZ })
  writeFileSync(join(dir, 'footprint-chart-60.svg'), renderFootprintChart(m15, { candles: c15, timeZone: TZ }))
  const week = sampleTrades({ seed, timeZone: TZ, days: 5 })
  const days = candlesFromTrades(week, { timeframe: '1d', tickSize: TICK, ...main })
  const tpoRow = autoRowSize({ tickSize: TICK, candles: days }).rowSize
  writeFileSync(
    join(dir, 'tpo-chart.svg'),
    renderTpoChart(tpoProfiles(week, { timeframe: '1d', tickSize: TICK, rowSize: tpoRow, ...main }), { timeZone: TZ }),
  )
  return ['footprint-chart.svg', 'footprint-chart-60.svg', 'tpo-chart.svg']
}

const DEMO_OPTIONS = { 'out-dir': { type: 'string' }, seed: { type: 'string' } } as const

/** `svc-marketdata demo` (npm start): the library on a generated day, in a few seconds. */
export async function runDemo(argv: string[], io: Io): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({ args: argv, strict: true, allowPositionals: false, options: DEMO_OPTIONS })
  } catch (e) {
    throw argsError(e, 'demo', DEMO_OPTIONS)
  }
  const dir = parsed.values['out-dir'] ?? 'demo-output'
  const seedText = parsed.values.seed ?? '1'
  if (!/^\d+$/.test(seedText) || Number(seedText) > 0xffffffff)
    throw usage(`--seed must be a whole number 0..4294967295, got ${JSON.stringify(seedText)}`)
  const seed = Number(seedText)
  const say = (s: string) => io.stdout.write(`${s}\n`)
  const t0 = performance.now()

  const trades = sampleTrades({ seed, timeZone: TZ })
  const n = trades.time.length
  say(
    `svc-marketdata demo: ${n.toLocaleString('en-US')} sample trades of Monday 1 June 2026 (tick ${TICK}, New York sessions:`,
  )
  say(`pre-market 04:00-09:30, main 09:30-16:00, post-market 16:00-20:00), seed ${seed}.\n`)

  // TPO of the main session, rows of 4 ticks (one point) so the chart fits a terminal
  const [tpo] = tpoProfiles(trades, {
    timeframe: '1d',
    tickSize: TICK,
    rowSize: 4,
    timeZone: TZ,
    sessions: ['MAINSESSION'],
  })
  say('== TPO (Market Profile) of the main session: 30-minute blocks, rows of 1 point ==\n')
  if (tpo !== undefined) say(renderTpo(tpo, { timeZone: TZ }))

  // footprint of the first main-session hour with trades at 10:00
  const fps = footprintProfiles(trades, {
    timeframe: '1h',
    tickSize: TICK,
    rowSize: 2,
    timeZone: TZ,
    sessions: ['MAINSESSION'],
  })
  const hour = fps.find((p) => formatInTimeZone(p.time, TZ, 'HH:mm') === '10:00') ?? fps[0]
  say('== Footprint of 10:00-11:00: sell x buy per row of 0.50, delta, imbalances ==\n')
  if (hour !== undefined) say(renderFootprint(hour, { timeZone: TZ }))

  // candles: 1-minute candles resampled into hours
  const minutes = candlesFromTrades(trades, {
    timeframe: '1m',
    timeZone: TZ,
    tickSize: TICK,
    sessions: ['MAINSESSION'],
  })
  const hours = resampleCandles(minutes, { timeframe: '1h', sourceTimeframe: '1m', timeZone: TZ })
  say(`== Candles: ${minutes.length} one-minute candles of the main session resampled to 1h ==\n`)
  say(`${candleTable(hours)}\n`)

  mkdirSync(dir, { recursive: true })
  if (tpo !== undefined) writeFileSync(join(dir, 'tpo.svg'), renderTpoSvg(tpo, { timeZone: TZ }))
  if (hour !== undefined) writeFileSync(join(dir, 'footprint.svg'), renderFootprintSvg(hour, { timeZone: TZ }))
  const charts = writeCharts(dir, seed)
  const csv = join(dir, 'sample.csv')
  const out = Out.toFile(csv)
  await writeSample(out, { seed, timeZone: TZ })
  await out.close()
  say(
    `Wrote ${join(dir, 'tpo.svg')}, ${join(dir, 'footprint.svg')}, ${charts.map((f) => join(dir, f)).join(', ')} (open them in a browser) and ${csv}.`,
  )
  say(`Done in ${((performance.now() - t0) / 1000).toFixed(1)} s.\n`)
  say('Run the same on your own trades (CSV time,price,volume,side[,session] or NDJSON; see --help):')
  say(
    `  npx svc-marketdata tpo ${csv} --timeframe 1d --tick-size 0.25 --row-size 4 --session-type MAINSESSION --tz ${TZ}`,
  )
  say(`  npx svc-marketdata footprint ${csv} --timeframe 1h --tick-size 0.25 --row-size 2 --tz ${TZ} --last 1`)
  say(`  npx svc-marketdata candles ${csv} --timeframe 30m --tz ${TZ}`)
  say(`  npx svc-marketdata tpo ${csv} --timeframe 1d --tz ${TZ} --format svg --last 1 --out tpo.svg`)
  say(
    `  npx svc-marketdata footprint ${csv} --timeframe 30m --tick-size 0.25 --row-size 8 --tz ${TZ} --chart bars --out footprint-chart.svg`,
  )
  say('  npx svc-marketdata sample --out sample.csv --days 5')
  return 0
}
