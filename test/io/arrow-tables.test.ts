// Trades and candles from Arrow tables as apache-arrow builds them: a Float64 column without nulls is used as it
// is; timestamps of every unit, dates, epoch integers and text times; Decimal128/256 read exactly (and a decimal
// a double cannot hold refused by the column readers, kept as text by the record readers); text, dictionary and
// boolean sides; multi-chunk and sliced tables; one clear error for a null, a wrong type or a missing column.
import {
  Bool,
  Date_,
  DateUnit,
  Decimal,
  Dictionary,
  Float32,
  Float64,
  Int32,
  Int64,
  LargeUtf8,
  makeData,
  makeVector,
  Table,
  TimeUnit,
  Timestamp,
  tableFromArrays,
  Utf8,
  Utf8View,
  vectorFromArray,
} from 'apache-arrow'
import { describe, expect, it } from 'vitest'
import { candleColumnsFromArrow, candlesFromArrow, tradeColumnsFromArrow, tradesFromArrow } from '../../src/io/index.js'
import { MarketDataError } from '../../src/index.js'

const T0 = Date.UTC(2026, 5, 1, 13, 30)
const times = [T0, T0 + 1000, T0 + 2500]

/** A Decimal vector of `bits` (128 or 256) from scaled integers. */
function decimals(units: bigint[], scale: number, bits = 128) {
  const words = bits / 32
  const data = new Uint32Array(units.length * words)
  units.forEach((u, i) => {
    let v = u < 0n ? (1n << BigInt(bits)) + u : u
    for (let k = 0; k < words; k++) {
      data[i * words + k] = Number(v & 0xffffffffn)
      v >>= 32n
    }
  })
  return makeVector(makeData({ type: new Decimal(scale, 38, bits), length: units.length, data }))
}

const trades = (cols: Record<string, unknown>) =>
  new Table({
    time: vectorFromArray(times, new Float64()),
    price: vectorFromArray([5000.25, 5000.5, 5000.25], new Float64()),
    volume: vectorFromArray([2, 1, 3], new Float64()),
    side: vectorFromArray(['buy', 'sell', 'buy'], new Utf8()),
    ...cols,
  } as never)

const thrown = (f: () => unknown): MarketDataError => {
  try {
    f()
  } catch (e) {
    expect(e).toBeInstanceOf(MarketDataError)
    return e as MarketDataError
  }
  throw new Error('did not throw')
}

