// The profile analytics a TPO bar chart marks when the command line asks for both (--chart bars --analytics):
// single-print zones and poor highs / lows of each period, its open type at the open, its range extension
// beyond the initial balance in IB multiples, and a spike into the close, as the chart's annotations.
import { profileAnalytics, singlePrintZones, type ProfileAnalytics, type RangeExtension } from '../analytics/index.js'
import { formatUnits, parseDecimal, type ExactDecimal } from '../decimal/index.js'
import type { TpoChartAnnotation } from '../render/index.js'
import type { TpoProfile } from '../tpo/index.js'

const exact = (x: string): ExactDecimal => {
  const r = parseDecimal(x)
  return r.ok ? r.value : { units: 0n, scale: 0 }
}

/** `a ± b` of two decimal strings, exact. */
function add(a: string, b: string, sign: 1n | -1n): string {
  const x = exact(a)
  const y = exact(b)
  const s = Math.max(x.scale, y.scale)
  return formatUnits(x.units * 10n ** BigInt(s - x.scale) + sign * y.units * 10n ** BigInt(s - y.scale), s)
}

/** The extension beyond the IB on each side, labelled with its IB multiple. */
function extensions(time: number, e: RangeExtension): TpoChartAnnotation[] {
  const out: TpoChartAnnotation[] = []
  const label = (m: string | null, dir: string) => `IB ext ${m === null ? '' : `${m}x `}${dir}`
  if (e.up.distance !== '0')
    out.push({
      kind: 'ib-extension',
      time,
      low: e.ibHigh,
      high: add(e.ibHigh, e.up.distance, 1n),
      label: label(e.up.multiple, 'up'),
    })
  if (e.down.distance !== '0')
    out.push({
      kind: 'ib-extension',
      time,
      low: add(e.ibLow, e.down.distance, -1n),
      high: e.ibLow,
      label: label(e.down.multiple, 'down'),
    })
  return out
}

/**
 * Annotations of every period: its single-print zones (tails are already drawn as excess), poor extremes,
 * and, from the day-session reads (`profileAnalytics` attached by --analytics, else computed), the open
 * type at the open's row, the range extension on each side and a spike.
 */
export function tpoAnalyticsAnnotations(profiles: readonly TpoProfile[]): TpoChartAnnotation[] {
  const out: TpoChartAnnotation[] = []
  for (const p of profiles) {
    const a = (p as { profileAnalytics?: ProfileAnalytics }).profileAnalytics ?? profileAnalytics(p)
    for (const z of a.singlePrintZones ?? singlePrintZones(p)) {
      if (z.kind === 'single-prints')
        out.push({ kind: 'single-prints', time: p.time, low: z.low, high: z.high, label: 'single prints' })
    }
    const { poorHigh, poorLow } = a.poorExtremes
    if (poorHigh !== null)
      out.push({ kind: 'poor-high', time: p.time, low: poorHigh.low, high: poorHigh.high, label: 'poor high' })
    if (poorLow !== null)
      out.push({ kind: 'poor-low', time: p.time, low: poorLow.low, high: poorLow.high, label: 'poor low' })
    const ot = a.openType
    if (ot !== null)
      out.push({
        kind: 'open-type',
        time: p.time,
        low: ot.open,
        high: ot.open,
        label: `${ot.type.replace(/-/g, ' ')}${ot.direction === null ? '' : ` ${ot.direction}`}`,
      })
    if (a.rangeExtension !== null) out.push(...extensions(p.time, a.rangeExtension))
    if (a.spike !== null)
      out.push({
        kind: 'spike',
        time: p.time,
        low: a.spike.low,
        high: a.spike.high,
        label: `spike ${a.spike.direction}`,
      })
  }
  return out
}
