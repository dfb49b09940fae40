// sessionsFromClock: the session of each record is the window its local clock time falls in, checked against
// Intl's reading of the local time, in zones with DST (New York, Sao Paulo, Lord Howe's half hour), windows that
// wrap past midnight included; the input is never changed.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sessionsFromClock } from '../../src/index.js'

const ZONES = ['America/New_York', 'America/Sao_Paulo', 'Australia/Lord_Howe', 'Europe/London', 'UTC']

/** Local minutes of the day of `t` in `zone`, by Intl (the reference). */
function localMinute(t: number, zone: string): number {
  const f = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hourCycle: 'h23', hour: '2-digit', minute: '2-digit' })
  const p = Object.fromEntries(f.formatToParts(t).map((x) => [x.type, x.value]))
  return Number(p.hour) * 60 + Number(p.minute)
}

const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`
const inWindow = (m: number, [a, b]: [number, number]) => (a < b ? m >= a && m < b : m >= a || m < b)

describe('sessionsFromClock', () => {
  it('gives each record the first window (main, pre, post) holding its local time; others are left out', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }), { maxLength: 40 }),
        fc.constantFrom(...ZONES),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 1, max: 1439 })), {
          minLength: 3,
          maxLength: 3,
        }),
        (times, zone, spans) => {
          const w = spans.map(([a, len]) => [a, (a + len) % 1440] as [number, number])
          const records = times.map((time) => ({ time, price: '1' }))
          const copy = structuredClone(records)
          const got = sessionsFromClock(records, {
            timeZone: zone,
            main: `${hhmm(w[0]![0])}-${hhmm(w[0]![1])}`,
            pre: `${hhmm(w[1]![0])}-${hhmm(w[1]![1])}`,
            post: `${hhmm(w[2]![0])}-${hhmm(w[2]![1])}`,
          })
          const want = records.flatMap((r) => {
            const m = localMinute(r.time, zone)
            const s = inWindow(m, w[0]!)
              ? 'MAINSESSION'
              : inWindow(m, w[1]!)
                ? 'PRE_MARKET'
                : inWindow(m, w[2]!)
                  ? 'POST_MARKET'
                  : undefined
            return s === undefined ? [] : [{ ...r, session: s }]
          })
          expect(got).toEqual(want)
          expect(records).toEqual(copy)
        },
      ),
      { numRuns: 200 },
    )
  })

  it('New York stock hours, across the March DST change; outside records kept when asked', () => {
    const at = (iso: string) => ({ time: Date.parse(iso) })
    const opts = { timeZone: 'America/New_York', main: '09:30-16:00', pre: '04:00-09:30', post: '16:00-20:00' }
    const got = sessionsFromClock(
      [
        at('2019-03-08T14:29:59Z'),
        at('2019-03-08T14:30:00Z'),
        at('2019-03-11T13:30:00Z'),
        at('2019-03-11T20:00:00Z'),
        at('2019-03-11T02:00:00Z'),
      ],
      opts,
    )
    expect(got.map((r) => r.session)).toEqual(['PRE_MARKET', 'MAINSESSION', 'MAINSESSION', 'POST_MARKET'])
    expect(sessionsFromClock([at('2019-03-11T02:00:00Z')], { ...opts, outside: 'POST_MARKET' })[0]!.session).toBe(
      'POST_MARKET',
    )
  })

  it('refuses bad hours, zones and options naming them', () => {
    expect(() => sessionsFromClock([], { timeZone: 'Mars/Base', main: '09:30-16:00' })).toThrow(/timeZone/)
    expect(() => sessionsFromClock([], { timeZone: 'UTC', main: '9:30-16:00' })).toThrow(/`main` must be local hours/)
    expect(() => sessionsFromClock([], { timeZone: 'UTC', main: '09:30-09:30' })).toThrow(/start != end/)
    expect(() => sessionsFromClock([], { timeZone: 'UTC', main: '09:30-16:00', pre: '25:00-01:00' })).toThrow(/`pre`/)
    expect(() => sessionsFromClock([{ time: Number.NaN }], { timeZone: 'UTC', main: '09:30-16:00' })).toThrow(
      expect.objectContaining({ code: 'invalid_time', index: 0 }),
    )
    expect(() =>
      sessionsFromClock([], { timeZone: 'UTC', main: '09:30-16:00', mian: 'x' } as unknown as {
        timeZone: string
        main: string
      }),
    ).toThrow(/invalid|mian/)
  })
})
