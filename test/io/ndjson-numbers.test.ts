// NDJSON numbers are read by their literal text (JSON.parse would round 5000.12345678901234567 to a double).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { numberLiterals, plainDecimal } from '../../src/io/fields.js'
import { parseDecimal } from '../../src/decimal/index.js'
import { run } from '../cli/helpers.js'

describe('NDJSON number literals', () => {
  it('plainDecimal gives the same decimal as the literal (any double printed by JSON, exponents included)', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e40, max: 1e40 }), (x) => {
        // exponents past 80 stay as written (refused later by length: a price or volume has at most 60 characters)
        fc.pre(x === 0 || Math.abs(x) >= 1e-40)
        const lit = JSON.stringify(x)
        const plain = plainDecimal(lit)
        const a = parseDecimal(plain)
        const b = parseDecimal(x)
        expect(a.ok && b.ok && a.value.units === b.value.units && a.value.scale === b.value.scale).toBe(true)
      }),
      { numRuns: 2000 },
    )
    expect(plainDecimal('5000.12345678901234567')).toBe('5000.12345678901234567')
    expect(plainDecimal('-1.5e-3')).toBe('-0.0015')
    expect(plainDecimal('12e2')).toBe('1200')
    expect(plainDecimal('0.5E+1')).toBe('5')
  })

  it('numberLiterals finds the top-level numbers by key, whatever else the line holds', () => {
    const key = fc.constantFrom('price', 'volume', 'time', 'x', 'pr"ice', 'a\\b')
    const value = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.string(),
      fc.array(fc.integer()),
      fc.dictionary(fc.string(), fc.integer()),
      fc.constant(null),
    )
    fc.assert(
      fc.property(fc.dictionary(key, value), (o) => {
        const lits = numberLiterals(JSON.stringify(o))
        for (const [k, v] of Object.entries(o)) {
          if (typeof v === 'number') expect(lits.get(k)).toBe(JSON.stringify(v))
          else expect(lits.has(k)).toBe(false)
        }
      }),
      { numRuns: 500 },
    )
  })

  it('the CLI keeps every digit of an NDJSON number', async () => {
    const line = '{"time":1780320600000,"price":5000.12345678901234567,"volume":12345678901234567891,"side":"buy"}\n'
    const r = await run(['candles', '-', '--input-format', 'ndjson', '--format', 'ndjson', '--quiet'], line)
    expect(r.code).toBe(0)
    const c = JSON.parse(r.stdout.trim()) as { open: string; volume: string; value: string }
    expect([c.open, c.volume, c.value]).toEqual([
      '5000.12345678901234567',
      '12345678901234567891',
      '61729918664048163338565.26596656677488197',
    ])
  })
})
