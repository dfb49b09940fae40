import { createReadStream, statSync } from 'node:fs'
import type { Readable } from 'node:stream'
import type { Trade } from '../trades/index.js'
import { badInput } from './cli-error.js'
import { buildTrade, detectTimeKind, headerColumns, POSITIONAL, splitCsv, TIME_KIND_NAMES, type CsvColumns, type TimeKind } from './row-parser.js'

/** Options of {@link readTrades}. */
export interface InputOptions {
  /** A path, or undefined / '-' for stdin. */
  file: string | undefined
  format: 'csv' | 'ndjson' | undefined
  skipBad: boolean
  from: number | undefined
  to: number | undefined
  batchSize: number
  stdin: Readable
  /** Where notes (time format, progress, skipped rows) go. */
  note: (msg: string) => void
  progress: ((fraction: number) => void) | undefined
}

/** One batch: trades and the input line of each. */
export interface Batch {
  trades: Trade[]
  lines: number[]
}

/** Counts reported when the input ends. */
export interface InputStats {
  rows: number
  bad: number
  outside: number
  timeKind: TimeKind | undefined
}

/**
 * Reads trades as CSV or NDJSON from a file or stdin in constant memory, in batches. Validates each row;
 * a bad row throws a bad-input error naming its line, or with `skipBad` is skipped and counted. Rows
 * must come in non-decreasing time. The time format is detected from the first data row and stated.
 */
export async function* readTrades(opts: InputOptions, stats: InputStats): AsyncGenerator<Batch, void, undefined> {
  const isStdin = opts.file === undefined || opts.file === '-'
  let size = 0
  let stream: Readable
  if (isStdin) stream = opts.stdin
  else {
    try {
      size = statSync(opts.file!).size
    } catch (e) {
      throw badInput(`cannot read ${opts.file}: ${(e as Error).message}`)
    }
    stream = createReadStream(opts.file!)
  }
  let format = opts.format ?? (!isStdin && /\.(ndjson|jsonl|json)$/i.test(opts.file!) ? 'ndjson' : !isStdin && /\.(csv|txt)$/i.test(opts.file!) ? 'csv' : undefined)
  let lineNo = 0
  let columns: CsvColumns | undefined
  let kind: TimeKind | undefined
  let lastTime = -Infinity
  let batch: Batch = { trades: [], lines: [] }
  let lastProgress = 0
  const bad = (msg: string) => {
    if (!opts.skipBad) throw badInput(`line ${lineNo}: ${msg}${lineNo > 0 ? ' (use --skip-bad to skip bad rows)' : ''}`)
    stats.bad++
  }
  stream.setEncoding('utf8')
  const onLine = (raw: string): void => {
    lineNo++
    const line = raw.trim()
    if (line === '' || line.startsWith('#')) return
    if (format === undefined) format = line.startsWith('{') ? 'ndjson' : 'csv'
    let time: unknown, price: unknown, volume: unknown, side: unknown, session: unknown
    if (format === 'ndjson') {
      let o: unknown
      try {
        o = JSON.parse(line)
      } catch {
        bad('not a JSON object')
        return
      }
      if (typeof o !== 'object' || o === null || Array.isArray(o)) {
        bad('not a JSON object')
        return
      }
      const r = o as Record<string, unknown>
      time = r.time
      price = r.price
      volume = r.volume
      side = r.side
      session = r.session
    } else {
      const f = splitCsv(line)
      if (columns === undefined) {
        const h = headerColumns(f)
        if (typeof h === 'string') throw badInput(`line ${lineNo}: ${h}`)
        columns = h ?? POSITIONAL
        if (h !== undefined) return
      }
      if (f.length < 4) {
        bad(`expected at least 4 fields (time,price,volume,side[,session]), got ${f.length}`)
        return
      }
      time = f[columns.time]
      price = f[columns.price]
      volume = f[columns.volume]
      side = f[columns.side]
      session = columns.session >= 0 ? f[columns.session] : undefined
    }
    if (kind === undefined) {
      const k = detectTimeKind(time)
      if (k === undefined) {
        bad(`time ${JSON.stringify(time)} is not epoch milliseconds, epoch seconds or an ISO 8601 date-time with Z or an offset`)
        return
      }
      kind = k
      stats.timeKind = k
      opts.note(`time column: ${TIME_KIND_NAMES[k]} (detected from line ${lineNo}: ${JSON.stringify(time)})`)
    }
    const t = buildTrade(time, price, volume, side, session, kind)
    if (typeof t === 'string') {
      bad(t)
      return
    }
    if (t.time < lastTime) {
      bad(`time ${new Date(t.time).toISOString()} is earlier than the previous row's (${new Date(lastTime).toISOString()}); the input must be sorted by time`)
      return
    }
    lastTime = t.time
    if ((opts.from !== undefined && t.time < opts.from) || (opts.to !== undefined && t.time >= opts.to)) {
      stats.outside++
      return
    }
    stats.rows++
    batch.trades.push(t)
    batch.lines.push(lineNo)
  }
  let rest = ''
  const chunks = (stream as AsyncIterable<string>)[Symbol.asyncIterator]()
  for (;;) {
    let next: IteratorResult<string>
    try {
      next = await chunks.next()
    } catch (e) {
      throw badInput(`cannot read ${isStdin ? 'stdin' : opts.file!}: ${(e as Error).message}`)
    }
    const done = next.done === true
    const text = done ? rest : rest + (next.value as string)
    let start = 0
    for (;;) {
      const nl = text.indexOf('\n', start)
      if (nl < 0) break
      onLine(text.slice(start, nl))
      start = nl + 1
      if (batch.trades.length >= opts.batchSize) {
        yield batch
        batch = { trades: [], lines: [] }
      }
    }
    rest = text.slice(start)
    if (done) {
      if (rest !== '') onLine(rest)
      break
    }
    if (rest.length > 10_000_000) throw badInput(`line ${lineNo + 1}: longer than 10 MB, not a trades file`)
    if (opts.progress !== undefined && size > 0) {
      const f = (stream as unknown as { bytesRead: number }).bytesRead / size
      if (f - lastProgress >= 0.005) {
        lastProgress = f
        opts.progress(Math.min(1, f))
      }
    }
  }
  if (batch.trades.length > 0) yield batch
}

