import {
  profileAnalytics,
  type AnalyticsProfile,
  type AnyTpoProfile,
  type PriceRange,
  type ProfileAnalytics,
  type VolumeNodes,
} from '../analytics/index.js'
import { MarketDataError } from '../errors.js'
import { createTpoAggregator, type TpoAggregator, type TpoOptions, type TpoProfile } from '../tpo/index.js'
import type { Trade } from '../trades/index.js'

/** What a command runs its trades through (the aggregate runner's shape). */
export interface TradeRunner<T> {
  feed(trades: Trade[]): void
  closed(time: number): T[]
  flush(): T[]
}

/**
 * `--analytics` of the tpo and footprint commands: each profile gets `profileAnalytics` (open range,
 * balanced target, volume and TPO nodes, value migration against the previous profile of the same session
 * type, day type, rotation factor, open type and location, range extension, shape, spike, poor extremes,
 * single-print zones); text output prints them under the profile.
 *
 * A merged TPO profile (the default MERGE_ALL) does not say which of its blocks were main session, so
 * `follow` runs a second, grouped TPO aggregator on the same trades: each merged profile's day-session
 * reads then use its period's MAINSESSION profile, as the library's `mainSession` option asks.
 */
export function createAnalyticsOutput(): {
  attach(p: unknown): unknown
  text(p: unknown): string
  follow<T>(runner: TradeRunner<T>, options: TpoOptions): TradeRunner<T>
} {
  const previous = new Map<string, AnalyticsProfile>()
  const mains = new Map<number, TpoProfile>()
  let previousMain: TpoProfile | undefined
  let side: TpoAggregator | undefined
  // the side aggregator is an aid: if it ever fails, the reads fall back to what a merged profile shows
  const guard = (f: () => TpoProfile[]) => {
    if (side === undefined) return
    try {
      for (const p of f()) if (p.sessionType === 'MAINSESSION') mains.set(p.time, p)
    } catch (e) {
      if (!(e instanceof MarketDataError)) throw e
      side = undefined
      mains.clear()
    }
  }
  return {
    follow<T>(runner: TradeRunner<T>, options: TpoOptions): TradeRunner<T> {
      if (options.mergeSessions === 'GROUP_BY_TYPE') return runner
      side = createTpoAggregator({ ...options, mergeSessions: 'GROUP_BY_TYPE' })
      return {
        feed(trades) {
          try {
            runner.feed(trades)
          } catch (e) {
            // the side takes what the runner took: the records before the refused one
            const n = e instanceof MarketDataError ? (e.applied ?? e.index) : undefined
            if (n !== undefined && n > 0) guard(() => fed(side, trades, n))
            throw e
          }
          guard(() => fed(side, trades, trades.length))
        },
        closed(time) {
          guard(() => side?.advance(time) ?? [])
          return runner.closed(time)
        },
        flush() {
          guard(() => side?.flush() ?? [])
          return runner.flush()
        },
      }
    },
    attach(p: unknown): unknown {
      const profile = p as AnalyticsProfile
      const key = (profile as { sessionType?: string }).sessionType ?? ''
      const before = previous.get(key)
      previous.set(key, profile)
      const tpo = Array.isArray((profile as { blocks?: unknown }).blocks)
      const main = tpo && key === '' ? mains.get(profile.time) : undefined
      mains.delete(profile.time)
      const o: { previous?: AnalyticsProfile; mainSession?: AnyTpoProfile; previousMainSession?: AnyTpoProfile } = {}
      if (before !== undefined) o.previous = before
      if (main !== undefined) o.mainSession = main
      if (main !== undefined && previousMain !== undefined && before !== undefined) o.previousMainSession = previousMain
      if (tpo && key === '') previousMain = main
      const a = profileAnalytics(profile, o)
      return { ...profile, profileAnalytics: a }
    },
    text(p: unknown): string {
      const a = (p as { profileAnalytics?: ProfileAnalytics }).profileAnalytics
      return a === undefined ? '' : analyticsText(a)
    },
  }
}

/** Feeds the first `n` trades to the side aggregator; it closes nothing. */
function fed(side: TpoAggregator | undefined, trades: Trade[], n: number): TpoProfile[] {
  side?.addTrades(trades, 0, n)
  return []
}

