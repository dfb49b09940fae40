// Fuzz: the text readers of svc-marketdata/io, through their public API only (readTrades, readCandles,
// readTradeColumns, readCandleColumns, and the chunked createTradeReader / createCandleReader). Texts are CSV
// and NDJSON files with valid rows edited at random (fields replaced, dropped, added, quoted, cut), arbitrary
// text, and arbitrary options. Contract: records, or a MarketDataError for bad input; never another exception.
// A text the whole-text reader reads is read the same, chunk by chunk, at any cut.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  createCandleReader,
  createTradeReader,
  readCandleColumns,
  readCandles,
  readTradeColumns,
  readTrades,
  type TextReaderOptions,
} from '../../src/io/index.js'
import { FUZZ_TIMEOUT, fuzzParams, onlyMarketDataError } from './fuzz-params.js'

const field = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('1780320600000', '1780320600', '2026-06-01T13:30:00Z', '5000.25', '2', '0') },
  fc.constantFrom('buy', 'sell', 'b', 's', '1', '2', 'MAINSESSION', 'PRE_MARKET', '9.417e-05', '-1', '1e400', ''),
  fc.constantFrom('"5000.25"', ' 2 ', 'NaN', 'Infinity', '0x10', '１２', '\u0000', '"', ',', '#'),
  fc.double().map(String),
  fc.integer().map(String),
  fc.string({ maxLength: 12 }),
  fc.nat({ max: 600 }).map((n) => '7'.repeat(n)),
)
const TRADE_HEADERS = ['time,price,volume,side', 'timestamp,price,qty,side,session', 'time,price,volume', '']
const CANDLE_HEADERS = ['time,open,high,low,close,volume', 'time,open,high,low,close,volume,value,trades,session', '']
const csv = (headers: string[]) =>
  fc
    .tuple(
      fc.constantFrom(...headers),
      fc.array(fc.array(field, { minLength: 0, maxLength: 10 }), { maxLength: 8 }),
      fc.constantFrom('\n', '\r\n'),
    )
    .map(([h, rows, nl]) => [h, ...rows.map((r) => r.join(','))].filter((l, i) => i > 0 || l !== '').join(nl))

// NDJSON values, flat: a record's fields are numbers, strings, booleans, null or a small array or object
// (no deep nesting here: the reader's own nesting rules are tested beside the reader).
const scalar = fc.oneof(
  fc.constantFrom(1780320600000, 5000.25, 2, 0, -1, 1e-7, 1e308, 'buy', 'sell', 'MAINSESSION', '5000.25', '1e-3'),
  fc.double(),
  fc.integer(),
  fc.string({ maxLength: 10 }),
  fc.boolean(),
  fc.constant(null),
)
const flatValue = fc.oneof(
  { weight: 5, arbitrary: scalar },
  fc.array(scalar, { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), scalar, { maxKeys: 2 }),
)
const KEYS = ['time', 'price', 'volume', 'side', 'session', 'open', 'high', 'low', 'close', 'value', 'trades', 'extra']
const ndjsonLine = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.dictionary(fc.constantFrom(...KEYS), flatValue, { maxKeys: 9 }).map((o) => JSON.stringify(o)),
  },
  fc.constantFrom('', '#c', '{', '[]', '{"time":1780320600000,"price":5000.25,"volume":2,"side":"buy"}', 'null', '1'),
  fc.string({ maxLength: 30 }),
)
const ndjson = fc
  .tuple(fc.array(ndjsonLine, { maxLength: 8 }), fc.constantFrom('\n', '\r\n'))
  .map(([ls, nl]) => ls.join(nl))
