import { expect } from 'vitest'
import { bucketEnd, bucketStart, createBucketer, type Timeframe } from '../../src/time/index.js'

/**
 * The tiling law at instant t: t lies in [start, end); the bucket is one bucket (its start and its last
 * instant map to it) and its neighbours touch it (no gap, no overlap); the hot-loop bucketer agrees.
 */
export function expectTiled(t: number, tf: Timeframe, timeZone: string): void {
  const o = { timeZone }
  const s = bucketStart(t, tf, o)
  const e = bucketEnd(t, tf, o)
  expect(s).toBeLessThanOrEqual(t)
  expect(e).toBeGreaterThan(t)
  expect(bucketStart(s, tf, o)).toBe(s)
  expect(bucketEnd(e - 1, tf, o)).toBe(e)
  expect(bucketStart(e, tf, o)).toBe(e)
  expect(bucketEnd(s - 1, tf, o)).toBe(s)
  const b = createBucketer(tf, o)
  expect([b.locate(t), b.end]).toEqual([s, e])
}
