// Boundaries and rules of src/trades that the generated-trade properties do not reach: the ±8.64e15 time
// limits, option bounds, big number inputs near 2^52 units, partial reads, -0, and session columns.
import Big from 'big.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  columnsToTrades,
  createScaledTradeReader,
  sessionMask,
  sliceTradeColumns,
  tradesToColumns,
  validateTrade,
  validateTradeColumns,
  type Trade,
  type TradeColumns,
} from '../../src/trades/index.js'

Big.DP = 60
Big.NE = -100
Big.PE = 100

const MAX = 8.64e15 // DESIGN / README: time an integer of epoch ms within ±8.64e15 (the range of a Date)
const good: Trade = { time: 0, price: '5000.25', volume: '1', side: 'buy' }
const cols1 = (patch: Partial<Record<keyof TradeColumns, unknown>> = {}): TradeColumns =>
  ({
    time: new Float64Array([0]),
    price: new Float64Array([1]),
    volume: new Float64Array([1]),
    side: new Uint8Array([1]),
    ...patch,
  }) as TradeColumns

describe('time limits are inclusive: ±8.64e15 valid, one ms beyond invalid', () => {
  it('validateTrade', () => {
    expect(new Date(MAX).getTime()).toBe(MAX)
    expect(new Date(-MAX).getTime()).toBe(-MAX)
    for (const time of [MAX, -MAX]) expect(validateTrade({ ...good, time }).ok).toBe(true)
    for (const time of [MAX + 1, -MAX - 1])
      expect(validateTrade({ ...good, time })).toMatchObject({
        ok: false,
        error: { code: 'invalid_time', field: 'time' },
      })
  })
  it('validateTradeColumns and the scaled reader (columns and objects)', () => {
    const r = createScaledTradeReader()
    for (const time of [MAX, -MAX]) {
      const c = cols1({ time: new Float64Array([time]) })
      expect(validateTradeColumns(c).ok).toBe(true)
      expect(r.readColumns(c, 0, 1, 0)).toBe(1)
      expect(r.time[0]).toBe(time)
      expect(r.readTrade({ ...good, time }, 0)).toBe(1)
      expect(r.time[0]).toBe(time)
    }
    for (const time of [MAX + 1, -MAX - 1]) {
      const c = cols1({ time: new Float64Array([time]) })
      expect(validateTradeColumns(c)).toMatchObject({ ok: false, error: { field: 'time', index: 0 } })
      expect(() => r.readColumns(c, 0, 1, 3)).toThrow(
        expect.objectContaining({ code: 'invalid_time', index: 3, field: 'time' }),
      )
      expect(() => r.readTrade({ ...good, time }, 3)).toThrow(
        expect.objectContaining({ code: 'invalid_time', index: 3, field: 'time' }),
      )
    }
  })
})

