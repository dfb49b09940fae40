// The shared part of the trade and candle readers: text chunks -> lines (numbered from 1, any chunk boundary),
// CSV (a header with aliases, or fixed positions) or NDJSON (numbers read by their literal text), the time format
// detected from the first data row, a bad row refused with its line number or skipped and counted.
import { MarketDataError, type MarketDataErrorCode } from '../errors.js'
import { detectTimeFormat, numberLiterals, plainDecimal, type TimeFormat } from './fields.js'

/** Options of the trade and candle text readers. */
export interface TextReaderOptions {
  /** `csv` or `ndjson`; default: detected from the first data line (`{` starts NDJSON). */
  format?: 'csv' | 'ndjson'
  /** Skip a bad row (counted in `stats.bad`, reported to `onBad`) instead of throwing. Default false. */
  skipBad?: boolean
  /** Refuse a row whose time is earlier than the previous row's. Default false. */
  sorted?: boolean
  /** Told of each skipped row (with `skipBad`): its line number and the reason. */
  onBad?: (line: number, message: string) => void
  /** Told once which time format the first data row set, and on which line. */
  onTimeFormat?: (format: TimeFormat, line: number, value: unknown) => void
}

/** Counts of a reader so far. */
export interface TextReaderStats {
  /** Lines seen (blank and `#` comment lines included). */
  lines: number
  /** Records read. */
  records: number
  /** Bad rows skipped (with `skipBad`). */
  bad: number
  /** The time format of the input, once a data row has set it. */
  timeFormat: TimeFormat | undefined
}

/** Records read from a chunk, with the line each came from. */
export interface TextBatch<T> {
  /** The records, in input order. */
  records: T[]
  /** The line (from 1) each record came from. */
  lines: number[]
}

/** A streaming reader: `push` text chunks as they arrive, then `end`; each returns the records it completed. */
export interface TextReader<T> {
  /** Reads a chunk of text (any size, cut anywhere); returns the records of the lines it completed. */
  push(chunk: string): TextBatch<T>
  /** The input has ended: reads the last line if it had no newline. */
  end(): TextBatch<T>
  /** Counts so far. */
  readonly stats: TextReaderStats
}

/** A field whose value is bad: the error code and the message (`<field> "<value>" is not ...`). */
export interface FieldError {
  code: MarketDataErrorCode
  field: string
  message: string
}

/** What a record kind tells the shared reader: its columns, their header aliases, and how to build one record. */
export interface RecordKind<T> {
  /** What a file of these records is called in messages (`trades`, `candles`). */
  name: string
  /** Column names in their positional order (a CSV without a header); the first is the time. */
  columns: readonly string[]
  /** How many leading columns a headerless row needs at least, and which the header must name. */
  required: number
  /** Header names accepted for each column (lower case). */
  aliases: Readonly<Record<string, readonly string[]>>
  /** Number fields of an NDJSON object that are read by their literal text (exact decimals). */
  decimals: readonly string[]
  build(fields: Readonly<Record<string, unknown>>, time: TimeFormat): T | FieldError
  time(record: T): number
}

const LINE_MAX = 10_000_000
const KNOWN_OPTIONS = ['format', 'skipBad', 'sorted', 'onBad', 'onTimeFormat']

/** Splits a CSV line at commas; fields are trimmed and surrounding double quotes removed (no embedded commas). */
export function splitCsv(line: string): string[] {
  const out: string[] = []
  let start = 0
  for (;;) {
    const c = line.indexOf(',', start)
    const end = c < 0 ? line.length : c
    let f = line.slice(start, end)
    const a = f.charCodeAt(0)
    const b = f.charCodeAt(f.length - 1)
    if (a === 32 || a === 9 || b === 32 || b === 9 || b === 13) f = f.trim()
    if (f.length >= 2 && f.charCodeAt(0) === 34 && f.charCodeAt(f.length - 1) === 34) f = f.slice(1, -1)
    out.push(f)
    if (c < 0) return out
    start = c + 1
  }
}

/**
 * Column positions from a header row (-1 for an absent optional column), the reason a required column is
 * missing, or undefined when the row is data.
 */