describe('tradeColumnsFromArrow', () => {
  it('uses a single-chunk Float64 column without nulls as it is, and converts other numbers once', () => {
    const table = tableFromArrays({
      time: new Float64Array(times),
      price: new Float64Array([5000.25, 5000.5, 5000.25]),
      qty: new Float32Array([2, 0.5, 3]),
      side: ['buy', 'sell', 'b'],
    })
    const cols = tradeColumnsFromArrow(table)
    expect(cols.price).toBe(table.getChild('price')!.data[0]!.values)
    expect(cols.time).toBe(table.getChild('time')!.data[0]!.values)
    expect(cols.volume).toBeInstanceOf(Float64Array)
    expect(cols.volume.buffer).not.toBe(table.getChild('qty')!.data[0]!.values.buffer)
    expect([...cols.volume]).toEqual([2, 0.5, 3])
    expect([...cols.side]).toEqual([1, 2, 1])
    expect(cols.session).toBeUndefined()
  })

  it('takes any object shaped like an Arrow table, without apache-arrow', () => {
    const float = (values: number[]) => ({
      length: values.length,
      data: [
        {
          type: { typeId: 3, precision: 2 },
          length: values.length,
          offset: 0,
          nullCount: 0,
          values: new Float64Array(values),
        },
      ],
    })
    const vectors: Record<string, ReturnType<typeof float>> = {
      Time: float(times),
      PX: float([1.5, 2.5, 2]),
      Size: float([1, 2, 3]),
      side: float([1, 2, 1]),
    }
    const side = {
      type: { typeId: 2, bitWidth: 8, isSigned: false },
      length: 3,
      offset: 0,
      nullCount: 0,
      values: new Uint8Array([1, 2, 2]),
    }
    const table = {
      schema: { fields: Object.keys(vectors).map((name) => ({ name })) },
      getChild: (name: string) => (name === 'side' ? { length: 3, data: [side] } : (vectors[name] ?? null)),
    }
    const cols = tradeColumnsFromArrow(table, { columns: { price: 'px' } })
    expect(cols.price).toBe(vectors.PX!.data[0]!.values)
    expect([...cols.side]).toEqual([1, 2, 2])
    const hostile = {
      ...table,
      getChild: () => {
        throw new Error('gone')
      },
    }
    expect(thrown(() => tradeColumnsFromArrow(hostile, { columns: { price: 'px' } })).message).toMatch(
      /reading column "Time" threw "gone"/,
    )
  })

  it('reads timestamps of every unit and zone, dates, Int64 epochs and named units, floored to the ms', () => {
    const ns = times.map((t) => BigInt(t) * 1_000_000n + 999_999n)
    const cases: [unknown, number[]][] = [
      [
        makeVector(
          makeData({
            type: new Timestamp(TimeUnit.SECOND),
            length: 3,
            data: new BigInt64Array(times.map((t) => BigInt(Math.floor(t / 1000)))),
          }),
        ),
        times.map((t) => Math.floor(t / 1000) * 1000),
      ],
      [vectorFromArray(times, new Timestamp(TimeUnit.MILLISECOND, 'America/New_York')), times],
      [
        makeVector(
          makeData({
            type: new Timestamp(TimeUnit.MICROSECOND, 'UTC'),
            length: 3,
            data: new BigInt64Array(times.map((t) => BigInt(t) * 1000n + 999n)),
          }),
        ),
        times,
      ],
      [
        makeVector(makeData({ type: new Timestamp(TimeUnit.NANOSECOND), length: 3, data: new BigInt64Array(ns) })),
        times,
      ],
      [makeVector(makeData({ type: new Int64(), length: 3, data: new BigInt64Array(times.map(BigInt)) })), times],
      [
        vectorFromArray(
          [20605, 20606, 20607].map((d) => d * 86_400_000),
          new Date_(DateUnit.DAY),
        ),
        [20605, 20606, 20607].map((d) => d * 86_400_000),
      ],
      [
        vectorFromArray(
          times.map((t) => new Date(t).toISOString()),
          new Utf8(),
        ),
        times,
      ],
      [vectorFromArray(times, new Date_(DateUnit.MILLISECOND)), times],
    ]
    for (const [time, want] of cases) {
      const got = tradeColumnsFromArrow(trades({ time }))
      expect([...got.time]).toEqual(want)
    }
    const seconds = vectorFromArray(
      times.map((t) => t / 1000),
      new Float64(),
    )
    expect([...tradeColumnsFromArrow(trades({ time: seconds })).time]).toEqual(times)
    const named = new Table({
      time_us: vectorFromArray(
        times.map((t) => t * 1000),
        new Float64(),
      ),
      price: vectorFromArray([1, 2, 3], new Float64()),
      volume: vectorFromArray([1, 1, 1], new Float64()),
      side: vectorFromArray(['b', 's', 'b'], new Utf8()),
    })
    expect([...tradeColumnsFromArrow(named).time]).toEqual(times)
    const seen: unknown[] = []
    tradeColumnsFromArrow(named, { timeUnit: 'us', onTimeFormat: (f, row) => seen.push(f, row) })
    expect(seen).toEqual(['us', 0])
  })

  it('reads Decimal128 and Decimal256 exactly; a decimal a double cannot hold is refused, and kept by tradesFromArrow', () => {
    const table = trades({
      price: decimals([500025n, -12n, 500025n], 2),
      volume: decimals([2000000000n, 15n, 1n], 9, 256),
    })
    const cols = tradeColumnsFromArrow(table)
    expect([...cols.price]).toEqual([5000.25, -0.12, 5000.25])
    expect([...cols.volume]).toEqual([2, 0.000000015, 0.000000001])
    const fine = trades({ price: decimals([97306318399440743n, 1n, 1n], 8) })
    const e = thrown(() => tradeColumnsFromArrow(fine))
    expect(e.code).toBe('invalid_decimal')
    expect(e.index).toBe(0)
    expect(e.message).toBe(
      'record 0: price "973063183.99440743" does not fit a double exactly in column "price" (Decimal128(scale 8)); columns hold doubles: read the table with tradesFromArrow, whose records keep the exact text',
    )
    const records = tradesFromArrow(fine)
    expect(records[0]).toEqual({ time: T0, price: '973063183.99440743', volume: 2, side: 'buy' })
    expect(records[1]!.price).toBe('0.00000001')
  })

  it('reads decimal text, dictionary, large-text and boolean sides, and sessions', () => {
    const dict = vectorFromArray(['SELL', 'buy', 'SELL'], new Dictionary(new Utf8(), new Int32()))
    const table = trades({
      price: vectorFromArray(['5000.25', '9.417e-05', '-1'], new LargeUtf8()),
      side: dict,
      session: vectorFromArray(['PRE_MARKET', null, 'MAINSESSION'], new Utf8()),
    })
    const cols = tradeColumnsFromArrow(table)
    expect([...cols.price]).toEqual([5000.25, 0.00009417, -1])
    expect([...cols.side]).toEqual([2, 1, 2])
    expect([...cols.session!]).toEqual([1, 0, 0])
    const maker = new Table({
      ...Object.fromEntries(['time', 'price', 'volume'].map((k) => [k, trades({}).getChild(k)!])),
      is_buyer_maker: vectorFromArray([true, false, true], new Bool()),
    })
    expect([...tradeColumnsFromArrow(maker).side]).toEqual([2, 1, 2])
    // string views: short strings inline, long ones in a data buffer
    const views = trades({
      side: vectorFromArray(['sell', 'buy', '  buy  '], new Utf8View()),
      price: vectorFromArray(['5000.250000000000000000000000', '1', '2'], new Utf8View()),
    })
    expect(views.getChild('price')!.data[0]!.variadicBuffers).toHaveLength(1)
    const v = tradeColumnsFromArrow(views)
    expect([...v.side]).toEqual([2, 1, 1])
    expect([...v.price]).toEqual([5000.25, 1, 2])
    expect([...tradeColumnsFromArrow(maker, { sideRule: 'tick' }).side]).toEqual([1, 1, 2])
  })

  it('reads tables of several chunks and sliced tables (offsets into the buffers, nulls and booleans)', () => {
    const a = trades({})
    const b = trades({})
    const two = a.concat(b)
    expect(two.getChild('price')!.data).toHaveLength(2)
    const cols = tradeColumnsFromArrow(two)
    expect([...cols.price]).toEqual([5000.25, 5000.5, 5000.25, 5000.25, 5000.5, 5000.25])
    expect([...cols.side]).toEqual([1, 2, 1, 1, 2, 1])
    const withBool = new Table({
      time: vectorFromArray(
        [...times, ...times].map((t, i) => t + i * 10_000),
        new Float64(),
      ),
      price: vectorFromArray([1, null, 3, 4, 5, 6], new Float64()),
      volume: vectorFromArray([1, 2, 3, 4, 5, 6], new Float32()),
      m: vectorFromArray([true, true, false, true, false, false], new Bool()),
    })
    const sliced = withBool.slice(2, 6)
    expect(sliced.getChild('price')!.data[0]!.offset).toBe(2)
    const s = tradeColumnsFromArrow(sliced)
    expect([...s.time]).toEqual([T0 + 22_500, T0 + 30_000, T0 + 41_000, T0 + 52_500])
    expect([...s.price]).toEqual([3, 4, 5, 6])
    expect([...s.volume]).toEqual([3, 4, 5, 6])
    expect([...s.side]).toEqual([1, 2, 1, 1])
    const e = thrown(() => tradeColumnsFromArrow(withBool.slice(0, 3)))
    expect(e.message).toBe('record 1: price is null in column "price" (Float64); every record needs a price')
  })

  it('one clear error for a null, a wrong type, a missing column or a bad option', () => {
    const nullSide = thrown(() =>
      tradeColumnsFromArrow(trades({ side: vectorFromArray(['buy', null, 'x'], new Utf8()) })),
    )
    expect(nullSide.code).toBe('invalid_side')
    expect(nullSide.field).toBe('side')
    expect(nullSide.message).toMatch(
      /^record 1: side null is not buy or sell .* in column "side" \(Utf8\); name the side column/,
    )
    const bad = thrown(() => tradeColumnsFromArrow(trades({ side: vectorFromArray(['buy', 'sell', 'x'], new Utf8()) })))
    expect(bad.message).toMatch(/^record 2: side "x" is not buy or sell/)
    const float = thrown(() => tradeColumnsFromArrow(trades({ side: vectorFromArray([1.5, 2, 1], new Float64()) })))
    expect(float.code).toBe('invalid_option')
    expect(float.message).toMatch(
      /^column "side" \(Float64\) cannot be the side column: side is text .*; cast it, or name another column with columns\.side$/,
    )
    const noPrice = new Table({
      time: trades({}).getChild('time')!,
      size: trades({}).getChild('volume')!,
      side: trades({}).getChild('side')!,
    })
    const missing = thrown(() => tradeColumnsFromArrow(noPrice))
    expect(missing.code).toBe('invalid_record')
    expect(missing.message).toMatch(
      /^the table has no price column \(expected one of: price, p, .*\); name it with columns\.price$/,
    )
    expect([...tradeColumnsFromArrow(noPrice, { columns: { price: 'size' } }).price]).toEqual([2, 1, 3])
    expect(thrown(() => tradeColumnsFromArrow(trades({}), { columns: { price: 'px' } })).message).toMatch(
      /columns\.price is "px", which the table does not name/,
    )
    const negative = thrown(() => tradeColumnsFromArrow(trades({ volume: vectorFromArray([1, -2, 1], new Float64()) })))
    expect(negative.code).toBe('invalid_volume')
    expect(negative.message).toMatch(/^record 1: volume -2 is not a decimal >= 0 .* in column "volume" \(Float64\)$/)
    const nan = thrown(() =>
      tradeColumnsFromArrow(trades({ price: vectorFromArray([1, Number.NaN, 1], new Float64()) })),
    )
    expect(nan.code).toBe('invalid_decimal')
    expect(nan.index).toBe(1)
    expect(thrown(() => tradeColumnsFromArrow(trades({}), { sideRule: 'optional' as never })).code).toBe(
      'invalid_option',
    )
    expect(thrown(() => tradeColumnsFromArrow(trades({}), { skipBad: true } as never)).message).toMatch(/skipBad/)
    expect(thrown(() => tradeColumnsFromArrow({ rows: [] } as never)).message).toMatch(/is not an Arrow table/)
    const early = trades({ time: vectorFromArray([T0, T0 - 1, T0], new Float64()) })
    expect(thrown(() => tradeColumnsFromArrow(early, { sorted: true })).code).toBe('out_of_order')
    expect(tradeColumnsFromArrow(early).time[1]).toBe(T0 - 1)
    const iso = trades({ time: vectorFromArray(['2026-06-01 13:30:00', '2026-06-01 13:30:01', 'x'], new Utf8()) })
    expect(thrown(() => tradeColumnsFromArrow(iso)).message).toMatch(/^record 0: time .* has no offset .*inputZone/)
    expect(() => tradeColumnsFromArrow(iso, { inputZone: 'UTC' })).toThrow(/^record 2: time "x" is not a date-time/)
  })
})

