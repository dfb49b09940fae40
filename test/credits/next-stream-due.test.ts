// nextStreamDue answers, never throws: a value that is not a stream ledger state holds no open stream.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  createStreamLedger,
  nextStreamDue,
  streamConfirm,
  streamHandshake,
  type StreamLedgerState,
} from '../../src/credits/index.js'

const boom = () => {
  throw new Error('boom')
}
const revoked = () => {
  const r = Proxy.revocable({}, {})
  r.revoke()
  return r.proxy
}

describe('nextStreamDue', () => {
  it('the earliest due time of the open streams; pending streams are not due', () => {
    let st = streamHandshake(undefined, 0, 'candles').state
    st = streamHandshake(st, 5, 'footprint').state
    st = streamConfirm(st, 7, 's2').state
    expect(nextStreamDue(st)).toBe(300_007)
    st = streamConfirm(st, 9, 's1').state
    expect(nextStreamDue(st)).toBe(300_007)
    expect(nextStreamDue(undefined)).toBeUndefined()
    expect(nextStreamDue(streamHandshake(undefined, 0, 'candles').state)).toBeUndefined()
  })

  it.each([
    ['null', null],
    ['a string', 'state'],
    ['a number', 42],
    ['an object without streams', {}],
    ['streams not an array', { streams: 'x' }],
    ['streams holding nulls and junk', { streams: [null, 1, 'x', { status: 'open' }, { status: 'open', dueAt: NaN }] }],
    ['a revoked Proxy', revoked()],
    ['a Proxy whose traps throw', new Proxy({}, { get: boom, has: boom, getPrototypeOf: boom })],
    ['a streams getter that throws', Object.defineProperty({}, 'streams', { get: boom })],
    ['a revoked streams array', { streams: revoked() }],
    ['an item getter that throws', { streams: Object.defineProperty([], '0', { get: boom, enumerable: true }) }],
  ])('%s: undefined, no throw', (_what, x) => {
    expect(nextStreamDue(x as StreamLedgerState)).toBeUndefined()
  })

  it('a hand-made state: only open streams with a finite dueAt count', () => {
    const st = {
      streams: [
        { status: 'open', dueAt: 9 },
        { status: 'pending', dueAt: 1 },
        { status: 'open', dueAt: 5 },
      ],
    }
    expect(nextStreamDue(st as unknown as StreamLedgerState)).toBe(5)
  })

  it('any value at all: a number or undefined, never a throw', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withObjectString: true }), (x) => {
        const due = nextStreamDue(x as StreamLedgerState)
        expect(due === undefined || typeof due === 'number').toBe(true)
      }),
    )
  })

  it("the ledger's nextDue agrees", () => {
    const ledger = createStreamLedger()
    const h = ledger.handshake(0, 'orderbook')
    if (h.ok) ledger.confirm(1_000, h.streamId)
    expect(ledger.nextDue()).toBe(nextStreamDue(ledger.state()))
    expect(ledger.nextDue()).toBe(301_000)
  })
})
