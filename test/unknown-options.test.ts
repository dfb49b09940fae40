// Options objects are closed: every public function with an options object refuses a key it does not
// know (invalid_option, field = the key), suggests the known key a near miss resembles, and accepts every
// key it knows. The known keys are written out here, apart from the library's lists, so a key dropped
// from a list (or one that was never added) fails.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as core from '../src/index.js'
import * as renderEntry from '../src/render/index.js'
import * as sampleEntry from '../src/sample/index.js'
import * as service from '../src/service/index.js'
import * as testing from '../src/testing/index.js'
import { editDistance, suggestKey } from '../src/_lib/closed-options.js'

// every entry's functions in one namespace (the option rules do not depend on the entry)
const lib = { ...core, ...service, ...renderEntry, ...sampleEntry }

const T = Date.UTC(2026, 5, 1, 14)
const trades: core.Trade[] = [
  { time: T, price: '5000.25', volume: '2', side: 'buy' },
  { time: T + 60_000, price: '5001.00', volume: '1', side: 'sell' },
]
const candle = { time: T, open: '1', high: '2', low: '1', close: '2', volume: '3' }
const emptyCandleColumns = (): core.CandleColumns => ({
  time: new Float64Array(0),
  open: new Float64Array(0),
  high: new Float64Array(0),
  low: new Float64Array(0),
  close: new Float64Array(0),
  volume: new Float64Array(0),
})
const emptyTradeColumns = (): core.TradeColumns => ({
  time: new Float64Array(0),
  price: new Float64Array(0),
  volume: new Float64Array(0),
  side: new Uint8Array(0),
})
const footprint = lib.footprintProfiles(trades, { timeframe: '1h', tickSize: '0.25' })[0] as core.FootprintProfile
const tpo = lib.tpoProfiles(trades, { timeframe: '1d', tickSize: '0.25' })[0] as core.TpoProfile
const query = lib.parseHistoryQuery(
  'footprint',
  { exchange: 'X', symbol: 'S', timeframe: '1m', from: '1780000000', period: '3600' },
  { now: 1_790_000_000_000 },
)
if (!query.ok) throw new Error('fixture query')
const TF = lib.resolveTimeframe('1h')

type O = Record<string, unknown>
interface Entry {
  name: string
  base: O
  known: readonly string[]
  call: (opts: O) => unknown
}

const CANDLE = ['timeframe', 'timeZone', 'sessions', 'tickSize']
const FOOTPRINT = [
  'timeframe',
  'tickSize',
  'rowSize',
  'rowSizeValue',
  'timeZone',
  'sessions',
  'from',
  'to',
  'analytics',
]
const TPO = [
  'timeframe',
  'tickSize',
  'blockSize',
  'rowSize',
  'rowSizeValue',
  'mergeSessions',
  'valueAreaPercent',
  'initialBalance',
  'timeZone',
  'sessions',
]
const STREAMING = ['restore', 'maxTime']
const SAMPLE = [
  'seed',
  'start',
  'days',
  'tradesPerDay',
  'tickSize',
  'startPrice',
  'volumeDecimals',
  'timeZone',
  'dayKinds',
]
const TRADES_ARB = [
  'tickSize',
  'offGrid',
  'start',
  'maxGapMs',
  'minLength',
  'maxLength',
  'sessions',
  'negativePrices',
  'numbers',
]
const tiny = { days: 1, tradesPerDay: 10 }

