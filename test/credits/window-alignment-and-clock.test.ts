import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import {
  REST_WINDOW_MS,
  STREAM_WINDOW_MS,
  createStreamLedger,
  nextStreamDue,
  restCharge,
  restCheck,
  streamConfirm,
  streamHandshake,
  streamRenew,
  type StreamKind,
} from '../../src/credits/index.js'

const W = STREAM_WINDOW_MS
const T0 = Date.UTC(2026, 5, 1, 12, 0, 0) // a multiple of 300 s (and of 60 s)

function openMany(l: ReturnType<typeof createStreamLedger>, now: number, kind: StreamKind, n: number): void {
  for (let i = 0; i < n; i++) {
    const h = l.handshake(now, kind)
    if (!h.ok) throw new Error(`handshake ${i} refused`)
    if (!l.confirm(now, h.streamId).ok) throw new Error(`confirm ${i} refused`)
  }
}

describe('windows are fixed and aligned to the Unix epoch for every finite now, before 1970 too', () => {
  it('REST: the window holding now is [reset - 60 s, reset), reset a multiple of 60 s', () => {
    expect(restCheck(undefined, -1).outcome.reset).toBe(0) // the window [-60 s, 0)
    expect(restCheck(undefined, -60_001).outcome.reset).toBe(-60)
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (now) => {
        const resetMs = restCheck(undefined, now).outcome.reset * 1000
        expect(Number.isInteger(resetMs / REST_WINDOW_MS)).toBe(true)
        expect(resetMs - REST_WINDOW_MS <= now && now < resetMs).toBe(true)
      }),
    )
  })

  it('streams: the window holding now is [reset - 300 s, reset), reset a multiple of 300 s', () => {
    expect(streamHandshake(undefined, -1, 'candles').outcome.headers['x-ratelimit-reset']).toBe('0')
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (now) => {
        const resetMs = Number(streamHandshake(undefined, now, 'candles').outcome.headers['x-ratelimit-reset']) * 1000
        expect(Number.isInteger(resetMs / W)).toBe(true)
        expect(resetMs - W <= now && now < resetMs).toBe(true)
      }),
    )
  })
})

describe('a non-finite now is a caller error (invalid_time), never a state', () => {
  const calls: [string, (now: number) => unknown][] = [
    ['restCheck', (now) => restCheck(undefined, now)],
    ['restCharge', (now) => restCharge(undefined, now, 1000)],
    ['streamHandshake', (now) => streamHandshake(undefined, now, 'candles')],
    ['streamConfirm', (now) => streamConfirm(undefined, now, 's1')],
    ['streamRenew', (now) => streamRenew(undefined, now)],
  ]
  for (const [name, call] of calls) {
    it(`${name} throws MarketDataError invalid_time for Infinity, -Infinity and NaN`, () => {
      for (const now of [Infinity, -Infinity, Number.NaN]) {
        let thrown: unknown
        try {
          call(now)
        } catch (e) {
          thrown = e
        }
        expect(thrown).toBeInstanceOf(MarketDataError)
        expect((thrown as MarketDataError).code).toBe('invalid_time')
      }
    })
  }
})

describe('stream ledger: a clock stepping back is read as the latest time seen', () => {
  it("a refused handshake's Retry-After counts from the latest time seen", () => {
    const l = createStreamLedger()
    openMany(l, T0 + 200_000, 'orderbook', 20) // 1,000 used in [T0, T0 + 300 s)
    const r = l.handshake(T0 + 10_000, 'candles') // read as T0 + 200 s
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.retryAfter).toBe(100) // (T0 + 300 s) - (T0 + 200 s)
    expect(r.headers['retry-after']).toBe('100')
  })

  it('a confirm with an earlier now charges at the latest time seen: the renewal is due 300 s after it', () => {
    const h = streamHandshake(undefined, T0 + 200_000, 'candles')
    const c = streamConfirm(h.state, T0 + 50_000, 's1')
    expect(c.outcome.ok).toBe(true)
    expect(nextStreamDue(c.state)).toBe(T0 + 200_000 + W)
    expect(c.state.clock).toBe(T0 + 200_000)
    expect(c.state.streams[0]!.openedAt).toBe(T0 + 200_000)
  })
})

describe('stream ledger: renewals after a gap of several windows', () => {
  it('a renewal falling due exactly at the handshake instant is settled (and charged) before it', () => {
    // candles stream confirmed at T0: due at T0 + 1 W, + 2 W, + 3 W; it pays once in each window
    const l = createStreamLedger()
    openMany(l, T0, 'candles', 1)
    const r = l.handshake(T0 + 3 * W, 'footprint')
    expect(r.ok).toBe(true)
    expect(r.headers['x-ratelimit-remaining']).toBe('990') // its renewal at T0 + 3 W is in this window
    expect(r.headers['x-ratelimit-reset']).toBe(String((T0 + 4 * W) / 1000))
    expect(l.nextDue()).toBe(T0 + 4 * W)
  })

  it('the same for a renew call and several streams due at that instant', () => {
    const l = createStreamLedger()
    openMany(l, T0 + 7_000, 'orderbook', 19) // 950 per window
    openMany(l, T0 + 7_000, 'footprint', 2) // 50 more: 1,000 per window
    const r = l.renew(T0 + 7_000 + 5 * W)
    expect(r.notices).toEqual([])
    expect(l.state()!.used).toBe(1000)
    expect(l.nextDue()).toBe(T0 + 7_000 + 6 * W)
  })
})

describe('stream ids and the next due time', () => {
  it('a ledger-assigned id skips ids the caller already used', () => {
    const a = streamHandshake(undefined, T0, 'candles', 's1')
    const b = streamHandshake(a.state, T0 + 1, 'candles')
    expect(b.outcome.ok).toBe(true)
    if (b.outcome.ok) expect(b.outcome.streamId).toBe('s2')
    const c = streamHandshake(streamHandshake(b.state, T0 + 2, 'candles', 's4').state, T0 + 3, 'candles')
    if (c.outcome.ok) expect(c.outcome.streamId).toBe('s3')
    const d = streamHandshake(c.state, T0 + 4, 'candles')
    expect(d.outcome.ok && d.outcome.streamId).toBe('s5')
    expect(new Set(d.state.streams.map((r) => r.id)).size).toBe(d.state.streams.length)
  })

  it('nextStreamDue is the earliest renewal of the open streams (300 s after the earliest confirm)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 40_000 }), { minLength: 1, maxLength: 7 }), (offsets) => {
        const l = createStreamLedger()
        let now = T0
        const times: number[] = []
        for (const off of offsets) {
          // all within one renewal period: nothing is renewed yet
          now += off
          openMany(l, now, 'candles', 1)
          times.push(now)
        }
        expect(l.nextDue()).toBe(Math.min(...times) + W)
      }),
    )
  })
})

describe('stream ledger: long idle gaps', () => {
  it('a renew after months without calls: every stream still pays, in the window of now', () => {
    const l = createStreamLedger()
    openMany(l, T0, 'footprint', 20) // 500 per window
    const now = T0 + 120 * 86_400_000 // 34,560 windows later, a window start
    const r = l.renew(now)
    expect(r.notices).toEqual([])
    expect(l.state()!.used).toBe(500) // all 20 renewals due at `now` paid in the window of `now`
    expect(l.state()!.windowStart).toBe(now)
    expect(l.nextDue()).toBe(now + W)
  })
})
