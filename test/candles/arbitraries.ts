// Candle test inputs shared by the candle test files: prices and volumes chosen to hit the fast loops'
// bail-outs, and candle columns built from records (with the same candles as objects).
import fc from 'fast-check'
import type { CandleColumns, CandleInput } from '../../src/candles/index.js'
import type { SessionType } from '../../src/trades/index.js'

export const T0 = Date.UTC(2026, 4, 29, 13)
export const SESSIONS: SessionType[] = ['MAINSESSION', 'PRE_MARKET', 'POST_MARKET']

export const priceArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(5000, 5000.25, 4999.75, 5000.5) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      -7.5,
      -0.25,
      0,
      0.1,
      0.123456789,
      1e-7,
      4503599627370.495,
      450359962737049.5,
      9007199254740991,
      1.2345678901234568e20,
    ),
  },
)
export const volumeArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(1, 2, 3, 7) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      0,
      -0,
      0.5,
      1e-8,
      0.12345678,
      2 ** 51,
      2 ** 52 - 1,
      2 ** 52,
      4503599627370495,
      3e15,
      2 ** 53,
    ),
  },
)
export const candleArb = fc.record({
  step: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(0, 60_000) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 90_000_000 }) },
  ),
  base: priceArb,
  up: fc.constantFrom(0, 0.25, 0.5, 1e-7),
  down: fc.constantFrom(0, 0.25, 3),
  volume: volumeArb,
  value: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(5000.25, 12345678.75, 0, -37.5) },
    { weight: 1, arbitrary: fc.constantFrom(0.123456789, 2 ** 51, 4503599627370495, -(2 ** 52), 1e-9, 2 ** 60) },
  ),
  trades: fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 0, max: 500 }) },
    { weight: 1, arbitrary: fc.constantFrom(2 ** 52, 9007199254740991) },
  ),
  session: fc.oneof({ weight: 5, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constantFrom(1, 2) }),
  repeat: fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 30 })),
})
export type CRec = typeof candleArb extends fc.Arbitrary<infer R> ? R : never

/** Candle columns (value / trades / session columns optional) and the same candles as objects, from time `t0`. */
export function buildCandles(
  recs: CRec[],
  has: { value: boolean; trades: boolean; session: boolean },
  t0 = T0,
): { cols: CandleColumns; objs: CandleInput[] } {
  const objs: CandleInput[] = []
  let t = t0
  for (const r of recs) {
    for (let k = 0; k < r.repeat; k++) {
      t += k === 0 ? r.step : 60_000 * (k % 2)
      const h = r.base + r.up
      const l = r.base - r.down
      objs.push({
        time: t,
        open: r.base,
        high: h,
        low: l,
        close: k % 2 === 0 ? l : h,
        volume: r.volume,
        ...(has.value ? { value: r.value } : {}),
        ...(has.trades ? { trades: r.trades } : {}),
        ...(has.session && r.session !== 0 ? { session: SESSIONS[r.session] as SessionType } : {}),
      })
    }
  }
  const f = (k: 'time' | 'open' | 'high' | 'low' | 'close' | 'volume' | 'value' | 'trades') =>
    new Float64Array(objs.map((o) => Number(o[k])))
  const cols: CandleColumns = {
    time: f('time'),
    open: f('open'),
    high: f('high'),
    low: f('low'),
    close: f('close'),
    volume: f('volume'),
    ...(has.value ? { value: f('value') } : {}),
    ...(has.trades ? { trades: f('trades') } : {}),
    ...(has.session ? { session: new Uint8Array(objs.map((o) => SESSIONS.indexOf(o.session ?? 'MAINSESSION'))) } : {}),
  }
  return { cols, objs }
}
