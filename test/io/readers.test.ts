// svc-marketdata/io: trades and candles from CSV / NDJSON text. Laws: any split into chunks reads the same
// records as the whole text; what is written is read back exactly (three time formats, both text formats);
// a bad row is refused naming its line and field, or skipped and counted, and changes nothing else.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  createCandleReader,
  createTradeReader,
  readCandleColumns,
  readCandles,
  readTradeColumns,
  readTrades,
} from '../../src/io/index.js'
import { tradesToColumns, type Trade } from '../../src/index.js'

const decimal = (signed: boolean) =>
  fc
    .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.integer({ min: 0, max: 8 }))
    .map(([neg, units, scale]) => {
      const s = units.toString().padStart(scale + 1, '0')
      const plain = scale === 0 ? s : `${s.slice(0, -scale)}.${s.slice(-scale)}`
      return signed && neg && units !== 0n ? `-${plain}` : plain
    })

const tradeArb = fc.record(
  {
    time: fc.integer({ min: 1e11, max: 4e12 }),
    price: decimal(true),
    volume: decimal(false),
    side: fc.constantFrom('buy' as const, 'sell' as const),
    session: fc.constantFrom('MAINSESSION' as const, 'PRE_MARKET' as const, 'POST_MARKET' as const),
  },
  { requiredKeys: ['time', 'price', 'volume', 'side'] },
)

function csv(trades: readonly Trade[], time: 'ms' | 's' | 'iso'): string {
  const t = (ms: number) =>
    time === 'ms' ? String(ms) : time === 's' ? (ms / 1000).toFixed(3) : new Date(ms).toISOString()
  return [
    'timestamp,px,qty,aggressor,session',
    ...trades.map((x) => `${t(x.time)},${x.price},${x.volume},${x.side},${x.session ?? ''}`),
  ].join('\n')
}

const ndjson = (trades: readonly Trade[]) => trades.map((x) => JSON.stringify(x)).join('\n')

/** Cuts a text into chunks at the given offsets. */
function chunks(text: string, cuts: number[]): string[] {
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)
  const out: string[] = []
  let prev = 0
  for (const c of at) {
    out.push(text.slice(prev, c))
    prev = c
  }
  out.push(text.slice(prev))
  return out
}

