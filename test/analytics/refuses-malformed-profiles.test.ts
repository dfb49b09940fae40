import { describe, expect, it } from 'vitest'
import {
  balanceBrackets,
  balancedTarget,
  compositeVolumeProfile,
  openLocation,
  openType,
  profileShapeType,
  rangeExtension,
  repairs,
  rotationFactor,
  spike,
  valueAreaTrend,
  dayType,
  openRange,
  poorExtremes,
  profileAnalytics,
  singlePrintZones,
  valueMigration,
  volumeNodes,
} from '../../src/analytics/index.js'
import { MarketDataError } from '../../src/errors.js'
import { footprintProfiles } from '../../src/footprint/index.js'
import { candleDay, day, T } from './build.js'

const tpo = day([
  [100, 104],
  [101, 103],
  [102, 106],
])
const [fp] = footprintProfiles(
  [
    { time: T(10), price: 100, volume: 1, side: 'buy' },
    { time: T(10), price: 102, volume: 2, side: 'sell' },
  ],
  { timeframe: '1d', tickSize: 1 },
)

/** Every function that takes one profile, called on `p`. */
const ONE: [string, (p: never) => unknown][] = [
  ['volumeNodes', (p) => volumeNodes(p)],
  ['balancedTarget', (p) => balancedTarget(p)],
  ['poorExtremes', (p) => poorExtremes(p)],
  ['singlePrintZones', (p) => singlePrintZones(p)],
  ['dayType', (p) => dayType(p)],
  ['openRange', (p) => openRange(p)],
  ['valueMigration', (p) => valueMigration(p, tpo)],
  ['compositeVolumeProfile', (p) => compositeVolumeProfile([p])],
  ['profileAnalytics', (p) => profileAnalytics(p)],
  ['rotationFactor', (p) => rotationFactor(p)],
  ['openType', (p) => openType(p)],
  ['openLocation', (p) => openLocation(p, tpo)],
  ['rangeExtension', (p) => rangeExtension(p)],
  ['spike', (p) => spike(p)],
  ['profileShapeType', (p) => profileShapeType(p)],
  ['balanceBrackets', (p) => balanceBrackets([p])],
  ['repairs', (p) => repairs([p])],
  ['valueAreaTrend', (p) => valueAreaTrend([p])],
]

const TPO_ONLY = new Set([
  'openRange',
  'singlePrintZones',
  'dayType',
  'rotationFactor',
  'openType',
  'openLocation',
  'rangeExtension',
  'spike',
  'profileShapeType',
  'balanceBrackets',
  'repairs',
])

const BAD: [string, unknown, RegExp][] = [
  ['null', null, /is not a profile|options|profile/],
  ['a number', 5, /is not a profile/],
  ['TPO rows missing', { ...tpo, rows: undefined }, /rows: undefined must be a non-empty array/],
  ['TPO rows empty', { ...tpo, rows: [] }, /rows: an array must be a non-empty array/],
  [
    'a TPO row off the grid',
    { ...tpo, rows: [['100.5', [0], '1', '0'], ...tpo.rows.slice(1)] },
    /rows\[0\]\.price: "100.5" must be a decimal on the grid/,
  ],
  [
    'a skipped TPO row',
    { ...tpo, rows: [tpo.rows[0], ...tpo.rows.slice(2)] },
    /rows\[1\]\.price: "102" must be the next grid row/,
  ],
  [
    'a block index out of range',
    { ...tpo, rows: [['100', [7], '1', '0'], ...tpo.rows.slice(1)] },
    /rows\[0\]\.blockIndexes: 7 must be indexes into blocks/,
  ],
  [
    'a negative TPO volume',
    { ...tpo, rows: [['100', [0], '-1', '0'], ...tpo.rows.slice(1)] },
    /rows\[0\]\.volumeBuy: "-1" must be a decimal string >= 0/,
  ],
  ['a bad tickSize', { ...tpo, tickSize: '0' }, /tickSize: "0" must be a positive decimal string/],
  ['footprint rows not an array', { ...fp, rows: 'x' }, /rows: "x" must be an array of rows/],
  ['footprint row of the wrong shape', { ...fp, rows: [['100', '1']] }, /rows\[0\]/],
]

describe('every analytic refuses a malformed profile with a MarketDataError naming the function and the field', () => {
  for (const [fn, call] of ONE) {
    for (const [what, p, msg] of BAD) {
      it(`${fn}: ${what}`, () => {
        let thrown: unknown
        try {
          call(p as never)
        } catch (e) {
          thrown = e
        }
        expect(thrown).toBeInstanceOf(MarketDataError)
        const message = (thrown as Error).message
        expect(message).toContain(fn)
        // functions that need a TPO profile refuse a footprint as such, before reading its rows
        if (TPO_ONLY.has(fn) && what.startsWith('footprint')) expect(message).toMatch(/footprint profile/)
        else expect(message).toMatch(msg)
      })
    }
  }
})

describe('profileAnalytics', () => {
  it('gives null where the profile lacks what a rule needs', () => {
    expect(profileAnalytics(fp!)).toMatchObject({
      openRange: null,
      tpoNodes: null,
      dayType: null,
      singlePrintZones: null,
      valueMigration: null,
      daySession: null,
      rotationFactor: null,
      openType: null,
      openLocation: null,
      rangeExtension: null,
      profileShape: null,
      spike: null,
    })
    const c = profileAnalytics(
      candleDay([
        [100, 104],
        [101, 103],
      ]),
    )
    expect(c.volumeNodes).toBeNull()
    expect(c.tpoNodes).toEqual(
      volumeNodes(
        candleDay([
          [100, 104],
          [101, 103],
        ]),
        { source: 'tpo' },
      ),
    )
  })
  it('compares with the previous profile when given', () => {
    const next = day(
      [
        [110, 114],
        [111, 113],
      ],
      2,
    )
    expect(profileAnalytics(next, { previous: tpo }).valueMigration?.relation).toBe('higher')
    expect(() => profileAnalytics(next, { prev: tpo } as never)).toThrow(
      /options.prev is not an option of profileAnalytics/,
    )
  })
})

describe('a profile that throws when read', () => {
  const revoked = Proxy.revocable({}, {})
  revoked.revoke()
  const throwing = new Proxy(
    { ...tpo },
    {
      get: (t, k) =>
        k === 'initialBalance'
          ? (() => {
              throw new Error('boom')
            })()
          : Reflect.get(t, k),
    },
  )
  for (const [fn, call] of ONE) {
    it(`${fn}: a revoked Proxy is a MarketDataError naming ${fn}`, () => {
      expect(() => call(revoked.proxy as never)).toThrow(MarketDataError)
      expect(() => call(revoked.proxy as never)).toThrow(new RegExp(`^${fn}: `))
    })
  }
  it('a throwing getter read after the rows', () => {
    expect(() => dayType(throwing)).toThrow(
      /dayType: a profile or option could not be read \(reading it threw Error "boom"\)/,
    )
  })
})
