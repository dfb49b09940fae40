import { isArray } from '../_lib/describe.js'
import { formatFixed, type ExactDecimal } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { MINUTE_MS } from '../time/index.js'
import { resolveBlockSize } from '../tpo/options.js'
import { compareDecimal } from '../tpo/parts.js'
import { checkDaySession } from './day-session.js'
import { isTpo, priceField, readHistogram, readTpoHistogram } from './histogram.js'
import { ANALYTICS_MSG } from './messages.js'
import { choiceOption, integerOption, readOptions, unreadableAsError } from './options.js'
import type {
  AnalyticsProfile,
  AnyTpoProfile,
  BalancedTarget,
  BalancedTargetOptions,
  OpenRange,
  OpenRangeOptions,
} from './types.js'
import type { FootprintProfile } from '../footprint/index.js'

const MAX_MINUTES = 60 * 24 * 31

function epoch(fn: string, who: string, x: unknown, field: string): number {
  if (typeof x !== 'number' || !Number.isFinite(x))
    throw new MarketDataError(
      'invalid_option',
      ANALYTICS_MSG.field(fn, who, field, x, 'must be a finite epoch-millisecond number'),
      { field },
    )
  return x
}

/** Keeps the higher (`sign` 1) or lower (-1) of two traded prices, as written in the profile. */
function pick(a: { d: ExactDecimal; s: string } | undefined, d: ExactDecimal, s: string, sign: 1 | -1) {
  return a === undefined || compareDecimal(d, a.d) * sign > 0 ? { d, s } : a
}

function tpoOpenRange(p: AnyTpoProfile, minutes: number | undefined, fn: string): OpenRange {
  const who = 'profile'
  const o = p as unknown as Record<string, unknown>
  const blocks = o.blocks as unknown[]
  const highs = o.blockHighs
  const lows = o.blockLows
  if (blocks.length === 0)
    throw new MarketDataError(
      'invalid_option',
      ANALYTICS_MSG.field(fn, who, 'blocks', blocks, 'must hold at least one block'),
      { field: 'blocks' },
    )
  if (!isArray(highs) || highs.length !== blocks.length)
    throw new MarketDataError(
      'invalid_option',
      ANALYTICS_MSG.field(fn, who, 'blockHighs', highs, 'must hold one price per block'),
      { field: 'blockHighs' },
    )
  if (!isArray(lows) || lows.length !== blocks.length)
    throw new MarketDataError(
      'invalid_option',
      ANALYTICS_MSG.field(fn, who, 'blockLows', lows, 'must hold one price per block'),
      { field: 'blockLows' },
    )
  const ibs = o.initialBalanceStart
  const start =
    ibs === null || ibs === undefined
      ? epoch(fn, who, blocks[0], 'blocks[0]')
      : epoch(fn, who, ibs, 'initialBalanceStart')
  let blockMs: number
  try {
    const tf = resolveBlockSize(o.blockSize)
    blockMs = tf.count * (tf.unit === 'HOUR' ? 60 : 1) * MINUTE_MS
  } catch {
    throw new MarketDataError(
      'invalid_option',
      ANALYTICS_MSG.field(fn, who, 'blockSize', o.blockSize, 'must be a minute or hour frame id'),
      { field: 'blockSize' },
    )
  }
  const end = minutes === undefined ? start + blockMs : start + minutes * MINUTE_MS
  let hi: { d: ExactDecimal; s: string } | undefined
  let lo: { d: ExactDecimal; s: string } | undefined
  const starts: number[] = []
  for (let b = 0; b < blocks.length; b++) {
    const t = epoch(fn, who, blocks[b], `blocks[${b}]`)
    // the first block alone, or every block starting inside [start, start + minutes)
    if (minutes === undefined ? t !== start : t < start || t >= end) continue
    starts.push(t)
    hi = pick(hi, priceField(fn, who, highs, String(b)), highs[b] as string, 1)
    lo = pick(lo, priceField(fn, who, lows, String(b)), lows[b] as string, -1)
  }
  if (hi === undefined || lo === undefined)
    throw new MarketDataError(
      'invalid_option',
      ANALYTICS_MSG.field(fn, who, 'initialBalanceStart', ibs, 'must be the start of one of the blocks'),
      { field: 'initialBalanceStart' },
    )
  return { start, end, high: hi.s, low: lo.s, starts }
}

