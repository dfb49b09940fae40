import { parseArgs } from 'node:util'
import { parseDecimal } from '../decimal/index.js'
import {
  isValidTimeZone,
  parseRfc3339,
  parseTimeframe,
  parseUnixSeconds,
  resolveTimeframe,
  type Timeframe,
  type TimeframeInput,
  type TimeUnit,
} from '../time/index.js'
import { SESSION_NAMES, sessionsFromClock, type ClockSessionOptions, type SessionType } from '../trades/index.js'
import { argsError } from './arg-errors.js'
import { usage } from './cli-error.js'
import type { Format } from './output.js'
import type { EpochUnit } from '../io/index.js'
import type { InputFormat } from './file-text.js'
import type { InputKind } from './input.js'

export type Command = 'candles' | 'footprint' | 'tpo'

/** The record fields a `--<field>-column` option names. */
const COLUMN_FIELDS = ['time', 'price', 'volume', 'side', 'session', 'open', 'high', 'low', 'close', 'value', 'trades']

type Spec = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>

const COMMON: Spec = {
  timeframe: { type: 'string', short: 't' },
  from: { type: 'string' },
  to: { type: 'string' },
  tz: { type: 'string' },
  'session-type': { type: 'string', multiple: true },
  'tick-size': { type: 'string' },
  format: { type: 'string', short: 'f' },
  'input-format': { type: 'string' },
  out: { type: 'string', short: 'o' },
  last: { type: 'string' },
  'skip-bad': { type: 'boolean' },
  input: { type: 'string' },
  'time-column': { type: 'string' },
  'price-column': { type: 'string' },
  'volume-column': { type: 'string' },
  'side-column': { type: 'string' },
  'session-column': { type: 'string' },
  'open-column': { type: 'string' },
  'high-column': { type: 'string' },
  'low-column': { type: 'string' },
  'close-column': { type: 'string' },
  'value-column': { type: 'string' },
  'trades-column': { type: 'string' },
  'time-unit': { type: 'string' },
  'input-zone': { type: 'string' },
  'side-rule': { type: 'string' },
  'session-hours': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  help: { type: 'boolean', short: 'h' },
}

const SPECS: Record<Command, Spec> = {
  candles: COMMON,
  footprint: {
    ...COMMON,
    'row-size': { type: 'string' },
    'row-size-value': { type: 'string' },
    imbalance: { type: 'string' },
    analytics: { type: 'boolean' },
    chart: { type: 'string' },
    cells: { type: 'string' },
  },
  tpo: {
    ...COMMON,
    chart: { type: 'string' },
    'row-size': { type: 'string' },
    'row-size-value': { type: 'string' },
    'block-size': { type: 'string' },
    'merge-sessions': { type: 'string' },
    'value-area': { type: 'string' },
    'initial-balance': { type: 'string' },
    analytics: { type: 'boolean' },
    letters: { type: 'string' },
  },
}

const DEFAULT_TIMEFRAME: Record<Command, string> = { candles: '1m', footprint: '1h', tpo: '1d' }
const FORMATS: Record<Command, Format[]> = {
  candles: ['json', 'ndjson', 'text'],
  footprint: ['json', 'ndjson', 'text', 'svg'],
  tpo: ['json', 'ndjson', 'text', 'svg'],
}

