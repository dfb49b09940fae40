import type { Readable, Writable } from 'node:stream'
import { createCandleAggregator, type Candle } from '../candles/index.js'
import { MarketDataError } from '../errors.js'
import { createFootprintAggregator, type FootprintProfile } from '../footprint/index.js'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  renderFootprint,
  renderFootprintChart,
  renderFootprintSvg,
  renderTpo,
  renderTpoChart,
  renderTpoSvg,
} from '../render/index.js'
import { createTpoAggregator, type TpoProfile } from '../tpo/index.js'
import type { Trade } from '../trades/index.js'
import type { TradeRecord } from '../io/index.js'
import type { Aggregator } from '../aggregator.js'
import { timeLabel } from '../render/text.js'
import { createAnalyticsOutput } from './analytics-output.js'
import { tpoAnalyticsAnnotations } from './chart-annotations.js'
import { badInput, usage } from './cli-error.js'
import { openRecords, type Batch, type InputOptions, type InputStats } from './input.js'
import { footprintOptions, tpoOptions } from './profile-options.js'
import { pickRowSize, picksFootprintRows, tpoForText, type Reread } from './row-size.js'
import { divides, inferTickSize } from './tick-size.js'
import { resultsFromCandles, withAnySide } from './from-candles.js'
import type { RunConfig } from './options.js'
import { ItemWriter, Out, svgDirectory } from './output.js'
import { TIME_FORMAT_NAMES } from '../io/time-input.js'

/** The process streams a run uses (injected for tests). */
export interface Io {
  stdin: Readable
  stdout: Writable
  stderr: Writable
  stderrIsTTY: boolean
}

const BATCH = 8192
/** The `sides` field of a footprint profile in JSON and NDJSON output when the tick rule gave its trades' sides. */
export const ESTIMATED_SIDES = 'estimated (tick rule)'

/** One aggregator behind a common face: feed a batch, hand out what closed, flush at the end. */
interface Runner<T> {
  feed(trades: Trade[]): void
  closed(time: number): T[]
  flush(): T[]
}

/**
 * The runner of a command. With `candles` given (footprint --chart bars), the same trades also build
 * candles of the frame, for the bodies of the chart's bars: a batch the footprint refuses at record i
 * feeds the candles only the records before i, as the footprint keeps them.
 */
function makeRunner(c: RunConfig, tickSize: string, candles?: Candle[]): Runner<unknown> {
  if (c.command === 'candles') {
    const agg = createCandleAggregator({
      timeframe: c.timeframe,
      timeZone: c.timeZone,
      ...(c.sessions !== undefined ? { sessions: c.sessions } : {}),
      ...(c.tickSize !== undefined ? { tickSize: c.tickSize } : {}),
    })
    return runner(agg)
  }
  if (c.command === 'footprint') {
    const agg = createFootprintAggregator(footprintOptions(c, tickSize))
    if (candles === undefined) return runner(agg)
    const side = createCandleAggregator({
      timeframe: c.timeframe,
      timeZone: c.timeZone,
      tickSize,
      ...(c.sessions !== undefined ? { sessions: c.sessions } : {}),
    })
    return {
      feed: (t) => {
        try {
          agg.addAll(t)
        } catch (e) {
          if (e instanceof MarketDataError && e.index !== undefined && e.index < t.length)
            side.addTrades(t.slice(0, e.index))
          throw e
        }
        side.addTrades(t)
      },
      closed: (time) => {
        candles.push(...side.take())
        return agg.advance(time)
      },
      flush: () => {
        candles.push(...side.finish())
        return agg.flush()
      },
    }
  }
  return runner(createTpoAggregator(tpoOptions(c, tickSize)))
}

/** The three aggregators share one contract: one runner for all. */
function runner<O>(agg: Aggregator<Trade, O>): Runner<O> {
  return { feed: (t) => agg.addTrades(t), closed: (time) => agg.advance(time), flush: () => agg.flush() }
}

const pad = (s: string, n: number) => s.padStart(n)

function candleHeader(ticks = false): string {
  return `${'time'.padEnd(ticks ? 23 : 16)}  ${pad('open', 12)} ${pad('high', 12)} ${pad('low', 12)} ${pad('close', 12)} ${pad('volume', 14)} ${pad('trades', 8)}  session\n`
}