describe('ScaledTradeReader', () => {
  it('refuses a session code above 2 in columns, naming the stream index', () => {
    const c = tradesToColumns([good, good, good, good])
    c.session = new Uint8Array([0, 1, 2, 3])
    expect(() => createScaledTradeReader().readColumns(c, 0, 4, 10)).toThrow(
      expect.objectContaining({ code: 'invalid_session', index: 13, field: 'session' }),
    )
  })

  it('names the right record when reading from the middle of columns', () => {
    const c = tradesToColumns([good, good, good, good, good, good])
    c.session = new Uint8Array([9, 0, 0, 0, 3, 0]) // record 0 is bad too, but it is not read
    expect(() => createScaledTradeReader().readColumns(c, 3, 6, 100)).toThrow(
      expect.objectContaining({ code: 'invalid_session', index: 101, field: 'session' }),
    )
    c.session[4] = 0
    c.volume[5] = -1
    expect(() => createScaledTradeReader().readColumns(c, 3, 6, 100)).toThrow(
      expect.objectContaining({ code: 'invalid_volume', index: 102, field: 'volume' }),
    )
  })

  it('options: chunkSize >= 1, scales 0..400', () => {
    expect(() => createScaledTradeReader({ chunkSize: 0 })).toThrow(
      expect.objectContaining({ code: 'invalid_option', field: 'chunkSize' }),
    )
    expect(createScaledTradeReader({ chunkSize: 1 }).capacity).toBe(1)
    expect(createScaledTradeReader({ priceScale: 400, volumeScale: 400 }).priceScale).toBe(400)
    expect(() => createScaledTradeReader({ priceScale: 401 })).toThrow(
      expect.objectContaining({ code: 'invalid_option', field: 'priceScale' }),
    )
    expect(() => createScaledTradeReader({ volumeScale: 401 })).toThrow(
      expect.objectContaining({ code: 'invalid_option', field: 'volumeScale' }),
    )
  })

  // numbers of 14-17 digits with decimals: x * 10^scale rounds in a double once the units pass 2^53
  const bigNumber = fc.oneof(
    fc.double({ min: 1e12, max: 1e17, noNaN: true }),
    fc.constantFrom(91023172204303.69, 172502516325353.97, 13355984929611.861, 153302507145526.3),
  )
  it('big number prices and volumes: exact units, never a rounded product (any starting scale)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(bigNumber, fc.boolean(), fc.oneof(bigNumber, fc.constantFrom(1, 0.5))), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.nat(3),
        fc.nat(3),
        (rows, ps, vs) => {
          const trades: Trade[] = rows.map(([p, neg, v]) => ({ time: 0, price: neg ? -p : p, volume: v, side: 'sell' }))
          for (const read of ['objects', 'columns'] as const) {
            const r = createScaledTradeReader({ priceScale: ps, volumeScale: vs })
            const k =
              read === 'objects'
                ? r.readTrades(trades, 0, trades.length, 0)
                : r.readColumns(tradesToColumns(trades), 0, trades.length, 0)
            expect(k).toBe(trades.length)
            for (let i = 0; i < k; i++) {
              const t = trades[i] as Trade
              expect(r.priceBig(i)).toBe(
                BigInt(new Big(String(t.price)).times(new Big(10).pow(r.priceScale)).toFixed(0)),
              )
              expect(r.volumeBig(i)).toBe(
                BigInt(new Big(String(t.volume)).times(new Big(10).pow(r.volumeScale)).toFixed(0)),
              )
            }
          }
        },
      ),
      { numRuns: 150 },
    )
    // the cases found by hand: 2 decimals, units just past 2^53
    for (const ps of [0, 2]) {
      const r = createScaledTradeReader({ priceScale: ps, volumeScale: ps })
      r.readTrade({ time: 0, price: -91023172204303.69, volume: 91023172204303.69, side: 'buy' }, 0)
      expect(r.priceBig(0)).toBe(-9102317220430369n)
      expect(r.volumeBig(0)).toBe(9102317220430369n)
      r.readTrade({ time: 0, price: -91023172204303.69, volume: 1, side: 'buy' }, 0) // the volume takes the fast path
      expect(r.priceBig(0)).toBe(-9102317220430369n)
    }
  })
})

describe('columns', () => {
  it('sliceTradeColumns keeps the session column', () => {
    const c = tradesToColumns([{ ...good, session: 'PRE_MARKET' }, { ...good, session: 'POST_MARKET' }, good])
    const s = sliceTradeColumns(c, 1, 3)
    expect(s.session).toBeDefined()
    expect(Array.from(s.session ?? [])).toEqual([2, 0])
    expect(columnsToTrades(s).map((t) => t.session)).toEqual(['POST_MARKET', 'MAINSESSION'])
    expect(sliceTradeColumns(tradesToColumns([good, good]), 0, 1).session).toBeUndefined()
  })

  it('columnsToTrades sets session on every trade when there is a session column (code 0 too)', () => {
    const back = columnsToTrades(cols1({ session: new Uint8Array([0]) }))
    expect(back[0]?.session).toBe('MAINSESSION')
    expect('session' in (columnsToTrades(cols1())[0] as object)).toBe(false)
  })

  it('-0 is zero: never -0 in columns or trades', () => {
    const c = tradesToColumns([
      { time: 0, price: '-0', volume: '-0.0', side: 'buy' },
      { time: 0, price: -0, volume: -0, side: 'sell' },
    ])
    for (let i = 0; i < 2; i++) {
      expect(Object.is(c.price[i], 0)).toBe(true)
      expect(Object.is(c.volume[i], 0)).toBe(true)
    }
    const back = columnsToTrades(cols1({ price: new Float64Array([-0]), volume: new Float64Array([-0]) }))
    expect(Object.is(back[0]?.price, 0)).toBe(true)
    expect(Object.is(back[0]?.volume, 0)).toBe(true)
  })

  it('a missing side column is a shape error, never a throw', () => {
    const c = { time: new Float64Array([0]), price: new Float64Array([1]), volume: new Float64Array([1]) }
    expect(validateTradeColumns(c)).toMatchObject({ ok: false, error: { code: 'invalid_option', field: 'side' } })
  })
})

describe('sessionMask', () => {
  it('refuses undefined inside the list (not a session type)', () => {
    expect(() => sessionMask([undefined as never])).toThrow(
      expect.objectContaining({ code: 'invalid_option', field: 'sessions' }),
    )
    expect(() => sessionMask(['MAINSESSION', undefined as never])).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    )
  })
})