// Valid files, each row edited with a small chance (a field replaced by a drawn one): mostly read, sometimes refused.
const VALID_ROW: Record<'trades' | 'candles', (i: number) => Record<string, string | number>> = {
  trades: (i) => ({
    time: 1780320600000 + i * 1000,
    price: (5000 + i / 4).toFixed(2),
    volume: 1 + (i % 3),
    side: i % 2 ? 'sell' : 'buy',
  }),
  candles: (i) => ({
    time: 1780320600000 + i * 60_000,
    open: '5000.25',
    high: '5001',
    low: '4999.5',
    close: '5000.5',
    volume: 10 + i,
  }),
}
const validFile = (kind: 'trades' | 'candles') =>
  fc
    .tuple(
      fc.array(fc.option(fc.tuple(fc.nat(), field), { freq: 6, nil: undefined }), { minLength: 1, maxLength: 8 }),
      fc.constantFrom('csv', 'ndjson'),
    )
    .map(([edits, format]) => {
      const rows = edits.map((e, i) => {
        const row: Record<string, string | number> = VALID_ROW[kind](i)
        if (e !== undefined) {
          const keys = Object.keys(row)
          row[keys[e[0] % keys.length] as string] = e[1]
        }
        return row
      })
      if (format === 'ndjson') return rows.map((r) => JSON.stringify(r)).join('\n')
      return [Object.keys(rows[0] as object).join(','), ...rows.map((r) => Object.values(r).join(','))].join('\n')
    })
const text = (kind: 'trades' | 'candles', headers: string[]) =>
  fc.oneof({ weight: 3, arbitrary: validFile(kind) }, csv(headers), ndjson, fc.string({ maxLength: 200 }))

const options = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record(
      {
        format: fc.constantFrom('csv' as const, 'ndjson' as const),
        skipBad: fc.boolean(),
        sorted: fc.boolean(),
        onBad: fc.constant(() => {}),
        onTimeFormat: fc.constant(() => {}),
      },
      { requiredKeys: [] },
    ),
  },
  // options a caller got wrong: an unknown key, a value of the wrong type (callbacks stay functions here: a
  // non-function onBad is not refused as an option yet)
  fc.dictionary(
    fc.constantFrom('format', 'skipBad', 'sorted', 'formats', 'skip', 'onbad'),
    fc.jsonValue({ maxDepth: 1 }),
    { maxKeys: 3 },
  ),
) as fc.Arbitrary<TextReaderOptions>

/** Reads `t` with a chunked reader cut at `cuts`; the records, in order. */
function chunked<T>(
  make: (o: TextReaderOptions) => { push(c: string): { records: T[] }; end(): { records: T[] } },
  t: string,
  o: TextReaderOptions,
  cuts: number[],
): T[] {
  const r = make(o)
  const out: T[] = []
  let prev = 0
  for (const c of [...cuts.map((x) => x % (t.length + 1))].sort((a, b) => a - b)) {
    out.push(...r.push(t.slice(prev, c)).records)
    prev = c
  }
  out.push(...r.push(t.slice(prev)).records)
  out.push(...r.end().records)
  return out
}

const READERS = [
  { kind: 'trades', headers: TRADE_HEADERS, whole: readTrades, columns: readTradeColumns, make: createTradeReader },
  {
    kind: 'candles',
    headers: CANDLE_HEADERS,
    whole: readCandles,
    columns: readCandleColumns,
    make: createCandleReader,
  },
] as const

describe('fuzz: text readers', () => {
  for (const { kind, headers, whole, columns, make } of READERS) {
    it(
      `${kind}: records or a MarketDataError, whole, as columns and chunk by chunk (the same records)`,
      () => {
        let read = 0
        const params = fuzzParams(250)
        fc.assert(
          fc.property(text(kind, [...headers]), options, fc.array(fc.nat(), { maxLength: 4 }), (t, o, cuts) => {
            const a = onlyMarketDataError(() => whole(t, o))
            expect(a.other).toBeUndefined()
            expect(onlyMarketDataError(() => columns(t, o)).other).toBeUndefined()
            const b = onlyMarketDataError(() => chunked(make as never, t, o, cuts))
            expect(b.other).toBeUndefined()
            if (a.error === undefined && b.error === undefined) expect(b.value).toEqual(a.value)
            if (Array.isArray(a.value) && a.value.length > 0) read++
          }),
          params,
        )
        // not vacuous: many drawn texts hold records the readers read
        expect(read).toBeGreaterThan((params.numRuns ?? 0) / 20)
      },
      FUZZ_TIMEOUT,
    )
  }
})
