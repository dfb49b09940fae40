// Messages of the rules folder, in one place. Interface B messages read `<parameter>: <rule>`; interface A
// messages read `<field path>: <rule>`; programming errors name the argument. User text is quoted and cut.
import { describeValue } from '../_lib/describe.js'

const QUOTE_MAX = 40

/** Quotes a user-supplied string for a message, cut to a readable length. */
export function quote(s: string): string {
  return JSON.stringify(s.length > QUOTE_MAX ? `${s.slice(0, QUOTE_MAX)}...` : s)
}

const SESSIONS = 'MAINSESSION, PRE_MARKET, POST_MARKET'

/** Rules of interface B query parameters: the text after `<parameter>: `. */
export const PARAM_MSG = {
  required: () => 'is required',
  empty: () => 'must not be empty',
  notString: () => 'must be a string',
  repeated: () => 'given more than once',
  tooLong: (max: number) => `at most ${max} characters`,
  badEndpoint: (endpoint: unknown) => `${describeValue(endpoint)} is not one of candles, footprint, tpo`,
  badTimeframe: (v: string) => `${quote(v)} is not a supported timeframe id (GET /timeframes lists them)`,
  footprintFrame: (id: string) => `footprint accepts minute to month frames, not ${id}`,
  tpoFrame: (id: string) => `TPO accepts only day, week and month frames, not ${id}`,
  tickOnly: (id: string) => `not accepted with tick timeframe ${id}: tick timeframes accept only limit and sessionType`,
  badTime: (v: string) => `${quote(v)} is neither Unix seconds (digits) nor an RFC3339 date-time with Z or an offset`,
  unixTooLarge: (max: number) => `Unix seconds must be at most ${max} (year 9999)`,
  beforeEpoch: () => 'must not be before 1970-01-01T00:00:00Z',
  afterYear9999: () => 'must not be after 10000-01-01T00:00:00Z',
  toNotAfterFrom: () => 'must be greater than from',
  badPeriod: (v: string) => `must be a whole number of seconds (digits only, e.g. 3600), not ${quote(v)}`,
  periodTooLarge: (max: number) => `must be at most ${max} seconds`,
  periodZero: () => 'must be at least 1 second',
  periodWithBoth: () => 'cannot be combined with both from and to (give at most two of from, to, period)',
  badLimit: (max: number) => `must be an integer 1..${max} (digits only)`,
  limitTooLarge: (max: number) => `must be at most ${max}`,
  limitZero: () => 'must be at least 1',
  sessionEmpty: () => `empty value (give ${SESSIONS})`,
  badSession: (item: string) => `${quote(item)} is not one of ${SESSIONS}`,
  badRowSize: (max: number) => `must be an integer number of ticks 1..${max} (digits only)`,
  rowSizeTooLarge: (max: number) => `must be at most ${max} ticks`,
  rowSizeZero: () => 'must be at least 1 tick',
  rowSizeBoth: () => 'cannot be combined with rowSize (give one of them)',
  badDecimal: (v: string) => `${quote(v)} is not a decimal number`,
  notPositive: () => 'must be greater than 0',
  rowSizeValueTooLarge: (scale: number) =>
    `too large for any price grid: its units at ${scale} decimals must stay below 2^52`,
  rowSizeValueBelowTick: (tick: string) =>
    `must be at least the tick size ${tick} (a finer row puts prices the tick grid holds past the row index limit, price / rowSizeValue within ±(2^53 - 1))`,
  rowSizeValueGrid: (v: string, tick: string, decimals: number) =>
    `${quote(v)} is too large for the price grid of tick size ${tick}: its units at the grid's ${decimals} decimals must stay below 2^52`,
  rowSizeGrid: (k: number, tick: string, decimals: number) =>
    `${k} ticks of ${tick} are too high for the price grid: the row height's units at ${decimals} decimals must stay below 2^52`,
  badBlockSize: (v: string) => `must be a minute or hour timeframe id such as 30m or 1h, not ${quote(v)}`,
  badMergeSessions: (v: string) => `must be one of true, MERGE_ALL, false, GROUP_BY_TYPE, not ${quote(v)}`,
} as const

/** Whole interface B messages that are not `<parameter>: <rule>` of one value. */
export const QUERY_MSG = {
  unknown: (name: string, endpoint: string) => `unknown query parameter ${quote(name)} for /${endpoint}`,
  otherEndpoint: (name: string, endpoint: string, only: string) =>
    `${name}: not accepted by /${endpoint} (only ${only} takes it)`,
  notQuery: () => 'query: must be URLSearchParams or a record of parameter name to string or string[]',
  unreadable: (name: string) =>
    `${/^[a-z_]{1,40}$/.test(name) ? name : quote(name)}: could not be read (a getter, Proxy trap or iterator threw); pass URLSearchParams or plain strings`,
} as const

