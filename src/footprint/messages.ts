import { PROFILE_MSG } from '../profile/row-limit.js'
import { describeValue } from '../_lib/describe.js'

// Error messages of src/footprint, in one place. Each names the argument or field and the rule.

export const FOOTPRINT_MSG = {
  optionsMissing: (fn: string) => `${fn}: options { timeframe, tickSize } are required`,
  tickSize: (x: unknown) => `tickSize: ${describeValue(x)} must be a decimal greater than 0`,
  rowSize: (x: unknown) => `rowSize: ${describeValue(x)} must be an integer >= 1 (rows are rowSize ticks high)`,
  rowSizeValue: (x: unknown) => `rowSizeValue: ${describeValue(x)} must be a decimal greater than 0`,
  rowAutoStream: (fn: string) =>
    `rowSize: 'auto' is for the batch functions (footprintProfiles, footprintProfilesAsync, footprintColumnsFromTrades), which see the whole result's price range; ${fn} cannot know it: give a number of ticks (rowSizeScale or autoRowSize pick one from past ranges)`,
  rowBoth: () => 'rowSize and rowSizeValue: give one of them, not both',
  rowTooLarge: (x: string) =>
    `rowSizeValue: ${x} is too large for the price grid (row height x 10^decimals must stay below 2^52)`,
  tickFrame: (id: string) =>
    `timeframe: tick frames (${id}) are not allowed for footprint profiles; use minute .. year frames`,
  sessions: (x: unknown) => `sessions: ${describeValue(x)} must be an array of MAINSESSION, PRE_MARKET, POST_MARKET`,
  range: (field: string, x: unknown) =>
    `${field}: ${describeValue(x)} must be a whole epoch-millisecond number within ±8.64e15 (the Date range)`,
  columnsLength: (field: string, n: number, m: number) =>
    `${field}: column length ${m} differs from time's length ${n} (columns must have equal length)`,
  notTrades: () =>
    'trades: expected TradeColumns ({ time, price, volume, side: typed arrays }) or an iterable of Trade objects',
  notTrade: () => 'trade: expected an object { time, price, volume, side }',
  time: (x: unknown) => `time: ${describeValue(x)} is not a finite epoch-millisecond number`,
  side: (x: unknown) => `side: ${describeValue(x)} must be 'buy' or 'sell' (columns: 1 = buy, 2 = sell)`,
  session: (x: unknown) =>
    `session: ${describeValue(x)} must be MAINSESSION, PRE_MARKET or POST_MARKET (columns: 0, 1, 2)`,
  priceRow: PROFILE_MSG.priceRow,
  negativeVolume: (x: unknown) => `volume: ${describeValue(x)} must not be negative`,
  late: (t: number, end: number, watermark: number) =>
    `time: ${t} falls in the bucket ending at ${end}, already closed by advance(${watermark}) (late trade)`,
  advance: (x: unknown) =>
    `advance: time ${describeValue(x)} must be an integer number of UTC epoch milliseconds within ±8.64e15, or Infinity (closes every bucket)`,
  mergeBucket: (a: number, b: number) =>
    `mergeFootprintProfiles: profiles of different buckets (time ${a} vs ${b}) cannot be merged`,
  mergeEnd: (a: number, b: number) =>
    `mergeFootprintProfiles: profiles with different bucket ends (${a} vs ${b}) cannot be merged`,
  grid: (fn: string, a: string, b: string) =>
    `${fn}: different price grids (rowSizeValue ${a} vs ${b}); re-grid to a common row size first`,
  tick: (fn: string, a: string, b: string) => `${fn}: different tick sizes (${a} vs ${b})`,
  notProfile: (fn: string) => `${fn}: expected a FootprintProfile`,
  regridMultiple: (want: string, have: string) =>
    `regridFootprint: rowSizeValue ${want} must be a whole multiple of the profile's rowSizeValue ${have}`,
  resampleNest: (time: number, end: number, id: string) =>
    `resampleFootprint: the profile [${time}, ${end}) does not lie in one ${id} bucket (every fine bucket must nest in one coarse bucket)`,
  ratio: (x: unknown) => `ratio: ${describeValue(x)} must be a decimal percentage greater than 0 (300 means 300%)`,
  minVolume: (x: unknown) => `minVolume: ${describeValue(x)} must be a decimal >= 0`,
  stackedRows: (x: unknown) => `stackedRows: ${describeValue(x)} must be an integer >= 2`,
  typicalRange: (x: unknown) => `typicalRange: ${describeValue(x)} must be a decimal >= 0`,
  ranges: () => 'ranges: must be an array of decimals >= 0 (the high - low of recent buckets)',
  rowsOption: (field: string, x: unknown) => `${field}: ${describeValue(x)} must be an integer >= 1`,
  maxRowSize: (x: unknown) => `maxRowSize: ${describeValue(x)} must be an integer >= 1`,
  analyticsOption: (x: unknown) =>
    `analytics: ${describeValue(x)} must be true, false or an options object { ratio?, minVolume?, stackedRows? }`,
  analyticsArgument: (x: unknown) =>
    `footprintAnalytics: options ${describeValue(x)} must be an object { ratio?, minVolume?, stackedRows? } or omitted`,
  profileAnalytics: (fn: string, who: string, x: unknown) =>
    `${fn}: ${who}.analytics: ${describeValue(x)} must be absent or the analytics object of a profile ({ ratio, minVolume, stackedRows, ... })`,
  notProfileAt: (fn: string, who: string, x: unknown) =>
    `${fn}: ${who}: ${describeValue(x)} is not a FootprintProfile (expected an object)`,
  profileField: (fn: string, who: string, field: string, x: unknown, rule: string) =>
    `${fn}: ${who}.${field}: ${describeValue(x)} ${rule}`,
  rowShape: (fn: string, who: string, i: number, x: unknown) =>
    `${fn}: ${who}.rows[${i}]: ${describeValue(x)} must be an array [price, volumeBuy, volumeSell, tradesCountBuy, tradesCountSell]`,
  rowOffGrid: (fn: string, who: string, i: number, x: string, rsv: string) =>
    `${fn}: ${who}.rows[${i}].price: ${describeValue(x)} is not on the grid of rowSizeValue ${rsv}`,
  rowFar: (fn: string, who: string, i: number, x: string, rsv: string) =>
    `${fn}: ${who}.rows[${i}].price: ${describeValue(x)} is too far from 0 for rowSizeValue ${rsv} (the row index price / rowSizeValue must stay within ±(2^53 - 1))`,
  rowOrder: (fn: string, who: string, i: number) =>
    `${fn}: ${who}.rows[${i}].price: rows must be in strictly ascending price`,
  regridOptions: (x: unknown) =>
    `regridFootprint: options ${describeValue(x)} must be an object { rowSize } or { rowSizeValue }`,
  inexact: (field: string, text: string, time: number) =>
    `${field}: the exact sum ${text} of the profile at ${time} has more significant digits than a double carries; footprintProfiles returns it as a decimal string`,
  countSum: (field: string) => `${field}: the summed trade count passes 2^53 - 1 and cannot be held exactly`,
} as const
