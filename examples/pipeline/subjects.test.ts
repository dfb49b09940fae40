import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  decodeTrade,
  encodeTrade,
  fnv1a32,
  fromSubjectToken,
  MAX_TRADE_MESSAGE_BYTES,
  partitionOf,
  securityFilter,
  subjectToken,
  tradeSubject,
} from './subjects.js'

describe('trade subjects', () => {
  it('FNV-1a has its published test values', () => {
    expect(fnv1a32('')).toBe(0x811c9dc5)
    expect(fnv1a32('a')).toBe(0xe40c292c)
    expect(fnv1a32('foobar')).toBe(0xbf9cf968)
  })

  it('tokens never hold a subject separator or wildcard and decode back exactly', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const t = subjectToken(s)
        expect(t).toMatch(/^[A-Za-z0-9_~-]*$/)
        expect(fromSubjectToken(t)).toBe(s)
      }),
    )
  })

  it('a security always lands in the same partition, inside the range', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.string({ minLength: 1 }),
        fc.integer({ min: 1, max: 64 }),
        (e, s, p) => {
          const k = partitionOf(e, s, p)
          expect(k).toBeGreaterThanOrEqual(0)
          expect(k).toBeLessThan(p)
          expect(partitionOf(e, s, p)).toBe(k)
          expect(tradeSubject(e, s, p).split('.')).toHaveLength(4)
          expect(tradeSubject(e, s, p).split('.')[1]).toBe(String(k))
          expect(securityFilter(e, s).split('.').slice(2)).toEqual(tradeSubject(e, s, p).split('.').slice(2))
        },
      ),
    )
  })

  it('spreads securities over the partitions', () => {
    const counts = new Array(8).fill(0)
    for (let i = 0; i < 800; i++) counts[partitionOf('BINANCE', `SYM${i}`, 8)]++
    for (const c of counts) expect(c).toBeGreaterThan(50)
  })

  it('decodes what it encodes and refuses what is not a trade envelope', () => {
    const m = { exchange: 'CME', symbol: 'ES', seq: 3, time: 1, price: '5000.25', volume: '2', side: 'buy' }
    expect(decodeTrade(encodeTrade(m))).toEqual({ ok: true, message: m })
    const bad = (text: string) => decodeTrade(new TextEncoder().encode(text))
    expect(bad('{')).toMatchObject({ ok: false })
    expect(bad('[]')).toEqual({ ok: false, reason: 'message: not a JSON object' })
    expect(bad('{"exchange":"","symbol":"x","seq":0}')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^exchange/),
    })
    expect(bad('{"exchange":"x","symbol":"y","seq":-1}')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^seq/),
    })
    expect(bad(`"${'x'.repeat(MAX_TRADE_MESSAGE_BYTES)}"`)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/bytes/),
    })
    expect(decodeTrade(Uint8Array.of(0xff, 0xfe))).toMatchObject({ ok: false, reason: expect.stringMatching(/JSON/) })
  })
})
