import { createReadStream, statSync } from 'node:fs'
import type { Readable } from 'node:stream'
import { MarketDataError } from '../errors.js'
import { createTradeReader, type TextBatch } from '../io/index.js'
import { TIME_FORMAT_NAMES, type TimeFormat } from '../io/fields.js'
import type { Trade } from '../trades/index.js'
import { badInput } from './cli-error.js'

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
  timeKind: TimeFormat | undefined
}

/**
 * Reads trades as CSV or NDJSON from a file or stdin in constant memory, in batches. Validates each row;
 * a bad row throws a bad-input error naming its line, or with `skipBad` is skipped and counted. Rows
 * must come in non-decreasing time. The time format is detected from the first data row and stated.
 * The parsing is the library's `svc-marketdata/io` trade reader; this adds the file, progress and --from/--to.
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
  const format =
    opts.format ??
    (!isStdin && /\.(ndjson|jsonl|json)$/i.test(opts.file!)
      ? 'ndjson'
      : !isStdin && /\.(csv|txt)$/i.test(opts.file!)
        ? 'csv'
        : undefined)
  const reader = createTradeReader({
    ...(format !== undefined ? { format } : {}),
    skipBad: opts.skipBad,
    sorted: true,
    onTimeFormat: (kind, line, value) => {
      stats.timeKind = kind
      opts.note(`time column: ${TIME_FORMAT_NAMES[kind]} (detected from line ${line}: ${JSON.stringify(value)})`)
    },
  })
  let batch: Batch = { trades: [], lines: [] }
  let lastProgress = 0
  // the reader's errors are bad input; a row error gets the hint, a header error does not
  const read = (f: () => TextBatch<Trade>): TextBatch<Trade> => {
    try {
      return f()
    } catch (e) {
      if (!(e instanceof MarketDataError)) throw e
      const rowError = e.field !== 'header' && !e.message.includes('longer than 10 MB')
      throw badInput(rowError ? `${e.message} (use --skip-bad to skip bad rows)` : e.message)
    }
  }
  const add = (b: TextBatch<Trade>): void => {
    stats.bad = reader.stats.bad
    for (let i = 0; i < b.records.length; i++) {
      const t = b.records[i]!
      if ((opts.from !== undefined && t.time < opts.from) || (opts.to !== undefined && t.time >= opts.to)) {
        stats.outside++
        continue
      }
      stats.rows++
      batch.trades.push(t)
      batch.lines.push(b.lines[i]!)
    }
  }
  const chunks = (stream as AsyncIterable<string>)[Symbol.asyncIterator]()
  stream.setEncoding('utf8')
  for (;;) {
    let next: IteratorResult<string>
    try {
      next = await chunks.next()
    } catch (e) {
      throw badInput(`cannot read ${isStdin ? 'stdin' : opts.file!}: ${(e as Error).message}`)
    }
    if (next.done === true) {
      add(read(() => reader.end()))
      break
    }
    add(read(() => reader.push(next.value as string)))
    while (batch.trades.length >= opts.batchSize) {
      yield { trades: batch.trades.slice(0, opts.batchSize), lines: batch.lines.slice(0, opts.batchSize) }
      batch = { trades: batch.trades.slice(opts.batchSize), lines: batch.lines.slice(opts.batchSize) }
    }
    if (opts.progress !== undefined && size > 0) {
      const f = (stream as unknown as { bytesRead: number }).bytesRead / size
      if (f - lastProgress >= 0.005) {
        lastProgress = f
        opts.progress(Math.min(1, f))
      }
    }
  }
  while (batch.trades.length > 0) {
    yield { trades: batch.trades.slice(0, opts.batchSize), lines: batch.lines.slice(0, opts.batchSize) }
    batch = { trades: batch.trades.slice(opts.batchSize), lines: batch.lines.slice(opts.batchSize) }
  }
}
