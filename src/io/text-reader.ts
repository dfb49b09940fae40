// The shared part of the trade and candle readers: text chunks -> lines (numbered from 1, any chunk boundary),
// CSV (a header with aliases or named columns, or fixed positions) or NDJSON (numbers read by their literal
// text, nesting and size bounded), the time read in its unit or zone, a bad row refused with its line number or
// skipped and counted.
import { describeValue } from '../_lib/describe.js'
import { MarketDataError, type MarketDataErrorCode } from '../errors.js'
import { numberLiterals, plainDecimal } from './fields.js'
import { nestedDeeperThan } from './json-depth.js'
import { checkReaderOptions, type SideRule, type TextReaderOptions } from './reader-options.js'
import { detectTimeFormat, readTime, type EpochUnit, type TimeFormat } from './time-input.js'

export type { TextReaderOptions } from './reader-options.js'

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
  /** Where the sides came from, once a data row has set it (trades): a column, the tick rule, or none. */
  sides?: 'column' | 'tick' | 'none'
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
  /** The record builder of one reader (it may keep state, as the tick rule does); `fields.time` is epoch ms. */
  builder(opts: TextReaderOptions): (fields: Readonly<Record<string, unknown>>) => T | FieldError
  time(record: T): number
}

/** The longest line (record) a reader takes, in characters: no trade or candle comes near it. */
export const LINE_MAX = 1_000_000
/** The deepest nesting of an NDJSON line: a record is one flat object; deeper lines are refused unparsed. */
export const NESTING_MAX = 32

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

/** The columns a header must name: the kind's leading ones, and a trade's side unless the rule needs none. */
function requiredColumns(kind: Pick<RecordKind<unknown>, 'columns' | 'required'>, sideRule: SideRule): string[] {
  const req = kind.columns.slice(0, kind.required)
  return sideRule === 'column' ? req : req.filter((c) => c !== 'side')
}

/** The hint that ends a missing-column message: the option that names the column (or does without it). */
function missingHint(column: string): string {
  return column === 'side'
    ? `; name it with columns.side, infer sides with sideRule 'tick', or read without sides with sideRule 'optional' (candles and TPO need none)`
    : `; name it with columns.${column}`
}

/**
 * Column positions from a header row (-1 for an absent optional column), the reason a required column is
 * missing, or undefined when the row is data. `named` maps fields to the header names (or positions from 1)
 * the caller gave; other fields are found by their aliases; `where` names the header in messages. An unnamed leading column (a pandas index) is
 * simply not any field's.
 */
export function headerColumns(
  kind: Pick<RecordKind<unknown>, 'columns' | 'required' | 'aliases'>,
  fields: readonly string[],
  named: Readonly<Record<string, string | number>> = {},
  sideRule: SideRule = 'column',
  where = 'the header',
): Record<string, number> | string | undefined {
  const names = fields.map((f) => f.trim().replace(/^"|"$/g, '').trim().toLowerCase())
  const given = (c: string) => {
    const n = named[c]
    return typeof n === 'string' ? n.trim().toLowerCase() : undefined
  }
  const known = (n: string) => kind.columns.some((c) => given(c) === n || kind.aliases[c]?.includes(n))
  // a data row's time starts with a digit; a header's names do not, and it names at least one known column (a
  // row naming none is data, e.g. a corrupted first time)
  if (detectTimeFormat(names[0]) !== undefined || !names.some((n) => /^[a-z_]/.test(n) && known(n))) return undefined
  const cols: Record<string, number> = {}
  const required = requiredColumns(kind, sideRule)
  for (const c of kind.columns) {
    const n = named[c]
    if (typeof n === 'number') {
      if (n > names.length)
        return `columns.${c} is column ${n}, but ${where} has ${names.length} (${fields.join(',').slice(0, 200)})`
      cols[c] = n - 1
      continue
    }
    const g = given(c)
    const at = g !== undefined ? names.indexOf(g) : names.findIndex((x) => kind.aliases[c]?.includes(x))
    if (g !== undefined && at < 0)
      return `columns.${c} is ${describeValue(named[c])}, which ${where} does not name (it has: ${fields.join(', ').slice(0, 200)})`
    cols[c] = at
    if (at < 0 && required.includes(c))
      return `${where} has no ${c} column (expected one of: ${kind.aliases[c]?.join(', ')})${missingHint(c)}`
  }
  if (sideRule === 'tick') cols.side = -1
  return cols
}