const ENTRIES: Entry[] = [
  {
    name: 'candlesFromTrades',
    base: { timeframe: '1m' },
    known: CANDLE,
    call: (o) => lib.candlesFromTrades(trades, o as never),
  },
  {
    name: 'resampleCandles',
    base: { timeframe: '1h' },
    known: [...CANDLE, 'sourceTimeframe'],
    call: (o) => lib.resampleCandles([candle], o as never),
  },
  {
    name: 'resampleCandleColumns',
    base: { timeframe: '1h' },
    known: [...CANDLE, 'sourceTimeframe'],
    call: (o) => lib.resampleCandleColumns(emptyCandleColumns(), o as never),
  },
  {
    name: 'candleColumnsFromTrades',
    base: { timeframe: '1m' },
    known: [...CANDLE, 'valueText'],
    call: (o) => lib.candleColumnsFromTrades(emptyTradeColumns(), o as never),
  },
  {
    name: 'createCandleAggregator',
    base: { timeframe: '1m' },
    known: [...CANDLE, 'sourceTimeframe', 'onCandle', ...STREAMING],
    call: (o) => lib.createCandleAggregator(o as never),
  },
  { name: 'toPartnerCandle', base: {}, known: ['properties'], call: (o) => lib.toPartnerCandle(candle, o as never) },
  {
    name: 'toPartnerCandles',
    base: {},
    known: ['properties', 'session_types'],
    call: (o) => lib.toPartnerCandles([candle], o as never),
  },
  {
    name: 'footprintProfiles',
    base: { timeframe: '1h', tickSize: '0.25' },
    known: FOOTPRINT,
    call: (o) => lib.footprintProfiles(trades, o as never),
  },
  {
    name: 'footprintColumnsFromTrades',
    base: { timeframe: '1h', tickSize: '0.25' },
    known: FOOTPRINT.filter((k) => k !== 'analytics'),
    call: (o) => lib.footprintColumnsFromTrades(trades, o as never),
  },
  {
    name: 'footprintProfiles analytics',
    base: {},
    known: ['ratio', 'minVolume', 'stackedRows'],
    call: (o) => lib.footprintProfiles(trades, { timeframe: '1h', tickSize: '0.25', analytics: o }),
  },
  {
    name: 'createFootprintAggregator',
    base: { timeframe: '1h', tickSize: '0.25' },
    known: [...FOOTPRINT, ...STREAMING],
    call: (o) => lib.createFootprintAggregator(o as never),
  },
  {
    name: 'regridFootprint',
    base: { rowSize: 2 },
    known: ['rowSize', 'rowSizeValue'],
    call: (o) => lib.regridFootprint(footprint, o as never),
  },
  {
    name: 'resampleFootprint',
    base: { timeframe: '1d' },
    known: ['timeframe', 'timeZone'],
    call: (o) => lib.resampleFootprint([footprint], o as never),
  },
  {
    name: 'rowSizeScale',
    base: { tickSize: '0.25' },
    known: ['tickSize', 'typicalRange', 'ranges', 'targetRows', 'minRows', 'maxRows', 'maxRowSize'],
    call: (o) => lib.rowSizeScale(o as never),
  },
  {
    name: 'footprintAnalytics',
    base: {},
    known: ['ratio', 'minVolume', 'stackedRows'],
    call: (o) => lib.footprintAnalytics(footprint, o as never),
  },
  {
    name: 'tpoProfiles',
    base: { timeframe: '1d', tickSize: '0.25' },
    known: TPO,
    call: (o) => lib.tpoProfiles(trades, o as never),
  },
  {
    name: 'createTpoAggregator',
    base: { timeframe: '1d', tickSize: '0.25' },
    known: [...TPO, ...STREAMING],
    call: (o) => lib.createTpoAggregator(o as never),
  },
  {
    name: 'tpoFromCandles',
    base: { timeframe: '1d', tickSize: '0.25' },
    known: [...TPO, 'sourceTimeframe'],
    call: (o) => lib.tpoFromCandles([candle], o as never),
  },
  { name: 'renderTpo', base: {}, known: ['timeZone'], call: (o) => lib.renderTpo(tpo, o as never) },
  { name: 'renderTpoSvg', base: {}, known: ['timeZone'], call: (o) => lib.renderTpoSvg(tpo, o as never) },
  {
    name: 'renderFootprint',
    base: {},
    known: ['imbalanceRatio', 'minVolume', 'timeZone'],
    call: (o) => lib.renderFootprint(footprint, o as never),
  },
  {
    name: 'renderFootprintSvg',
    base: {},
    known: ['imbalanceRatio', 'minVolume', 'timeZone'],
    call: (o) => lib.renderFootprintSvg(footprint, o as never),
  },
  { name: 'bucketStart', base: {}, known: ['timeZone'], call: (o) => lib.bucketStart(T, TF, o as never) },
  { name: 'bucketEnd', base: {}, known: ['timeZone'], call: (o) => lib.bucketEnd(T, TF, o as never) },
  { name: 'createBucketer', base: {}, known: ['timeZone'], call: (o) => lib.createBucketer(TF, o as never) },
  {
    name: 'addIsoDuration',
    base: {},
    known: ['timeZone', 'sign'],
    call: (o) =>
      lib.addIsoDuration(
        T,
        { years: 0, months: 0, weeks: 0, days: 1, hours: 0, minutes: 0, seconds: 0 } as never,
        o as never,
      ),
  },
  {
    name: 'parseHistoryQuery',
    base: { now: T },
    known: ['now', 'timeZone'],
    call: (o) => lib.parseHistoryQuery('candles', { exchange: 'X', symbol: 'S', timeframe: '1m' }, o as never),
  },
  { name: 'checkCap', base: {}, known: ['timeZone'], call: (o) => lib.checkCap(query.value, o as never) },
  {
    name: 'trimToDepth',
    base: { newestCandleTime: T },
    known: ['newestCandleTime'],
    call: (o) => lib.trimToDepth(query.value, o as never),
  },
  { name: 'createRestLedger', base: {}, known: ['state'], call: (o) => lib.createRestLedger(o as never) },
  { name: 'createStreamLedger', base: {}, known: ['state'], call: (o) => lib.createStreamLedger(o as never) },
  { name: 'tokenValidity', base: {}, known: ['refreshLifetimeMs'], call: (o) => lib.tokenValidity(T, o as never) },
  { name: 'sampleTrades', base: tiny, known: SAMPLE, call: (o) => lib.sampleTrades(o as never) },
  { name: 'sampleTradeObjects', base: tiny, known: SAMPLE, call: (o) => lib.sampleTradeObjects(o as never) },
  {
    name: 'sampleTradeBatches',
    base: tiny,
    known: [...SAMPLE, 'batchSize', 'reuse'],
    call: (o) => lib.sampleTradeBatches(o as never).next(),
  },
  { name: 'timeframeArb', base: {}, known: ['units', 'maxCount'], call: (o) => testing.timeframeArb(o as never) },
  { name: 'tradesArb', base: {}, known: TRADES_ARB, call: (o) => testing.tradesArb(o as never) },
  { name: 'tradeColumnsArb', base: {}, known: TRADES_ARB, call: (o) => testing.tradeColumnsArb(o as never) },
  {
    name: 'candleSeriesArb',
    base: {},
    known: ['timeframe', 'timeZone', 'start', 'maxGapBuckets', 'maxLength', 'tickSize', 'sessions'],
    call: (o) => testing.candleSeriesArb(o as never),
  },
  // added with the charts, OpenAPI and market-sample work: the same closed-options rule
  {
    name: 'renderFootprintChart',
    base: {},
    known: [
      'cells',
      'stackedRows',
      'valueAreaPercent',
      'candles',
      'cellMode',
      'maxWidth',
      'maxHeight',
      'imbalanceRatio',
      'minVolume',
      'timeZone',
    ],
    call: (o) => lib.renderFootprintChart([footprint], o as never),
  },
  {
    name: 'renderTpoChart',
    base: {},
    known: ['timeZone', 'style', 'annotations', 'maxHeight'],
    call: (o) => lib.renderTpoChart([tpo], o as never),
  },
  {
    name: 'autoRowSize',
    base: { tickSize: '0.25', range: '10' },
    known: ['tickSize', 'range', 'ranges', 'candles', 'minRows', 'maxRows'],
    call: (o) => lib.autoRowSize(o as never),
  },
  { name: 'regridTpo', base: { rowSize: 2 }, known: ['rowSize'], call: (o) => lib.regridTpo(tpo, o as never) },
  {
    name: 'footprintValueArea',
    base: {},
    known: ['valueAreaPercent'],
    call: (o) => lib.footprintValueArea(footprint, o as never),
  },
  {
    name: 'openApiDocument',
    base: {},
    known: ['restServerUrl', 'partnerServerUrl', 'version'],
    call: (o) => lib.openApiDocument(o as never),
  },
  {
    name: 'sampleMarketTrades',
    base: { trades: 10 },
    known: ['seed', 'trades', 'start'],
    call: (o) => lib.sampleMarketTrades('thin-altcoin', o as never),
  },
]

