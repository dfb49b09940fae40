// One rule for session names everywhere: exactly MAINSESSION, PRE_MARKET, POST_MARKET, compared by
// equality (never looked up as a property, so 'toString' or '__proto__' is no session).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { candlesFromTrades } from '../src/candles/index.js'
import { toPartnerCandle } from '../src/partner/index.js'
import { footprintProfiles } from '../src/footprint/index.js'
import { tpoFromCandles, tpoProfiles } from '../src/tpo/index.js'

const NAMES = ['MAINSESSION', 'PRE_MARKET', 'POST_MARKET']
const name = fc.oneof(
  fc.constantFrom(...NAMES, 'toString', '__proto__', 'constructor', 'valueOf', 'hasOwnProperty', 'mainsession', ''),
  fc.string(),
)
const T = Date.UTC(2026, 5, 1, 14)
const trade = { time: T, price: '5000.25', volume: '1', side: 'buy' as const }
const candle = { time: T, open: '1', high: '1', low: '1', close: '1', volume: '1' }

/** Whether f accepts (true) or refuses with a MarketDataError naming `field` (false); anything else fails. */
function accepts(f: () => unknown, field: string): boolean {
  try {
    f()
    return true
  } catch (e) {
    expect((e as { field?: string }).field).toBe(field)
    return false
  }
}

describe('session names', () => {
  it('a `sessions` option entry is accepted exactly when it is one of the three names (candles, footprint, TPO)', () => {
    fc.assert(
      fc.property(name, (s) => {
        const ok = NAMES.includes(s)
        const sessions = [s] as unknown as ('MAINSESSION' | 'PRE_MARKET' | 'POST_MARKET')[]
        expect(accepts(() => candlesFromTrades([trade], { timeframe: '1h', sessions }), 'sessions')).toBe(ok)
        expect(
          accepts(() => footprintProfiles([trade], { timeframe: '1h', tickSize: '0.25', sessions }), 'sessions'),
        ).toBe(ok)
        expect(accepts(() => tpoProfiles([trade], { timeframe: '1d', tickSize: '0.25', sessions }), 'sessions')).toBe(
          ok,
        )
      }),
      { numRuns: 300 },
    )
  })

  it('a record`s `session` is accepted exactly when it is one of the three names (trades, candles, interface A)', () => {
    fc.assert(
      fc.property(name, (s) => {
        const ok = NAMES.includes(s)
        const session = s as 'PRE_MARKET'
        expect(accepts(() => candlesFromTrades([{ ...trade, session }], { timeframe: '1h' }), 'session')).toBe(ok)
        expect(
          accepts(() => footprintProfiles([{ ...trade, session }], { timeframe: '1h', tickSize: '0.25' }), 'session'),
        ).toBe(ok)
        expect(
          accepts(() => tpoProfiles([{ ...trade, session }], { timeframe: '1d', tickSize: '0.25' }), 'session'),
        ).toBe(ok)
        expect(
          accepts(() => tpoFromCandles([{ ...candle, session }], { timeframe: '1d', tickSize: '1' }), 'session'),
        ).toBe(ok)
        expect(accepts(() => toPartnerCandle({ ...candle, session }), 'session')).toBe(ok)
      }),
      { numRuns: 300 },
    )
  })
})