/** The epoch unit a time column's header name says (`time_ms`, `timestamp_us`), if any. */
export function unitOfName(name: string | undefined): EpochUnit | undefined {
  const m = /_(s|ms|us|ns)$/.exec(name?.trim().replace(/^"|"$/g, '').toLowerCase() ?? '')
  return m === null ? undefined : (m[1] as EpochUnit)
}

/** The key of a field in an NDJSON object: the one the caller named, else the first alias present (exact, then any case). */
function objectKey(
  o: Record<string, unknown>,
  c: string,
  kind: RecordKind<unknown>,
  named: unknown,
): string | undefined {
  if (typeof named === 'string') return named
  if (o[c] !== undefined) return c
  for (const a of kind.aliases[c] ?? []) if (o[a] !== undefined) return a
  for (const k of Object.keys(o)) if (kind.aliases[c]?.includes(k.toLowerCase())) return k
  return undefined
}

const isFieldError = (r: unknown): r is FieldError =>
  typeof r === 'object' && r !== null && 'message' in r && 'code' in r && 'field' in r

/** Creates the streaming reader of one record kind. */
export function createTextReader<T>(kind: RecordKind<T>, given: TextReaderOptions = {}): TextReader<T> {
  const opts = checkReaderOptions(
    given,
    kind.columns,
    kind.name === 'trades' ? 'createTradeReader' : 'createCandleReader',
  )
  const stats: TextReaderStats = { lines: 0, records: 0, bad: 0, timeFormat: undefined }
  const sideRule = opts.sideRule ?? 'column'
  const named = opts.columns ?? {}
  const build = kind.builder(opts)
  let format = opts.format
  let columns: Record<string, number> | undefined
  let unit = opts.timeUnit
  let lastTime = -Infinity
  let rest = ''
  let skipping = false
  let out: TextBatch<T> = { records: [], lines: [] }

  const fail = (code: MarketDataErrorCode, field: string, msg: string): void => {
    if (opts.skipBad !== true) throw new MarketDataError(code, `line ${stats.lines}: ${msg}`, { field })
    stats.bad++
    opts.onBad?.(stats.lines, msg)
  }

  const positional = (): Record<string, number> => {
    const cols: Record<string, number> = {}
    kind.columns.forEach((c, i) => {
      const n = named[c]
      if (typeof n === 'string')
        throw new MarketDataError(
          'invalid_record',
          `line ${stats.lines}: columns.${c} names the header column ${describeValue(n)}, but the file has no header; give its position from 1`,
          { field: 'header' },
        )
      cols[c] = n !== undefined ? n - 1 : Object.keys(named).length > 0 ? -1 : i
    })
    if (sideRule === 'tick') cols.side = -1
    const lost = requiredColumns(kind, sideRule).find((c) => cols[c]! < 0)
    if (lost !== undefined)
      throw new MarketDataError(
        'invalid_record',
        `line ${stats.lines}: the file has no header and columns gives no position for ${lost}${missingHint(lost)}`,
        { field: 'header' },
      )
    return cols
  }

  const csvFields = (line: string): Record<string, unknown> | undefined => {
    const f = splitCsv(line)
    if (columns === undefined) {
      const h = headerColumns(kind, f, named, sideRule)
      if (typeof h === 'string')
        throw new MarketDataError('invalid_record', `line ${stats.lines}: ${h}`, { field: 'header' })
      columns = h ?? positional()
      if (h !== undefined) {
        unit ??= unitOfName(f[h[kind.columns[0]!]!])
        return undefined
      }
    }
    const need = requiredColumns(kind, sideRule)
    const width = Math.max(...need.map((c) => columns![c]! + 1))
    if (f.length < width) {
      const names = need.join(',')
      fail(
        'invalid_record',
        'line',
        `expected at least ${width} fields (${names}${Object.keys(named).length === 0 ? '[,...]' : ' at the named positions'}), got ${f.length}${need.includes('side') && f.length === width - 1 ? missingHint('side') : ''}`,
      )
      return undefined
    }
    const fields: Record<string, unknown> = {}
    for (const c of kind.columns) {
      const at = columns[c]!
      if (at >= 0) fields[c] = f[at]
    }
    return fields
  }

  const jsonFields = (line: string): Record<string, unknown> | undefined => {
    // bounded before parsing: a deep line would make any later walk (and JSON.stringify) overflow the stack
    if (nestedDeeperThan(line, NESTING_MAX)) {
      fail('invalid_record', 'line', `nested deeper than ${NESTING_MAX} levels: not a ${kind.name} record`)
      return undefined
    }
    let o: unknown
    try {
      o = JSON.parse(line)
    } catch {
      o = undefined
    }
    if (typeof o !== 'object' || o === null || Array.isArray(o)) {
      fail('invalid_record', 'line', 'not a JSON object')
      return undefined
    }
    const obj = o as Record<string, unknown>
    const fields: Record<string, unknown> = {}
    const keys: Record<string, string> = {}
    for (const c of kind.columns) {
      if (c === 'side' && sideRule === 'tick') continue
      const k = objectKey(obj, c, kind as RecordKind<unknown>, named[c])
      if (k !== undefined && obj[k] !== undefined) {
        fields[c] = obj[k]
        keys[c] = k
      }
    }
    // a JSON number is read by its literal text, exactly as written: JSON.parse would round
    // 5000.12345678901234567 to a double
    if (kind.decimals.some((d) => typeof fields[d] === 'number')) {
      const lit = numberLiterals(line)
      for (const d of kind.decimals)
        if (typeof fields[d] === 'number') fields[d] = plainDecimal(lit.get(keys[d]!)) ?? fields[d]
    }
    if (sideRule === 'column' && 'side' in kind.aliases && fields.side === undefined) {
      fail('invalid_side', 'side', `the record has no side${missingHint('side')}`)
      return undefined
    }
    return fields
  }

  const onLine = (raw: string): void => {
    stats.lines++
    const line = raw.trim()
    if (line === '' || line.startsWith('#')) return
    if (format === undefined) format = line.startsWith('{') ? 'ndjson' : 'csv'
    const fields = format === 'ndjson' ? jsonFields(line) : csvFields(line)
    if (fields === undefined) return
    const timeField = kind.columns[0]!
    if (stats.timeFormat === undefined) {
      const t = detectTimeFormat(fields[timeField], unit)
      if (t === undefined) {
        fail(
          'invalid_time',
          timeField,
          `time ${describeValue(fields[timeField])} is not an epoch time (s, ms, us, ns) nor a date-time; if the time is another column, name it with columns.time`,
        )
        return
      }
      stats.timeFormat = t
      opts.onTimeFormat?.(t, stats.lines, fields[timeField])
    }
    const time = readTime(fields[timeField], stats.timeFormat, {
      inputZone: opts.inputZone,
      last: lastTime,
    })
    if (typeof time === 'string') {
      fail('invalid_time', timeField, time)
      return
    }
    fields[timeField] = time
    const r = build(fields)
    if (isFieldError(r)) {
      fail(r.code, r.field, r.message)
      return
    }
    if (opts.sorted === true && time < lastTime) {
      fail(
        'out_of_order',
        timeField,
        `time ${new Date(time).toISOString()} is earlier than the previous row's (${new Date(lastTime).toISOString()}); the input must be sorted by time`,
      )
      return
    }
    if ('side' in kind.aliases)
      stats.sides ??= sideRule === 'tick' ? 'tick' : (r as { side?: unknown }).side === undefined ? 'none' : 'column'
    lastTime = time
    stats.records++
    out.records.push(r)
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
        if (skipping) {
          // the rest of a line too long to be a record, already counted
          skipping = false
          stats.lines++
        } else onLine(text.slice(start, nl))
        start = nl + 1
      }
      rest = text.slice(start)
      if (rest.length > LINE_MAX || (skipping && rest.length > 0)) {
        if (!skipping) {
          stats.lines++
          fail('invalid_record', 'line', `longer than ${LINE_MAX} characters, not a ${kind.name} record`)
          stats.lines--
        }
        skipping = true
        rest = ''
      }
      return take()
    },
    end() {
      if (skipping) stats.lines++
      else if (rest !== '') onLine(rest)
      rest = ''
      skipping = false
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
