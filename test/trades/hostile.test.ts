// Hostile input: validators return results (never throw), tradesToColumns takes trade lists only.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import { sampleTrades } from '../../src/sample/index.js'
import {
  isTradeColumns,
  type Trade,
  tradesToColumns,
  validateTrade,
  validateTradeColumns,
  validateTradeColumnsShape,
  validateTrades,
} from '../../src/trades/index.js'
import { candlesFromTrades, footprintProfiles, tpoProfiles } from '../../src/index.js'

const good: Trade = { time: 0, price: '1', volume: '1', side: 'buy' }
const FIELDS = ['time', 'price', 'volume', 'side', 'session'] as const
const throwingGetter = (field: string) =>
  Object.defineProperty({ ...good }, field, {
    get() {
      throw new Error('boom')
    },
    enumerable: true,
  })
const trapProxy = () =>
  new Proxy(
    {},
    {
      get() {
        throw new Error('trap')
      },
    },
  )
const revoked = () => {
  const p = Proxy.revocable({}, {})
  p.revoke()
  return p.proxy
}
const cols = () => ({
  time: new Float64Array([0]),
  price: new Float64Array([1]),
  volume: new Float64Array([1]),
  side: new Uint8Array([1]),
})

function expectError(r: { ok: boolean; error?: unknown }, field: string, index?: number): MarketDataError {
  expect(r.ok).toBe(false)
  const e = (r as { error: MarketDataError }).error
  expect(e).toBeInstanceOf(MarketDataError)
  expect(e.field).toBe(field)
  expect(e.index).toBe(index)
  expect(e.message).toContain(field)
  return e
}

describe('validators on hostile input', () => {
  it.each(FIELDS)('validateTrade: a getter of %s that throws gives an error naming it', (f) => {
    const e = expectError(validateTrade(throwingGetter(f), 3), f, 3)
    expect(e.message).toMatch(/threw/)
    expect(e.message).toContain('boom')
  })

  it('validateTrade: a Proxy whose traps throw, a revoked Proxy', () => {
    expectError(validateTrade(trapProxy()), 'time', 0)
    expectError(validateTrade(revoked()), 'trade', 0)
  })

  it('validateTrade: a thrown value that is itself hostile is described safely', () => {
    const nasty = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw new Error('x')
        },
        get() {
          throw new Error('y')
        },
      },
    )
    const t = Object.defineProperty({ ...good }, 'price', {
      get() {
        throw nasty
      },
    })
    expectError(validateTrade(t), 'price', 0)
    expectError(
      validateTrade({
        ...good,
        get side() {
          throw Object.create(null)
        },
      }),
      'side',
      0,
    )
  })

  it('validateTrades: arrays with throwing getters, trap Proxies, a throwing length, a Proxy array', () => {
    expectError(validateTrades([good, throwingGetter('volume')]), 'volume', 1)
    expectError(validateTrades([good, good, trapProxy()]), 'time', 2)
    const arr = new Proxy([good, good], {
      get(t, k) {
        if (k === '1') throw new Error('idx')
        return Reflect.get(t, k)
      },
    })
    expectError(validateTrades(arr), 'trade', 1)
    const lenThrows = new Proxy([good], {
      get(t, k) {
        if (k === 'length') throw new Error('len')
        return Reflect.get(t, k)
      },
    })
    expectError(validateTrades(lenThrows), 'trades')
    expectError(validateTrades(revoked()), 'trades')
    expectError(validateTrades(trapProxy()), 'trades')
    expectError(validateTrades(new Set([good, throwingGetter('time')])), 'time', 1)
  })

  it('validateTradeColumns / validateTradeColumnsShape: Proxies and throwing column getters', () => {
    for (const v of [validateTradeColumns, validateTradeColumnsShape]) {
      expect(expectError(v(trapProxy()), 'time').code).toBe('invalid_option')
      expectError(v(revoked()), 'time')
      for (const f of FIELDS)
        expectError(
          v(
            Object.defineProperty(cols(), f, {
              get() {
                throw new Error('col')
              },
            }),
          ),
          f,
        )
      class Bad extends Float64Array {
        override get length(): number {
          throw new Error('len')
        }
      }
      expectError(v({ ...cols(), price: new Bad(1) }), 'columns')
    }
    expect(validateTradeColumns(cols()).ok).toBe(true)
  })

  it('a getter that returns good columns once and junk later is validated on what it returned', () => {
    let n = 0
    const c = cols()
    const x = Object.defineProperty({ ...c }, 'side', {
      get() {
        return n++ === 0 ? c.side : new Uint8Array([9])
      },
    })
    expect(validateTradeColumns(x).ok).toBe(true)
    expect(n).toBe(1)
  })

  // thunks: fast-check inspects generated values, which a revoked Proxy would not survive
  const hostile: fc.Arbitrary<() => unknown> = fc.oneof(
    fc.anything().map((x) => () => x),
    fc
      .anything({
        withBigInt: true,
        withNullPrototype: true,
        withTypedArray: true,
        withSparseArray: true,
        withBoxedValues: true,
        withMap: true,
        withSet: true,
      })
      .map((x) => () => x),
    fc.constantFrom(...FIELDS).map((f) => () => throwingGetter(f)),
    fc.constant(trapProxy),
    fc.constant(revoked),
    fc.bigInt().map((b) => () => ({ ...good, time: b })),
    fc.bigInt().map((b) => () => ({ ...good, price: b, volume: b })),
    fc
      .record({ time: fc.anything(), price: fc.anything(), volume: fc.anything(), side: fc.anything() })
      .map((r) => () => Object.assign(Object.create(null), r)),
    fc.constantFrom(...FIELDS).map(
      (f) => () =>
        new Proxy(
          { ...cols() },
          {
            get(t, k) {
              if (k === f) throw new Error('p')
              return Reflect.get(t, k)
            },
          },
        ),
    ),
    fc.constantFrom(...FIELDS).map(
      (f) => () =>
        Object.defineProperty(cols(), f, {
          get() {
            throw new Error('g')
          },
        }),
    ),
  )

  it('property: the three validators never throw and always fail with a MarketDataError', () => {
    fc.assert(
      fc.property(hostile, fc.array(hostile, { maxLength: 4 }), (mk, mks) => {
        const x = mk()
        const xs = mks.map((m) => m())
        for (const r of [
          validateTrade(x),
          validateTrades(x),
          validateTrades(xs),
          validateTrades([good, ...xs]),
          validateTradeColumns(x),
          validateTradeColumnsShape(x),
        ]) {
          if (!r.ok) {
            expect(r.error).toBeInstanceOf(MarketDataError)
            expect(typeof r.error.field).toBe('string')
          }
        }
      }),
      { numRuns: 1000 },
    )
  })

  it('property: isTradeColumns never throws; true exactly when time reads as a Float64Array', () => {
    fc.assert(
      fc.property(hostile, (mk) => {
        const x = mk()
        let want = false
        try {
          want = typeof x === 'object' && x !== null && (x as { time?: unknown }).time instanceof Float64Array
        } catch {
          want = false
        }
        expect(isTradeColumns(x)).toBe(want)
      }),
      { numRuns: 500 },
    )
    expect(isTradeColumns(cols())).toBe(true)
    expect(isTradeColumns(revoked())).toBe(false)
    expect(isTradeColumns(throwingGetter('time'))).toBe(false)
  })
})

