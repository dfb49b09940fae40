// The object fast loop reads volume strings inline (each character once); it must agree with the exact
// shared reader (the path a plain iterable takes, one record at a time) on any volume string: the same
// profiles, or the same error naming the same record and field.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { footprintProfiles } from '../../src/footprint/index.js'
import type { Trade } from '../../src/trades/index.js'

/** A plain decimal with one character (any position) replaced by a non-digit: the inline reader must refuse it wherever it sits in its blocks of four digits. */
const corrupted = fc
  .tuple(
    fc.stringMatching(/^[0-9]{1,6}\.[0-9]{1,12}$/),
    fc.nat(),
    fc.constantFrom('x', '/', ':', ' ', '-', '.', 'e', '\u0660'),
  )
  .map(([d, at, ch]) => {
    const k = at % d.length
    return d.slice(0, k) + ch + d.slice(k + 1)
  })

const vol = fc.oneof(
  corrupted,
  fc.stringMatching(/^-?[0-9]{0,20}(\.[0-9]{0,12})?$/),
  fc.stringMatching(/^0{0,5}[0-9]{0,17}\.?[0-9]{0,10}0{0,5}$/),
  fc.array(fc.constantFrom('0', '1', '9', '.', '-', '+', 'e', ' ', ','), { maxLength: 12 }).map((x) => x.join('')),
)

function outcome(f: () => unknown): unknown {
  try {
    return { ok: f() }
  } catch (e) {
    const x = e as { code?: string; index?: number; field?: string; message?: string }
    return { err: [x.code, x.index, x.field, x.message] }
  }
}

function* oneByOne(trades: readonly Trade[]): Generator<Trade> {
  yield* trades
}

describe('footprint object path: inline volume strings', () => {
  it('an array (fast loop) equals an iterable (exact reader) on any volume strings', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(vol, fc.integer({ min: 0, max: 50 }), fc.boolean(), fc.integer({ min: 0, max: 7_200_000 })), {
          maxLength: 30,
        }),
        fc.integer({ min: 0, max: 6 }),
        (rows, dec) => {
          let t = Date.UTC(2026, 5, 1)
          const trades: Trade[] = rows.map(([v, p, b, gap]) => ({
            time: (t += gap % 600_000),
            price: (5000 + p / 4).toFixed(2),
            volume: v,
            side: b ? 'buy' : 'sell',
          }))
          const o = { timeframe: '1h' as const, tickSize: dec === 0 ? '1' : `0.${'0'.repeat(dec - 1)}1`, rowSize: 2 }
          const fast = outcome(() => footprintProfiles(trades, o))
          expect(fast).toEqual(outcome(() => footprintProfiles(oneByOne(trades), o)))
        },
      ),
      { numRuns: 1500 },
    )
  })

  it('a corrupted decimal after a 12-decimal volume (the inline reader takes up to 12 decimals, four digits a step) is refused as the exact reader refuses it', () => {
    fc.assert(
      fc.property(fc.array(corrupted, { minLength: 1, maxLength: 5 }), (vols) => {
        const t = Date.UTC(2026, 5, 1)
        const trades: Trade[] = ['0.000000000001', ...vols].map((v, i) => ({
          time: t + i,
          price: '5000.00',
          volume: v,
          side: 'buy',
        }))
        const o = { timeframe: '1h' as const, tickSize: '1', rowSize: 2 }
        expect(outcome(() => footprintProfiles(trades, o))).toEqual(
          outcome(() => footprintProfiles(oneByOne(trades), o)),
        )
      }),
      { numRuns: 500 },
    )
  })
})
