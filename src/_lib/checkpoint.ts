// The checkpoint envelope shared by the streaming aggregators, and a reader that validates every field of
// a state being restored (a state is input: it is never trusted). Errors are `invalid_option` naming the
// field as `restore.<path>`.
import { parseDataDecimal } from '../decimal/parse.js'
import { MAX_DECIMAL_LENGTH, MAX_EXPONENT, MAX_OUTPUT_DECIMAL_LENGTH } from '../decimal/messages.js'
import type { ExactDecimal } from '../decimal/types.js'
import { MarketDataError } from '../errors.js'
import { describeValue, isArray, showThrown } from './describe.js'
import type { AggregatorCheckpoint, AggregatorKind } from '../aggregator.js'
import { MAX_TIME } from './max-time.js'

/** What every checkpoint's `format` says. */
export const CHECKPOINT_FORMAT = 'svc-marketdata/aggregator-checkpoint'
/**
 * The checkpoint version this library writes: 2, whose check is computed over the keys sorted (so a state
 * survives a store that reorders keys, as Postgres `jsonb` does). Version 1 (the same state layout, its
 * check over the keys in the order written) is still read; any other version is refused.
 */
export const CHECKPOINT_VERSION = 2
/** The older version still read: its check is over the keys in the order they were written. */
const CHECKPOINT_VERSION_KEY_ORDER = 1

/**
 * Most decimals a state's scale can reach: a data decimal of {@link MAX_DECIMAL_LENGTH} characters moved by
 * an exponent of -{@link MAX_EXPONENT} (`1.5e-400` has 401). Value scales (price x volume) reach twice this.
 */
export const MAX_STATE_SCALE = MAX_DECIMAL_LENGTH + MAX_EXPONENT
/**
 * Most digits of an exact integer in a state: a price x volume sum of values up to 10^800 at the largest
 * scales (4 x 800 digits), with room for a sum over 2^53 records: the longest decimal the library writes.
 */
const MAX_STATE_DIGITS = MAX_OUTPUT_DECIMAL_LENGTH
const DIGITS = new RegExp(`^(0|[1-9]\\d{0,${MAX_STATE_DIGITS - 1}})$`)
const SIGNED_DIGITS = new RegExp(`^(0|-?[1-9]\\d{0,${MAX_STATE_DIGITS - 1}})$`)
const PLAIN = /^\d+(\.\d+)?$/
const SIGNED_PLAIN = /^-?\d+(\.\d+)?$/
/** Deepest nesting of a checkpoint's JSON (its own is about 6 levels): deeper input is refused, never recursed into. */
const MAX_DEPTH = 32
/**
 * Array items and object keys a checkpoint may hold in all (2^25, about 33 million): far past any state an
 * aggregator keeps, and a bound that stops a hostile value (a sparse array of 2^32 - 1 holes) before it is walked.
 */
const MAX_CHECKPOINT_ITEMS = 2 ** 25

/** A number as JSON holds it: ±Infinity and NaN as strings. */
export function jsonNumber(x: number): number | string {
  return Number.isFinite(x) ? x : String(x)
}

/** A 53-bit hash (cyrb53) of a string, as 14 hex digits: catches a state edited by hand or damaged on the way. */
function hash(s: string): string {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0')
}

/**
 * JSON text of a value with the keys of every object sorted (arrays keep their order; keys whose value JSON
 * leaves out are left out), so that two stores' copies of one checkpoint give one text whatever order their
 * keys come in. Throws a RangeError past {@link MAX_DEPTH} levels or {@link MAX_CHECKPOINT_ITEMS} items (the
 * caller refuses such input).
 */
function canonicalJson(x: unknown, depth = 0, budget = { items: MAX_CHECKPOINT_ITEMS }): string {
  if (depth > MAX_DEPTH) throw new RangeError('nested too deep')
  if (Array.isArray(x)) {
    // an array's length is checked before it is walked: a sparse array of 2^32 - 1 holes is no state
    budget.items -= x.length
    if (budget.items < 0) throw new RangeError('too many items')
    let out = '['
    for (let i = 0; i < x.length; i++) {
      const v = x[i]
      out += `${i > 0 ? ',' : ''}${v === undefined || typeof v === 'function' ? 'null' : canonicalJson(v, depth + 1, budget)}`
    }
    return `${out}]`
  }
  if (typeof x === 'object' && x !== null) {
    const o = x as Record<string, unknown>
    const keys = Object.keys(o)
    budget.items -= keys.length
    if (budget.items < 0) throw new RangeError('too many items')
    const parts: string[] = []
    for (const k of keys.sort()) {
      const v = o[k]
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue
      parts.push(`${JSON.stringify(k)}:${canonicalJson(v, depth + 1, budget)}`)
    }
    return `{${parts.join(',')}}`
  }
  return JSON.stringify(x) ?? 'null'
}