describe('trade reader', () => {
  it('reads back what was written, in CSV (three time formats) and NDJSON, exactly', () => {
    fc.assert(
      fc.property(
        fc.array(tradeArb, { maxLength: 30 }),
        fc.constantFrom('ms' as const, 's' as const, 'iso' as const),
        (trades, time) => {
          expect(readTrades(csv(trades, time))).toEqual(trades)
          expect(readTrades(ndjson(trades))).toEqual(trades)
        },
      ),
    )
  })

  it('any split into chunks reads the same records, with the same line numbers', () => {
    fc.assert(
      fc.property(
        fc.array(tradeArb, { maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.boolean(),
        (trades, cuts, asCsv) => {
          const text = asCsv ? csv(trades, 'ms') : ndjson(trades)
          const reader = createTradeReader()
          const records: Trade[] = []
          const lines: number[] = []
          for (const c of chunks(text, cuts)) {
            const b = reader.push(c)
            records.push(...b.records)
            lines.push(...b.lines)
          }
          const b = reader.end()
          records.push(...b.records)
          lines.push(...b.lines)
          expect(records).toEqual(trades)
          expect(lines).toEqual(trades.map((_, i) => i + (asCsv ? 2 : 1)))
          expect(reader.stats).toMatchObject({ records: trades.length, bad: 0 })
        },
      ),
    )
  })

  it('NDJSON numbers and exponent notation are read by their exact text', () => {
    const [t] = readTrades('{"time":1780320600000,"price":5000.12345678901234567,"volume":9.417e-05,"side":"b"}')
    expect(t).toEqual({ time: 1780320600000, price: '5000.12345678901234567', volume: '0.00009417', side: 'buy' })
    expect(readTrades('1780320600,1.5E+3,2e0,s')[0]).toEqual({
      time: 1780320600000,
      price: '1500',
      volume: '2',
      side: 'sell',
    })
  })

  it('columns are the objects as columns', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc
            .tuple(tradeArb, fc.integer({ min: -1e9, max: 1e9 }), fc.nat(1e6))
            .map(([t, p, v]) => ({ ...t, price: String(p / 100), volume: String(v / 1000) })),
          { maxLength: 20 },
        ),
        (trades) => {
          expect(readTradeColumns(csv(trades, 'iso'))).toEqual(tradesToColumns(trades))
        },
      ),
    )
  })

  it('a bad row is refused naming its line and field; with skipBad it is skipped, counted and reported, and the rest is read', () => {
    fc.assert(
      fc.property(
        fc.array(tradeArb, { minLength: 1, maxLength: 15 }),
        fc.nat(),
        fc.constantFrom('price', 'volume', 'side', 'time', 'session'),
        (trades, k, field) => {
          const at = k % trades.length
          const lines = csv(trades, 'ms').split('\n')
          const f = lines[at + 1]!.split(',')
          const index = { time: 0, price: 1, volume: 2, side: 3, session: 4 }[field]
          f[index] = field === 'volume' ? '-1' : 'x!'
          lines[at + 1] = f.join(',')
          const text = lines.join('\n')
          expect(() => readTrades(text)).toThrow(
            expect.objectContaining({ field, message: expect.stringMatching(new RegExp(`^line ${at + 2}: ${field}`)) }),
          )
          const bad: number[] = []
          const reader = createTradeReader({ skipBad: true, onBad: (line) => bad.push(line) })
          const got = [...reader.push(text).records, ...reader.end().records]
          expect(got).toEqual(trades.filter((_, i) => i !== at))
          expect(bad).toEqual([at + 2])
          expect(reader.stats.bad).toBe(1)
        },
      ),
    )
  })

  it('sorted refuses a row earlier than the previous one; the time format is reported once', () => {
    const seen: unknown[] = []
    const r = createTradeReader({ sorted: true, onTimeFormat: (f, line, v) => seen.push([f, line, v]) })
    expect(() => r.push('# comment\n1780320600,1,1,b\n1780320599,1,1,b\n')).toThrow(
      expect.objectContaining({ code: 'out_of_order', message: expect.stringMatching(/^line 3: /) }),
    )
    expect(seen).toEqual([['s', 2, '1780320600']])
    expect(readTrades('1780320600,1,1,b\n1780320599,1,1,b\n')).toHaveLength(2)
  })

  it('refuses an unknown option, a bad format and a header without a required column', () => {
    expect(() => createTradeReader({ skip: true } as never)).toThrow(
      expect.objectContaining({ code: 'invalid_option', field: 'skip' }),
    )
    expect(() => readTrades('', { format: 'tsv' as never })).toThrow(expect.objectContaining({ field: 'format' }))
    expect(() => readTrades('time,price,side\n1,2,b')).toThrow(/line 1: the header has no volume column/)
    expect(() => readTrades('{"time":1780320600000')).toThrow(
      expect.objectContaining({ code: 'invalid_record', message: 'line 1: not a JSON object' }),
    )
  })

  it('refuses options of the wrong type, or that cannot be read, naming the option (never a TypeError)', () => {
    const csv = 'time,price,volume,side\n1780320600000,5000,1,buy\n'
    const wrong: [Record<string, unknown>, string][] = [
      [{ onBad: false }, 'onBad'],
      [{ onTimeFormat: 'log' }, 'onTimeFormat'],
      [{ skipBad: 'yes' }, 'skipBad'],
      [{ sorted: 1 }, 'sorted'],
    ]
    for (const [o, field] of wrong)
      expect(() => readTrades(csv, o as never)).toThrow(expect.objectContaining({ code: 'invalid_option', field }))
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    expect(() => createTradeReader(proxy)).toThrow(
      expect.objectContaining({ code: 'invalid_option', field: 'options' }),
    )
    const throwing = Object.defineProperty({}, 'skipBad', {
      enumerable: true,
      get() {
        throw new Error('no')
      },
    })
    expect(() => readTrades(csv, throwing)).toThrow(expect.objectContaining({ field: 'options' }))
    // the options are read once: changing them after the reader is made changes nothing
    const opts: { skipBad?: boolean } = { skipBad: true }
    const reader = createTradeReader(opts)
    opts.skipBad = false
    expect(() => reader.push('time,price,volume,side\nx,1,1,buy\n')).not.toThrow()
  })
})

