// What a reader takes: an NDJSON line nested thousands of levels deep or a line longer than any record is a bad
// row (refused naming its line, or skipped with skipBad), never a RangeError from a walk or a message.
import { describe, expect, it } from 'vitest'
import { createTradeReader, readTrades } from '../../src/io/index.js'
import { MarketDataError } from '../../src/index.js'

const deep = (n: number, inner = '1') =>
  `{"time":${'['.repeat(n)}${inner}${']'.repeat(n)},"price":1,"volume":1,"side":"b"}`
const good = '{"time":1780320600000,"price":5000.25,"volume":2,"side":"buy"}'

describe('reader bounds', () => {
  it('a line nested 5,000 levels deep is a bad record, with or without skipBad', () => {
    for (const line of [deep(5000), `{"a":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`, deep(100, '"x"')]) {
      expect(() => readTrades(line)).toThrow(MarketDataError)
      expect(() => readTrades(line)).toThrow(/line 1: nested deeper than 32 levels/)
      const bad: number[] = []
      expect(readTrades(`${line}\n${good}\n`, { skipBad: true, onBad: (l) => bad.push(l) })).toHaveLength(1)
      expect(bad).toEqual([1])
    }
  })

  it('nesting inside strings does not count; a shallow nested value is described, not echoed whole', () => {
    expect(
      readTrades(`{"note":"${'['.repeat(100)}","time":1780320600000,"price":1,"volume":1,"side":"b"}`),
    ).toHaveLength(1)
    expect(() => readTrades(deep(30))).toThrow(/line 1: time an array is not/)
  })

  it('a line longer than any record is refused, or skipped whole with skipBad, in any chunking', () => {
    const long = `{"time":1780320600000,"price":1,"volume":1,"side":"b","pad":"${'x'.repeat(1_200_000)}"}`
    expect(() => readTrades(long)).toThrow(/line 1: longer than 1000000 characters/)
    const r = createTradeReader({ skipBad: true })
    const got = [...r.push(`${good}\n${long.slice(0, 700_000)}`).records]
    got.push(...r.push(long.slice(700_000, 1_100_000)).records)
    got.push(...r.push(`${long.slice(1_100_000)}\n${good}\n`).records, ...r.end().records)
    expect(got).toHaveLength(2)
    expect(r.stats).toMatchObject({ lines: 3, records: 2, bad: 1 })
  })
})
