// Every public validator answers a bad input with an error of one shape (src/result.ts, ResultError): a code
// and a message, whichever of the three error types its readers get (MarketDataError, interface B's ApiError,
// interface A's Status); the low-level readers whose reason other messages quote answer a plain string.
import { describe, expect, it } from 'vitest'
import * as core from '../src/index.js'
import type { Result, ResultError } from '../src/result.js'
import * as service from '../src/service/index.js'
import { validateRestLedgerState, validateStreamLedgerState } from '../src/credits/ledger-state.js'

/** The error of a result the case expects to fail; typed so that an error type without the shape does not compile. */
const errorOf = <E extends ResultError>(r: Result<unknown, E>): E | undefined => (r.ok ? undefined : r.error)
const reasonOf = (r: Result<unknown, string>): string | undefined => (r.ok ? undefined : r.error)

const OBJECT_ERRORS: [string, () => ResultError | undefined, string][] = [
  ['validateTrade', () => errorOf(core.validateTrade({ time: 0, price: 'x', volume: '1', side: 'buy' })), 'price'],
  [
    'validateTrades',
    () => errorOf(core.validateTrades([{ time: 0, price: '1', volume: '-1', side: 'buy' }])),
    'volume',
  ],
  [
    'validateTradeColumns',
    () =>
      errorOf(
        core.validateTradeColumns({
          time: new Float64Array([0]),
          price: new Float64Array([1]),
          volume: new Float64Array([1]),
          side: new Uint8Array([0]),
        }),
      ),
    'side',
  ],
  [
    'validateCandle',
    () => errorOf(core.validateCandle({ time: 0, open: '1', high: '0', low: '1', close: '1', volume: '1' })),
    'high',
  ],
  ['parseTimeframe', () => errorOf(core.parseTimeframe('60m')), 'timeframe'],
  [
    'parseHistoryQuery',
    () =>
      errorOf(
        service.parseHistoryQuery(
          'candles',
          { exchange: 'XNAS', symbol: 'AAPL', timeframe: '1h', limit: '0' },
          { now: 0 },
        ),
      ),
    'limit',
  ],
  ['parseSecurityId', () => errorOf(service.parseSecurityId({ guid: '' })), 'guid'],
  ['validateListCandlesRequest', () => errorOf(service.validateListCandlesRequest({})), 'security_id'],
  ['toPartnerDecimal', () => errorOf(service.toPartnerDecimal('1e5')), 'exponent'],
  ['fromPartnerDecimal', () => errorOf(service.fromPartnerDecimal({ value: '1', scale: '3' })), 'scale'],
  ['timeframeFromPartner', () => errorOf(service.timeframeFromPartner({ time_unit: 'MINUTE', count: 0 })), 'count'],
  [
    'validateRestLedgerState',
    () => errorOf(validateRestLedgerState({ windowStart: 0, used: -1, locked: false })),
    'state.used',
  ],
  [
    'validateStreamLedgerState',
    () => errorOf(validateStreamLedgerState({ windowStart: 0, used: 0, clock: 0, nextId: 0, streams: [] })),
    'state.nextId',
  ],
]

const REASONS: [string, () => string | undefined][] = [
  ['parseDecimal', () => reasonOf(core.parseDecimal('1,5'))],
  ['floorToGrid', () => reasonOf(core.floorToGrid('1', '0'))],
  ['parseRfc3339', () => reasonOf(service.parseRfc3339('2026-06-01'))],
  ['parseUnixSeconds', () => reasonOf(service.parseUnixSeconds('-1'))],
  ['parseIsoDuration', () => reasonOf(service.parseIsoDuration('4H'))],
]

describe('validators answer errors of one shape', () => {
  it.each(OBJECT_ERRORS)('%s: a code and a message naming the field', (_name, run, field) => {
    const e = run()
    expect(e).toBeDefined()
    expect(['string', 'number']).toContain(typeof e?.code)
    expect(typeof e?.message).toBe('string')
    expect(e?.message).toContain(field)
  })

  it.each(REASONS)('%s: a plain reason for another message to quote', (_name, run) => {
    const reason = run()
    expect(typeof reason).toBe('string')
    expect(reason?.length).toBeGreaterThan(0)
  })
})
