// Every public validator (a function that returns a Result) against values no JSON parser makes but a
// caller's objects can hold: getters and Proxy traps that throw, revoked Proxies, null prototypes,
// values whose conversion to a string throws, symbols. Each is put in place of the whole input and of
// every field (at any depth) of a valid input, as are huge strings and deep nesting; the validator must answer
// with an error result, never throw.
import { describe, expect, it } from 'vitest'
import * as core from '../src/index.js'
import * as service from '../src/service/index.js'
import { parseClockDuration } from '../src/time/index.js'
import { validateTradeColumnsShape } from '../src/trades/index.js'
import { boom, HOSTILE, HOSTILE_LARGE, revoked, trapAll } from './fixtures/hostile-values.js'
import { lcBody } from './rules/helpers.js'

// the validators of every entry point, and two internal ones the library uses on options
const lib = { ...core, ...service, parseClockDuration, validateTradeColumnsShape }

/** Paths to every value in a plain JSON-like template, the root ([]) first. */
function paths(x: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out = [at]
  if (x instanceof Float64Array || x instanceof Uint8Array) return out
  if (Array.isArray(x)) x.forEach((v, i) => void out.push(...paths(v, [...at, i])))
  else if (typeof x === 'object' && x !== null)
    for (const [k, v] of Object.entries(x)) out.push(...paths(v, [...at, k]))
  return out
}

/** A copy of `x` with the value at `path` replaced by `v` (the root when path is empty). */
function replaced(x: unknown, path: (string | number)[], v: unknown): unknown {
  if (path.length === 0) return v
  const [head, ...rest] = path as [string | number, ...(string | number)[]]
  const copy = (Array.isArray(x) ? [...x] : { ...(x as object) }) as Record<string | number, unknown>
  copy[head] = replaced(copy[head], rest, v)
  return copy
}

type Check = (x: unknown) => { ok: boolean }
const trade = { time: 0, price: '5000.25', volume: '1', side: 'buy', session: 'MAINSESSION' }
const candle = {
  time: 0,
  open: '1',
  high: '2',
  low: '1',
  close: '2',
  volume: '3',
  value: '4',
  trades: 1,
  session: 'MAINSESSION',
}
const columns = {
  time: new Float64Array([0]),
  price: new Float64Array([1]),
  volume: new Float64Array([1]),
  side: new Uint8Array([1]),
  session: new Uint8Array([0]),
}

