// bench `--only`: an entry selects a workload id itself or its lettered parts, never a longer id or a bare prefix.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { selects, selectWorkloads } from '../../bench/select.js'

const IDS = ['W0a', 'W0b', 'W1', 'W2a', 'W2b', 'W3a', 'W3b', 'W3c', 'W4', 'W5', 'W6']

describe('bench --only', () => {
  it('the documented selections', () => {
    expect(selectWorkloads(IDS, undefined)).toEqual(IDS)
    expect(selectWorkloads(IDS, '')).toEqual(IDS)
    expect(selectWorkloads(IDS, 'W3')).toEqual(['W3a', 'W3b', 'W3c'])
    expect(selectWorkloads(IDS, 'W2,W0')).toEqual(['W0a', 'W0b', 'W2a', 'W2b'])
    expect(selectWorkloads(IDS, 'W1, W4')).toEqual(['W1', 'W4'])
    expect(selectWorkloads(IDS, 'W3b')).toEqual(['W3b'])
    for (const bad of ['W', 'W2,W', 'W1,', 'w2', 'W9', 'W3ab', 'W3A'])
      expect(() => selectWorkloads(IDS, bad)).toThrow(/unknown workload/)
  })

  it('an entry selects exactly the id and the id plus one lowercase letter', () => {
    const part = fc.stringMatching(/^[A-Za-z0-9]{0,4}$/)
    fc.assert(
      fc.property(part, part, (w, id) => {
        const rest = id.slice(w.length)
        expect(selects(w, id)).toBe(id === w || (id.startsWith(w) && rest.length === 1 && rest >= 'a' && rest <= 'z'))
      }),
    )
  })

  it('any list of entries: the ids some entry selects, in run order, or an error when an entry selects nothing', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('W0', 'W1', 'W2', 'W2a', 'W3', 'W3c', 'W4', 'W', 'W7', ''), {
          minLength: 1,
          maxLength: 4,
        }),
        (entries) => {
          const only = entries.join(',')
          if (only === '') {
            expect(selectWorkloads(IDS, only)).toEqual(IDS)
            return
          }
          // the pointwise rule (selects) is checked by the property above
          if (!entries.every((w) => IDS.some((id) => selects(w, id)))) {
            expect(() => selectWorkloads(IDS, only)).toThrow(/unknown workload/)
            return
          }
          const got = selectWorkloads(IDS, only)
          expect(got).toEqual(IDS.filter((id) => entries.some((w) => selects(w, id))))
        },
      ),
    )
  })
})