const span = (r: { low: string; high: string }) => (r.low === r.high ? r.low : `${r.low}-${r.high}`)
const signed = (n: number) => (n > 0 ? `+${n}` : String(n))

function nodes(label: string, n: VolumeNodes | null): string[] {
  if (n === null) return []
  const list = (xs: VolumeNodes['highVolumeNodes']) =>
    xs.length === 0 ? 'none' : xs.map((x) => `${x.price} (${x.prominence}%)`).join(', ')
  return [`  ${label} HVN   ${list(n.highVolumeNodes)}`, `  ${label} LVN   ${list(n.lowVolumeNodes)}`]
}

const SESSION_NOTE = {
  'main-session': 'main session',
  profile: 'the profile (no block before its main session)',
} as const

/** The day-session lines: which profile they read, then each read. */
function dayLines(a: ProfileAnalytics): string[] {
  if (a.daySession === null) return a.openRange === null ? [] : ['  day session      none (day-session reads left out)']
  const ext = a.rangeExtension
  const side = (s: { distance: string; multiple: string | null }) =>
    s.distance === '0' ? 'none' : `${s.multiple === null ? '' : `${s.multiple}x `}(${s.distance})`
  const ot = a.openType
  const loc = a.openLocation
  return [
    `  day session      ${SESSION_NOTE[a.daySession]}`,
    ...(ot === null
      ? []
      : [
          `  open type        ${ot.type}${ot.direction === null ? '' : ` ${ot.direction}`}${ot.auction === null ? '' : ` ${ot.auction}`}`,
        ]),
    ...(loc === null
      ? []
      : [
          `  open location    ${loc.location} (previous value ${span(loc.previousValueArea)}, range ${span(loc.previousRange)})${loc.reentry === null ? '' : `; back in value ${new Date(loc.reentry).toISOString().slice(11, 16)} UTC`}`,
        ]),
    ...(ext === null
      ? []
      : [`  IB extension     up ${side(ext.up)}, down ${side(ext.down)} (IB ${ext.ibLow}-${ext.ibHigh})`]),
    ...(a.rotationFactor === null
      ? []
      : [
          `  rotation factor  ${signed(a.rotationFactor.total)}${a.rotationFactor.periods.length === 0 ? '' : ` (${a.rotationFactor.periods.map((x) => signed(x.factor)).join(' ')})`}`,
        ]),
    ...(a.spike === null ? [] : [`  spike            ${a.spike.direction} ${span(a.spike)}`]),
  ]
}

/** The analytics block printed under a profile in text output. */
function analyticsText(a: ProfileAnalytics): string {
  const bt = a.balancedTarget
  const range = (r: PriceRange | null) => (r === null ? 'no' : span(r))
  const lines = [
    'analytics:',
    ...(a.openRange === null ? [] : [`  open range       ${a.openRange.low} - ${a.openRange.high}`]),
    `  balanced target  ${bt.target} (${bt.direction} from ${bt.basis} POC ${bt.poc})${bt.ibProjection === null ? '' : `; IB from the open ${bt.ibProjection.low} / ${bt.ibProjection.high}`}`,
    ...dayLines(a),
    ...(a.dayType === null ? [] : [`  day type         ${a.dayType.type} (${a.dayType.reason})`]),
    ...(a.profileShape === null ? [] : [`  shape            ${a.profileShape.shape} (${a.profileShape.reason})`]),
    ...(a.valueMigration === null
      ? []
      : [
          `  value            ${a.valueMigration.relation} (previous ${a.valueMigration.previous.valueAreaLow}-${a.valueMigration.previous.valueAreaHigh})`,
        ]),
    ...nodes('volume', a.volumeNodes),
    ...nodes('TPO   ', a.tpoNodes),
    `  poor high        ${range(a.poorExtremes.poorHigh)}`,
    `  poor low         ${range(a.poorExtremes.poorLow)}`,
    ...(a.singlePrintZones === null
      ? []
      : [
          `  single prints    ${a.singlePrintZones.length === 0 ? 'none' : a.singlePrintZones.map((z) => `${span(z)} ${z.kind}`).join(', ')}`,
        ]),
  ]
  return `${lines.join('\n')}\n`
}
