// The bench's target table: every target of a run is listed with what it measured, met or NOT MET by the
// measured value (never hidden), and an unmet speed-up names the fastest unchecked loop of its own group.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Row } from '../../bench/harness.js'
import { rewritesTables } from '../../bench/select.js'
import { targetSummary } from '../../bench/targets.js'

const rate = fc.double({ min: 0.01, max: 1000, noNaN: true })

/** A group: the library row, some bound loops, and one peer row with a speed-up target. */
const group = fc.record({
  lib: rate,
  peer: rate,
  min: fc.constantFrom(1, 1.5, 2.5, 5),
  bounds: fc.array(rate, { maxLength: 3 }),
  name: fc.stringMatching(/^W7 [a-z]{1,8}$/),
})

function rows(g: { lib: number; peer: number; min: number; bounds: number[]; name: string }): Row[] {
  const base = { workload: g.name, n: 1, unit: 'trades', check: 'equal' }
  return [
    { ...base, impl: 'library candleColumnsFromTrades', median: g.lib, check: 'reference' },
    ...g.bounds.map((b, i) => ({
      ...base,
      impl: i === 0 ? 'hand-written float loop' : `ceiling: loop ${i}`,
      median: b,
    })),
    { ...base, impl: 'Polars compute', median: g.peer, speedup: g.lib / g.peer, speedupTarget: g.min },
  ]
}

describe('bench target table', () => {
  it('says met exactly when the speed-up reaches the target, and names the fastest bound when it does not', () => {
    fc.assert(
      fc.property(fc.array(group, { minLength: 1, maxLength: 4 }), (groups) => {
        const all = groups.flatMap(rows)
        const lines = targetSummary(all).trim().split('\n').slice(2)
        expect(lines.length).toBe(groups.length)
        groups.forEach((g, i) => {
          const cells = (lines[i] as string).split('|').map((c) => c.trim())
          const met = g.lib / g.peer >= g.min
          expect(cells[5]).toBe(met ? 'met' : 'NOT MET')
          // the bound comes from this group only (group names may repeat: then from every row of that name)
          const own = groups.filter((h) => h.name === g.name).flatMap((h) => h.bounds)
          if (met || own.length === 0) expect(cells[6]).toBe('')
          else {
            const best = Math.max(...own)
            // (a bound row: the library's own row may have the same median)
            const fast = all.find(
              (r) => r.workload === g.name && r.median === best && /^(hand-written|ceiling)/.test(r.impl),
            )
            expect(cells[6]?.startsWith(`${fast?.impl}: `)).toBe(true)
          }
        })
      }),
    )
  })

  it('lists ratio, rate and memory targets, and an unmeasured one as not measured', () => {
    const base = { workload: 'W', n: 1, unit: 'trades', check: 'equal' }
    const out = targetSummary([
      { ...base, impl: 'a', median: 90, target: 100 },
      { ...base, impl: 'b', median: 10, ratioTargets: [{ of: 'library x', min: 2.5, ratio: 2.5 }] },
      { ...base, impl: 'c', ratioTargets: [{ of: 'library y', min: 1 }] },
      { ...base, impl: 'd', rssPeakMb: 201, rssTargetMb: 200 },
    ])
    expect(out).toContain('| W | a | >= 100 M/s | 90.0 M/s | NOT MET |')
    expect(out).toContain('| W | b | x >= 2.5x | 2.5x | met |')
    expect(out).toContain('| W | c | y >= 1x | — | not measured |')
    expect(out).toContain('| W | d | peak RSS < 200 MB | 201 MB | NOT MET |')
    expect(targetSummary([{ ...base, impl: 'e', median: 1 }])).toBe('')
  })

  it('only a full run of every workload rewrites the committed tables', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.option(fc.constantFrom('', 'W1', 'W7c,W3'), { nil: undefined }), (quick, only) => {
        expect(rewritesTables(quick, only)).toBe(!quick && (only === undefined || only === ''))
      }),
    )
    expect(rewritesTables(true, undefined)).toBe(false)
    expect(rewritesTables(false, 'W1')).toBe(false)
    expect(rewritesTables(false, undefined)).toBe(true)
  })
})
