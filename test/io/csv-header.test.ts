// The CSV header detection of the trade reader (svc-marketdata/io), as properties: a header in any column order, case, quoting and spacing is
// read by name; a data row (any time format the CLI reads) is never taken for a header.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { headerColumns as headerOf } from '../../src/io/text-reader.js'
import { TRADE_KIND } from '../../src/io/trades.js'

const headerColumns = (fields: string[]) => headerOf(TRADE_KIND, fields)

const NAMES = {
  time: ['time', 'timestamp', 'ts', 't', 'date', 'datetime'],
  price: ['price', 'p', 'px'],
  volume: ['volume', 'qty', 'quantity', 'size', 'amount', 'v'],
  side: ['side', 'aggressor', 'direction'],
  session: ['session', 'session_type', 'sessiontype'],
} as const
type Key = keyof typeof NAMES

/** A name as a file might spell it: any case, maybe quoted, maybe padded. */
const spelled = (name: string) =>
  fc
    .record({
      upper: fc.array(fc.boolean(), { minLength: name.length, maxLength: name.length }),
      quote: fc.boolean(),
      pad: fc.constantFrom('', ' ', '  '),
    })
    .map(({ upper, quote, pad }) => {
      const s = [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('')
      return pad + (quote ? `"${s}"` : s) + pad
    })

describe('headerColumns', () => {
  it('reads a header by name in any order, case, quoting and padding, with extra unknown columns', () => {
    const keys: Key[] = ['time', 'price', 'volume', 'side', 'session']
    const headerArb = fc
      .record({
        names: fc.record(
          Object.fromEntries(keys.map((k) => [k, fc.constantFrom(...NAMES[k])])) as {
            [K in Key]: fc.Arbitrary<string>
          },
        ),
        withSession: fc.boolean(),
        extras: fc.array(fc.constantFrom('exchange', 'symbol', 'id', 'venue'), { maxLength: 2 }),
        order: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
      })
      .chain(({ names, withSession, extras, order }) => {
        const cols: { key: Key | undefined; name: string }[] = [
          ...keys.filter((k) => k !== 'session' || withSession).map((k) => ({ key: k, name: names[k] })),
          ...extras.map((e) => ({ key: undefined, name: e })),
        ]
        // a permutation from the random keys; the first field must still look like a name (it is)
        const perm = cols
          .map((c, i) => ({ c, r: order[i] ?? 0 }))
          .sort((a, b) => a.r - b.r)
          .map((x) => x.c)
        return fc.tuple(...perm.map((c) => spelled(c.name))).map((fields) => ({ perm, fields }))
      })
    fc.assert(
      fc.property(headerArb, ({ perm, fields }) => {
        const got = headerColumns(fields)
        const at = (k: Key) => perm.findIndex((c) => c.key === k)
        expect(got).toEqual({
          time: at('time'),
          price: at('price'),
          volume: at('volume'),
          side: at('side'),
          session: at('session'),
        })
      }),
      { numRuns: 300 },
    )
  })

  it('a header missing a required column says which', () => {
    expect(headerColumns(['time', 'price', 'side'])).toMatch(/no volume column/)
    expect(headerColumns(['ts', 'qty', 'side'])).toMatch(/no price column/)
  })

  it('never takes a data row for a header: epoch ms or s, ISO times, with prices, volumes and sides', () => {
    const time = fc.oneof(
      fc.integer({ min: 0, max: 4_102_444_800_000 }).map(String),
      fc.integer({ min: 0, max: 4_102_444_800 }).map(String),
      fc.integer({ min: 0, max: 4_102_444_800_000 }).map((t) => new Date(t).toISOString()),
      fc.integer({ min: 0, max: 4_102_444_800_000 }).map((t) => new Date(t).toISOString().replace('Z', '+02:00')),
    )
    const row = fc.tuple(
      time,
      fc.double({ min: 0.01, max: 1e6, noNaN: true }).map(String),
      fc.nat(1000).map(String),
      fc.constantFrom('buy', 'sell', 'b', 's', '1', '2'),
      fc.constantFrom('', 'MAINSESSION', 'PRE_MARKET'),
    )
    fc.assert(
      fc.property(row, (fields) => {
        expect(headerColumns(fields)).toBeUndefined()
      }),
      { numRuns: 300 },
    )
    // a first field that is not a time but names no column (a corrupted row) is data, not a header
    expect(headerColumns(['x17', '5000.25', '1', 'buy'])).toBeUndefined()
    expect(TRADE_KIND.columns).toEqual(['time', 'price', 'volume', 'side', 'session'])
  })
})