/** Wraps an aggregator's state: format, version, kind, the options that shape its output, watermark, a check. */
export function sealCheckpoint(
  kind: AggregatorKind,
  options: Record<string, unknown>,
  watermark: number,
  state: Record<string, unknown>,
): AggregatorCheckpoint {
  const body = {
    format: CHECKPOINT_FORMAT,
    version: CHECKPOINT_VERSION,
    kind,
    options,
    watermark: jsonNumber(watermark),
    state,
  }
  return { ...body, check: hash(canonicalJson(body)) }
}

/** The reader of one object of a state being restored; `path` names it in errors. */
export class Fields {
  constructor(
    private readonly o: Record<string, unknown>,
    readonly path: string,
  ) {}

  /** Refuses the field `key` with a message saying what was expected. */
  fail(key: string, want: string, got?: unknown): never {
    const field = `${this.path}.${key}`
    throw new MarketDataError(
      'invalid_option',
      `${field}: ${got === undefined && !(key in this.o) ? 'missing' : describeValue(got)} is not valid: expected ${want} (a checkpoint is read as untrusted input)`,
      { field },
    )
  }

  private get(key: string): unknown {
    return Object.hasOwn(this.o, key) ? this.o[key] : undefined
  }

  /** An integer in [min, max]. */
  int(key: string, min: number, max: number): number {
    const x = this.get(key)
    if (typeof x !== 'number' || !Number.isInteger(x) || x < min || x > max)
      this.fail(key, `an integer ${min}..${max}`, x)
    return x
  }

  /** A finite number, or ±Infinity written as a string when `inf` allows it. */
  num(key: string, inf: 'none' | 'both' | 'neg' | 'pos' = 'none'): number {
    const x = this.get(key)
    if (typeof x === 'number' && Number.isFinite(x)) return x
    if (
      (x === 'Infinity' && (inf === 'both' || inf === 'pos')) ||
      (x === '-Infinity' && (inf === 'both' || inf === 'neg'))
    )
      return Number(x)
    return this.fail(key, inf === 'none' ? 'a finite number' : 'a finite number or an infinity written as a string', x)
  }

  /** An integer epoch-ms time within ±8.64e15, or an infinity (as a string) when allowed. */
  time(key: string, inf: 'none' | 'both' | 'neg' | 'pos' = 'none'): number {
    const x = this.num(key, inf)
    if (Number.isFinite(x) && (!Number.isInteger(x) || x < -MAX_TIME || x > MAX_TIME))
      this.fail(key, 'an integer epoch-ms time within ±8.64e15', x)
    return x
  }

  /** A bigint written as decimal digits (with an optional '-'). */
  big(key: string, nonNegative = false): bigint {
    const x = this.get(key)
    if (typeof x !== 'string' || !(nonNegative ? DIGITS : SIGNED_DIGITS).test(x))
      this.fail(key, nonNegative ? 'an integer >= 0 written as digits' : 'an integer written as digits', x)
    return BigInt(x)
  }

  /** A plain decimal as the library writes one out (digits, an optional '-' and '.'), of any length a state holds. */
  plain(key: string, nonNegative = false): ExactDecimal {
    const x = this.get(key)
    if (typeof x !== 'string' || x.length > MAX_STATE_DIGITS + 2 || !(nonNegative ? PLAIN : SIGNED_PLAIN).test(x))
      this.fail(key, nonNegative ? 'a decimal >= 0 written out in digits' : 'a decimal written out in digits', x)
    const dot = x.indexOf('.')
    return { units: BigInt(dot < 0 ? x : x.slice(0, dot) + x.slice(dot + 1)), scale: dot < 0 ? 0 : x.length - dot - 1 }
  }

  bool(key: string): boolean {
    const x = this.get(key)
    if (typeof x !== 'boolean') this.fail(key, 'true or false', x)
    return x
  }

  /** An exact decimal as a data record gives it (a finite number or a decimal string, exponent notation too). */
  decimal(key: string): string | number {
    const x = this.get(key)
    if ((typeof x !== 'string' && typeof x !== 'number') || !parseDataDecimal(x).ok)
      this.fail(key, 'a finite decimal', x)
    return x
  }

