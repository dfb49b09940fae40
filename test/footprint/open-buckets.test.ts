// The engine's open buckets (an ordered lane for buckets opened after every open one, a Map for the rest)
// behave as one Map from start to bucket: for any sequence of opens and closes, in or out of time order,
// get finds exactly the open buckets, size counts them, and closing up to a time takes exactly those that
// end by it.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BucketState } from '../../src/footprint/bucket-state.js'
import { OpenBuckets } from '../../src/footprint/open-buckets.js'

const SPEC = { rowUnits: 1, pow: 1 }
const LEN = 60_000

/** Opens (a bucket index; buckets tile time, LEN ms each) and closes (up to a bucket index). */
const ops = fc.array(
  fc.oneof(
    fc.record({ open: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 20 })) }),
    fc.record({ closeUpTo: fc.integer({ min: 0, max: 320 }) }),
  ),
  { maxLength: 400 },
)

describe('OpenBuckets', () => {
  it('acts as a Map from start to bucket for any opens and closes', () => {
    fc.assert(
      fc.property(ops, (seq) => {
        const got = new OpenBuckets()
        const model = new Map<number, BucketState>()
        for (const op of seq) {
          if ('open' in op) {
            const start = op.open * LEN
            expect(got.get(start)).toBe(model.get(start))
            if (model.has(start)) continue
            const st = new BucketState(start, start + LEN, SPEC)
            got.add(st)
            model.set(start, st)
          } else {
            const upTo = op.closeUpTo * LEN
            const done: BucketState[] = []
            got.takeEnded(upTo, done)
            const want = [...model.values()].filter((st) => st.end <= upTo)
            for (const st of want) model.delete(st.start)
            expect(new Set(done)).toEqual(new Set(want))
            expect(done.length).toBe(want.length)
          }
          expect(got.size).toBe(model.size)
          expect(new Set(got.values())).toEqual(new Set(model.values()))
        }
        for (let b = 0; b <= 300; b++) expect(got.get(b * LEN)).toBe(model.get(b * LEN))
      }),
      { numRuns: 300 },
    )
  })
})