function footprintOpenRange(ps: readonly FootprintProfile[], minutes: number | undefined, fn: string): OpenRange {
  if (ps.length === 0) throw new MarketDataError('invalid_option', ANALYTICS_MSG.noProfiles(fn), { field: 'profiles' })
  const items = ps.map((p, i) => {
    const who = `profiles[${i}]`
    if (isTpo(p))
      throw new MarketDataError('invalid_option', ANALYTICS_MSG.tpoInList(fn, who), { field: who, index: i })
    readHistogram(p, fn, who)
    const o = p as unknown as Record<string, unknown>
    return {
      time: epoch(fn, who, o.time, 'time'),
      end: epoch(fn, who, o.end, 'end'),
      high: priceField(fn, who, o, 'high'),
      low: priceField(fn, who, o, 'low'),
      p,
    }
  })
  const first = items.reduce((a, b) => (b.time < a.time ? b : a))
  const start = first.time
  const end = minutes === undefined ? first.end : start + minutes * MINUTE_MS
  let hi: { d: ExactDecimal; s: string } | undefined
  let lo: { d: ExactDecimal; s: string } | undefined
  const starts: number[] = []
  for (const it of [...items].sort((a, b) => a.time - b.time)) {
    if (minutes === undefined ? it !== first : it.time >= end) continue
    starts.push(it.time)
    hi = pick(hi, it.high, it.p.high, 1)
    lo = pick(lo, it.low, it.p.low, -1)
  }
  return { start, end, high: (hi as { s: string }).s, low: (lo as { s: string }).s, starts }
}

/**
 * The open range: the highest and lowest traded price of the opening minutes.
 *
 * - TPO profile (trades or candles): the first block of the main session (the block the initial balance
 *   starts at; the first block when the profile has no main session), or, with `minutes`, every block that
 *   starts in `[start, start + minutes)` — the rule the initial balance follows. A profile knows prices per
 *   block only, so the range has block resolution: `minutes` shorter than a block still takes the block.
 * - A list of footprint profiles (e.g. 1-minute buckets of one session): the earliest profile, or, with
 *   `minutes`, every profile whose `time` lies in `[start, start + minutes)`.
 *
 * Source: py-market-profile's `open_range` (default 10 minutes, min low / max high of the bars from the
 * first bar's time through first + 10 minutes, that end included); here the window is half-open, as the
 * library's initial balance and every range of the library.
 *
 * @param profile - a TPO profile, or a list of footprint profiles
 * @param options - `{ minutes? }`, an integer from 1 to 44640
 * @returns `{ start, end, high, low, starts }`; prices as the profile wrote them (traded prices)
 * @throws MarketDataError `invalid_option` for a malformed profile, an empty list or a bad option
 * @example
 * openRange(day) // { start: 1780320600000, end: 1780322400000, high: '5003.25', low: '4999.50', starts: [1780320600000] }
 * openRange(oneMinuteFootprints, { minutes: 5 }).high // '5001.75'
 */
export function openRange(profile: AnyTpoProfile | readonly FootprintProfile[], options?: OpenRangeOptions): OpenRange {
  return unreadableAsError('openRange', () => {
    const fn = 'openRange'
    const o = readOptions(fn, options, ['minutes'])
    const minutes = o.minutes === undefined ? undefined : integerOption(fn, 'minutes', o.minutes, 1, 1, MAX_MINUTES)
    if (isArray(profile)) return footprintOpenRange(profile as readonly FootprintProfile[], minutes, fn)
    if (typeof profile !== 'object' || profile === null)
      throw new MarketDataError('invalid_option', ANALYTICS_MSG.notProfile(fn, 'profile', profile), {
        field: 'profile',
      })
    readTpoHistogram(profile, fn, 'profile', 'give a TPO profile or a list of footprint profiles')
    return tpoOpenRange(profile as AnyTpoProfile, minutes, fn)
  })
}

/** The profile itself when it is a day session (see checkDaySession), else undefined. */
function dayOf(profile: object, kind: string): object | undefined {
  if (kind === 'footprint') return undefined
  try {
    checkDaySession(profile, 'balancedTarget', 'profile')
    return profile
  } catch {
    return undefined
  }
}

/**
 * The main-session profile a caller gave for `profile`: a TPO day session of the same period. Refused
 * (`invalid_option` naming `options.mainSession`) otherwise.
 */
export function mainSessionOf(fn: string, profile: object, main: unknown, name = 'mainSession'): object {
  if (typeof main !== 'object' || main === null || !isTpo(main))
    throw new MarketDataError('invalid_option', ANALYTICS_MSG.samePeriod(fn, name), { field: name })
  readTpoHistogram(main, fn, `options.${name}`)
  const m = main as Record<string, unknown>
  if (m.time !== (profile as Record<string, unknown>).time)
    throw new MarketDataError('invalid_option', ANALYTICS_MSG.samePeriod(fn, name), { field: name })
  checkDaySession(m, fn, `options.${name}`)
  return m
}