/** Each validator with a valid input (checked valid below) whose every part is replaced in turn. */
const CASES: [string, Check, unknown][] = [
  ['validateTrade', (x) => lib.validateTrade(x), trade],
  ['validateTrades', (x) => lib.validateTrades(x), [trade, trade]],
  ['validateTradeColumns', (x) => lib.validateTradeColumns(x), columns],
  ['validateTradeColumnsShape', (x) => lib.validateTradeColumnsShape(x), columns],
  ['validateCandle', (x) => lib.validateCandle(x), candle],
  ['validateCandles', (x) => lib.validateCandles(x), [candle, candle]],
  ['parseDecimal', (x) => lib.parseDecimal(x), '12.5'],
  ['toPartnerDecimal', (x) => lib.toPartnerDecimal(x as string), '12.5'],
  ['fromPartnerDecimal', (x) => lib.fromPartnerDecimal(x), { value: '125', scale: '10' }],
  ['floorToGrid (price)', (x) => lib.floorToGrid(x as string, '0.25'), '12.5'],
  ['floorToGrid (step)', (x) => lib.floorToGrid('12.5', x as string), '0.25'],
  ['parseTimeframe', (x) => lib.parseTimeframe(x as string), '15m'],
  [
    'timeframeFromPartner',
    (x) => lib.timeframeFromPartner(x as { time_unit: 'MINUTE' }),
    { time_unit: 'MINUTE', count: 15 },
  ],
  ['parseIsoDuration', (x) => lib.parseIsoDuration(x as string), 'PT4H'],
  ['parseClockDuration', (x) => lib.parseClockDuration(x as string), '1h'],
  ['parseRfc3339', (x) => lib.parseRfc3339(x as string), '2026-06-01T00:00:00Z'],
  ['parseUnixSeconds', (x) => lib.parseUnixSeconds(x as string), '1780000000'],
  ['parseSecurityId (guid)', (x) => lib.parseSecurityId(x), { guid: 'g-1' }],
  [
    'parseSecurityId (ticker_code)',
    (x) => lib.parseSecurityId(x),
    { ticker_code: { ticker: 'AAPL', exchange_code: 'XNAS' } },
  ],
  [
    'validateListCandlesRequest',
    (x) => lib.validateListCandlesRequest(x),
    lcBody({ properties: ['OPEN', 'CLOSE'], session_types: ['MAINSESSION'] }),
  ],
  [
    'validateLinkRequest',
    (x) => lib.validateLinkRequest('LinkSecurity', x),
    { security_guid: 'g-1', partner_security_id: 'P1' },
  ],
  // lookup finds g-1: a replaced item must come back with status 3 (a valid one would be 0)
  [
    'listSecuritiesItems',
    (x) =>
      lib.listSecuritiesItems(x, (id) =>
        'guid' in id && id.guid === 'g-1' ? { guid: 'g-1', ticker: 'A', exchange_code: 'X' } : undefined,
      ),
    [{ guid: 'g-1' }],
  ],
  [
    'parseHistoryQuery',
    (x) => lib.parseHistoryQuery('candles', x as Record<string, string>, { now: Date.UTC(2026, 5, 10) }),
    { exchange: 'XNAS', symbol: 'AAPL', timeframe: '1h', from: '2026-06-01T00:00:00Z', to: '2026-06-02T00:00:00Z' },
  ],
]

describe('validators never throw on hostile values', () => {
  it.each(CASES)('%s: the template is valid', (_name, check, template) => {
    expect(check(template).ok).toBe(true)
  })

  it.each(CASES)('%s: a hostile value anywhere gives an error result', (_name, check, template) => {
    const failures: string[] = []
    for (const path of paths(template)) {
      for (const [what, make] of HOSTILE_LARGE) {
        const where = path.length === 0 ? 'the input' : path.join('.')
        try {
          const r = check(replaced(template, path, make()))
          // listSecuritiesItems answers per item: a bad item is a status inside an ok list
          const items = (r as { value?: unknown }).value
          const bad =
            r.ok && Array.isArray(items) && (items as { status: { code: number } }[]).some((it) => it.status.code === 3)
          if (r.ok && !bad) failures.push(`${where} = ${what}: accepted`)
        } catch (e) {
          failures.push(`${where} = ${what}: threw ${(e as Error).message}`)
        }
      }
    }
    expect(failures).toEqual([])
  })
})

describe("validators never throw on a caller's hostile extra argument", () => {
  it.each(HOSTILE)('%s as the index, path or operation: an error result', (_what, make) => {
    for (const f of [
      () => lib.validateTrade(trade, make() as number),
      () => lib.validateTrade({}, make() as number),
      () => lib.validateCandle(candle, make() as number),
      () => lib.validateCandle({}, make() as number),
      () => lib.parseSecurityId({ guid: 'g-1' }, make() as string),
      () => lib.parseSecurityId({}, make() as string),
      () => lib.validateLinkRequest(make() as 'LinkSecurity', { security_guid: 'g-1', partner_security_id: 'P1' }),
    ]) {
      expect(f().ok).toBe(false)
    }
  })
})

