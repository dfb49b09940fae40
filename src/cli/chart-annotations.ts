// The profile analytics a TPO bar chart marks when the command line asks for both (--chart bars --analytics):
// single-print zones and poor highs / lows of each period, as the chart's annotations.
import { poorExtremes, singlePrintZones } from '../analytics/index.js'
import type { TpoChartAnnotation } from '../render/index.js'
import type { TpoProfile } from '../tpo/index.js'

/** Annotations of every period: its single-print zones (tails are already drawn as excess) and poor extremes. */
export function tpoAnalyticsAnnotations(profiles: readonly TpoProfile[]): TpoChartAnnotation[] {
  const out: TpoChartAnnotation[] = []
  for (const p of profiles) {
    for (const z of singlePrintZones(p)) {
      if (z.kind === 'single-prints')
        out.push({ kind: 'single-prints', time: p.time, low: z.low, high: z.high, label: 'single prints' })
    }
    const { poorHigh, poorLow } = poorExtremes(p)
    if (poorHigh !== null)
      out.push({ kind: 'poor-high', time: p.time, low: poorHigh.low, high: poorHigh.high, label: 'poor high' })
    if (poorLow !== null)
      out.push({ kind: 'poor-low', time: p.time, low: poorLow.low, high: poorLow.high, label: 'poor low' })
  }
  return out
}
