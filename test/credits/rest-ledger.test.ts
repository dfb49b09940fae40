import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import {
  REST_CREDIT_LIMIT,
  REST_WINDOW_MS,
  createRestLedger,
  restCharge,
  restCheck,
  type RestLedgerState,
} from '../../src/credits/index.js'

const T0 = Date.UTC(2026, 5, 1, 12, 0, 0) // a window start (multiple of 60 s)

describe('restCheck / restCharge: headers', () => {
  it('a fresh account has the whole window; reset is the window end in Unix seconds', () => {
    const { outcome } = restCheck(undefined, T0 + 10_000)
    expect(outcome.locked).toBe(false)
    expect(outcome.headers).toEqual({
      'x-ratelimit-limit': '100000',
      'x-ratelimit-remaining': '100000',
      'x-ratelimit-reset': String((T0 + 60_000) / 1000),
    })
  })

  it('remaining includes the price of the request it accompanies', () => {
    const r = restCharge(undefined, T0 + 30_500, 1000)
    expect(r.outcome.ok).toBe(true)
    expect(r.outcome.headers['x-ratelimit-remaining']).toBe('99000')
    const r2 = restCharge(r.state, T0 + 31_000, 2500)
    expect(r2.outcome.headers['x-ratelimit-remaining']).toBe('96500')
    expect(r2.outcome.headers['retry-after']).toBeUndefined()
  })

  it('windows are fixed and aligned to the epoch: the window start belongs to the new window', () => {
    const a = restCharge(undefined, T0 - 1, 1000)
    expect(a.outcome.headers['x-ratelimit-reset']).toBe(String(T0 / 1000))
    const b = restCharge(a.state, T0, 1000)
    expect(b.outcome.headers['x-ratelimit-reset']).toBe(String(T0 / 1000 + 60))
    expect(b.outcome.headers['x-ratelimit-remaining']).toBe('99000') // unused credits do not carry over, nor do used ones
  })

  it('a charge of 0 (unbilled outcome) leaves the balance untouched', () => {
    const a = restCharge(undefined, T0, 5000)
    const b = restCharge(a.state, T0 + 1, 0)
    expect(b.state).toEqual(a.state)
    expect(b.outcome.headers['x-ratelimit-remaining']).toBe('95000')
  })
})

describe('429 and lock-out', () => {
  it('100 requests of 1,000 fit a window; the 101st is 429 with Retry-After to the reset', () => {
    let s: RestLedgerState | undefined
    for (let i = 0; i < 100; i++) {
      const r = restCharge(s, T0 + 100 * i, 1000)
      expect(r.outcome.ok).toBe(true)
      s = r.state
    }
    const r = restCharge(s, T0 + 20_250, 1000)
    expect(r.outcome.ok).toBe(false)
    if (r.outcome.ok) return
    expect(r.outcome.error).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 40 })
    expect(r.outcome.retryAfter).toBe(40) // ceil(39.75)
    expect(r.outcome.headers).toEqual({
      'x-ratelimit-limit': '100000',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String((T0 + 60_000) / 1000),
      'retry-after': '40',
    })
  })

  it('an uncovered request locks the account until the reset, even for prices that would fit', () => {
    let s = restCharge(undefined, T0, 95_000).state
    const refused = restCharge(s, T0 + 1000, 10_000)
    expect(refused.outcome.ok).toBe(false)
    expect(refused.outcome.headers['x-ratelimit-remaining']).toBe('5000') // as it stands, nothing charged
    if (!refused.outcome.ok) expect(refused.outcome.error.message).toMatch(/costs 10000 credits and 5000 .* remain/)
    const again = restCharge(refused.state, T0 + 1500, 1000).outcome
    if (!again.ok) expect(again.error.message).toContain('locked out')
    s = refused.state
    expect(restCharge(s, T0 + 2000, 1000).outcome.ok).toBe(false)
    const c = restCheck(s, T0 + 59_999)
    expect(c.outcome.locked).toBe(true)
    if (c.outcome.locked) expect(c.outcome.retryAfter).toBe(1)
    expect(restCheck(s, T0 + 60_000).outcome.locked).toBe(false)
    const after = restCharge(s, T0 + 60_000, 1000)
    expect(after.outcome.ok).toBe(true)
    expect(after.outcome.headers['x-ratelimit-remaining']).toBe('99000')
  })

  it('Retry-After is ceil((reset - now) / 1 s) and at least 1', () => {
    const s = restCharge(restCharge(undefined, T0, 100_000).state, T0, 1000).state
    const at = (ms: number) => {
      const r = restCheck(s, T0 + ms).outcome
      return r.locked ? r.retryAfter : undefined
    }
    expect(at(0)).toBe(60)
    expect(at(1)).toBe(60)
    expect(at(999)).toBe(60)
    expect(at(1000)).toBe(59)
    expect(at(59_000)).toBe(1)
    expect(at(59_999)).toBe(1)
  })

  it('a price above the whole limit is uncovered (429) and locks out', () => {
    const r = restCharge(undefined, T0, REST_CREDIT_LIMIT + 1)
    expect(r.outcome.ok).toBe(false)
    expect(r.state.locked).toBe(true)
  })
})