/**
 * The balanced target and the initial balance projected from the open.
 *
 * - `target` (py-market-profile's `balanced_target`): take the profile's longer side from the POC (POC to
 *   highest row vs POC to lowest row, the upper side when equal) and reflect it to the other side of the
 *   POC: `POC - (high - POC)` or `POC + (POC - low)`: the price at which the profile would be symmetric
 *   ("balanced") about its POC. Rows are lower bounds, as the profile's POC and value area.
 * - `ibProjection` (TPO profiles with an initial balance): the day session's `open ± (IB high - IB low)`
 *   — from `mainSession` when given (the period's main-session profile), else from the profile when it is
 *   a day session (null for a merged profile with blocks before its main session, whose `open` is a
 *   pre-market price, and for PRE_MARKET / POST_MARKET profiles), the usual reading
 *   of a target "projected from the open". The textbooks (Dalton; Steidlmayer) use IB multiples as
 *   range-extension references, measured from the IB's own extremes, not from the open; neither defines a
 *   "balanced target" by that name.
 *
 * @param profile - a TPO profile (trades or candles) or a footprint profile
 * @param options - `{ basis?, mainSession? }`: `basis` `'tpo'` (the profile's `poc`; TPO default) or
 *   `'volume'` (`volumePoc`); `mainSession` the period's main-session profile, for `ibProjection`
 * @returns `{ basis, poc, target, direction, ibProjection }`, prices with the grid's decimals
 * @throws MarketDataError `invalid_option` for a malformed profile or option, `basis: 'volume'` on a
 *   candle profile, `basis: 'tpo'` on a footprint, a `mainSession` that is not one of the same period
 * @example
 * balancedTarget(day) // { basis: 'tpo', poc: '5001.00', target: '4995.00', direction: 'down', ibProjection: { high: '5006.50', low: '4994.50' } }
 */
export function balancedTarget(profile: AnalyticsProfile, options?: BalancedTargetOptions): BalancedTarget {
  return unreadableAsError('balancedTarget', () => {
    const fn = 'balancedTarget'
    const o = readOptions(fn, options, ['basis', 'mainSession'])
    const h = readHistogram(profile, fn)
    const basis = choiceOption(fn, 'basis', o.basis, ['tpo', 'volume'], h.kind === 'footprint' ? 'volume' : 'tpo')
    if (basis === 'tpo' && h.kind === 'footprint')
      throw new MarketDataError('invalid_option', ANALYTICS_MSG.noTpoCounts(fn, 'profile', 'basis'), { field: 'basis' })
    if (basis === 'volume' && h.kind === 'tpo-candles')
      throw new MarketDataError('invalid_option', ANALYTICS_MSG.noVolumes(fn, 'profile', "use { basis: 'tpo' }"), {
        field: 'basis',
      })
    const pocField = basis === 'tpo' ? 'poc' : 'volumePoc'
    const poc = priceField(fn, 'profile', profile, pocField)
    const scale = h.decimals
    if (poc.scale > scale)
      throw new MarketDataError(
        'invalid_option',
        ANALYTICS_MSG.field(
          fn,
          'profile',
          pocField,
          (profile as unknown as Record<string, unknown>)[pocField],
          'must be a row price of the profile',
        ),
        { field: pocField },
      )
    const p = poc.units * 10n ** BigInt(scale - poc.scale)
    const high = (h.firstRow + BigInt(h.n - 1)) * h.rowUnits
    const low = h.firstRow * h.rowUnits
    const up = high - p >= p - low
    const target = up ? p - (high - p) : p + (p - low)
    const day = o.mainSession === undefined ? dayOf(profile, h.kind) : mainSessionOf(fn, profile, o.mainSession)
    let ibProjection: BalancedTarget['ibProjection'] = null
    if (day !== undefined) {
      const ib = (day as { initialBalance: object }).initialBalance
      const ibh = priceField(fn, 'profile', ib, 'high')
      const ibl = priceField(fn, 'profile', ib, 'low')
      const open = priceField(fn, 'profile', day, 'open')
      const s = Math.max(scale, ibh.scale, ibl.scale, open.scale)
      const u = (d: ExactDecimal) => d.units * 10n ** BigInt(s - d.scale)
      const r = u(ibh) - u(ibl)
      ibProjection = { high: formatFixed(u(open) + r, s, scale), low: formatFixed(u(open) - r, s, scale) }
    }
    return {
      basis,
      poc: formatFixed(p, scale, scale),
      target: formatFixed(target, scale, scale),
      direction: up ? 'down' : 'up',
      ibProjection,
    }
  })
}