describe('tradesToColumns takes arrays and iterables of trade objects only', () => {
  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a plain object', {}],
    ['a number', 42],
    ['a string', 'abc'],
    ['TradeColumns', sampleTrades({ tradesPerDay: 10 })],
  ])('%s throws invalid_option naming trades', (_, x) => {
    let caught: unknown
    try {
      tradesToColumns(x as never)
    } catch (e) {
      caught = e
    }
    expect(caught).toBeInstanceOf(MarketDataError)
    expect((caught as MarketDataError).code).toBe('invalid_option')
    expect((caught as MarketDataError).field).toBe('trades')
    expect((caught as MarketDataError).message).toMatch(/^trades: .*array or an iterable of trade objects/)
  })

  it('Proxies and iterators that throw give MarketDataError, not the raw error', () => {
    const boom = {
      *[Symbol.iterator]() {
        yield good
        throw new Error('it')
      },
    }
    for (const x of [revoked(), trapProxy(), boom]) {
      expect(() => tradesToColumns(x as never)).toThrow(MarketDataError)
    }
    expect(() => tradesToColumns([throwingGetter('time')])).toThrow(MarketDataError)
  })

  it('arrays and iterables still convert', () => {
    expect(tradesToColumns([good]).time.length).toBe(1)
    expect(tradesToColumns(new Set([good, { ...good }])).time.length).toBe(2)
    expect(tradesToColumns([]).time.length).toBe(0)
  })
})

describe('the batch functions refuse an input whose shape cannot be read', () => {
  const fns: [string, (x: unknown) => unknown][] = [
    ['candlesFromTrades', (x) => candlesFromTrades(x as never, { timeframe: '1m' })],
    ['footprintProfiles', (x) => footprintProfiles(x as never, { timeframe: '1h', tickSize: 1 })],
    ['tpoProfiles', (x) => tpoProfiles(x as never, { timeframe: '1d', tickSize: 1 })],
  ]
  it.each(fns)('%s: a revoked Proxy or one whose traps throw is invalid_option naming trades', (_, f) => {
    const allTraps = () =>
      new Proxy(
        {},
        {
          get() {
            throw new Error('trap')
          },
          has() {
            throw new Error('trap')
          },
          getPrototypeOf() {
            throw new Error('trap')
          },
        },
      )
    for (const x of [revoked(), trapProxy(), allTraps(), throwingGetter('time')]) {
      let caught: unknown
      try {
        f(x)
      } catch (e) {
        caught = e
      }
      expect(caught).toBeInstanceOf(MarketDataError)
      expect(caught).toMatchObject({ code: 'invalid_option', field: 'trades' })
    }
    // good inputs still go through
    expect(f([good])).toHaveLength(1)
  })
})

describe('one message for an input that is no trade input', () => {
  it('candlesFromTrades, footprintProfiles and tpoProfiles say the same, naming what they got', () => {
    for (const x of [42, 'abc', null, {}, Proxy.revocable({}, {}).proxy]) {
      const msgs = [
        () => candlesFromTrades(x as never, { timeframe: '1m' }),
        () => footprintProfiles(x as never, { timeframe: '1h', tickSize: 1 }),
        () => tpoProfiles(x as never, { timeframe: '1d', tickSize: 1 }),
      ].map((f) => {
        try {
          f()
          return 'no error'
        } catch (e) {
          return (e as Error).message
        }
      })
      expect(new Set(msgs).size).toBe(1)
      expect(msgs[0]).toMatch(/^trades: .* is neither TradeColumns, an array nor an iterable of trades$/)
    }
  })
})
