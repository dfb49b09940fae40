// The time field of the readers, as properties: an instant written in any epoch unit (with digits below the ms)
// reads back floored to its ms, the unit given or inferred; an instant written as local wall time in a zone
// (no offset) reads back with inputZone, the repeated autumn hour placed so a file in time order stays in order.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readTrades } from '../../src/io/index.js'

const ZONES = ['UTC', 'America/New_York', 'America/Sao_Paulo', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kolkata']

/** Local wall time of `t` in `zone` as `YYYY-MM-DD hh:mm:ss.fff`. */
function wall(t: number, zone: string): string {
  const f = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  })
  const p = Object.fromEntries(f.formatToParts(t).map((x) => [x.type, x.value]))
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}.${String(t % 1000).padStart(3, '0')}`
}

describe('time field', () => {
  it('epoch s / ms / us / ns, given or inferred from the magnitude, read back to the ms', () => {
    fc.assert(
      fc.property(
        // 1973-03 .. 5138: where the magnitudes of the units do not overlap
        fc.integer({ min: 1e11, max: 9e13 }),
        fc.constantFrom('s', 'ms', 'us', 'ns' as const),
        fc.integer({ min: 0, max: 999_999 }),
        fc.boolean(),
        (t, unit, below, given) => {
          const sec = Math.floor(t / 1000)
          const ms = String(t % 1000).padStart(3, '0')
          const sub = String(below).padStart(6, '0')
          const text =
            unit === 's'
              ? `${sec}.${ms}${sub}`
              : unit === 'ms'
                ? `${t}.${sub}`
                : unit === 'us'
                  ? `${t}${sub.slice(0, 3)}`
                  : `${t}${sub}`
          const got = readTrades(`${text},1,1,b`, given ? { timeUnit: unit } : {})
          expect(got[0]!.time).toBe(t)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('local wall times read back in their zone (two rows of a repeated hour keep their order)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2040, 0, 1) }),
        fc.integer({ min: 0, max: 7_200_000 }),
        fc.constantFrom(...ZONES),
        (t, gap, zone) => {
          const rows = [t, t + gap].map((x) => `${wall(x, zone)},1,1,b`).join('\n')
          const got = readTrades(rows, { inputZone: zone, sorted: true }).map((x) => x.time)
          // the first row of a repeated hour is read as its earlier instant: one hour early at most
          expect([t, t - 3_600_000, t - 1_800_000]).toContain(got[0])
          if (got[0] === t) expect(got[1]).toBe(t + gap)
          expect(got[1]! >= got[0]!).toBe(true)
        },
      ),
      { numRuns: 300 },
    )
  })
})