describe('candleColumnsFromArrow', () => {
  const candles = (extra: Record<string, unknown> = {}) =>
    new Table({
      date: vectorFromArray([20605 * 86_400_000, 20606 * 86_400_000], new Date_(DateUnit.DAY)),
      o: decimals([500000n, 500100n], 2),
      h: vectorFromArray([5010, 5020], new Float64()),
      l: vectorFromArray([4990, 4995], new Float64()),
      c: vectorFromArray(['5001.25', '5010.5'], new Utf8()),
      volume: vectorFromArray([12, 15], new Int32()),
      ...extra,
    } as never)

  it('reads a daily OHLCV table; value and trades when no row of theirs is null', () => {
    const k = candleColumnsFromArrow(candles({ trades: vectorFromArray([3, 4], new Int32()) }))
    expect([...k.time]).toEqual([20605 * 86_400_000, 20606 * 86_400_000])
    expect([...k.open]).toEqual([5000, 5001])
    expect([...k.close]).toEqual([5001.25, 5010.5])
    expect([...k.volume]).toEqual([12, 15])
    expect([...k.trades!]).toEqual([3, 4])
    expect(k.value).toBeUndefined()
    const half = candleColumnsFromArrow(candles({ value: vectorFromArray([1, null], new Float64()) }))
    expect(half.value).toBeUndefined()
    const exact = candles({ o: decimals([500012345678901234567n, 1n], 17) })
    expect(thrown(() => candleColumnsFromArrow(exact)).message).toMatch(/read the table with candlesFromArrow/)
    expect(candlesFromArrow(exact)[0]!.open).toBe('5000.12345678901234567')
  })
})
