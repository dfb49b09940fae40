// The checkpoint envelope shared by the streaming aggregators, and a reader that validates every field of
// a state being restored (a state is input: it is never trusted). Errors are `invalid_option` naming the
// field as `restore.<path>`.
import { parseDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { describeValue, isArray, showThrown } from './describe.js'
import type { AggregatorCheckpoint, AggregatorKind } from '../aggregator.js'
import { MAX_TIME } from './max-time.js'

/** What every checkpoint's `format` says. */
export const CHECKPOINT_FORMAT = 'svc-marketdata/aggregator-checkpoint'
/** The state layout version this library writes and reads; any other version is refused. */
export const CHECKPOINT_VERSION = 1

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
  return { ...body, check: hash(JSON.stringify(body)) }
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
    if (typeof x !== 'string' || !(nonNegative ? /^(0|[1-9]\d{0,400})$/ : /^(0|-?[1-9]\d{0,400})$/).test(x))
      this.fail(key, nonNegative ? 'an integer >= 0 written as digits' : 'an integer written as digits', x)
    return BigInt(x)
  }

  bool(key: string): boolean {
    const x = this.get(key)
    if (typeof x !== 'boolean') this.fail(key, 'true or false', x)
    return x
  }

  /** An exact decimal input (a finite number or a decimal string). */
  decimal(key: string): string | number {
    const x = this.get(key)
    if ((typeof x !== 'string' && typeof x !== 'number') || !parseDecimal(x).ok) this.fail(key, 'a finite decimal', x)
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
 * The check of a checkpoint's body (every field but `check`), or undefined when the body cannot be read: a
 * getter or Proxy trap that throws, nesting too deep to serialise. Such a value is no checkpoint() output.
 */
function bodyHash(o: Record<string, unknown>): string | undefined {
  try {
    const { check: _check, ...body } = o
    return hash(JSON.stringify(body))
  } catch {
    return undefined
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
  if (o.version !== CHECKPOINT_VERSION) {
    throw new MarketDataError(
      'invalid_option',
      `restore.version: ${describeValue(o.version)} is not this library's checkpoint version ${CHECKPOINT_VERSION}; restore it with the version that wrote it, or rebuild from the trades`,
      { field: 'restore.version' },
    )
  }
  if (o.kind !== kind) top.fail('kind', `'${kind}' (this is a ${kind} aggregator)`, o.kind)
  if (typeof o.check !== 'string' || o.check !== bodyHash(o)) {
    throw new MarketDataError(
      'invalid_option',
      'restore.check: the checkpoint does not match its check: a field was altered or the state was damaged (restore only what checkpoint() returned, through JSON as is)',
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
