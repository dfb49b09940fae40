import type { FootprintProfile } from '../../src/footprint/index.js'
import type { TpoProfile } from '../../src/tpo/index.js'

const T0 = Date.UTC(2026, 5, 1, 13, 30) // 09:30 New York
const M30 = 30 * 60_000

/** A hand-built TPO profile: four 30m blocks, six 0.25 rows; the numbers are set by hand, not computed. */
export function handTpo(): TpoProfile {
  return {
    time: Date.UTC(2026, 5, 1),
    end: Date.UTC(2026, 5, 2),
    blockSize: '30m',
    blocks: [T0, T0 + M30, T0 + 2 * M30, T0 + 3 * M30],
    rowSize: 1,
    rowSizeValue: '0.25',
    rows: [
      ['100.00', [2], '1', '0'],
      ['100.25', [0, 2], '2', '1'],
      ['100.50', [0, 1, 2, 3], '5', '3'],
      ['100.75', [3, 0, 1], '4', '4'],
      ['101.00', [1], '0', '2'],
      ['101.25', [1, 3], '1', '1'],
    ],
    poc: '100.50',
    volumePoc: '100.75',
    valueAreaHigh: '101.00',
    valueAreaLow: '100.00',
    volumeValueAreaHigh: '101.00',
    volumeValueAreaLow: '100.25',
    initialBalance: { high: '101.00', low: '100.25' },
    high: '101.25',
    low: '100.00',
    open: '100.50',
    close: '100.75',
    tpoCount: 13,
    tpoAbovePoc: 6,
    tpoBelowPoc: 3,
    singlePrints: ['101.00'],
    poorHigh: false,
    poorLow: false,
    excessHigh: 0,
    excessLow: 0,
    volumeBuy: '13',
    volumeSell: '11',
    tickSize: '0.25',
    openTime: T0,
    closeTime: T0 + 4 * M30 - 1,
    blockHighs: ['100.75', '101.25', '100.50', '101.25'],
    blockLows: ['100.25', '100.50', '100.00', '100.50'],
    valueAreaPercent: 70,
    initialBalancePeriod: '1h',
    initialBalanceStart: T0,
  }
}

/** A hand-built footprint profile: five 0.25 rows with one buy and one sell diagonal imbalance at 300%. */
export function handFootprint(): FootprintProfile {
  return {
    time: Date.UTC(2026, 5, 1, 14),
    end: Date.UTC(2026, 5, 1, 15),
    rowSize: 1,
    rowSizeValue: '0.25',
    tickSize: '0.25',
    rows: [
      ['99.75', '0', '4', 0, 2],
      ['100.00', '12', '3', 5, 1], // buy 12 >= 300% of sell 4 one row below
      ['100.25', '8', '40', 3, 9], // sell 40 >= 300% of buy 8 one row above
      ['100.50', '8', '5', 4, 2],
      ['100.75', '2', '1.5', 1, 1],
    ],
    high: '100.75',
    low: '99.75',
    volumeBuy: '30',
    volumeSell: '53.5',
    volume: '83.5',
    delta: '-23.5',
    tradesCountBuy: 13,
    tradesCountSell: 15,
    trades: 28,
    volumePoc: '100.25',
  }
}