/** A candle's time: to the minute, or to the millisecond for tick frames (two candles may share a minute). */
function candleTime(k: Candle, tz: string, ticks: boolean): string {
  const label = timeLabel(k.time, tz)
  if (!ticks) return label
  const ms = ((k.time % 60_000) + 60_000) % 60_000
  return `${label}:${String(Math.floor(ms / 1000)).padStart(2, '0')}.${String(ms % 1000).padStart(3, '0')}`
}

function candleLine(k: Candle, tz: string, ticks = false): string {
  const time = candleTime(k, tz, ticks)
  const line = `${time.padEnd(ticks ? 23 : 16)}  ${pad(k.open, 12)} ${pad(k.high, 12)} ${pad(k.low, 12)} ${pad(k.close, 12)} ${pad(k.volume, 14)} ${pad(String(k.trades ?? ''), 8)}  ${k.session ?? ''}`
  return `${line.trimEnd()}\n`
}

function svgName(c: RunConfig, p: { time: number; sessionType?: string }): string {
  return `${c.command}-${timeLabel(p.time, c.timeZone).replace(/-/g, '').replace(' ', '-').replace(':', '')}${p.sessionType !== undefined ? `-${p.sessionType}` : ''}.svg`
}

function stripRecord(msg: string): string {
  return msg.replace(/^record \d+: /, '')
}

function renderChart(c: RunConfig, profiles: unknown[], candles: Candle[]): string {
  try {
    return c.command === 'footprint'
      ? renderFootprintChart(profiles as FootprintProfile[], {
          timeZone: c.timeZone,
          candles,
          ...(c.imbalance !== undefined ? { imbalanceRatio: c.imbalance } : {}),
          ...(c.cells !== undefined ? { cells: c.cells } : {}),
        })
      : renderTpoChart(profiles as TpoProfile[], {
          timeZone: c.timeZone,
          ...(c.analytics ? { annotations: tpoAnalyticsAnnotations(profiles as TpoProfile[]) } : {}),
        })
  } catch (e) {
    if (e instanceof MarketDataError) throw badInput(e.message)
    throw e
  }
}

function writeChart(file: string, doc: string): void {
  try {
    writeFileSync(file, doc)
  } catch (e) {
    throw badInput(`cannot write ${file}: ${(e as Error).message}`)
  }
}

/** The input options of a run. */
function inputOptions(
  c: RunConfig,
  io: Io,
  note: (m: string) => void,
  progress: ((f: number) => void) | undefined,
): InputOptions {
  return {
    file: c.file,
    format: c.inputFormat,
    skipBad: c.skipBad,
    from: c.from,
    to: c.to,
    batchSize: BATCH,
    stdin: io.stdin,
    note,
    progress,
    columns: c.columns,
    timeUnit: c.timeUnit,
    inputZone: c.inputZone,
    // candles and TPO need no side; a footprint does (or the tick rule's estimate)
    sideRule: c.sideRule ?? (c.command === 'footprint' ? 'column' : 'optional'),
    sessionHours: c.sessionHours,
  }
}

