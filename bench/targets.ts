// The targets of a run in one table: each row with a target, what it measured, met or NOT MET, and for an
// unmet speed-up the bound: the fastest unchecked loop of the same group (same data, same process).
import type { Row } from './harness.js'
import { ratioText } from './table.js'

/** Rows of the group that are bounds: plain loops that check nothing (the float loops and ceilings). */
function isBound(r: Row): boolean {
  return (r.impl.startsWith('hand-written') || r.impl.startsWith('ceiling')) && r.median !== undefined
}

function rate(x: number): string {
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)
}

/** The fastest bound of `r`'s group, as a cell: its rate and its speed-up over `r`. */
function boundCell(rows: readonly Row[], r: Row): string {
  const bounds = rows.filter((b) => b.workload === r.workload && isBound(b))
  const best = bounds.reduce<Row | undefined>(
    (a, b) => (a === undefined || (b.median as number) > (a.median as number) ? b : a),
    undefined,
  )
  if (best === undefined || r.median === undefined) return ''
  return `${best.impl}: ${rate(best.median as number)} M/s, ${ratioText((best.median as number) / r.median)} this peer`
}

/**
 * The markdown table of every target in `rows` ('' when none has one). Speed-ups are library / peer medians
 * in the same process; where one is NOT MET the last column gives the group's fastest unchecked loop.
 */
export function targetSummary(rows: readonly Row[]): string {
  const out: string[] = []
  const esc = (s: string) => s.replace(/\|/g, '\\|')
  const line = (r: Row, target: string, measured: string, met: boolean | undefined, bound = '') =>
    out.push(
      `| ${esc(r.workload)} | ${esc(r.impl)} | ${target} | ${measured} | ${met === undefined ? 'not measured' : met ? 'met' : 'NOT MET'} | ${esc(bound)} |`,
    )
  for (const r of rows) {
    if (r.target !== undefined)
      line(
        r,
        `>= ${r.target} M/s`,
        r.median === undefined ? '—' : `${rate(r.median)} M/s`,
        r.median === undefined ? undefined : r.median >= r.target,
      )
    if (r.speedupTarget !== undefined) {
      const met = r.speedup === undefined ? undefined : r.speedup >= r.speedupTarget
      line(
        r,
        `library >= ${r.speedupTarget}x`,
        r.speedup === undefined ? '—' : ratioText(r.speedup),
        met,
        met === false ? boundCell(rows, r) : '',
      )
    }
    for (const t of r.ratioTargets ?? []) {
      const met = t.ratio === undefined ? undefined : t.ratio >= t.min
      line(
        r,
        `${t.of.replace(/^library /, '')} >= ${t.min}x`,
        t.ratio === undefined ? '—' : ratioText(t.ratio),
        met,
        met === false ? boundCell(rows, r) : '',
      )
    }
    if (r.rssTargetMb !== undefined)
      line(
        r,
        `peak RSS < ${r.rssTargetMb} MB`,
        r.rssPeakMb === undefined ? '—' : `${r.rssPeakMb.toFixed(0)} MB`,
        r.rssPeakMb === undefined ? undefined : r.rssPeakMb < r.rssTargetMb,
      )
  }
  if (out.length === 0) return ''
  return [
    '| workload | row (the peer, for speed-ups) | target | measured | | bound where not met: fastest unchecked loop, same data and run |',
    '| --- | --- | --- | ---: | --- | --- |',
    ...out,
    '',
  ].join('\n')
}
