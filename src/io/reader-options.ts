// The options of the trade and candle text readers, checked once when a reader is made.
import { describeValue } from '../_lib/describe.js'
import { checkOptions } from '../_lib/closed-options.js'
import { MarketDataError } from '../errors.js'
import { isValidTimeZone } from '../time/zone.js'
import { EPOCH_UNITS, type EpochUnit, type TimeFormat } from './time-input.js'

/**
 * Where the aggressor side of a trade comes from: `column` (default) a side column the file must have;
 * `tick` the tick rule (a price above the previous one is a buy, below a sell, equal the previous trade's
 * side; trades before the first change are buys): an estimate, any side column ignored; `optional` the side
 * column when the file has one, else no side (enough for candles and TPO, not for footprints).
 */
export type SideRule = 'column' | 'tick' | 'optional'

/** Options of the trade and candle text readers. */
export interface TextReaderOptions {
  /** `csv` or `ndjson`; default: detected from the first data line (`{` starts NDJSON). */
  format?: 'csv' | 'ndjson'
  /** Skip a bad row (counted in `stats.bad`, reported to `onBad`) instead of throwing. Default false. */
  skipBad?: boolean
  /** Refuse a row whose time is earlier than the previous row's. Default false. */
  sorted?: boolean
  /** Told of each skipped row (with `skipBad`): its line number and the reason. */
  onBad?: (line: number, message: string) => void
  /** Told once which time format the first data row set, and on which line. */
  onTimeFormat?: (format: TimeFormat, line: number, value: unknown) => void
  /**
   * The column of a field, by header name (any case) or by position from 1 (for a file without a header):
   * `{ time: 'time_ms', volume: 'qty' }`, `{ time: 5, price: 2, volume: 3, side: 6 }`. Fields not named here
   * are found by their usual names. Keys: the fields of the record (`time`, `price`, `volume`, `side`,
   * `session`; for candles `time`, `open`, `high`, `low`, `close`, `volume`, `value`, `trades`, `session`).
   */
  columns?: Readonly<Record<string, string | number>>
  /**
   * The unit of epoch times: `s`, `ms`, `us` or `ns`. Default: from a header name ending in `_s`, `_ms`,
   * `_us`, `_ns`, else inferred from the first row's magnitude (and told to `onTimeFormat`).
   */
  timeUnit?: EpochUnit
  /** IANA zone of date-times written without an offset (`2017-09-27 06:30:00`); without it they are refused. */
  inputZone?: string
  /** Where trade sides come from (trades only; see {@link SideRule}). Default `column`. */
  sideRule?: SideRule
}

/** The option names, in the order messages list them. */
export const READER_OPTIONS = [
  'format',
  'skipBad',
  'sorted',
  'onBad',
  'onTimeFormat',
  'columns',
  'timeUnit',
  'inputZone',
  'sideRule',
] as const

const SIDE_RULES: readonly SideRule[] = ['column', 'tick', 'optional']

const bad = (field: string, msg: string) => new MarketDataError('invalid_option', `${field}: ${msg}`, { field })

/**
 * A plain copy of the options (their `columns` too), read once: options that cannot be read (a revoked
 * Proxy, a throwing getter) are refused as `invalid_option` rather than throwing a TypeError later.
 */
function readOnce(opts: object): TextReaderOptions {
  try {
    const o = { ...opts } as TextReaderOptions & Record<string, unknown>
    if (typeof o.columns === 'object' && o.columns !== null) o.columns = { ...o.columns }
    return o
  } catch {
    throw bad('options', 'cannot be read (a revoked Proxy or a getter that throws)')
  }
}

/**
 * Checks the options of a reader of records with these columns; throws `invalid_option` naming the option.
 * Returns the options as read (a plain copy): the reader uses that copy, never the caller's object again.
 */
export function checkReaderOptions(
  given: TextReaderOptions,
  columns: readonly string[],
  fn: string,
): TextReaderOptions {
  if (typeof given !== 'object' || given === null) throw bad('options', 'must be an object')
  const opts = readOnce(given)
  checkOptions(opts, READER_OPTIONS, fn)
  for (const k of ['skipBad', 'sorted'] as const)
    if (opts[k] !== undefined && typeof opts[k] !== 'boolean')
      throw bad(k, `must be true or false, got ${describeValue(opts[k])}`)
  for (const k of ['onBad', 'onTimeFormat'] as const)
    if (opts[k] !== undefined && typeof opts[k] !== 'function')
      throw bad(k, `must be a function, got ${describeValue(opts[k])}`)
  if (opts.format !== undefined && opts.format !== 'csv' && opts.format !== 'ndjson')
    throw bad('format', `must be csv or ndjson, got ${describeValue(opts.format)}`)
  if (opts.timeUnit !== undefined && !EPOCH_UNITS.includes(opts.timeUnit))
    throw bad('timeUnit', `must be one of ${EPOCH_UNITS.join(', ')}, got ${describeValue(opts.timeUnit)}`)
  if (opts.inputZone !== undefined && (typeof opts.inputZone !== 'string' || !isValidTimeZone(opts.inputZone)))
    throw bad('inputZone', `must be an IANA time zone such as America/New_York, got ${describeValue(opts.inputZone)}`)
  if (opts.sideRule !== undefined && !SIDE_RULES.includes(opts.sideRule))
    throw bad('sideRule', `must be one of ${SIDE_RULES.join(', ')}, got ${describeValue(opts.sideRule)}`)
  if (opts.sideRule !== undefined && !columns.includes('side'))
    throw bad('sideRule', 'is an option of the trade readers (candles have no side)')
  if (opts.columns !== undefined) {
    if (typeof opts.columns !== 'object' || opts.columns === null) throw bad('columns', 'must be an object')
    checkOptions(opts.columns, columns, `${fn} columns`)
    for (const [k, v] of Object.entries(opts.columns)) {
      const ok =
        (typeof v === 'string' && v.trim() !== '' && v.length <= 200) ||
        (typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 && v <= 10_000)
      if (!ok) throw bad(`columns.${k}`, `must be a header name or a position from 1, got ${describeValue(v)}`)
    }
  }
  return opts
}
