// An Arrow table built from random trades (or candles), its prices and volumes as Float64, Decimal128 or decimal
// text, its times as epoch ms, Timestamp(us) or text, cut into random chunks and maybe sliced, reads back the
// same columns as the same records written as CSV and read by the text reader.
import { Decimal, Float64, makeData, makeVector, Table, TimeUnit, Timestamp, Utf8, vectorFromArray } from 'apache-arrow'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  candleColumnsFromArrow,
  readCandleColumns,
  readTradeColumns,
  tradeColumnsFromArrow,
  readTrades,
  tradesFromArrow,
} from '../../src/io/index.js'

const T0 = Date.UTC(2026, 5, 1)

/** A decimal as scaled units: units / 10^scale, at most 12 digits (a double holds it exactly). */
const decimalArb = (signed: boolean) =>
  fc.record({
    units: fc.bigInt({ min: signed ? -(10n ** 12n) : 0n, max: 10n ** 12n }),
    scale: fc.integer({ min: 0, max: 6 }),
  })
type Dec = { units: bigint; scale: number }
const text = ({ units, scale }: Dec): string => {
  const neg = units < 0n
  const d = (neg ? -units : units).toString().padStart(scale + 1, '0')
  const s = scale === 0 ? d : `${d.slice(0, -scale)}.${d.slice(-scale)}`
  return neg ? `-${s}` : s
}

type Repr = 'float' | 'decimal' | 'text'
/** One decimal column in the representation asked for; a decimal column takes the largest scale of its values. */
function decimalVector(values: Dec[], repr: Repr) {
  if (repr === 'float')
    return vectorFromArray(
      values.map((v) => Number(text(v))),
      new Float64(),
    )
  if (repr === 'text') return vectorFromArray(values.map(text), new Utf8())
  const scale = Math.max(0, ...values.map((v) => v.scale))
  const data = new Uint32Array(values.length * 4)
  values.forEach((v, i) => {
    let u = v.units * 10n ** BigInt(scale - v.scale)
    if (u < 0n) u += 1n << 128n
    for (let k = 0; k < 4; k++) {
      data[i * 4 + k] = Number(u & 0xffffffffn)
      u >>= 32n
    }
  })
  return makeVector(makeData({ type: new Decimal(scale, 38, 128), length: values.length, data }))
}

type TimeRepr = 'ms' | 'us' | 'iso'
function timeVector(times: number[], repr: TimeRepr) {
  if (repr === 'ms') return vectorFromArray(times, new Float64())
  if (repr === 'iso')
    return vectorFromArray(
      times.map((t) => new Date(t).toISOString()),
      new Utf8(),
    )
  const data = new BigInt64Array(times.map((t) => BigInt(t) * 1000n + 123n))
  return makeVector(makeData({ type: new Timestamp(TimeUnit.MICROSECOND, 'UTC'), length: times.length, data }))
}

/** A table cut into chunks at `cuts` (each chunk its own record batch). */
function chunked(columns: Record<string, unknown>, rows: number, cuts: number[]): Table {
  const whole = new Table(columns as never)
  const at = [...new Set(cuts.map((c) => c % (rows + 1)))].sort((a, b) => a - b)
  let table: Table | undefined
  let from = 0
  for (const to of [...at, rows]) {
    if (to <= from) continue
    const part = whole.slice(from, to)
    table = table === undefined ? new Table(part.batches) : table.concat(part)
    from = to
  }
  return table ?? whole
}

const tradeArb = fc.record({
  gap: fc.integer({ min: 0, max: 5000 }),
  price: decimalArb(true),
  volume: decimalArb(false),
  side: fc.constantFrom('buy', 'sell', 'b', 'S'),
})

describe('an Arrow table reads as its CSV', () => {
  it('trades: same columns as readTradeColumns, for every representation, chunking and slice', () => {
    fc.assert(
      fc.property(
        fc.array(tradeArb, { maxLength: 40 }),
        fc.constantFrom<Repr>('float', 'decimal', 'text'),
        fc.constantFrom<Repr>('float', 'decimal', 'text'),
        fc.constantFrom<TimeRepr>('ms', 'us', 'iso'),
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.nat(),
        fc.boolean(),
        (list, priceRepr, volumeRepr, timeRepr, cuts, skip, tick) => {
          let t = T0
          const times = list.map((r) => (t += r.gap))
          const csv = [
            'time,price,volume,side',
            ...list.map((r, i) => `${times[i]},${text(r.price)},${text(r.volume)},${r.side}`),
          ]
          const table = chunked(
            {
              time: timeVector(times, timeRepr),
              price: decimalVector(
                list.map((r) => r.price),
                priceRepr,
              ),
              volume: decimalVector(
                list.map((r) => r.volume),
                volumeRepr,
              ),
              side: vectorFromArray(
                list.map((r) => r.side),
                new Utf8(),
              ),
            },
            list.length,
            cuts,
          )
          const opts = tick ? { sideRule: 'tick' as const } : {}
          expect(tradeColumnsFromArrow(table, opts)).toEqual(readTradeColumns(csv.join('\n'), opts))
          expect(
            tradesFromArrow(table, opts).map((r) => ({
              ...r,
              price: String(Number(r.price)),
              volume: String(Number(r.volume)),
            })),
          ).toEqual(
            readTrades(csv.join('\n'), opts).map((r) => ({
              ...r,
              price: String(Number(r.price)),
              volume: String(Number(r.volume)),
            })),
          )
          // a slice reads as the same rows of the text
          const from = list.length === 0 ? 0 : skip % list.length
          const sliced = table.slice(from)
          const rest = [csv[0]!, ...csv.slice(1 + from)].join('\n')
          expect(tradeColumnsFromArrow(sliced, opts)).toEqual(readTradeColumns(rest, opts))
        },
      ),
    )
  })

  it('candles: same columns as readCandleColumns', () => {
    const candleArb = fc.record({
      open: decimalArb(true),
      high: decimalArb(true),
      low: decimalArb(true),
      close: decimalArb(true),
      volume: decimalArb(false),
      trades: fc.nat({ max: 1000 }),
    })
    fc.assert(
      fc.property(
        fc.array(candleArb, { maxLength: 20 }),
        fc.constantFrom<Repr>('float', 'decimal', 'text'),
        fc.array(fc.nat(), { maxLength: 3 }),
        (list, repr, cuts) => {
          const times = list.map((_, i) => T0 + i * 60_000)
          const keys = ['open', 'high', 'low', 'close', 'volume'] as const
          const csv = [
            'time,open,high,low,close,volume,trades',
            ...list.map((k, i) => [times[i], ...keys.map((f) => text(k[f])), k.trades].join(',')),
          ].join('\n')
          const table = chunked(
            {
              time: timeVector(times, 'ms'),
              ...Object.fromEntries(
                keys.map((f) => [
                  f,
                  decimalVector(
                    list.map((k) => k[f]),
                    repr,
                  ),
                ]),
              ),
              trades: vectorFromArray(
                list.map((k) => k.trades),
                new Float64(),
              ),
            },
            list.length,
            cuts,
          )
          expect(candleColumnsFromArrow(table)).toEqual(readCandleColumns(csv))
        },
      ),
    )
  })
})
