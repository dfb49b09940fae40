import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  LIST_SECURITIES_MAX,
  listSecuritiesItems,
  type SecurityId,
  type SecurityInfo,
} from '../../src/partner/index.js'

const AAPL: SecurityInfo = {
  guid: 'g-aapl',
  ticker: 'AAPL',
  exchange_code: 'NASDAQ',
  names: { en: 'Apple Inc.' },
  isin: 'US0378331005',
  status: 1,
  price_precision: 2,
  tick_size: { value: '1', scale: '100' },
  asset_base: {
    id: { code: 'AAPL', asset_class_code: 'EQUITY' },
    company: { name: 'Apple', industries: [{ name: 'Tech', industries: [] }] },
  },
  asset_quote: { id: { code: 'USD', asset_class_code: 'CURRENCY' } },
  classes: [{ name: 'Common stock', top_level_class: { name: 'Equity' } }],
  price_precisions: [
    { price_from: { value: '0', scale: '1' }, price_to: { value: '1', scale: '1' }, precision: 4 },
    { price_from: { value: '1', scale: '1' }, precision: 2 },
  ],
}
const CATALOG = [AAPL, { guid: 'g-btc', ticker: 'BTCUSDT', exchange_code: 'BINANCE' }]

function lookup(id: SecurityId): SecurityInfo | undefined {
  return 'guid' in id
    ? CATALOG.find((s) => s.guid === id.guid)
    : CATALOG.find((s) => s.ticker === id.ticker_code.ticker && s.exchange_code === id.ticker_code.exchange_code)
}

describe('listSecuritiesItems', () => {
  it('one item per id, in order, mixing guid and ticker ids; found 0 with security_info, missing 5 without', () => {
    const ids = [
      { guid: 'g-btc' },
      { ticker_code: { ticker: 'AAPL', exchange_code: 'NASDAQ' } },
      { guid: 'g-none' },
      { ticker_code: { ticker: 'AAPL', exchange_code: 'NYSE' } },
    ]
    const r = listSecuritiesItems(ids, lookup)
    if (!r.ok) throw new Error(r.error.message)
    expect(r.value.map((i) => i.status.code)).toEqual([0, 0, 5, 5])
    expect(r.value[0]).toEqual({
      status: { code: 0, message: '', details: [] },
      security_id: ids[0],
      security_info: CATALOG[1],
    })
    expect(r.value[1]!.security_info).toBe(AAPL)
    expect(r.value[2]).toEqual({ status: { code: 5, message: 'NOT_FOUND', details: [] }, security_id: ids[2] })
    expect('security_info' in r.value[3]!).toBe(false)
  })

  it('an invalid id gets its own item with status 3; the others are answered', () => {
    const ids = [
      { guid: 'g-aapl' },
      { guid: 'g-aapl', ticker_code: { ticker: 'A', exchange_code: 'X' } },
      42,
      { ticker_code: { ticker: 'AAPL' } },
      { guid: 'g-btc' },
    ]
    const r = listSecuritiesItems(ids, lookup)
    if (!r.ok) throw new Error(r.error.message)
    expect(r.value.map((i) => i.status.code)).toEqual([0, 3, 3, 3, 0])
    expect(r.value[1]!.security_id).toBe(ids[1]) // echoed as requested
    expect(r.value[3]!.status.message).toContain('exchange_code')
    expect(r.value[1]!.status.message).toContain('security_ids[1]')
  })

  it('a missing, non-array or empty list is a request-level 3 INVALID_ARGUMENT', () => {
    for (const ids of [[], undefined, null, {}, 'g-aapl']) {
      const r = listSecuritiesItems(ids, lookup)
      expect(r.ok).toBe(false)
      if (!r.ok) {
        expect(r.error.code).toBe(3)
        expect(r.error.message).toContain('security_ids')
      }
    }
  })

  it('the lookup only ever sees valid, fresh ids', () => {
    const seen: SecurityId[] = []
    listSecuritiesItems([{ guid: 'x' }, { nope: 1 }, { ticker_code: { ticker: 'T', exchange_code: 'E' } }], (id) => {
      seen.push(id)
      return undefined
    })
    expect(seen).toEqual([{ guid: 'x' }, { ticker_code: { ticker: 'T', exchange_code: 'E' } }])
  })

  it('property: items match the ids one to one, in order, with the status the lookup implies', () => {
    const idArb = fc.oneof(
      fc.constantFrom('g-aapl', 'g-btc', 'g-x').map((guid) => ({ guid }) as unknown),
      fc.record({
        ticker_code: fc.record({
          ticker: fc.constantFrom('AAPL', 'BTCUSDT', 'Z'),
          exchange_code: fc.constantFrom('NASDAQ', 'BINANCE'),
        }),
      }) as fc.Arbitrary<unknown>,
      fc.anything({ withNullPrototype: true, withBigInt: true, withBoxedValues: true, withObjectString: true }),
    )
    expect(listSecuritiesItems([{ __proto__: null, x: 0n }], lookup).ok).toBe(true)
    fc.assert(
      fc.property(fc.array(idArb, { minLength: 1, maxLength: 30 }), (ids) => {
        const r = listSecuritiesItems(ids, lookup)
        expect(r.ok).toBe(true)
        if (!r.ok) return
        expect(r.value.length).toBe(ids.length)
        r.value.forEach((item, i) => {
          expect(item.security_id).toBe(ids[i])
          expect([0, 3, 5]).toContain(item.status.code)
          expect(item.security_info !== undefined).toBe(item.status.code === 0)
          if (item.status.code === 0) expect(item.security_info).toBe(lookup(item.security_id as SecurityId))
        })
      }),
      { numRuns: 150 },
    )
  })
})

describe('listSecuritiesItems: a bounded list', () => {
  const g = (n: number) => Array.from({ length: n }, (_, i) => ({ guid: `g-${i}` }))
  it('LIST_SECURITIES_MAX ids are answered, one more is a request-level 3 naming the field and the maximum', () => {
    let calls = 0
    const count = () => {
      calls++
      return undefined
    }
    const full = listSecuritiesItems(g(LIST_SECURITIES_MAX), count)
    expect(full.ok && full.value.length).toBe(1000)
    expect(calls).toBe(1000)
    calls = 0
    const over = listSecuritiesItems(g(LIST_SECURITIES_MAX + 1), count)
    expect(over).toEqual({
      ok: false,
      error: { code: 3, message: 'security_ids: at most 1000 SecurityId per request, got 1001', details: [] },
    })
    // refused before any look-up
    expect(calls).toBe(0)
  })
  it('a huge sparse list is refused at once, without reading its items', () => {
    const huge = new Array(2 ** 32 - 1)
    const r = listSecuritiesItems(huge, () => undefined)
    expect(!r.ok && r.error.code).toBe(3)
    expect(!r.ok && r.error.message).toMatch(/^security_ids: at most 1000 /)
  })
})
