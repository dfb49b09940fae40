// Restored ledger states: every state the transitions produce round-trips (through JSON too) and restores a
// ledger that goes on exactly as the original; any single corrupted field is refused with an error naming it.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  REST_CREDIT_LIMIT,
  createRestLedger,
  createStreamLedger,
  restCharge,
  restCheck,
  streamRenew,
  type RestLedgerState,
  type StreamKind,
  type StreamLedgerState,
} from '../../src/credits/index.js'
import { validateRestLedgerState, validateStreamLedgerState } from '../../src/credits/ledger-state.js'
import { MarketDataError } from '../../src/errors.js'
import { createServiceConfig } from '../../src/rules/index.js'

const T0 = Date.UTC(2026, 5, 1, 12, 0, 0)

/** REST states reached by charging random prices at random times. */
const restState: fc.Arbitrary<RestLedgerState> = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: 0, max: 30_000 })), {
    minLength: 1,
    maxLength: 30,
  })
  .map((steps) => {
    let s: RestLedgerState | undefined
    let t = T0
    for (const [dt, price] of steps) {
      t += dt
      s = restCharge(s, t, price).state
    }
    return s!
  })

type Op = { t: 'hs'; kind: StreamKind } | { t: 'confirm'; pick: number } | { t: 'close'; pick: number } | { t: 'renew' }
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant('hs' as const), kind: fc.constantFrom<StreamKind>('candles', 'footprint', 'orderbook') }),
  fc.record({ t: fc.constant('confirm' as const), pick: fc.nat(20) }),
  fc.record({ t: fc.constant('close' as const), pick: fc.nat(20) }),
  fc.record({ t: fc.constant('renew' as const) }),
)

/** Stream states reached by random handshakes, confirms, closes and renewals at increasing times. */
const streamState: fc.Arbitrary<StreamLedgerState> = fc
  .array(fc.tuple(op, fc.integer({ min: 0, max: 400_000 })), { minLength: 1, maxLength: 40 })
  .map((steps) => {
    const l = createStreamLedger()
    let t = T0 + 1234
    for (const [o, dt] of steps) {
      t += dt
      const ids = l.state()?.streams.map((r) => r.id) ?? []
      if (o.t === 'hs') l.handshake(t, o.kind)
      else if (o.t === 'confirm' && ids.length > 0) l.confirm(t, ids[o.pick % ids.length]!)
      else if (o.t === 'close' && ids.length > 0) l.close(t, ids[o.pick % ids.length]!)
      else l.renew(t)
    }
    return l.state()!
  })

describe('valid states round-trip', () => {
  it('every REST state a ledger produces is valid, also through JSON, and restores a ledger that answers the same', () => {
    fc.assert(
      fc.property(
        restState,
        fc.integer({ min: 0, max: 120_000 }),
        fc.integer({ min: 0, max: 20_000 }),
        (s, dt, price) => {
          const v = validateRestLedgerState(JSON.parse(JSON.stringify(s)))
          expect(v).toEqual({ ok: true, value: s })
          const now = s.windowStart + dt
          expect(createRestLedger({ state: s }).charge(now, price)).toEqual(restCharge(s, now, price).outcome)
        },
      ),
    )
  })

  it('every stream state a ledger produces is valid, also through JSON, and restores a ledger that renews the same', () => {
    fc.assert(
      fc.property(streamState, fc.integer({ min: 0, max: 2_000_000 }), (s, dt) => {
        const v = validateStreamLedgerState(JSON.parse(JSON.stringify(s)))
        expect(v).toEqual({ ok: true, value: s })
        const later = s.clock + dt
        const restored = createStreamLedger({ state: JSON.parse(JSON.stringify(s)) })
        expect(restored.renew(later)).toEqual(streamRenew(s, later).outcome)
        expect(restored.state()).toEqual(streamRenew(s, later).state)
      }),
    )
  })
})

/** For each REST field, values that break exactly that field's rule. */
const REST_BAD: Record<keyof RestLedgerState, unknown[]> = {
  windowStart: [T0 + 1, T0 + 0.5, String(T0), NaN, Infinity, null, undefined, 2 ** 60],
  used: [REST_CREDIT_LIMIT + 1, -1, 0.5, '0', NaN, null, true],
  locked: ['no', 'false', 0, 1, null, undefined, {}],
}

/** Refused with an `invalid_option` MarketDataError whose field is `field` and whose message names it. */
function refused(r: { ok: boolean; error?: MarketDataError }, field: string): void {
  expect(r.ok).toBe(false)
  expect(r.error).toBeInstanceOf(MarketDataError)
  expect(r.error!.code).toBe('invalid_option')
  expect(r.error!.field).toBe(field)
  expect(r.error!.message).toContain(field)
}