/** What a call threw (undefined when it returned). */
function thrown(f: () => unknown): unknown {
  try {
    f()
  } catch (e) {
    return e
  }
  return undefined
}

/** A plain Levenshtein distance (case-insensitive), apart from the library's, to pick unambiguous near misses. */
function lev(a: string, b: string): number {
  const x = a.toLowerCase()
  const y = b.toLowerCase()
  const d = Array.from({ length: x.length + 1 }, (_, i) => [i, ...new Array<number>(y.length).fill(0)])
  for (let j = 1; j <= y.length; j++) (d[0] as number[])[j] = j
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const row = d[i] as number[]
      const up = d[i - 1] as number[]
      row[j] = Math.min(
        (up[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (up[j - 1] as number) + (x[i - 1] === y[j - 1] ? 0 : 1),
      )
    }
  }
  return (d[x.length] as number[])[y.length] as number
}

describe('every options object is closed', () => {
  it('the table covers the functions it names (each call with its base options works)', () => {
    for (const e of ENTRIES)
      expect(
        thrown(() => e.call({ ...e.base })),
        e.name,
      ).toBeUndefined()
  })

  for (const e of ENTRIES) {
    it(`${e.name}: a random unknown key is refused naming it`, () => {
      const unknownKey = fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !e.known.includes(k))
      fc.assert(
        fc.property(unknownKey, (key) => {
          const err = thrown(() => e.call({ ...e.base, [key]: 1 }))
          expect(err).toBeInstanceOf(core.MarketDataError)
          expect(err).toMatchObject({ code: 'invalid_option', field: key })
          expect((err as Error).message).toContain('unknown option')
        }),
        { numRuns: 25 },
      )
    })

    it(`${e.name}: a near miss of one known key gets "did you mean"`, () => {
      const candidates = e.known.filter((k) => k.length >= 5)
      if (candidates.length === 0) return
      const miss = fc
        .tuple(fc.constantFrom(...candidates), fc.nat(), fc.constantFrom('drop', 'double', 'swap', 'case'))
        .map(([k, at, how]) => {
          const i = at % (k.length - 1)
          const typo =
            how === 'drop'
              ? k.slice(0, i) + k.slice(i + 1)
              : how === 'double'
                ? k.slice(0, i + 1) + k.slice(i)
                : how === 'swap'
                  ? k.slice(0, i) + k.charAt(i + 1) + k.charAt(i) + k.slice(i + 2)
                  : k.toLowerCase() === k
                    ? k.toUpperCase()
                    : k.toLowerCase()
          return { k, typo }
        })
        // unambiguous: no other known key as close as the intended one
        .filter(
          ({ k, typo }) => !e.known.includes(typo) && e.known.every((o) => o === k || lev(typo, o) > lev(typo, k)),
        )
      fc.assert(
        fc.property(miss, ({ k, typo }) => {
          const err = thrown(() => e.call({ ...e.base, [typo]: 1 }))
          expect(err).toMatchObject({ code: 'invalid_option', field: typo })
          expect((err as Error).message).toContain(`did you mean ${k}?`)
        }),
        { numRuns: 20 },
      )
    })

    it(`${e.name}: every known key is accepted as a key`, () => {
      for (const k of e.known) {
        const err = thrown(() => e.call({ ...e.base, [k]: undefined }))
        // a required key set to undefined may be refused for its value, never as unknown
        if (err !== undefined) expect((err as Error).message, `${e.name}.${k}`).not.toContain('unknown option')
      }
    })
  }
})