/** Interface A field messages (`<path>: <rule>`). */
export const FIELD_MSG = {
  bodyNotObject: () => 'the request body must be a JSON object',
  pathNotString: () => "path: parseSecurityId's path (the field name its messages start with) must be a string",
  unreadable: (path: string) => `${path}: could not be read (a getter or Proxy trap threw); send plain JSON values`,
  required: (path: string) => `${path}: is required`,
  notString: (path: string) => `${path}: must be a string`,
  empty: (path: string) => `${path}: must not be empty`,
  tooLong: (path: string, max: number) => `${path}: at most ${max} characters`,
  unknownFields: (where: string, list: string, plural: boolean) =>
    `${where}: unknown field${plural ? 's' : ''} ${list}`,
  securityIdNotObject: (path: string) => `${path}: must be an object with guid or ticker_code`,
  securityIdOneOf: (path: string) => `${path}: give exactly one of guid or ticker_code`,
  tickerCodeNotObject: (path: string) => `${path}: must be an object with ticker and exchange_code`,
  timeFrameNotObject: () => 'time_frame: must be an object with time_unit and count',
  badTimeUnit: (v: unknown) =>
    `time_frame.time_unit: must be one of MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER, YEAR, not ${describeValue(v)}`,
  badTimeFrameCount: (max: number, v: unknown) =>
    `time_frame.count: must be an integer 1..${max}, not ${describeValue(v)}`,
  rangeNotObject: () => 'range: must be an object with first_bound_time and one of second_bound_time, duration, count',
  rangeForms: (given: number) =>
    `range: give exactly one of second_bound_time, duration, count (${given === 0 ? 'none' : given} given)`,
  equalBounds: () => 'range.second_bound_time: must differ from first_bound_time',
  durationNotString: (v: unknown) =>
    `range.duration: must be an ISO 8601 duration string such as PT4H, not ${describeValue(v)}`,
  badDuration: (v: string) =>
    `range.duration: ${quote(v)} is not a positive ISO 8601 duration such as PT4H, P1D or P1W`,
  durationTooLong: () => 'range.duration: the range must end by 10000-01-01T00:00:00Z',
  durationNotPositive: () => 'range.duration: must be positive',
  badCount: (v: unknown) => `range.count: must be an integer within int32, not ${describeValue(v)}`,
  countZero: () => 'range.count: must not be 0 (negative reads candles before first_bound_time)',
  dateTimeNotString: (path: string, v: unknown) =>
    `${path}: must be an ISO 8601 date-time string with Z or an offset, not ${describeValue(v)}`,
  badDateTime: (path: string, v: string) => `${path}: ${quote(v)} is not an ISO 8601 date-time with Z or an offset`,
  dateTimeBeforeEpoch: (path: string) => `${path}: must not be before 1970-01-01T00:00:00Z`,
  dateTimeAfter9999: (path: string) => `${path}: must be before 10000-01-01T00:00:00Z`,
  notArrayOf: (path: string, names: readonly string[]) => `${path}: must be an array of ${names.join(', ')}`,
  badEnumItem: (path: string, i: number, names: readonly string[], v: unknown) =>
    `${path}[${i}]: must be one of ${names.join(', ')}, not ${describeValue(v)}`,
} as const

/** Programming errors (thrown as MarketDataError `invalid_option`). */
export const OPTION_MSG = {
  badNow: () => 'ctx.now: must be a finite number (UTC epoch ms)',
  badTimeZone: () => 'ctx.timeZone: must be a valid IANA time zone',
  badTickSize: () =>
    "ctx.tickSize: must be the security's tick size, a positive decimal whose units stay below 2^52 (e.g. '0.25')",
  badDefaultBlock: () => 'blockSize: the default 30m is not a timeframe (time module)',
  noDepth: (id: string) => `timeframe: footprint has no history depth for ${id}`,
  badNewest: () => 'newestCandleTime: must be a finite number (UTC epoch ms)',
  badEndpoint: (endpoint: unknown) => `endpoint: ${describeValue(endpoint)} is not a REST endpoint name`,
  badCount: (field: string) => `returned.${field}: must be a non-negative integer`,
  notProfiles: () => 'profiles: must be an iterable of TPO profiles (objects with a time)',
  profileTime: (i: number) => `profiles[${i}].time: must be a finite number (the period's start, epoch ms)`,
  foreignCount: (field: string, endpoint: string, expected: string | undefined) =>
    `returned.${field}: not a count of ${endpoint} (give ${expected ?? 'no count'})`,
  badStatus: () => 'returned.status: must be an HTTP status code',
} as const
