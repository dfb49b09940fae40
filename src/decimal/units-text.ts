// Integer units printed as decimal text by arithmetic on doubles, without a bigint: the fast path of
// formatUnits for numbers, and of the candle and footprint outputs (one or two strings a call).
import { POW10, UNITS_LIMIT } from './units.js'

/**
 * Integer units |u| < 2^53 at `scale` as decimal text with at least `minDecimals` decimals (trailing zeros
 * beyond them dropped): minimal form when `minDecimals` is 0. No bigint, no exponent.
 */
export function formatNumberUnits(u: number, scale: number, minDecimals = 0): string {
  if (u === 0) return minDecimals > 0 ? `0.${'0'.repeat(minDecimals)}` : '0'
  const neg = u < 0
  let d = String(neg ? -u : u)
  let s = scale
  let end = d.length
  while (s > minDecimals && d.charCodeAt(end - 1) === 48) {
    end--
    s--
  }
  if (end !== d.length) d = d.slice(0, end)
  if (s > 0) {
    if (d.length <= s) d = '0'.repeat(s - d.length + 1) + d
    d = `${d.slice(0, d.length - s)}.${d.slice(d.length - s)}`
  }
  if (s < minDecimals) d += (s === 0 ? '.' : '') + '0'.repeat(minDecimals - s)
  return neg ? `-${d}` : d
}

const FRAC_SCALES = 4
const fracTables: (string[] | undefined)[] = []

/** `.d..d` (trailing zeros dropped) of every fraction 1..10^scale-1 at a small scale; index 0 is ''. */
function fracTable(scale: number): string[] {
  let t = fracTables[scale]
  if (t === undefined) {
    const P = POW10[scale] as number
    t = new Array<string>(P)
    t[0] = ''
    for (let f = 1; f < P; f++) {
      let d = String(f)
      d = '0'.repeat(scale - d.length) + d
      let end = d.length
      while (d.charCodeAt(end - 1) === 48) end--
      t[f] = `.${d.slice(0, end)}`
    }
    fracTables[scale] = t
  }
  return t
}

/** '0' repeated 0..15 times. */
export const ZEROS: readonly string[] = [
  '',
  '0',
  '00',
  '000',
  '0000',
  '00000',
  '000000',
  '0000000',
  '00000000',
  '000000000',
  '0000000000',
  '00000000000',
  '000000000000',
  '0000000000000',
  '00000000000000',
  '000000000000000',
]

/**
 * Minimal form of integer units |u| < 2^52 at `scale` (0..15), by arithmetic: the integer part printed
 * once, the fraction from a table (scales up to 4) or one padded integer, so one or two strings a call.
 * Other inputs go to {@link formatNumberUnits}.
 */
export function unitsText(u: number, scale: number): string {
  if (scale === 0) return u === 0 ? '0' : String(u)
  const a = u < 0 ? -u : u
  if (!(a < UNITS_LIMIT) || scale > 15) return formatNumberUnits(u, scale)
  const P = POW10[scale] as number
  const ip = quotient(a, P)
  let fp = a - ip * P
  let s: string
  if (fp === 0) s = String(ip)
  else if (scale <= FRAC_SCALES) s = String(ip) + (fracTable(scale)[fp] as string)
  else {
    let k = scale
    while (fp % 10 === 0) {
      fp /= 10
      k--
    }
    const d = String(fp)
    s = `${ip}.${ZEROS[k - d.length] as string}${d}`
  }
  return u < 0 ? `-${s}` : s
}

/**
 * A double's shortest form (the decimal it stands for) with at least `minDecimals` decimals, as
 * `formatFixed` prints that decimal; undefined when the shortest form has an exponent.
 */
export function doubleText(x: number, minDecimals: number): string | undefined {
  const s = String(x)
  if (s.indexOf('e') >= 0) return undefined
  const p = s === '-0' ? '0' : s
  if (minDecimals === 0) return p
  const dot = p.indexOf('.')
  const f = dot < 0 ? 0 : p.length - dot - 1
  if (f >= minDecimals) return p
  const pad = minDecimals - f
  return (dot < 0 ? `${p}.` : p) + (pad < ZEROS.length ? (ZEROS[pad] as string) : '0'.repeat(pad))
}

/**
 * floor(u / d) for integers 0 <= u <= 2^53 and 0 < d <= 2^53: the division may round up to the next integer,
 * which the remainder (exact: q * d and u - q * d stay integers below 2^53) shows and one step corrects.
 */
export function quotient(u: number, d: number): number {
  const q = Math.floor(u / d)
  return u - q * d < 0 ? q - 1 : q
}