describe('suggestions', () => {
  it('examples: rowSizze -> rowSize, timezone -> timeZone, tz nothing, a tie nothing', () => {
    expect(suggestKey('rowSizze', ['rowSize', 'tickSize'])).toBe('rowSize')
    expect(suggestKey('timezone', ['timeZone', 'timeframe'])).toBe('timeZone')
    expect(suggestKey('tz', ['timeZone'])).toBeUndefined()
    expect(suggestKey('minRow', ['minRows', 'maxRows'])).toBe('minRows')
    expect(suggestKey('mxRows', ['minRows', 'maxRows'])).toBe('maxRows')
    expect(suggestKey('m_Rows', ['minRows', 'maxRows'])).toBeUndefined()
    expect(
      thrown(() => lib.tpoProfiles(trades, { timeframe: '1d', tickSize: '0.25', rowSizze: 2 } as never)),
    ).toMatchObject({
      code: 'invalid_option',
      field: 'rowSizze',
      message: expect.stringContaining('did you mean rowSize?'),
    })
  })

  it('the edit distance counts a swap of neighbours as one edit and ignores case', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }), (a, b) => {
        const d = editDistance(a, b)
        expect(d).toBe(editDistance(b, a))
        expect(d).toBeLessThanOrEqual(lev(a, b))
        expect(d).toBeGreaterThanOrEqual(Math.abs(a.length - b.length))
        expect(d === 0).toBe(a.toLowerCase() === b.toLowerCase())
      }),
    )
    expect(editDistance('rowSize', 'rwoSize')).toBe(1)
  })

  it('a keys object that cannot be read is refused as options, not a TypeError', () => {
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    expect(thrown(() => lib.candlesFromTrades(trades, proxy as never))).toMatchObject({
      code: 'invalid_option',
      field: 'options',
    })
  })
})