describe('aggregators: an input whose shape cannot be read is invalid_option naming it', () => {
  const timeGetter = () => ({
    get time() {
      return boom()
    },
    price: new Float64Array(1),
    volume: new Float64Array(1),
    side: new Uint8Array([1]),
  })
  const runs: [string, (x: unknown) => unknown, string][] = [
    ['candlesFromTrades', (x) => lib.candlesFromTrades(x as never, { timeframe: '1m' }), 'trades'],
    ['candleColumnsFromTrades', (x) => lib.candleColumnsFromTrades(x as never, { timeframe: '1m' }), 'trades'],
    ['footprintProfiles', (x) => lib.footprintProfiles(x as never, { timeframe: '1h', tickSize: '0.25' }), 'trades'],
    ['tpoProfiles', (x) => lib.tpoProfiles(x as never, { timeframe: '1d', tickSize: '0.25' }), 'trades'],
    ['resampleCandles', (x) => lib.resampleCandles(x as never, { timeframe: '15m' }), 'candles'],
  ]
  it.each(runs)('%s: a revoked Proxy or a throwing time getter', (_name, run, field) => {
    for (const x of [revoked({}), revoked([]), timeGetter()]) {
      expect(() => run(x)).toThrow(expect.objectContaining({ code: 'invalid_option', field }))
    }
  })

  it.each(runs.filter((r) => r[2] === 'trades'))('%s: a trade column whose read throws is named', (_name, run) => {
    const cols = () => ({
      time: new Float64Array([0]),
      price: new Float64Array([1]),
      volume: new Float64Array([1]),
      side: new Uint8Array([1]),
    })
    for (const f of ['price', 'volume', 'side', 'session']) {
      const x = Object.defineProperty(cols(), f, { get: boom, enumerable: true })
      expect(() => run(x)).toThrow(expect.objectContaining({ code: 'invalid_option', field: f }))
    }
  })

  it('resampleCandleColumns: a column whose read throws is named', () => {
    const cols = () => ({
      time: new Float64Array([0]),
      open: new Float64Array([1]),
      high: new Float64Array([1]),
      low: new Float64Array([1]),
      close: new Float64Array([1]),
      volume: new Float64Array([1]),
    })
    expect(() => lib.resampleCandleColumns(revoked({}) as never, { timeframe: '15m' })).toThrow(
      expect.objectContaining({ code: 'invalid_option', field: 'time' }),
    )
    for (const f of ['time', 'open', 'high', 'low', 'close', 'volume', 'value', 'trades', 'session']) {
      const x = Object.defineProperty(cols(), f, { get: boom, enumerable: true })
      expect(() => lib.resampleCandleColumns(x as never, { timeframe: '15m' })).toThrow(
        expect.objectContaining({ code: 'invalid_option', field: f }),
      )
    }
    expect(lib.resampleCandleColumns(cols() as never, { timeframe: '15m' }).time.length).toBe(1)
  })
})

