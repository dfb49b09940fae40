import type { Readable } from 'node:stream'
import type { CandleInput } from '../candles/index.js'
import { MarketDataError } from '../errors.js'
import {
  createCandleReader,
  createTradeReader,
  type EpochUnit,
  type SideRule,
  type TextBatch,
  type TextReader,
  type TextReaderOptions,
  type TradeRecord,
} from '../io/index.js'
import { TIME_FORMAT_NAMES, type TimeFormat } from '../io/time-input.js'
import { sessionsFromClock, type ClockSessionOptions } from '../trades/index.js'
import { badInput } from './cli-error.js'
import { openInput, type InputFormat } from './file-text.js'

/** What a file holds: trades, or candles (OHLCV). */
export type InputKind = 'trades' | 'candles'

/** How records are read: the reader's options as the command line spells them. */
export interface ReadOptions {
  /** Columns named by `--time-column` etc.: a header name, or a position from 1. */
  columns: Record<string, string | number>
  timeUnit: EpochUnit | undefined
  inputZone: string | undefined
  /** `column` (footprint), `optional` (candles, TPO) or `tick` (`--side-rule tick`). */
  sideRule: SideRule
  /** Sessions from the local clock (`--session-hours`): records outside every window are left out. */
  sessionHours?: ClockSessionOptions | undefined
  /** Refuse a row earlier than the one before (default true: the command line streams in time order). */
  sorted?: boolean
}

/** Options of {@link readRecords}. */
export interface InputOptions extends ReadOptions {
  /** A path, or undefined / '-' for stdin. */
  file: string | undefined
  format: InputFormat | undefined
  skipBad: boolean
  from: number | undefined
  to: number | undefined
  batchSize: number
  stdin: Readable
  /** Where notes (time format, progress, skipped rows) go. */
  note: (msg: string) => void
  progress: ((fraction: number) => void) | undefined
}

/** One batch: records and the input line of each. */
export interface Batch<T> {
  records: T[]
  lines: number[]
}

/** Counts reported when the input ends. */
export interface InputStats {
  rows: number
  bad: number
  outside: number
  timeKind: TimeFormat | undefined
  /** Where the trades' sides came from (trades only). */
  sides?: 'column' | 'tick' | 'none'
}

const TRADE_FIELDS = ['time', 'price', 'volume', 'side', 'session']
const CANDLE_FIELDS = ['time', 'open', 'high', 'low', 'close', 'volume', 'value', 'trades', 'session']

/** The library's option names in a message, as the command line spells them. */
export function cliWords(message: string): string {
  return message
    .replace(/columns\.(\w+)/g, '--$1-column')
    .replace(/, or read without sides with sideRule 'optional' \(candles and TPO need none\)/, '')
    .replace(/sideRule '(\w+)'/g, '--side-rule $1')
    .replace(/\binputZone\b/g, '--input-zone')
    .replace(/\btimeUnit\b/g, '--time-unit')
}

/** Whether a first line names the columns of candles (open, high, low, close), in CSV or NDJSON. */
export function looksLikeCandles(text: string): boolean {
  const line = text.split('\n').find((l) => l.trim() !== '' && !l.trim().startsWith('#')) ?? ''
  const names = line.startsWith('{')
    ? [...line.matchAll(/"([^"\\]{1,40})"\s*:/g)].map((m) => m[1]!.toLowerCase())
    : line.split(',').map((f) => f.trim().replace(/^"|"$/g, '').toLowerCase())
  const has = (...a: string[]) => names.some((n) => a.includes(n))
  return has('open', 'o') && has('high', 'h') && has('low', 'l') && has('close', 'c')
}

/** The first chunk of an input and the rest, so that the kind can be told from its header. */
async function peek(chunks: AsyncIterable<string>): Promise<{ first: string; rest: AsyncIterator<string> }> {
  const it = chunks[Symbol.asyncIterator]()
  let first = ''
  while (!first.includes('\n')) {
    const n = await it.next()
    if (n.done === true) break
    first += n.value
    if (first.length > 1_000_000) break
  }
  return { first, rest: it }
}

/**
 * Opens an input and tells its kind: `kind` given (`--input`), else candles when its header names open, high,
 * low and close, else trades.
 */