export function headerColumns(
  kind: Pick<RecordKind<unknown>, 'columns' | 'required' | 'aliases'>,
  fields: readonly string[],
): Record<string, number> | string | undefined {
  const first = fields[0]?.trim() ?? ''
  // a data row's time starts with a digit; a header's first name does not
  if (detectTimeFormat(first) !== undefined || !/^"?[a-zA-Z_]/.test(first)) return undefined
  const names = fields.map((f) => f.trim().replace(/^"|"$/g, '').toLowerCase())
  // a header names at least one known column; a row naming none is data (e.g. a corrupted first time)
  if (!names.some((n) => kind.columns.some((c) => kind.aliases[c]?.includes(n)))) return undefined
  const cols: Record<string, number> = {}
  let missing: string | undefined
  kind.columns.forEach((c, i) => {
    const at = names.findIndex((n) => kind.aliases[c]?.includes(n))
    cols[c] = at
    if (i < kind.required && at < 0) missing ??= c
  })
  if (missing !== undefined)
    return `the header has no ${missing} column (expected one of: ${kind.aliases[missing]?.join(', ')})`
  return cols
}

function checkOptions(opts: TextReaderOptions): void {
  if (typeof opts !== 'object' || opts === null)
    throw new MarketDataError('invalid_option', 'options: must be an object', { field: 'options' })
  for (const k of Object.keys(opts)) {
    if (!KNOWN_OPTIONS.includes(k))
      throw new MarketDataError(
        'invalid_option',
        `${k}: is not an option (expected one of ${KNOWN_OPTIONS.join(', ')})`,
        { field: k },
      )
  }
  if (opts.format !== undefined && opts.format !== 'csv' && opts.format !== 'ndjson') {
    throw new MarketDataError('invalid_option', `format: must be csv or ndjson, got ${JSON.stringify(opts.format)}`, {
      field: 'format',
    })
  }
}

/** Creates the streaming reader of one record kind. */
export function createTextReader<T>(kind: RecordKind<T>, opts: TextReaderOptions = {}): TextReader<T> {
  checkOptions(opts)
  const stats: TextReaderStats = { lines: 0, records: 0, bad: 0, timeFormat: undefined }
  let format = opts.format
  let columns: Record<string, number> | undefined
  let lastTime = -Infinity
  let rest = ''
  let out: TextBatch<T> = { records: [], lines: [] }

  const fail = (code: MarketDataErrorCode, field: string, msg: string): void => {
    if (opts.skipBad !== true) throw new MarketDataError(code, `line ${stats.lines}: ${msg}`, { field })
    stats.bad++
    opts.onBad?.(stats.lines, msg)
  }

  const positional = Object.fromEntries(kind.columns.map((c, i) => [c, i]))

  const onLine = (raw: string): void => {
    stats.lines++
    const line = raw.trim()
    if (line === '' || line.startsWith('#')) return
    if (format === undefined) format = line.startsWith('{') ? 'ndjson' : 'csv'
    let fields: Record<string, unknown>
    if (format === 'ndjson') {
      let o: unknown
      try {
        o = JSON.parse(line)
      } catch {
        o = undefined
      }
      if (typeof o !== 'object' || o === null || Array.isArray(o)) {
        fail('invalid_record', 'line', 'not a JSON object')
        return
      }
      fields = o as Record<string, unknown>
      // a JSON number is read by its literal text, exactly as written: JSON.parse would round
      // 5000.12345678901234567 to a double
      if (kind.decimals.some((d) => typeof fields[d] === 'number')) {
        const lit = numberLiterals(line)
        fields = { ...fields }
        for (const d of kind.decimals)
          if (typeof fields[d] === 'number') fields[d] = plainDecimal(lit.get(d)) ?? fields[d]
      }
    } else {
      const f = splitCsv(line)
      if (columns === undefined) {
        const h = headerColumns(kind, f)
        if (typeof h === 'string')
          throw new MarketDataError('invalid_option', `line ${stats.lines}: ${h}`, { field: 'header' })
        columns = h ?? positional
        if (h !== undefined) return
      }
      if (f.length < kind.required) {
        fail(
          'invalid_record',
          'line',
          `expected at least ${kind.required} fields (${kind.columns.slice(0, kind.required).join(',')}[,...]), got ${f.length}`,
        )
        return
      }
      fields = {}
      for (const c of kind.columns) {
        const at = columns[c]!
        if (at >= 0) fields[c] = f[at]
      }
    }
    const timeField = kind.columns[0]!
    if (stats.timeFormat === undefined) {
      const t = detectTimeFormat(fields[timeField])
      if (t === undefined) {
        fail(
          'invalid_time',
          timeField,
          `time ${JSON.stringify(fields[timeField])} is not epoch milliseconds, epoch seconds or an ISO 8601 date-time with Z or an offset`,
        )
        return
      }
      stats.timeFormat = t
      opts.onTimeFormat?.(t, stats.lines, fields[timeField])
    }
    const r = kind.build(fields, stats.timeFormat)
    if (typeof r === 'object' && r !== null && 'message' in r && 'code' in r) {
      fail(r.code, r.field, r.message)
      return
    }
    const record = r as T
    const time = kind.time(record)
    if (opts.sorted === true && time < lastTime) {
      fail(
        'out_of_order',
        timeField,
        `time ${new Date(time).toISOString()} is earlier than the previous row's (${new Date(lastTime).toISOString()}); the input must be sorted by time`,
      )
      return
    }
    lastTime = time
    stats.records++
    out.records.push(record)
    out.lines.push(stats.lines)
  }

  const take = (): TextBatch<T> => {
    const b = out
    out = { records: [], lines: [] }
    return b
  }

  return {
    stats,
    push(chunk) {
      if (typeof chunk !== 'string')
        throw new MarketDataError('invalid_option', 'chunk: must be a string', { field: 'chunk' })
      const text = rest + chunk
      let start = 0
      for (;;) {
        const nl = text.indexOf('\n', start)
        if (nl < 0) break
        onLine(text.slice(start, nl))
        start = nl + 1
      }
      rest = text.slice(start)
      if (rest.length > LINE_MAX)
        throw new MarketDataError(
          'invalid_record',
          `line ${stats.lines + 1}: longer than 10 MB, not a ${kind.name} file`,
          { field: 'line' },
        )
      return take()
    },
    end() {
      if (rest !== '') onLine(rest)
      rest = ''
      return take()
    },
  }
}

/** Reads a whole text with a fresh reader. */
export function readAll<T>(kind: RecordKind<T>, text: string, opts: TextReaderOptions): TextBatch<T> {
  const r = createTextReader(kind, opts)
  const a = r.push(text)
  const b = r.end()
  return { records: a.records.concat(b.records), lines: a.lines.concat(b.lines) }
}