describe('candle reader', () => {
  it('takes the same time headers as the trade reader, units included (time_us, timestamp_ns)', () => {
    const t = Date.UTC(2026, 5, 1, 13, 30)
    for (const [header, scale] of [
      ['time_us', 1000],
      ['timestamp_ns', 1_000_000],
      ['time_s', 0.001],
    ] as const) {
      const got = readCandles(`${header},open,high,low,close,volume\n${t * scale},1,2,0.5,1.5,10\n`)
      expect(
        got.map((c) => c.time),
        header,
      ).toEqual([t])
    }
  })

  it('reads headers with aliases or fixed positions, ISO or epoch times, and columns', () => {
    const text =
      'Timestamp,O,H,L,C,Vol,Turnover,Count\n2026-06-01T13:30:00Z,5000,5001.25,4999.5,5000.75,120,600000,40\n2026-06-01T13:31:00Z,5000.75,5002,5000,5001,80,400000,22\n'
    const got = readCandles(text)
    expect(got).toEqual([
      {
        time: Date.UTC(2026, 5, 1, 13, 30),
        open: '5000',
        high: '5001.25',
        low: '4999.5',
        close: '5000.75',
        volume: '120',
        value: '600000',
        trades: 40,
      },
      {
        time: Date.UTC(2026, 5, 1, 13, 31),
        open: '5000.75',
        high: '5002',
        low: '5000',
        close: '5001',
        volume: '80',
        value: '400000',
        trades: 22,
      },
    ])
    const cols = readCandleColumns(text)
    expect(Array.from(cols.close)).toEqual([5000.75, 5001])
    expect(Array.from(cols.trades ?? [])).toEqual([40, 22])
    expect(cols.session).toBeUndefined()
    expect(readCandles('1780320600,5,6,4,5.5,12,,,PRE_MARKET')[0]).toEqual({
      time: 1780320600000,
      open: '5',
      high: '6',
      low: '4',
      close: '5.5',
      volume: '12',
      session: 'PRE_MARKET',
    })
  })

  it('any split into chunks reads the same candles', () => {
    const text = Array.from({ length: 12 }, (_, i) =>
      JSON.stringify({
        time: 1780320600000 + i * 60_000,
        open: 1 + i,
        high: 2 + i,
        low: i,
        close: 1.5 + i,
        volume: 10,
      }),
    ).join('\n')
    const whole = readCandles(text)
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 10 }), (cuts) => {
        const r = createCandleReader()
        const got = chunks(text, cuts).flatMap((c) => r.push(c).records)
        expect([...got, ...r.end().records]).toEqual(whole)
      }),
    )
  })

  it('names the line and field of a bad candle', () => {
    expect(() => readCandles('time,open,high,low,close,volume\n1780320600,1,2,0,1,-3')).toThrow(
      expect.objectContaining({
        code: 'invalid_volume',
        field: 'volume',
        message: expect.stringMatching(/^line 2: volume "-3"/),
      }),
    )
    expect(() => readCandles('1780320600,1,2,zero,1,3')).toThrow(
      expect.objectContaining({ field: 'low', message: expect.stringMatching(/^line 1: low "zero"/) }),
    )
  })
})