export async function openRecords(
  opts: InputOptions,
  kind: InputKind | undefined,
): Promise<{ kind: InputKind; batches: AsyncGenerator<Batch<unknown>, void, undefined>; stats: InputStats }> {
  const input = openInput(opts.file, opts.stdin, opts.format)
  const { first, rest } = await peek(input.chunks)
  const k = kind ?? (looksLikeCandles(first) ? 'candles' : 'trades')
  const stats: InputStats = { rows: 0, bad: 0, outside: 0, timeKind: undefined }
  const format = input.format
  // a column option of the other kind (--open-column for a trades file) names nothing here
  const fields = k === 'candles' ? CANDLE_FIELDS : TRADE_FIELDS
  const columns = Object.fromEntries(Object.entries(opts.columns).filter(([f]) => fields.includes(f)))
  const common: TextReaderOptions = {
    ...(format !== undefined ? { format } : {}),
    skipBad: opts.skipBad,
    sorted: opts.sorted ?? true,
    ...(Object.keys(columns).length > 0 ? { columns } : {}),
    ...(opts.timeUnit !== undefined ? { timeUnit: opts.timeUnit } : {}),
    ...(opts.inputZone !== undefined ? { inputZone: opts.inputZone } : {}),
    onTimeFormat: (t, line, value) => {
      stats.timeKind = t
      const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : String(value)
      opts.note(`time column: ${TIME_FORMAT_NAMES[t]} (detected from line ${line}: ${shown})`)
    },
  }
  const reader: TextReader<unknown> =
    k === 'candles' ? createCandleReader(common) : createTradeReader({ ...common, sideRule: opts.sideRule })
  return { kind: k, batches: batches(reader, input.fraction, first, rest, opts, stats), stats }
}

async function* batches<T>(
  reader: TextReader<T>,
  fraction: () => number,
  first: string,
  rest: AsyncIterator<string>,
  opts: InputOptions,
  stats: InputStats,
): AsyncGenerator<Batch<T>, void, undefined> {
  let batch: Batch<T> = { records: [], lines: [] }
  let lastProgress = 0
  // the reader's errors are bad input; a row error gets the hint, a header error does not
  const read = (f: () => TextBatch<T>): TextBatch<T> => {
    try {
      return f()
    } catch (e) {
      if (!(e instanceof MarketDataError)) throw e
      const rowError = e.field !== 'header' && !e.message.includes('characters, not a')
      const msg = cliWords(e.message)
      throw badInput(rowError ? `${msg} (use --skip-bad to skip bad rows)` : msg)
    }
  }
  const add = (read: TextBatch<T>): void => {
    const b = opts.sessionHours === undefined ? read : withClockSessions(read, opts.sessionHours)
    stats.bad = reader.stats.bad
    if (reader.stats.sides !== undefined) stats.sides = reader.stats.sides
    for (let i = 0; i < b.records.length; i++) {
      const r = b.records[i]!
      const t = (r as unknown as { time: number }).time
      if ((opts.from !== undefined && t < opts.from) || (opts.to !== undefined && t >= opts.to)) {
        stats.outside++
        continue
      }
      stats.rows++
      batch.records.push(r)
      batch.lines.push(b.lines[i]!)
    }
  }
  let chunk: string | undefined = first
  for (;;) {
    if (chunk === undefined) {
      const next = await rest.next()
      if (next.done === true) {
        add(read(() => reader.end()))
        break
      }
      chunk = next.value
    }
    const c = chunk
    chunk = undefined
    add(read(() => reader.push(c)))
    while (batch.records.length >= opts.batchSize) {
      yield { records: batch.records.slice(0, opts.batchSize), lines: batch.lines.slice(0, opts.batchSize) }
      batch = { records: batch.records.slice(opts.batchSize), lines: batch.lines.slice(opts.batchSize) }
    }
    if (opts.progress !== undefined) {
      const f = fraction()
      if (f - lastProgress >= 0.005) {
        lastProgress = f
        opts.progress(Math.min(1, f))
      }
    }
  }
  while (batch.records.length > 0) {
    yield { records: batch.records.slice(0, opts.batchSize), lines: batch.lines.slice(0, opts.batchSize) }
    batch = { records: batch.records.slice(opts.batchSize), lines: batch.lines.slice(opts.batchSize) }
  }
}

/** A batch with sessions from the local clock; records outside every window left out (with their lines). */
function withClockSessions<T>(b: TextBatch<T>, hours: ClockSessionOptions): TextBatch<T> {
  const keys = b.records.map((r, i) => ({ time: (r as unknown as { time: number }).time, i }))
  const out: TextBatch<T> = { records: [], lines: [] }
  for (const k of sessionsFromClock(keys, hours)) {
    out.records.push({ ...b.records[k.i]!, session: k.session } as T)
    out.lines.push(b.lines[k.i]!)
  }
  return out
}

/** Reads a whole trades or candles file (the reference server's start): records in file order, and the counts. */
export async function readRecordFile(
  file: string,
  read: ReadOptions & { format?: InputFormat; kind?: InputKind },
  note: (msg: string) => void = () => {},
): Promise<{ kind: InputKind; records: (TradeRecord | CandleInput)[]; stats: InputStats }> {
  const opened = await openRecords(
    {
      ...read,
      file,
      format: read.format,
      skipBad: false,
      from: undefined,
      to: undefined,
      batchSize: 65_536,
      stdin: process.stdin,
      note,
      progress: undefined,
    },
    read.kind,
  )
  const records: (TradeRecord | CandleInput)[] = []
  for await (const b of opened.batches) for (const r of b.records) records.push(r as TradeRecord | CandleInput)
  return { kind: opened.kind, records, stats: opened.stats }
}
