import { parseArgs } from 'node:util'
import { formatFixed, formatUnits, parseDecimal } from '../decimal/index.js'
import { sampleTradeBatches, type SampleOptions } from '../sample/index.js'
import { resolveSampleOptions } from '../sample/options.js'
import { MarketDataError } from '../errors.js'
import { isValidTimeZone } from '../time/index.js'
import { SESSION_NAMES, type TradeColumns } from '../trades/index.js'
import { argsError } from './arg-errors.js'
import { usage } from './cli-error.js'
import { Out } from './output.js'
import type { Io } from './aggregate.js'

export interface SampleFileOptions extends SampleOptions {
  format?: 'csv' | 'ndjson'
  timeFormat?: 'iso' | 'ms' | 's'
}

/** Writes sample trades as CSV (with a header) or NDJSON, batch by batch in constant memory. */
export async function writeSample(out: Out, opts: SampleFileOptions): Promise<number> {
  const format = opts.format ?? 'csv'
  const timeFormat = opts.timeFormat ?? 'iso'
  const tick = parseDecimal(opts.tickSize ?? '0.25')
  const scale = tick.ok ? tick.value.scale : 2
  const pow = 10 ** scale
  const vd = opts.volumeDecimals ?? 0
  const vpow = 10 ** vd
  if (format === 'csv') await out.write('time,price,volume,side,session\n')
  let n = 0
  // the file options are the CLI's own: the generator's options are closed
  const { format: _format, timeFormat: _timeFormat, ...generator } = opts
  for (const b of sampleTradeBatches({ ...generator, batchSize: 16_384 }) as Iterable<TradeColumns>) {
    const lines: string[] = []
    for (let i = 0; i < b.time.length; i++) {
      const t = b.time[i]!
      const time =
        timeFormat === 'iso' ? new Date(t).toISOString() : timeFormat === 'ms' ? String(t) : formatUnits(t, 3)
      const price = formatFixed(Math.round(b.price[i]! * pow), scale, scale)
      const volume = formatUnits(Math.round(b.volume[i]! * vpow), vd)
      const side = b.side[i] === 1 ? 'buy' : 'sell'
      const session = SESSION_NAMES[b.session![i]!]!
      lines.push(
        format === 'csv'
          ? `${time},${price},${volume},${side},${session}`
          : JSON.stringify({ time: timeFormat === 'iso' ? time : Number(time), price, volume, side, session }),
      )
    }
    n += b.time.length
    await out.write(`${lines.join('\n')}\n`)
  }
  return n
}

const SAMPLE_OPTIONS = {
  out: { type: 'string', short: 'o' },
  days: { type: 'string' },
  'trades-per-day': { type: 'string' },
  start: { type: 'string' },
  seed: { type: 'string' },
  'tick-size': { type: 'string' },
  'start-price': { type: 'string' },
  'volume-decimals': { type: 'string' },
  tz: { type: 'string' },
  format: { type: 'string', short: 'f' },
  'time-format': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
} as const

/** `svc-marketdata sample`: parses its options and writes the file. */
export async function runSample(argv: string[], io: Io): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: false,
      strict: true,
      options: SAMPLE_OPTIONS,
    })
  } catch (e) {
    throw argsError(e, 'sample', SAMPLE_OPTIONS)
  }
  const v = parsed.values
  const int = (name: string, x: string | undefined, min: number): number | undefined => {
    if (x === undefined) return undefined
    if (!/^\d+$/.test(x) || Number(x) < min || !Number.isSafeInteger(Number(x)))
      throw usage(`--${name} must be an integer >= ${min} (at most 2^53 - 1), got ${JSON.stringify(x)}`)
    return Number(x)
  }
  const opts: SampleFileOptions = {}
  const days = int('days', v.days, 0)
  if (days !== undefined) opts.days = days
  const tpd = int('trades-per-day', v['trades-per-day'], 0)
  if (tpd !== undefined) opts.tradesPerDay = tpd
  const seed = int('seed', v.seed, 0)
  if (seed !== undefined) opts.seed = seed
  if (v.start !== undefined) {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v.start)
    if (m === null) throw usage(`--start must be a date YYYY-MM-DD, got ${JSON.stringify(v.start)}`)
    const start = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
    // Date.UTC rolls 2026-02-29 over to 1 March: a date that does not come back unchanged does not exist
    if (new Date(start).toISOString().slice(0, 10) !== v.start)
      throw usage(`--start: ${v.start} is not a calendar date`)
    opts.start = start
  }
  for (const [flag, key] of [
    ['tick-size', 'tickSize'],
    ['start-price', 'startPrice'],
  ] as const) {
    const x = v[flag]
    if (x === undefined) continue
    const r = parseDecimal(x)
    if (!r.ok || r.value.units <= 0n) throw usage(`--${flag} must be a positive decimal, got ${JSON.stringify(x)}`)
    opts[key] = x
  }
  const vd = v['volume-decimals']
  if (vd !== undefined) {
    if (vd !== '0' && vd !== '8') throw usage(`--volume-decimals must be 0 or 8, got ${JSON.stringify(vd)}`)
    opts.volumeDecimals = Number(vd)
  }
  if (v.tz !== undefined) {
    if (!isValidTimeZone(v.tz)) throw usage(`--tz must be an IANA time zone, got ${JSON.stringify(v.tz)}`)
    opts.timeZone = v.tz
  }
  if (v.format !== undefined) {
    if (v.format !== 'csv' && v.format !== 'ndjson')
      throw usage(`--format must be csv or ndjson, got ${JSON.stringify(v.format)}`)
    opts.format = v.format
  }
  const tf = v['time-format']
  if (tf !== undefined) {
    if (tf !== 'iso' && tf !== 'ms' && tf !== 's')
      throw usage(`--time-format must be iso, ms or s, got ${JSON.stringify(tf)}`)
    opts.timeFormat = tf
  }
  // the generator's own checks (tick size and start price against each other, ranges) are usage errors too
  try {
    resolveSampleOptions(opts, 'sample', ['format', 'timeFormat'])
  } catch (e) {
    if (e instanceof MarketDataError) throw usage(`${e.message} (see svc-marketdata sample --help)`)
    throw e
  }
  const out = v.out !== undefined ? Out.toFile(v.out) : new Out(io.stdout)
  const n = await writeSample(out, opts)
  await out.close()
  if (v.quiet !== true) io.stderr.write(`wrote ${n} sample trades${v.out !== undefined ? ` to ${v.out}` : ''}\n`)
  return 0
}