  /** A nested object. */
  obj(key: string): Fields {
    const x = this.get(key)
    if (typeof x !== 'object' || x === null || Array.isArray(x)) this.fail(key, 'an object', x)
    return new Fields(x as Record<string, unknown>, `${this.path}.${key}`)
  }

  /** An array, at most `max` long. */
  arr(key: string, max = 10_000_000): unknown[] {
    const x = this.get(key)
    if (!Array.isArray(x) || x.length > max) this.fail(key, `an array of at most ${max} items`, x)
    return x
  }

  /** Item i of an array field, as an object. */
  item(key: string, list: unknown[], i: number): Fields {
    const x = list[i]
    if (typeof x !== 'object' || x === null || Array.isArray(x)) this.fail(`${key}[${i}]`, 'an object', x)
    return new Fields(x as Record<string, unknown>, `${this.path}.${key}[${i}]`)
  }

  raw(key: string): unknown {
    return this.get(key)
  }
}

/**
 * Opens a checkpoint given as `restore`: checks format, version, kind and check, then that the options it
 * was taken with equal `options` (those that shape the output), and returns the watermark and the state's reader.
 */
export function openCheckpoint(
  x: unknown,
  kind: AggregatorKind,
  options: Record<string, unknown>,
): { watermark: number; state: Fields } {
  try {
    return openEnvelope(x, kind, options)
  } catch (e) {
    if (e instanceof MarketDataError) throw e
    // a revoked Proxy, a trap or getter that throws: the value cannot be read, so it is no checkpoint
    throw new MarketDataError(
      'invalid_option',
      `restore: the value cannot be read (${showThrown(e)}); ${NOT_A_CHECKPOINT}`,
      {
        field: 'restore',
      },
    )
  }
}

const NOT_A_CHECKPOINT = "expected the object an aggregator's checkpoint() returned"

function openEnvelope(
  x: unknown,
  kind: AggregatorKind,
  options: Record<string, unknown>,
): { watermark: number; state: Fields } {
  if (typeof x !== 'object' || x === null || isArray(x))
    throw new MarketDataError(
      'invalid_option',
      `restore: ${describeValue(x)} is not a checkpoint: ${NOT_A_CHECKPOINT}`,
      { field: 'restore' },
    )
  const top = new Fields(x as Record<string, unknown>, 'restore')
  const o = x as Record<string, unknown>
  if (o.format !== CHECKPOINT_FORMAT) top.fail('format', JSON.stringify(CHECKPOINT_FORMAT), o.format)
  if (o.version !== CHECKPOINT_VERSION && o.version !== CHECKPOINT_VERSION_KEY_ORDER) {
    throw new MarketDataError(
      'invalid_option',
      `restore.version: ${describeValue(o.version)} is not a checkpoint version this library reads (${CHECKPOINT_VERSION_KEY_ORDER} or ${CHECKPOINT_VERSION}); restore it with the version that wrote it, or rebuild from the trades`,
      { field: 'restore.version' },
    )
  }
  if (o.kind !== kind) top.fail('kind', `'${kind}' (this is a ${kind} aggregator)`, o.kind)
  const { check, ...body } = o
  let text: string
  try {
    text = o.version === CHECKPOINT_VERSION ? canonicalJson(body) : JSON.stringify(body)
  } catch {
    throw new MarketDataError(
      'invalid_option',
      `restore: the checkpoint cannot be read as JSON data (nested deeper than ${MAX_DEPTH} levels, or a value that cannot be read); restore only what checkpoint() returned`,
      { field: 'restore' },
    )
  }
  if (typeof check !== 'string' || check !== hash(text)) {
    throw new MarketDataError(
      'invalid_option',
      'restore.check: the checkpoint does not match its check: a field was altered or the state was damaged (restore only what checkpoint() returned; any store that keeps its JSON data, in any key order, will do)',
      { field: 'restore.check' },
    )
  }
  const given = top.obj('options')
  for (const key of new Set([...Object.keys(options), ...Object.keys(o.options as object)])) {
    const was = JSON.stringify(given.raw(key))
    const now = JSON.stringify(options[key])
    if (was !== now) {
      throw new MarketDataError(
        'invalid_option',
        `restore.options.${key}: the checkpoint was taken with ${was ?? 'none'}, these options give ${now ?? 'none'}; restore with the options of the aggregator that wrote it`,
        { field: `restore.options.${key}` },
      )
    }
  }
  const watermark = top.time('watermark', 'both')
  return { watermark, state: top.obj('state') }
}
