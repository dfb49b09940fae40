import { PROFILE_MSG } from '../profile/row-limit.js'
import { describeValue } from '../_lib/describe.js'
// Error messages of src/tpo, in one place. Each names the option or field and the rule.

export const TPO_MSG = {
  options: (x: unknown) => `options: ${describeValue(x)} is not an options object {timeframe, tickSize, ...}`,
  periodUnit: (id: string) =>
    `timeframe: ${describeValue(id)} is not a TPO period: expected a day, week or month frame (1d, 1w, 1M, ...)`,
  blockUnit: (id: string) =>
    `blockSize: ${describeValue(id)} is not a block size: expected a minute or hour frame (5m, 30m, 1h, ...)`,
  tickSize: (x: unknown) => `tickSize: ${describeValue(x)} is not a positive decimal`,
  rowSize: (x: unknown) => `rowSize: ${describeValue(x)} is not an integer >= 1 (row height in ticks)`,
  tickSource: (id: string) =>
    `sourceTimeframe: ${id} is a tick frame; candles for TPO blocks need a time frame (MINUTE..YEAR), or leave sourceTimeframe out`,
  rowBoth: () => 'rowSize and rowSizeValue: give one of them, not both',
  rowSizeValue: (x: unknown) => `rowSizeValue: ${describeValue(x)} must be a decimal greater than 0`,
  rowSizeValueOffTick: (x: string, tick: string) =>
    `rowSizeValue: ${x} is not a whole multiple of tickSize ${tick}; TPO rows are whole ticks high`,
  rowTooLarge: (x: string) =>
    `rowSize: the row height ${x} is too large (its units at the grid's decimals must stay below 2^52)`,
  mergeSessions: (x: unknown) => `mergeSessions: ${describeValue(x)} is not 'MERGE_ALL' or 'GROUP_BY_TYPE'`,
  initialBalance: (why: string) => `initialBalance: ${why}`,
  sessions: (x: unknown) =>
    `sessions: ${describeValue(x)} is not a list of session types ('MAINSESSION', 'PRE_MARKET', 'POST_MARKET')`,
  time: (x: unknown) =>
    `time: ${describeValue(x)} is not a valid time: expected an integer number of UTC epoch milliseconds within ±8.64e15`,
  price: (x: unknown, why: string) => `price: ${describeValue(x)} is not a finite decimal (${why})`,
  priceRow: PROFILE_MSG.priceRow,
  volume: (x: unknown) => `volume: ${describeValue(x)} is not valid: a volume must be a finite decimal >= 0`,
  sideCode: (x: unknown) => `side: ${describeValue(x)} is not a side code: expected 1 (buy) or 2 (sell)`,
  sessionCode: (x: unknown) =>
    `session: ${describeValue(x)} is not a session code: expected 0 (MAINSESSION), 1 (PRE_MARKET) or 2 (POST_MARKET)`,
  late: (t: number, end: number) =>
    `time: ${t} falls in a period that was already closed (it ended at ${end}); trades of a closed period are late`,
  tooManyRows: (n: number) =>
    `rowSize: a profile would span ${n} rows (more than 1,000,000); use a larger rowSize or check the prices`,
  tooManyRowsInAll: (n: number) =>
    `rowSize: the profiles of this call would hold ${n} rows in all (more than 4,000,000; every row from a profile's low to its high is output); use a larger rowSize, fewer periods per call, or check the prices`,
  advance: (x: unknown) =>
    `time: ${describeValue(x)} is not a valid advance time: expected an integer number of UTC epoch milliseconds within ±8.64e15, or Infinity (closes every period)`,
  noProfiles: () => 'profiles: expected at least one profile',
  gridMismatch: (what: string, a: string, b: string) =>
    `profiles: ${what} differs (${a} vs ${b}); only profiles on the same grid and blocks can be merged`,
  incompatible: (what: string, a: string, b: string) =>
    `profiles: ${what} differs (${a} vs ${b}); merged profiles must use the same settings`,
  candle: (field: string, x: unknown, why: string) => `${field}: ${describeValue(x)} ${why}`,
  candleOrder: () => 'low/high: a candle needs low <= open, close <= high',
  notFloat: (field: string, x: unknown) =>
    `${field}: ${describeValue(x)} cannot be held exactly as a double (more significant digits than a double keeps; at most 15 are always safe)`,
  mixedVolumes: () =>
    "profiles: one profile comes from trades and one from candles (rowVolumes: 'unknown', no per-row volumes); merge or composite profiles of one kind (all from tpoProfiles, or all from tpoFromCandles)",
  notProfile: (field: string) => `profile: ${field} is missing or malformed`,
} as const
