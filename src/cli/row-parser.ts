import { parseDataDecimal } from '../decimal/parse.js'
import { parseRfc3339 } from '../time/index.js'
import type { SessionType, Trade } from '../trades/index.js'

/** How the time column is written; detected from the first data row. */
export type TimeKind = 'ms' | 's' | 'iso'

export const TIME_KIND_NAMES: Record<TimeKind, string> = {
  ms: 'epoch milliseconds',
  s: 'epoch seconds',
  iso: 'ISO 8601 date-times',
}

const INTEGER = /^\d+$/
const SECONDS = /^\d+(\.\d{1,3})?$/

/** Epoch ms from 1e11 up: anything smaller is read as seconds (1e11 s is the year 5138, 1e11 ms is 1973). */
const MS_THRESHOLD = 1e11

/** Detects the kind of a first time value, or undefined when it is none of them. */
export function detectTimeKind(v: unknown): TimeKind | undefined {
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || v < 0) return undefined
    return v >= MS_THRESHOLD ? 'ms' : 's'
  }
  if (typeof v !== 'string') return undefined
  const s = v.trim()
  if (INTEGER.test(s)) return Number(s) >= MS_THRESHOLD ? 'ms' : 's'
  if (SECONDS.test(s)) return Number(s) < MS_THRESHOLD ? 's' : undefined
  if (parseRfc3339(s).ok) return 'iso'
  return undefined
}

/** Reads a time of the detected kind as epoch ms, or a reason. */
export function readTime(v: unknown, kind: TimeKind): number | string {
  if (kind === 'iso') {
    if (typeof v !== 'string') return `time ${JSON.stringify(v)} is not an ISO 8601 date-time like the first row's`
    const r = parseRfc3339(v.trim())
    return r.ok ? r.value : `time ${r.error}`
  }
  let s: string
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || v < 0) return `time ${String(v)} is not a non-negative number`
    s = String(v)
  } else if (typeof v === 'string') s = v.trim()
  else return `time ${JSON.stringify(v)} is not a number`
  if (kind === 'ms') {
    if (!INTEGER.test(s)) return `time "${s}" is not whole epoch milliseconds like the first row's`
    const t = Number(s)
    return t > 8.64e15 ? `time "${s}" is out of range` : t
  }
  if (!SECONDS.test(s)) return `time "${s}" is not epoch seconds (digits, up to 3 decimals) like the first row's`
  const dot = s.indexOf('.')
  const whole = Number(dot < 0 ? s : s.slice(0, dot))
  const frac = dot < 0 ? 0 : Number(s.slice(dot + 1).padEnd(3, '0'))
  const t = whole * 1000 + frac
  return t > 8.64e15 ? `time "${s}" is out of range` : t
}

/** A price or volume cell: the data decimal reader's syntax (exponent notation included) and its reasons. */
function readDecimal(v: unknown, field: 'price' | 'volume'): string | number | { error: string } {
  const s = typeof v === 'string' ? v.trim() : v
  const d = parseDataDecimal(s)
  if (!d.ok) return { error: `${field} ${d.error}` }
  if (field === 'volume' && d.value.units < 0n) return { error: `${field} ${typeof s === 'string' ? JSON.stringify(s) : String(s)} is not a decimal >= 0` }
  return s as string | number
}

function readSide(v: unknown): 'buy' | 'sell' | undefined {
  if (v === 'buy' || v === 'sell') return v
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim().toLowerCase() : ''
  if (s === 'buy' || s === 'b' || s === '1') return 'buy'
  if (s === 'sell' || s === 's' || s === '2') return 'sell'
  return undefined
}

const SESSIONS = new Map<string, SessionType>([
  ['MAINSESSION', 'MAINSESSION'],
  ['PRE_MARKET', 'PRE_MARKET'],
  ['POST_MARKET', 'POST_MARKET'],
  ['0', 'MAINSESSION'],
  ['1', 'PRE_MARKET'],
  ['2', 'POST_MARKET'],
])

/** A session value: undefined for none (empty), null when invalid. */
function readSession(v: unknown): SessionType | undefined | null {
  if (v === undefined || v === null) return undefined
  if (typeof v === 'string') {
    const direct = SESSIONS.get(v)
    if (direct !== undefined) return direct
  }
  const s = (typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '\u0000').toUpperCase()
  if (s === '') return undefined
  return SESSIONS.get(s) ?? null
}

/** Builds a trade from raw field values of one row, or returns the reason it is bad. */
export function buildTrade(time: unknown, price: unknown, volume: unknown, side: unknown, session: unknown, kind: TimeKind): Trade | string {
  const t = readTime(time, kind)
  if (typeof t === 'string') return t
  const p = readDecimal(price, 'price')
  if (typeof p === 'object') return p.error
  const v = readDecimal(volume, 'volume')
  if (typeof v === 'object') return v.error
  const sd = readSide(side)
  if (sd === undefined) return `side ${JSON.stringify(side)} is not buy or sell (also b/s, 1/2)`
  const se = readSession(session)
  if (se === null) return `session ${JSON.stringify(session)} is not MAINSESSION, PRE_MARKET, POST_MARKET (or 0, 1, 2)`
  const trade: Trade = { time: t, price: p, volume: v, side: sd }
  if (se !== undefined) trade.session = se
  return trade
}

/** Column positions of a CSV file. */
export interface CsvColumns {
  time: number
  price: number
  volume: number
  side: number
  session: number // -1 when absent
}

export const POSITIONAL: CsvColumns = { time: 0, price: 1, volume: 2, side: 3, session: 4 }

const ALIASES: Record<keyof CsvColumns, string[]> = {
  time: ['time', 'timestamp', 'ts', 't', 'date', 'datetime'],
  price: ['price', 'p', 'px'],
  volume: ['volume', 'qty', 'quantity', 'size', 'amount', 'v'],
  side: ['side', 'aggressor', 'direction'],
  session: ['session', 'session_type', 'sessiontype'],
}

/** Columns from a header row, or a reason when a required column is missing; undefined when the row is data. */
export function headerColumns(fields: string[]): CsvColumns | string | undefined {
  const first = fields[0]?.trim() ?? ''
  // a data row's time starts with a digit; a header's first name does not
  if (detectTimeKind(first) !== undefined || !/^"?[a-zA-Z_]/.test(first)) return undefined
  const names = fields.map((f) => f.trim().replace(/^"|"$/g, '').toLowerCase())
  // a header names at least one known column; a row naming none is data (e.g. a corrupted first time)
  if (!names.some((n) => Object.values(ALIASES).some((a) => a.includes(n)))) return undefined
  const cols = { time: -1, price: -1, volume: -1, side: -1, session: -1 }
  for (const key of Object.keys(ALIASES) as (keyof CsvColumns)[]) {
    cols[key] = names.findIndex((n) => ALIASES[key].includes(n))
  }
  for (const key of ['time', 'price', 'volume', 'side'] as const) {
    if (cols[key] < 0) return `the header has no ${key} column (expected one of: ${ALIASES[key].join(', ')})`
  }
  return cols
}

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
