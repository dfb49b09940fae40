import { formatUnits, parseDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { civilFromDays } from '../time/civil.js'
import { zoneOffset } from '../time/zone.js'
import { describeValue } from '../_lib/describe.js'

/** Internal helpers shared by the text and SVG renderings (not exported from the folder). */

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** The letter of block index i: A..Z, a..z, then again from A. */
export function blockLetter(i: number): string {
  return LETTERS[i % 52]!
}

/** An exact decimal at a fixed scale, for comparisons and sums of printed values. */
export interface Scaled {
  units: bigint
  scale: number
}

/**
 * Checks the shape a rendering reads: an object whose `arrays` fields are arrays, and whose `rows` (when
 * listed) are arrays themselves; otherwise throws `invalid_option` naming the field.
 */
export function checkProfile(p: unknown, arrays: readonly string[], times: readonly string[]): void {
  if (typeof p !== 'object' || p === null)
    throw new MarketDataError(
      'invalid_option',
      `render: \`profile\` must be a profile object, got ${describeValue(p)}`,
      { field: 'profile' },
    )
  const o = p as Record<string, unknown>
  for (const f of arrays) {
    const a = o[f]
    if (!Array.isArray(a) || (f === 'rows' && !a.every((r) => Array.isArray(r))))
      throw new MarketDataError(
        'invalid_option',
        `render: field \`${f}\` must be an array${f === 'rows' ? ' of rows' : ''}`,
        { field: f },
      )
  }
  // integers (a bucket's `end` may pass ±8.64e15: it is printed as a number there)
  const isTime = (t: unknown) => typeof t === 'number' && Number.isSafeInteger(t)
  for (const f of times) {
    // `blocks` holds times; the others are one time
    const t = o[f]
    if (!(f === 'blocks' ? Array.isArray(t) && t.every(isTime) : isTime(t)))
      throw new MarketDataError(
        'invalid_option',
        `render: field \`${f}\` must be integer epoch-millisecond time${f === 'blocks' ? 's' : ''}, got ${describeValue(t)}`,
        { field: f },
      )
  }
}

/** Parses a decimal string of a profile; a malformed one is a bug in the caller's profile and throws. */
export function dec(x: unknown, field: string): Scaled {
  const r = parseDecimal(x)
  if (!r.ok) throw new MarketDataError('invalid_decimal', `render: field \`${field}\`: ${r.error}`, { field })
  return r.value
}

function at(d: Scaled, scale: number): bigint {
  return d.units * 10n ** BigInt(scale - d.scale)
}

/** -1, 0, 1 as a < b, a = b, a > b (exact). */
export function cmp(a: Scaled, b: Scaled): number {
  const s = Math.max(a.scale, b.scale)
  const x = at(a, s)
  const y = at(b, s)
  return x < y ? -1 : x > y ? 1 : 0
}

export function add(a: Scaled, b: Scaled): Scaled {
  const s = Math.max(a.scale, b.scale)
  return { units: at(a, s) + at(b, s), scale: s }
}

export function sub(a: Scaled, b: Scaled): Scaled {
  const s = Math.max(a.scale, b.scale)
  return { units: at(a, s) - at(b, s), scale: s }
}

/** Minimal form; with `signed`, a leading `+` on positive values. */
export function show(d: Scaled, signed = false): string {
  const s = formatUnits(d.units, d.scale)
  return signed && d.units > 0n ? `+${s}` : s
}

/** Approximate value for drawing (bar lengths) only; never printed. */
export function approx(d: Scaled): number {
  return Number(d.units) / 10 ** d.scale
}

/** Whole rows of `step` from `base` up to `x` (exact floor; `x` >= `base`). */
export function rowsFrom(base: Scaled, step: Scaled, x: Scaled): number {
  const d = sub(x, base)
  const s = Math.max(d.scale, step.scale)
  return Number((d.units * 10n ** BigInt(s - d.scale)) / (step.units * 10n ** BigInt(s - step.scale)))
}

/** A price as a drawing position in rows above `base` (fractional; for placing marks, never printed). */
export function position(base: Scaled, step: Scaled, x: Scaled): number {
  return approx(sub(x, base)) / approx(step)
}

/** Whether price x lies in the row [row, row + step). */
export function rowHolds(row: Scaled, step: Scaled, x: Scaled): boolean {
  return cmp(row, x) <= 0 && cmp(x, add(row, step)) < 0
}

/** A time in a zone: `yyyy-MM-dd HH:mm` (or only `HH:mm` / `MM-dd HH:mm`). */
const pad = (n: number, w: number): string => String(n).padStart(w, '0')

/**
 * Local wall time of an instant in a zone, by the time module's offsets and civil calendar: no `Date`
 * (date-fns-tz shifts by the machine's own offset, which fails near ±8.64e15 unless the machine runs in
 * UTC; a bucket's end can even pass that range).
 */
function wall(ms: number, timeZone: string): { date: string; monthDay: string; clock: string } {
  const local = ms + zoneOffset(timeZone, ms)
  const day = Math.floor(local / 86_400_000)
  const [y, m, d] = civilFromDays(day)
  const inDay = local - day * 86_400_000
  const year = y >= 0 && y <= 9999 ? pad(y, 4) : String(y)
  return {
    date: `${year}-${pad(m, 2)}-${pad(d, 2)}`,
    monthDay: `${pad(m, 2)}-${pad(d, 2)}`,
    clock: `${pad(Math.floor(inDay / 3_600_000), 2)}:${pad(Math.floor((inDay % 3_600_000) / 60_000), 2)}`,
  }
}

export function timeLabel(ms: number, timeZone: string, pattern: 'full' | 'clock' | 'day-clock' = 'full'): string {
  const w = wall(ms, timeZone)
  return pattern === 'full' ? `${w.date} ${w.clock}` : pattern === 'clock' ? w.clock : `${w.monthDay} ${w.clock}`
}

export function localDate(ms: number, timeZone: string): string {
  return wall(ms, timeZone).date
}

/** Joins items with two spaces, wrapping lines at `width` characters. */
export function wrap(items: string[], width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const it of items) {
    if (line !== '' && line.length + 2 + it.length > width) {
      lines.push(line)
      line = it
    } else line = line === '' ? it : `${line}  ${it}`
  }
  if (line !== '') lines.push(line)
  return lines
}

/** Escapes text and attribute values for XML. */
export function xml(s: string): string {
  let out = ''
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!
    out +=
      c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : c === "'" ? '&apos;' : c
  }
  return out
}

/** Resolves the zone option of the renderings (default UTC); an invalid zone throws `invalid_option`. */
export function zoneOption(tz: string | undefined): string {
  const z = tz ?? 'UTC'
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: z })
  } catch {
    throw new MarketDataError(
      'invalid_option',
      `render: option \`timeZone\` must be an IANA time zone, got ${describeValue(z)}`,
      { field: 'timeZone' },
    )
  }
  return z
}
