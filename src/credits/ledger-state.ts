// Validation of restored ledger states (read back from a database, Redis, a file): every field is checked
// against the invariants the transitions keep, so a corrupt or hand-edited state is refused with the field
// and the rule instead of producing negative remaining credits, a truthy "locked" or a fractional reset.
import { checkOptions } from '../_lib/closed-options.js'
import { describeValue, isArray } from '../_lib/describe.js'
import { MarketDataError } from '../errors.js'
import { err, ok, type Result, valueOrThrow } from '../result.js'
import { DEFAULT_SERVICE_CONFIG, type ServiceConfig } from '../rules/service-config.js'
import type { RestLedgerState, StreamKind, StreamLedgerState, StreamRecord } from './ledger-types.js'

const REST_KEYS = ['windowStart', 'used', 'locked'] as const
const STREAM_KEYS = ['windowStart', 'used', 'clock', 'nextId', 'streams'] as const
const RECORD_KEYS = ['id', 'kind', 'status', 'openedAt', 'dueAt'] as const
/** The stream kinds of a configuration's caps. */
const kinds = (caps: Readonly<Record<StreamKind, number>>): StreamKind[] => Object.keys(caps) as StreamKind[]

/** Thrown inside the checks only: carries the field path and the rule, turned into the error result. */
class Bad {
  constructor(
    readonly field: string,
    readonly rule: string,
  ) {}
}

/** The own data properties of a plain object, refusing unknown keys (a misspelt or foreign field is corruption). */
function fields(x: unknown, path: string, allowed: readonly string[]): Record<string, unknown> {
  if (typeof x !== 'object' || x === null || isArray(x))
    throw new Bad(path, `must be an object, got ${describeValue(x)}`)
  const out: Record<string, unknown> = {}
  for (const key of Reflect.ownKeys(x)) {
    const name = typeof key === 'string' ? key : String(key)
    if (typeof key !== 'string' || !allowed.includes(key))
      throw new Bad(`${path}.${name}`, `is not a field of the state (fields: ${allowed.join(', ')})`)
    const d = Object.getOwnPropertyDescriptor(x, key)
    if (d === undefined || !('value' in d)) throw new Bad(`${path}.${key}`, 'must be a data property')
    out[key] = d.value
  }
  return out
}

/** The fields of an object that must all be present. */
function required(f: Record<string, unknown>, path: string, keys: readonly string[]): void {
  for (const k of keys) if (!(k in f)) throw new Bad(`${path}.${k}`, 'is required')
}

/** What both ledgers' states start with: only their own fields, all present, an aligned window and its used credits. */
function windowFields(
  state: unknown,
  keys: readonly string[],
  cfg: { windowMs: number; limit: number },
): { f: Record<string, unknown>; windowStart: number; used: number } {
  const f = fields(state, 'state', keys)
  required(f, 'state', keys)
  return {
    f,
    windowStart: windowStart(f.windowStart, 'state.windowStart', cfg.windowMs),
    used: integer(f.used, 'state.used', 0, cfg.limit),
  }
}

function integer(v: unknown, field: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max)
    throw new Bad(field, `must be an integer ${min}..${max}, got ${describeValue(v)}`)
  return v
}

function windowStart(v: unknown, field: string, windowMs: number): number {
  const w = integer(v, field, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)
  if (w % windowMs !== 0)
    throw new Bad(field, `must be a multiple of ${windowMs} (a window start aligned to the Unix epoch), got ${w}`)
  return w
}

function finite(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw new Bad(field, `must be a finite epoch millisecond time, got ${describeValue(v)}`)
  return v
}

function run<T>(fn: string, check: () => T): Result<T, MarketDataError> {
  try {
    return ok(check())
  } catch (e) {
    const bad = e instanceof Bad ? e : new Bad('state', 'could not be read')
    return err(new MarketDataError('invalid_option', `${fn}: ${bad.field}: ${bad.rule}`, { field: bad.field }))
  }
}

/**
 * Checks a restored REST ledger state field by field: `windowStart` an integer multiple of 60,000, `used` an
 * integer 0..100,000, `locked` a boolean, and no other field.
 *
 * @param state - The state as read back from storage (any value).
 * @param fn - The name to start the message with (default `restoreRestLedger`).
 * @returns The state (a fresh copy) or a `MarketDataError` `invalid_option` whose `field` is the path (`state.used`).
 * @throws Never.
 * @example
 * validateRestLedgerState({ windowStart: 60_000, used: 100_001, locked: false })
 * // { ok: false, error: MarketDataError('restoreRestLedger: state.used: must be an integer 0..100000, got 100001') }
 */
export function validateRestLedgerState(
  state: unknown,
  fn = 'restoreRestLedger',
  config: ServiceConfig = DEFAULT_SERVICE_CONFIG,
): Result<RestLedgerState, MarketDataError> {
  return run(fn, () => {
    const { f, windowStart, used } = windowFields(state, REST_KEYS, config.restCredits)
    if (typeof f.locked !== 'boolean')
      throw new Bad('state.locked', `must be true or false, got ${describeValue(f.locked)}`)
    return { windowStart, used, locked: f.locked }
  })
}