/** Runs candles / footprint / tpo over the input; returns the exit code (errors throw CliError). */
export async function runAggregate(config: RunConfig, io: Io): Promise<number> {
  let c = config
  const note = (m: string) => {
    if (!c.quiet) io.stderr.write(`${m}\n`)
  }
  // options are checked before any input is read (a bad option is a usage error, exit 2)
  try {
    makeRunner(c, c.tickSize ?? '1')
  } catch (e) {
    if (e instanceof MarketDataError) throw usage(e.message)
    throw e
  }
  const svgDir = c.format === 'svg' ? svgDirectory(c.out) : undefined
  const out = c.out !== undefined && svgDir === undefined ? Out.toFile(c.out, [c.file]) : new Out(io.stdout)
  const imbalance = c.imbalance ?? '300'
  const analytics = c.analytics && c.command !== 'candles' ? createAnalyticsOutput() : undefined
  const tpoRender = { timeZone: c.timeZone, ...(c.letters !== undefined ? { letters: c.letters } : {}) }
  // without a row size, a profile of thousands of one-tick rows is printed at the rule's size, said in its header
  const tpoText = (p: TpoProfile): string => {
    const t = c.rowSize === undefined && c.rowSizeValue === undefined ? tpoForText(p) : { profile: p }
    const text = renderTpo(t.profile, tpoRender)
    if (t.header === undefined) return text
    const nl = text.indexOf('\n')
    return `${text.slice(0, nl + 1)}${t.header}\n${text.slice(nl + 1)}`
  }
  const text =
    c.command === 'candles'
      ? (k: unknown, i: number) =>
          (i === 0 ? candleHeader(c.timeframe.unit === 'TICK') : '') +
          candleLine(k as Candle, c.timeZone, c.timeframe.unit === 'TICK')
      : c.command === 'footprint'
        ? (p: unknown, i: number) =>
            (i > 0 ? '\n' : '') +
            renderFootprint(p as FootprintProfile, { timeZone: c.timeZone, imbalanceRatio: imbalance }) +
            (analytics?.text(p) ?? '')
        : (p: unknown, i: number) => (i > 0 ? '\n' : '') + tpoText(p as TpoProfile) + (analytics?.text(p) ?? '')
  const svg =
    c.command === 'footprint'
      ? (p: unknown) => renderFootprintSvg(p as FootprintProfile, { timeZone: c.timeZone, imbalanceRatio: imbalance })
      : c.command === 'tpo'
        ? (p: unknown) => renderTpoSvg(p as TpoProfile, tpoRender)
        : undefined
  const writer = new ItemWriter<unknown>(out, c.format, text, svg, svgDir, (p) => svgName(c, p as { time: number }))
  const bars = c.chart === 'bars'
  const chartCandles: Candle[] | undefined = bars && c.command === 'footprint' ? [] : undefined
  const kept: unknown[] = []
  // a footprint's buy and sell volumes from tick-rule sides are an estimate: its JSON says so on every profile
  const marked = (item: unknown) =>
    c.command === 'footprint' && stats.sides === 'tick' && (c.format === 'json' || c.format === 'ndjson')
      ? { ...(item as object), sides: ESTIMATED_SIDES }
      : item
  const emit = async (items: unknown[]) => {
    for (const item of items) {
      const it = marked(analytics === undefined ? item : analytics.attach(item))
      if (bars) kept.push(it)
      if (bars && c.last !== undefined && kept.length > c.last) kept.shift()
      if (bars) continue
      if (c.last !== undefined) {
        kept.push(it)
        if (kept.length > c.last) kept.shift()
      } else await writer.add(it)
    }
  }
  const isFile = c.file !== undefined && c.file !== '-'
  const showProgress = io.stderrIsTTY && isFile && !c.quiet
  const progress = showProgress
    ? (f: number) => {
        const n = Math.round(f * 30)
        io.stderr.write(`\r[${'#'.repeat(n)}${'.'.repeat(30 - n)}] ${Math.floor(f * 100)}%`)
      }
    : undefined
  const opened = await openRecords(inputOptions(c, io, note, progress), c.input)
  const stats: InputStats = opened.stats
  const it = opened.batches[Symbol.asyncIterator]()
  const head = await it.next()
  const rest = async function* (): AsyncGenerator<Batch<unknown>, void, undefined> {
    if (head.done === true) return
    yield head.value
    for (;;) {
      const n = await it.next()
      if (n.done === true) return
      yield n.value
    }
  }
  if (c.command === 'footprint' && opened.kind === 'candles')
    throw badInput('a footprint needs trades (with sides), not candles: give a trades file')
  const fromCandles = opened.kind === 'candles' || (c.command === 'tpo' && stats.sides === 'none')
  let runner: Runner<unknown> | undefined
  if (fromCandles) await emit(await resultsFromCandles(c, opened.kind, rest(), note))
  for await (const b of fromCandles ? [] : rest()) {
    const batch = { trades: withAnySide(b.records as TradeRecord[]), lines: b.lines }
    if (runner === undefined) {
      let tick = c.tickSize
      const step = inferTickSize(batch.trades)
      if (tick !== undefined && !divides(tick, step))
        note(
          `warning: --tick-size ${tick} does not divide the prices (the first ${batch.trades.length} are multiples of ${step}): prices off the grid are floored into its rows`,
        )
      if (tick === undefined && c.command !== 'candles') {
        tick = step
        note(
          `tick size not given: using ${tick}, the largest step dividing the first ${batch.trades.length} prices (set it with --tick-size)`,
        )
      }
      const tpoChart = bars && c.command === 'tpo' && c.rowSize === undefined && c.rowSizeValue === undefined
      if (tpoChart || picksFootprintRows(c)) {
        const reread: Reread | undefined = isFile
          ? () => openRecords({ ...inputOptions(c, io, () => {}, undefined), sideRule: 'optional' }, 'trades')
          : undefined
        try {
          c = { ...c, rowSize: await pickRowSize(c, batch.trades, reread, note) }
        } catch (e) {
          if (e instanceof MarketDataError) throw badInput(e.message)
          throw e
        }
      }
      try {
        runner = makeRunner(c, tick ?? '1', chartCandles)
        // merged TPO profiles: the analytics build each period's main session beside them
        if (analytics !== undefined && c.command === 'tpo')
          runner = analytics.follow(runner, tpoOptions(c, tick ?? '1'))
      } catch (e) {
        // the options passed the check with tick 1: what fails is the tick guessed from the data
        if (e instanceof MarketDataError && c.tickSize === undefined) {
          throw badInput(
            `the tick size guessed from the first ${batch.trades.length} prices (${tick ?? '1'}) does not work: ${e.message}; give --tick-size`,
          )
        }
        throw e
      }
    }
    const last = batch.trades[batch.trades.length - 1]!.time
    // a refused record changes nothing and the batch's error says how many records it applied: with
    // --skip-bad the rest of the batch is fed again after such a record (a number the library cannot hold
    // exactly, a price too far from 0 for the grid)
    const resumable = c.skipBad
    let start = 0
    for (;;) {
      try {
        runner.feed(start === 0 ? batch.trades : batch.trades.slice(start))
        break
      } catch (e) {
        if (!(e instanceof MarketDataError)) throw e
        const i = e.applied ?? e.index ?? -1
        if (resumable && i >= 0 && i < batch.trades.length - start) {
          stats.bad++
          stats.rows--
          start += i + 1
          if (start >= batch.trades.length) break
          continue
        }
        const line = batch.lines[start + i]
        throw badInput(line !== undefined ? `line ${line}: ${stripRecord(e.message)}` : e.message)
      }
    }
    try {
      await emit(runner.closed(last))
    } catch (e) {
      if (e instanceof MarketDataError) throw badInput(e.message)
      throw e
    }
  }
  if (showProgress) io.stderr.write('\r\x1b[K')
  if (runner !== undefined) await emit(runner.flush())
  if (bars) {
    const doc = renderChart(c, kept, chartCandles ?? [])
    if (svgDir !== undefined) writeChart(join(svgDir, `${c.command}-chart.svg`), doc)
    else await out.write(doc)
  } else {
    for (const it of kept) await writer.add(it)
    await writer.end()
  }
  await out.close()
  const what = c.command === 'candles' ? 'candles' : 'profiles'
  const read = opened.kind === 'candles' ? 'candles' : 'trades'
  if (stats.rows === 0 && stats.bad === 0 && stats.outside === 0) note(`no ${read} in the input`)
  else
    note(
      `read ${stats.rows} ${read}${stats.outside > 0 ? ` (${stats.outside} outside --from/--to left out)` : ''}; wrote ${bars ? `a chart of ${kept.length}` : writer.written} ${what}${stats.timeKind !== undefined ? ` (times as ${TIME_FORMAT_NAMES[stats.timeKind]})` : ''}`,
    )
  if (stats.sides === 'tick')
    note(
      "sides estimated by the tick rule (--side-rule tick): buy and sell volumes are an estimate, not the trades' own",
    )
  if (stats.bad > 0) io.stderr.write(`skipped ${stats.bad} bad row${stats.bad === 1 ? '' : 's'} (--skip-bad)\n`)
  return 0
}
