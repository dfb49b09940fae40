import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { assignPartitions } from './assignment.js'

describe('partition assignment', () => {
  it('gives every partition one live worker, shares them within one of each other, whatever the list order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 9 }),
        fc.integer({ min: 1, max: 64 }),
        (workers, partitions) => {
          const a = assignPartitions(workers, partitions)
          expect(a).toHaveLength(partitions)
          const live = new Set(workers)
          const counts = new Map<string, number>()
          for (const w of a) {
            expect(w !== undefined && live.has(w)).toBe(true)
            counts.set(w!, (counts.get(w!) ?? 0) + 1)
          }
          const c = [...live].map((w) => counts.get(w) ?? 0)
          expect(Math.max(...c) - Math.min(...c)).toBeLessThanOrEqual(1)
          expect(assignPartitions([...workers].reverse(), partitions)).toEqual(a)
        },
      ),
    )
  })

  it('leaves partitions without an owner when no worker is alive', () => {
    expect(assignPartitions([], 3)).toEqual([undefined, undefined, undefined])
  })
})
