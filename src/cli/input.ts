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
      // a JSON number is read by its literal text, exactly as written: JSON.parse would round
      // 5000.12345678901234567 to a double
      if (typeof price === 'number' || typeof volume === 'number') {
        const lit = numberLiterals(line)
        if (typeof price === 'number') price = plainDecimal(lit.get('price')) ?? price
        if (typeof volume === 'number') volume = plainDecimal(lit.get('volume')) ?? volume
      }
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

/**
 * The literal text of the number values of an NDJSON object line's top-level keys (the last occurrence
 * of a key wins, as in JSON.parse). Strings are skipped with their escapes; nested values are ignored.
 */
export function numberLiterals(line: string): Map<string, string> {
  const out = new Map<string, string>()
  let depth = 0
  let key: string | undefined
  let inValue = false
  for (let i = 0; i < line.length; ) {
    const c = line.charCodeAt(i)
    if (c === 34) {
      // a string: a key at depth 1 before its colon, else skipped
      let j = i + 1
      while (j < line.length && line.charCodeAt(j) !== 34) j += line.charCodeAt(j) === 92 ? 2 : 1
      if (depth === 1 && !inValue) {
        try {
          key = JSON.parse(line.slice(i, j + 1)) as string
        } catch {
          key = undefined
        }
      } else if (depth === 1) inValue = false
      i = j + 1
    } else if (c === 123 || c === 91) {
      if (depth === 1) inValue = false
      depth++
      i++
    } else if (c === 125 || c === 93) {
      depth--
      i++
    } else if (c === 58) {
      if (depth === 1) inValue = true
      i++
    } else if (c === 44) {
      if (depth === 1) {
        inValue = false
        key = undefined
      }
      i++
    } else if (depth === 1 && inValue && (c === 45 || (c >= 48 && c <= 57))) {
      let j = i + 1
      while (j < line.length && /[-+0-9.eE]/.test(line.charAt(j))) j++
      if (key !== undefined) out.set(key, line.slice(i, j))
      inValue = false
      i = j
    } else i++
  }
  return out
}

/** A JSON number literal (`-1.5e-3`) as a plain decimal string (`-0.0015`), or undefined when it is not one. */
export function plainDecimal(lit: string | undefined): string | undefined {
  if (lit === undefined) return undefined
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?$/.exec(lit)
  if (m === null) return undefined
  const [, sign = '', int = '', frac = '', expText] = m
  const exp = expText === undefined ? 0 : Number(expText)
  // 60 characters is the most a price or volume may have: a larger exponent is refused by length later
  if (!Number.isSafeInteger(exp) || Math.abs(exp) > 80) return `${lit}`
  let digits = int + frac
  let point = int.length + exp
  if (point <= 0) {
    digits = '0'.repeat(1 - point) + digits
    point = 1
  } else if (point > digits.length) digits += '0'.repeat(point - digits.length)
  const i = digits.slice(0, point).replace(/^0+(?=\d)/, '')
  const f = digits.slice(point)
  return `${sign}${i}${f.length > 0 ? `.${f}` : ''}`
}