/** Everything a run needs, validated. */
export interface RunConfig {
  command: Command
  help: boolean
  file: string | undefined
  timeframe: Timeframe
  timeZone: string
  from: number | undefined
  to: number | undefined
  sessions: SessionType[] | undefined
  tickSize: string | undefined
  rowSize: number | undefined
  rowSizeValue: string | undefined
  /** As given: the library checks it (a TPO block size is a minute or hour frame). */
  blockSize: TimeframeInput | undefined
  mergeSessions: 'MERGE_ALL' | 'GROUP_BY_TYPE' | undefined
  valueAreaPercent: number | undefined
  initialBalance: string | undefined
  imbalance: string | undefined
  analytics: boolean
  format: Format
  inputFormat: InputFormat | undefined
  /** `--input trades|candles`; default: from the file's header. */
  input: InputKind | undefined
  /** Columns named by `--time-column` etc. (a header name, or a position from 1). */
  columns: Record<string, string | number>
  timeUnit: EpochUnit | undefined
  inputZone: string | undefined
  /** `--side-rule column|tick`; default: a side column for footprints, optional for candles and TPO. */
  sideRule: 'column' | 'tick' | undefined
  /** `--session-hours "ZONE MAIN [PRE [POST]]"`: sessions from the local clock. */
  sessionHours: ClockSessionOptions | undefined
  out: string | undefined
  last: number | undefined
  skipBad: boolean
  quiet: boolean
  /** `bars`: one SVG chart of every profile; `single` (default): a picture per profile. */
  chart: 'bars' | 'single'
  /** What footprint chart cells show. */
  cells: 'bidAsk' | 'delta' | 'volume' | undefined
  /** `--letters traded|fixed`: how a TPO letter chart letters its blocks (default traded). */
  letters: 'traded' | 'fixed' | undefined
}

/** A time option: Unix seconds or RFC 3339, as the REST parameters. */
function timeOption(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined
  const r = /^\d+$/.test(v) ? parseUnixSeconds(v) : parseRfc3339(v)
  if (!r.ok) throw usage(`--${name}: ${r.error}`)
  return r.value
}

function positiveDecimal(name: string, v: string | undefined): string | undefined {
  if (v === undefined) return undefined
  const r = parseDecimal(v)
  if (!r.ok || r.value.units <= 0n)
    throw usage(`--${name} must be a positive decimal such as 0.25, got ${JSON.stringify(v)}`)
  return v
}

function intOption(name: string, v: string | undefined, min: number, max: number): number | undefined {
  if (v === undefined) return undefined
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max)
    throw usage(`--${name} must be an integer ${min}..${max}, got ${JSON.stringify(v)}`)
  return Number(v)
}

const UNITS: Record<string, TimeUnit> = { m: 'MINUTE', h: 'HOUR', d: 'DAY', w: 'WEEK', M: 'MONTH', y: 'YEAR' }

/**
 * A count of a unit past the id rules (`90m`, `36h`): the library and ListCandles take any count, so the
 * command line takes it as a custom frame. Undefined for an id the rules know (or nothing like one).
 */
function customFrame(id: string): { ok: true; value: Timeframe } | undefined {
  const m = /^([1-9]\d{0,5})([mhdwMy])$/.exec(id)
  if (m === null || parseTimeframe(id).ok) return undefined
  const n = Number(m[1])
  // a count a larger unit spells (60m is 1h) has its id: that one is the frame's name
  const larger: Record<string, [number, string]> = { m: [60, 'h'], h: [24, 'd'], d: [7, 'w'], M: [12, 'y'] }
  const up = larger[m[2]!]
  if (up !== undefined && n % up[0] === 0 && parseTimeframe(`${n / up[0]}${up[1]}`).ok)
    throw usage(`--timeframe ${id}: write it as ${n / up[0]}${up[1]}`)
  try {
    return { ok: true, value: resolveTimeframe({ unit: UNITS[m[2]!]!, count: Number(m[1]) }, '--timeframe') }
  } catch {
    return undefined
  }
}

/** `--session-hours "America/New_York 09:30-16:00 04:00-09:30 16:00-20:00"`: zone, main, pre, post. */
function clockSessions(v: string | undefined): ClockSessionOptions | undefined {
  if (v === undefined) return undefined
  const [timeZone, main, pre, post, ...more] = v.trim().split(/\s+/)
  if (timeZone === undefined || main === undefined || more.length > 0)
    throw usage(
      `--session-hours must be "ZONE MAIN [PRE [POST]]" such as "America/New_York 09:30-16:00 04:00-09:30 16:00-20:00", got ${JSON.stringify(v)}`,
    )
  const o: ClockSessionOptions = {
    timeZone,
    main,
    ...(pre !== undefined ? { pre } : {}),
    ...(post !== undefined ? { post } : {}),
  }
  try {
    sessionsFromClock([], o)
  } catch (e) {
    throw usage(`--session-hours: ${(e as Error).message.replace(/^sessionsFromClock: /, '')}`)
  }
  return o
}

