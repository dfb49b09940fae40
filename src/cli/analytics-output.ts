import {
  profileAnalytics,
  type AnalyticsProfile,
  type PriceRange,
  type ProfileAnalytics,
  type VolumeNodes,
} from '../analytics/index.js'

/**
 * `--analytics` of the tpo and footprint commands: each profile gets `profileAnalytics` (open range,
 * balanced target, volume and TPO nodes, value migration against the previous profile of the same session
 * type, day type, poor extremes, single-print zones); text output prints them under the profile.
 */
export function createAnalyticsOutput(): { attach(p: unknown): unknown; text(p: unknown): string } {
  const previous = new Map<string, AnalyticsProfile>()
  return {
    attach(p: unknown): unknown {
      const profile = p as AnalyticsProfile
      const key = (profile as { sessionType?: string }).sessionType ?? ''
      const before = previous.get(key)
      previous.set(key, profile)
      const a = profileAnalytics(profile, before === undefined ? {} : { previous: before })
      return { ...profile, profileAnalytics: a }
    },
    text(p: unknown): string {
      const a = (p as { profileAnalytics?: ProfileAnalytics }).profileAnalytics
      return a === undefined ? '' : analyticsText(a)
    },
  }
}

const span = (r: { low: string; high: string }) => (r.low === r.high ? r.low : `${r.low}-${r.high}`)

function nodes(label: string, n: VolumeNodes | null): string[] {
  if (n === null) return []
  const list = (xs: VolumeNodes['highVolumeNodes']) =>
    xs.length === 0 ? 'none' : xs.map((x) => `${x.price} (${x.prominence}%)`).join(', ')
  return [`  ${label} HVN   ${list(n.highVolumeNodes)}`, `  ${label} LVN   ${list(n.lowVolumeNodes)}`]
}

/** The analytics block printed under a profile in text output. */
function analyticsText(a: ProfileAnalytics): string {
  const bt = a.balancedTarget
  const range = (r: PriceRange | null) => (r === null ? 'no' : span(r))
  const lines = [
    'analytics:',
    ...(a.openRange === null ? [] : [`  open range       ${a.openRange.low} - ${a.openRange.high}`]),
    `  balanced target  ${bt.target} (${bt.direction} from ${bt.basis} POC ${bt.poc})${bt.ibProjection === null ? '' : `; IB from the open ${bt.ibProjection.low} / ${bt.ibProjection.high}`}`,
    ...(a.dayType === null ? [] : [`  day type         ${a.dayType.type} (${a.dayType.reason})`]),
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