function record(x: unknown, path: string, clock: number, cfg: ServiceConfig['streamCredits']): StreamRecord {
  const f = fields(x, path, RECORD_KEYS)
  required(f, path, ['id', 'kind', 'status', 'openedAt'])
  if (typeof f.id !== 'string') throw new Bad(`${path}.id`, `must be a string, got ${describeValue(f.id)}`)
  if (typeof f.kind !== 'string' || !(kinds(cfg.caps) as string[]).includes(f.kind))
    throw new Bad(`${path}.kind`, `must be one of ${kinds(cfg.caps).join(', ')}, got ${describeValue(f.kind)}`)
  const kind = f.kind as StreamKind
  const openedAt = finite(f.openedAt, `${path}.openedAt`)
  if (openedAt > clock) throw new Bad(`${path}.openedAt`, `must not be after state.clock (${clock}), got ${openedAt}`)
  if (f.status === 'pending') {
    if ('dueAt' in f) throw new Bad(`${path}.dueAt`, 'must be absent on a pending stream (it is not charged yet)')
    return { id: f.id, kind, status: 'pending', openedAt }
  }
  if (f.status !== 'open') throw new Bad(`${path}.status`, `must be pending or open, got ${describeValue(f.status)}`)
  const dueAt = finite(f.dueAt, `${path}.dueAt`)
  // every renewal due at or before the clock is settled, and a charge is never in the future
  if (dueAt <= clock || dueAt > clock + cfg.windowMs)
    throw new Bad(
      `${path}.dueAt`,
      `must be after state.clock and at most ${cfg.windowMs} ms later (${clock}), got ${dueAt}`,
    )
  return { id: f.id, kind, status: 'open', openedAt, dueAt }
}

/**
 * Checks a restored stream ledger state field by field: `windowStart` an integer multiple of 300,000 holding
 * `clock`; `used` an integer 0..1,000; `nextId` an integer >= 1; each stream with a unique `id`, a known
 * `kind`, `status` pending (no `dueAt`) or open (`dueAt` within 300 s after `clock`), `openedAt` not after
 * `clock`; no kind over its cap; no other field.
 *
 * @param state - The state as read back from storage (any value).
 * @param fn - The name to start the message with (default `restoreStreamLedger`).
 * @returns The state (a fresh copy) or a `MarketDataError` `invalid_option` whose `field` is the path (`state.streams[2].kind`).
 * @throws Never.
 * @example
 * validateStreamLedgerState({ windowStart: 0, used: 0, clock: 5, nextId: 1, streams: [] }).ok // true
 */
export function validateStreamLedgerState(
  state: unknown,
  fn = 'restoreStreamLedger',
  config: ServiceConfig = DEFAULT_SERVICE_CONFIG,
): Result<StreamLedgerState, MarketDataError> {
  const cfg = config.streamCredits
  return run(fn, () => {
    const { f, windowStart: w, used } = windowFields(state, STREAM_KEYS, cfg)
    const clock = finite(f.clock, 'state.clock')
    if (clock < w || clock >= w + cfg.windowMs)
      throw new Bad('state.clock', `must lie in the window starting at state.windowStart (${w}), got ${clock}`)
    const nextId = integer(f.nextId, 'state.nextId', 1, Number.MAX_SAFE_INTEGER)
    if (!isArray(f.streams)) throw new Bad('state.streams', `must be an array, got ${describeValue(f.streams)}`)
    const list = f.streams
    const streams: StreamRecord[] = []
    const ids = new Set<string>()
    const counts = new Map<StreamKind, number>()
    for (let i = 0; i < list.length; i++) {
      const r = record(list[i], `state.streams[${i}]`, clock, cfg)
      if (ids.has(r.id))
        throw new Bad(`state.streams[${i}].id`, `must be unique, ${JSON.stringify(r.id)} appears twice`)
      ids.add(r.id)
      const n = (counts.get(r.kind) ?? 0) + 1
      if (n > cfg.caps[r.kind])
        throw new Bad(`state.streams[${i}].kind`, `more than ${cfg.caps[r.kind]} ${r.kind} streams (the cap)`)
      counts.set(r.kind, n)
      streams.push(r)
    }
    return { windowStart: w, used, clock, nextId, streams }
  })
}

/**
 * The options of `createRestLedger` / `createStreamLedger`: only `state` and `config`; a stored state is checked
 * against the config (as `validate` does) and refused by throwing its error.
 */
export function ledgerOptions<S>(
  opts: { state?: S; config?: ServiceConfig },
  fn: string,
  validate: (state: unknown, fn: string, config: ServiceConfig) => Result<S, MarketDataError>,
): { config: ServiceConfig; state: S | undefined } {
  checkOptions(opts, ['state', 'config'], fn)
  const config = opts.config ?? DEFAULT_SERVICE_CONFIG
  return { config, state: opts.state === undefined ? undefined : valueOrThrow(validate(opts.state, fn, config)) }
}
