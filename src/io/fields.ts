// Reading one field of a text record: exact decimals (exponents expanded), sides and
// sessions in their usual spellings. Each reader returns the value or the reason it is not one.
import { describeValue } from '../_lib/describe.js'
import { compareExactDecimals } from '../decimal/compare.js'
import { parseDataDecimal } from '../decimal/parse.js'
import type { SessionType, Side } from '../trades/index.js'

const DECIMAL = /^-?\d+(\.\d+)?$/
const UNSIGNED = /^\d+(\.\d+)?$/
const EXPONENT = /^-?\d+(\.\d+)?[eE][-+]?\d+$/
/** The longest decimal a field may hold, in characters. */
const DECIMAL_MAX = 60

/**
 * A decimal field: a number as given, a string trimmed (exponent notation expanded exactly: `9.417e-05` ->
 * `0.00009417`), or the reason it is not one. `signed` allows a leading `-` (prices); volumes are >= 0.
 */
export function readDecimal(v: unknown, field: string, signed: boolean): string | number | { error: string } {
  const rule = signed ? 'a decimal such as 5000.25' : 'a decimal >= 0 such as 3 or 0.015'
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || (!signed && v < 0)) return { error: `${field} ${String(v)} is not ${rule}` }
    return v
  }
  if (typeof v !== 'string') return { error: `${field} ${describeValue(v)} is not ${rule}` }
  let s = v.trim()
  if (EXPONENT.test(s)) s = plainDecimal(s) ?? s
  if (!(signed ? DECIMAL : UNSIGNED).test(s) || s.length > DECIMAL_MAX) {
    // why, in the words every data entry point uses (the decimal module's one message table)
    const r = parseDataDecimal(v.trim())
    return { error: r.ok ? `${field} "${v.trim()}" is not ${rule}` : `${field} ${r.error}` }
  }
  return s
}

/**
 * An aggressor side: `buy` / `sell`, also `b` / `s` and `1` / `2` (any case), or an `is_buyer_maker` boolean
 * (`true`: the buyer's order was resting, so the seller took it: a sell; `false`: a buy); undefined when none.
 */
export function readSide(v: unknown): Side | undefined {
  if (v === 'buy' || v === 'sell') return v
  if (typeof v === 'boolean') return v ? 'sell' : 'buy'
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim().toLowerCase() : ''
  if (s === 'buy' || s === 'b' || s === '1') return 'buy'
  if (s === 'sell' || s === 's' || s === '2') return 'sell'
  if (s === 'true') return 'sell'
  if (s === 'false') return 'buy'
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

/** A session value: undefined for none (absent or empty), null when it is not a session. */
export function readSession(v: unknown): SessionType | undefined | null {
  if (v === undefined || v === null) return undefined
  if (typeof v === 'string') {
    const direct = SESSIONS.get(v)
    if (direct !== undefined) return direct
  }
  const s = (typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '\u0000').toUpperCase()
  if (s === '') return undefined
  return SESSIONS.get(s) ?? null
}

/** Compares two decimals a field reader accepted (exact, any spelling): -1, 0 or 1. */
export function compareDecimals(a: string | number, b: string | number): number {
  const x = parseDataDecimal(a)
  const y = parseDataDecimal(b)
  return x.ok && y.ok ? compareExactDecimals(x.value, y.value) : 0
}

/** A JSON number literal (`-1.5e-3`) as a plain decimal string (`-0.0015`), or undefined when it is not one. */
export function plainDecimal(lit: string | undefined): string | undefined {
  if (lit === undefined) return undefined
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?$/.exec(lit)
  if (m === null) return undefined
  const [, sign = '', int = '', frac = '', expText] = m
  const exp = expText === undefined ? 0 : Number(expText)
  // DECIMAL_MAX characters is the most a field may have: a larger exponent is refused by length later
  if (!Number.isSafeInteger(exp) || Math.abs(exp) > DECIMAL_MAX + 20) return `${lit}`
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

/**
 * Header names read as the time column in any file, trades or candles; a unit suffix (`_s`, `_ms`, `_us`,
 * `_ns`) also gives the time unit. Each reader adds names of its own kind (`trade_time`, `open_time`).
 */
export const TIME_ALIASES: readonly string[] = [
  'time',
  'timestamp',
  'ts',
  't',
  'date',
  'datetime',
  'time_ms',
  'timestamp_ms',
  'time_us',
  'timestamp_us',
  'time_ns',
  'timestamp_ns',
  'time_s',
  'timestamp_s',
]