describe('a single corrupted field is refused, naming it', () => {
  it('REST: any field replaced by a value that breaks its rule, removed, or a field added', () => {
    const key = fc.constantFrom(...(Object.keys(REST_BAD) as (keyof RestLedgerState)[]))
    fc.assert(
      fc.property(restState, key, fc.nat(), (s, k, i) => {
        const bad = REST_BAD[k][i % REST_BAD[k].length]
        const state = { ...s, [k]: bad }
        if (bad === undefined) delete (state as Record<string, unknown>)[k]
        refused(validateRestLedgerState(state), `state.${k}`)
        // the transitions and the restore refuse it too (they throw the same error)
        expect(() => restCheck(state as RestLedgerState, s.windowStart)).toThrow(`state.${k}`)
        expect(() => createRestLedger({ state: state as RestLedgerState })).toThrow(`createRestLedger: state.${k}`)
      }),
    )
    refused(validateRestLedgerState({ windowStart: T0, used: 0, locked: false, usd: 5 }), 'state.usd')
    refused(validateRestLedgerState([T0, 0, false]), 'state')
    refused(validateRestLedgerState('{}'), 'state')
  })

  it('the issue\'s symptoms: used above the limit, locked "no", an unaligned window are errors, not -100000, a lock-out or a fractional reset', () => {
    expect(() => restCheck({ windowStart: T0, used: 200_000, locked: false }, T0)).toThrow(
      'restCheck: state.used: must be an integer 0..100000, got 200000',
    )
    expect(() => restCheck({ windowStart: T0, used: 0, locked: 'no' as unknown as boolean }, T0)).toThrow(
      'restCheck: state.locked: must be true or false, got "no"',
    )
    expect(() => restCharge({ windowStart: T0 + 30_500, used: 0, locked: false }, T0 + 40_000, 1000)).toThrow(
      'restCharge: state.windowStart: must be a multiple of 60000',
    )
  })

  it('stream: any top-level or record field broken is refused with its path', () => {
    type Corrupt = { field: string; apply: (s: any) => unknown }
    const corruptions: Corrupt[] = [
      { field: 'state.windowStart', apply: (s) => Object.assign(s, { windowStart: s.windowStart + 1 }) },
      { field: 'state.used', apply: (s) => Object.assign(s, { used: 1001 }) },
      { field: 'state.used', apply: (s) => Object.assign(s, { used: -10 }) },
      { field: 'state.clock', apply: (s) => Object.assign(s, { clock: s.windowStart + 300_000 }) },
      { field: 'state.clock', apply: (s) => Object.assign(s, { clock: 'now' }) },
      { field: 'state.nextId', apply: (s) => Object.assign(s, { nextId: 0 }) },
      { field: 'state.streams', apply: (s) => Object.assign(s, { streams: {} }) },
      { field: 'state.extra', apply: (s) => Object.assign(s, { extra: 1 }) },
      {
        field: 'state.streams[0].kind',
        apply: (s) => s.streams.length > 0 && Object.assign(s.streams[0], { kind: 'trades' }),
      },
      {
        field: 'state.streams[0].status',
        apply: (s) => s.streams.length > 0 && Object.assign(s.streams[0], { status: 'closed' }),
      },
      {
        field: 'state.streams[0].openedAt',
        apply: (s) => s.streams.length > 0 && Object.assign(s.streams[0], { openedAt: s.clock + 1 }),
      },
      { field: 'state.streams[0].id', apply: (s) => s.streams.length > 0 && Object.assign(s.streams[0], { id: 7 }) },
      {
        field: 'state.streams[0].dueAt',
        apply: (s) => s.streams.length > 0 && Object.assign(s.streams[0], { dueAt: s.clock }),
      },
      {
        field: 'state.streams[1].id',
        apply: (s) => s.streams.length > 1 && Object.assign(s.streams[1], { id: s.streams[0].id }),
      },
    ]
    let checked = 0
    fc.assert(
      fc.property(streamState, fc.nat(corruptions.length - 1), (s, i) => {
        const c = corruptions[i]!
        const copy = JSON.parse(JSON.stringify(s))
        if (!c.apply(copy)) return
        checked++
        refused(validateStreamLedgerState(copy), c.field)
        expect(() => streamRenew(copy, s.clock)).toThrow(`streamRenew: ${c.field}`)
        expect(() => createStreamLedger({ state: copy })).toThrow(c.field)
      }),
      { numRuns: 300 },
    )
    expect(checked).toBeGreaterThan(100)
  })

  it('hostile objects (throwing getters, revoked proxies) are refused, never thrown', () => {
    const getter = Object.defineProperty({ windowStart: T0, locked: false }, 'used', {
      get() {
        throw new Error('boom')
      },
      enumerable: true,
    })
    refused(validateRestLedgerState(getter), 'state.used')
    const r = Proxy.revocable({}, {})
    r.revoke()
    refused(validateStreamLedgerState(r.proxy), 'state')
  })
})

describe("a restored state is checked against the ledger's own service config, not the defaults", () => {
  it('REST: any used count up to the configured limit restores; above it is refused, naming state.used', () => {
    fc.assert(
      fc.property(fc.integer({ min: REST_CREDIT_LIMIT + 1, max: 10 * REST_CREDIT_LIMIT }), fc.nat(), (limit, k) => {
        const config = createServiceConfig({ restCredits: { limit } })
        const used = REST_CREDIT_LIMIT + 1 + (k % (limit - REST_CREDIT_LIMIT))
        const state: RestLedgerState = { windowStart: 0, used, locked: false }
        expect(() => createRestLedger({ state, config })).not.toThrow()
        // the default limit refuses the same state
        expect(() => createRestLedger({ state })).toThrow(expect.objectContaining({ field: 'state.used' }))
        expect(() => createRestLedger({ state: { ...state, used: limit + 1 }, config })).toThrow(
          expect.objectContaining({ field: 'state.used' }),
        )
      }),
      { numRuns: 50 },
    )
  })

  it('streams: a window and caps from the config are the ones a restored state must fit', () => {
    const config = createServiceConfig({ streamCredits: { limit: 5_000, windowMs: 600_000 } })
    const state: StreamLedgerState = { windowStart: 0, used: 4_000, clock: 400_000, nextId: 1, streams: [] }
    expect(() => createStreamLedger({ state, config })).not.toThrow()
    expect(() => createStreamLedger({ state })).toThrow(expect.objectContaining({ code: 'invalid_option' }))
  })
})