describe('what a value that could not be read is called', () => {
  const msg = (r: { ok: boolean; error?: unknown }) => (r.ok ? 'ok' : (r.error as { message: string }).message)
  it('interface A: the path of the part whose read threw', () => {
    expect(msg(lib.validateListCandlesRequest(lcBody({ security_id: { ticker_code: trapAll({}) } })))).toBe(
      'security_id.ticker_code: could not be read (a getter or Proxy trap threw); send plain JSON values',
    )
    const props = new Proxy(['OPEN', 'CLOSE'], { get: (t, k) => (k === '1' ? boom() : Reflect.get(t, k)) })
    expect(msg(lib.validateListCandlesRequest(lcBody({ properties: props })))).toMatch(
      /^properties\[1\]: could not be read/,
    )
    expect(msg(lib.validateListCandlesRequest(lcBody({ range: revoked({}) })))).toMatch(/^range: could not be read/)
    expect(msg(lib.validateLinkRequest('UnlinkSecurity', trapAll({})))).toMatch(/^body: could not be read/)
    expect(msg(lib.timeframeFromPartner(trapAll({})))).toMatch(/^time_frame: could not be read/)
    expect(msg(lib.fromPartnerDecimal(trapAll({})))).toMatch(/^decimal\.value: could not be read/)
    const ids = new Proxy([{ guid: 'g-1' }, { guid: 'g-2' }], {
      get: (t, k) => (k === '1' ? boom() : Reflect.get(t, k)),
    })
    expect(msg(lib.listSecuritiesItems(ids, () => undefined))).toMatch(/^security_ids\[1\]: could not be read/)
  })

  it("listSecuritiesItems lets lookup's own errors through", () => {
    expect(() => lib.listSecuritiesItems([{ guid: 'g-1' }], () => boom())).toThrow('boom')
  })

  it('interface B: the parameter being read, and a look-alike whose iterator throws or yields a non-string name', () => {
    const q = (x: unknown) => lib.parseHistoryQuery('candles', x as Record<string, string>, { now: 0 })
    const r = q(new Proxy({ exchange: 'X' }, { getOwnPropertyDescriptor: boom, ownKeys: () => ['exchange'] }))
    expect(r.ok).toBe(false)
    if (!r.ok) expect([r.error.status, r.error.parameter]).toEqual([400, 'query'])
    const lookAlike = (pairs: () => Iterator<unknown>) => ({ getAll: () => [], [Symbol.iterator]: pairs })
    const throwing = q(lookAlike(() => ({ next: boom })))
    expect(!throwing.ok && [throwing.error.parameter, throwing.error.message]).toEqual([
      'query',
      'query: could not be read (a getter, Proxy trap or iterator threw); pass URLSearchParams or plain strings',
    ])
    const numeric = q(lookAlike(() => [[5, 'x']][Symbol.iterator]()))
    expect(!numeric.ok && numeric.error.parameter).toBe('query')
  })

  it('records: the field being read, its code, and the index argument', () => {
    const c = lib.validateCandle(
      {
        get time() {
          return boom()
        },
      },
      4,
    )
    expect(!c.ok && [c.error.code, c.error.field, c.error.index]).toEqual(['invalid_time', 'time', 4])
    const v = lib.validateCandle(
      {
        time: 0,
        open: '1',
        high: '1',
        low: '1',
        close: '1',
        get volume() {
          return boom()
        },
      },
      4,
    )
    expect(!v.ok && [v.error.code, v.error.field, v.error.index]).toEqual(['invalid_volume', 'volume', 4])
    expect(!v.ok && v.error.message).toContain('volume: reading it threw (Error "boom")')
    for (const [r] of [
      [lib.validateTrade({ time: 0, price: '1', volume: '1', side: 'buy' }, -1)],
      [lib.validateCandle({ time: 0, open: '1', high: '1', low: '1', close: '1', volume: '1' }, 2 ** 53)],
    ]) {
      expect(!r!.ok && [r!.error.code, r!.error.field]).toEqual(['invalid_option', 'index'])
    }
    const p = lib.parseSecurityId({ guid: 'g-1' }, 5 as unknown as string)
    expect(!p.ok && p.error.message).toMatch(/^path: /)
  })

  it('validateCandles reads each time once: a getter that changes its answer is ordered on what was checked', () => {
    let n = 0
    const c = {
      open: '1',
      high: '1',
      low: '1',
      close: '1',
      volume: '1',
      get time() {
        return n++ === 0 ? 60_000 : -1
      },
    }
    expect(lib.validateCandles([{ time: 0, open: '1', high: '1', low: '1', close: '1', volume: '1' }, c]).ok).toBe(true)
    expect(n).toBe(1)
  })

  it('countTpoPeriods: an unreadable iterable or profile is invalid_option naming profiles or the time', () => {
    expect(() => lib.countTpoPeriods(revoked([]) as never)).toThrow(
      expect.objectContaining({ code: 'invalid_option', field: 'profiles' }),
    )
    expect(() => lib.countTpoPeriods(trapAll([]) as never)).toThrow(
      expect.objectContaining({ code: 'invalid_option', field: 'profiles' }),
    )
    expect(() => lib.countTpoPeriods([{ time: 0 }, revoked({})] as never)).toThrow(
      expect.objectContaining({ code: 'invalid_option', field: 'time', index: 1 }),
    )
    expect(() =>
      lib.countTpoPeriods([
        { time: 0 },
        {
          get time() {
            return boom()
          },
        },
      ] as never),
    ).toThrow(expect.objectContaining({ field: 'time', index: 1 }))
  })
})