describe('purity and state', () => {
  it('never mutates the given state; the state survives a JSON round trip', () => {
    const s0 = restCharge(undefined, T0, 7000).state
    const frozen = Object.freeze({ ...s0 })
    const r = restCharge(frozen, T0 + 5, 3000)
    expect(frozen).toEqual(s0)
    const stored = JSON.parse(JSON.stringify(r.state)) as RestLedgerState
    expect(restCharge(stored, T0 + 6, 1000)).toEqual(restCharge(r.state, T0 + 6, 1000))
  })

  it('a clock stepping back stays in the stored window (credits are never handed out twice)', () => {
    const s = restCharge(undefined, T0 + 60_000, 100_000).state
    const back = restCharge(s, T0 + 10_000, 1000)
    expect(back.outcome.ok).toBe(false)
    if (!back.outcome.ok) expect(back.outcome.retryAfter).toBe(60)
    expect(back.outcome.headers['x-ratelimit-reset']).toBe(String((T0 + 120_000) / 1000))
  })

  it('throws MarketDataError for a bad price or time (caller errors, not user input)', () => {
    for (const c of [-1, 1.5, Number.NaN, Infinity, '1000' as unknown as number]) {
      expect(() => restCharge(undefined, T0, c)).toThrow(MarketDataError)
    }
    expect(() => restCheck(undefined, Number.NaN)).toThrow(/now/)
    expect(() => restCharge({ windowStart: T0, used: -5, locked: false }, T0, 1)).toThrow(/state/)
  })

  it('createRestLedger keeps the state of one account and starts from a stored one', () => {
    const l = createRestLedger()
    expect(l.state()).toBeUndefined()
    expect(l.charge(T0, 4000).ok).toBe(true)
    expect(l.check(T0 + 1).headers['x-ratelimit-remaining']).toBe('96000')
    const copy = createRestLedger({ state: l.state()! })
    expect(copy.charge(T0 + 2, 96_001).ok).toBe(false)
    expect(copy.check(T0 + 3).locked).toBe(true)
    expect(l.check(T0 + 3).locked).toBe(false) // independent ledgers
  })
})

type Op = { kind: 'check' } | { kind: 'charge'; price: number }
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<Op>({ kind: 'check' }) },
  { weight: 6, arbitrary: fc.integer({ min: 1000, max: 10_000 }).map((price): Op => ({ kind: 'charge', price })) },
  { weight: 1, arbitrary: fc.constantFrom<Op>({ kind: 'charge', price: 0 }, { kind: 'charge', price: 150_000 }) },
)
const stepArb = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0, max: 3_000 }) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 130_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: -70_000, max: 0 }) },
)

describe('properties over random sequences of requests and clock steps', () => {
  it('remaining stays in [0, limit]; charged per window <= 100,000; after a 429 all is 429 until the reset, nothing after', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.array(fc.tuple(stepArb, opArb), { maxLength: 300 }),
        (start, seq) => {
          let s: RestLedgerState | undefined
          let now = T0 - 600_000 + start
          let maxNow = -Infinity
          const charged = new Map<number, number>()
          let lockedWindow: number | undefined
          for (const [step, op] of seq) {
            now += step
            maxNow = Math.max(maxNow, now)
            const window = Math.floor(maxNow / REST_WINDOW_MS) * REST_WINDOW_MS // the clock never goes back
            const r = op.kind === 'check' ? restCheck(s, now) : restCharge(s, now, op.price)
            s = JSON.parse(JSON.stringify(r.state)) as RestLedgerState // stored between requests (Redis, SQL)
            const o = r.outcome
            const remaining = Number(o.headers['x-ratelimit-remaining'])
            expect(remaining).toBeGreaterThanOrEqual(0)
            expect(remaining).toBeLessThanOrEqual(REST_CREDIT_LIMIT)
            expect(Number(o.headers['x-ratelimit-reset']) * 1000).toBe(window + REST_WINDOW_MS)
            const blocked = 'locked' in o ? o.locked : !o.ok
            if (lockedWindow === window) expect(blocked).toBe(true)
            if (lockedWindow !== undefined && window > lockedWindow && op.kind === 'check') expect(blocked).toBe(false)
            if (blocked) {
              expect(o.headers['retry-after']).toBe(
                String(Math.max(1, Math.ceil((window + REST_WINDOW_MS - Math.max(now, window)) / 1000))),
              )
              if (op.kind === 'charge') lockedWindow = window
              expect(lockedWindow).toBe(window)
            }
            if ('ok' in o && o.ok) {
              charged.set(window, (charged.get(window) ?? 0) + o.charged)
              if (op.kind === 'charge') expect(o.charged).toBe(op.price)
            }
            expect(remaining).toBe(REST_CREDIT_LIMIT - (charged.get(window) ?? 0))
          }
          for (const total of charged.values()) expect(total).toBeLessThanOrEqual(REST_CREDIT_LIMIT)
        },
      ),
      { numRuns: 150 },
    )
  })

  it('a charge is refused exactly when the remaining credits cannot cover it or the window is locked', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 0, max: 30_000 })), {
          maxLength: 200,
        }),
        (seq) => {
          let s: RestLedgerState | undefined
          let now = T0
          let used = 0
          let locked = false
          let window = T0
          for (const [step, price] of seq) {
            now += step
            const w = Math.floor(now / REST_WINDOW_MS) * REST_WINDOW_MS
            if (w !== window) {
              window = w
              used = 0
              locked = false
            }
            const r = restCharge(s, now, price)
            s = r.state
            const covered = !locked && REST_CREDIT_LIMIT - used >= price
            expect(r.outcome.ok).toBe(covered)
            if (covered) used += price
            else locked = true
          }
        },
      ),
      { numRuns: 150 },
    )
  })
})