/** Parses and validates the arguments of candles / footprint / tpo; usage errors throw (exit 2). */
export function parseRunArgs(command: Command, argv: string[]): RunConfig {
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({ args: argv, options: SPECS[command], allowPositionals: true, strict: true })
  } catch (e) {
    throw argsError(e, command, SPECS[command])
  }
  const v = parsed.values as Record<string, string | boolean | string[] | undefined>
  const s = (k: string) => v[k] as string | undefined
  const help = v.help === true
  if (parsed.positionals.length > 1)
    throw usage(`expected at most one input FILE, got ${parsed.positionals.length}: ${parsed.positionals.join(' ')}`)
  const timeframe = s('timeframe') ?? DEFAULT_TIMEFRAME[command]
  const tf = customFrame(timeframe) ?? parseTimeframe(timeframe)
  if (!tf.ok) throw usage(tf.error.message)
  if (
    command === 'footprint' &&
    (tf.value.unit === 'TICK' || tf.value.unit === 'QUARTER' || tf.value.unit === 'YEAR')
  ) {
    throw usage(`--timeframe: footprint buckets are 1m..59m, 1h..23h, 1d..6d, 1w..3w or 1M..11M, not ${timeframe}`)
  }
  const timeZone = s('tz') ?? 'UTC'
  if (!isValidTimeZone(timeZone))
    throw usage(`--tz must be an IANA time zone such as America/New_York, got ${JSON.stringify(timeZone)}`)
  const from = timeOption('from', s('from'))
  const to = timeOption('to', s('to'))
  if (from !== undefined && to !== undefined && to <= from) throw usage('--to must be later than --from')
  let sessions: SessionType[] | undefined
  const st = v['session-type'] as string[] | undefined
  if (st !== undefined) {
    sessions = []
    for (const part of st.flatMap((x) => x.split(','))) {
      const name = part.trim().toUpperCase() as SessionType
      if (!SESSION_NAMES.includes(name))
        throw usage(`--session-type must be MAINSESSION, PRE_MARKET or POST_MARKET, got ${JSON.stringify(part)}`)
      if (!sessions.includes(name)) sessions.push(name)
    }
  }
  const chart = s('chart') ?? 'single'
  if (chart !== 'bars' && chart !== 'single')
    throw usage(`--chart must be bars or single, got ${JSON.stringify(chart)}`)
  // a chart of bars is a picture: it implies --format svg and refuses the other formats
  if (chart === 'bars' && s('format') !== undefined && s('format') !== 'svg')
    throw usage(
      `--chart bars draws one SVG chart: use --format svg (or leave --format out), got --format ${s('format')}`,
    )
  const cells = s('cells')
  if (cells !== undefined && cells !== 'bidAsk' && cells !== 'delta' && cells !== 'volume')
    throw usage(`--cells must be bidAsk, delta or volume, got ${JSON.stringify(cells)}`)
  if (cells !== undefined && chart !== 'bars')
    throw usage('--cells sets what the cells of --chart bars show: add --chart bars')
  const format = (s('format') ?? (chart === 'bars' ? 'svg' : 'text')) as Format
  if (!FORMATS[command].includes(format))
    throw usage(`--format must be one of ${FORMATS[command].join(', ')} for ${command}, got ${JSON.stringify(format)}`)
  const inputFormat = s('input-format')
  if (inputFormat !== undefined && inputFormat !== 'csv' && inputFormat !== 'ndjson' && inputFormat !== 'parquet')
    throw usage(`--input-format must be csv, ndjson or parquet, got ${JSON.stringify(inputFormat)}`)
  const input = s('input')
  if (input !== undefined && input !== 'trades' && input !== 'candles')
    throw usage(`--input must be trades or candles, got ${JSON.stringify(input)}`)
  if (input === 'candles' && command === 'footprint')
    throw usage('--input candles: a footprint needs trades (with sides); candles and tpo read candles')
  const columns: Record<string, string | number> = {}
  for (const f of COLUMN_FIELDS) {
    const v = s(`${f}-column`)
    if (v === undefined) continue
    if (v.trim() === '') throw usage(`--${f}-column must be a header name or a position from 1, got ""`)
    columns[f] = /^\d+$/.test(v) ? intOption(`${f}-column`, v, 1, 10_000)! : v
  }
  const timeUnit = s('time-unit')
  if (timeUnit !== undefined && !['s', 'ms', 'us', 'ns'].includes(timeUnit))
    throw usage(`--time-unit must be s, ms, us or ns, got ${JSON.stringify(timeUnit)}`)
  const inputZone = s('input-zone')
  if (inputZone !== undefined && !isValidTimeZone(inputZone))
    throw usage(
      `--input-zone must be an IANA time zone such as America/New_York or UTC, got ${JSON.stringify(inputZone)}`,
    )
  const sessionHours = clockSessions(s('session-hours'))
  const sideRule = s('side-rule')
  if (sideRule !== undefined && sideRule !== 'column' && sideRule !== 'tick')
    throw usage(`--side-rule must be column or tick, got ${JSON.stringify(sideRule)}`)
  const rowSize = intOption('row-size', s('row-size'), 1, 1_000_000)
  const rowSizeValue = positiveDecimal('row-size-value', s('row-size-value'))
  if (rowSize !== undefined && rowSizeValue !== undefined) throw usage('give --row-size or --row-size-value, not both')
  const letters = s('letters')
  if (letters !== undefined && letters !== 'traded' && letters !== 'fixed')
    throw usage(`--letters must be traded or fixed, got ${JSON.stringify(letters)}`)
  const ms = s('merge-sessions')
  let mergeSessions: RunConfig['mergeSessions']
  if (ms !== undefined) {
    if (ms === 'true' || ms === 'MERGE_ALL') mergeSessions = 'MERGE_ALL'
    else if (ms === 'false' || ms === 'GROUP_BY_TYPE') mergeSessions = 'GROUP_BY_TYPE'
    else throw usage(`--merge-sessions must be true, MERGE_ALL, false or GROUP_BY_TYPE, got ${JSON.stringify(ms)}`)
  }
  const va = s('value-area')
  let valueAreaPercent: number | undefined
  if (va !== undefined) {
    valueAreaPercent = Number(va)
    if (!/^\d+(\.\d+)?$/.test(va) || !(valueAreaPercent > 0 && valueAreaPercent <= 100))
      throw usage(`--value-area must be a percent in (0, 100], got ${JSON.stringify(va)}`)
  }
  return {
    command,
    help,
    file: parsed.positionals[0],
    timeframe: tf.value,
    timeZone,
    from,
    to,
    sessions,
    tickSize: positiveDecimal('tick-size', s('tick-size')),
    rowSize,
    rowSizeValue,
    blockSize: s('block-size') as TimeframeInput | undefined,
    mergeSessions,
    valueAreaPercent,
    initialBalance: s('initial-balance'),
    imbalance: positiveDecimal('imbalance', s('imbalance')),
    analytics: v.analytics === true,
    format,
    inputFormat: inputFormat as InputFormat | undefined,
    input: input as InputKind | undefined,
    columns,
    timeUnit: timeUnit as EpochUnit | undefined,
    inputZone,
    sideRule: sideRule as 'column' | 'tick' | undefined,
    sessionHours,
    out: s('out'),
    last: intOption('last', s('last'), 1, 1_000_000_000),
    skipBad: v['skip-bad'] === true,
    quiet: v.quiet === true,
    chart,
    cells,
    letters: letters as RunConfig['letters'],
  }
}
