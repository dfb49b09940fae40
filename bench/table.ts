// Table rendering for the console and for bench/results.md.
import { human } from './data.js'
import type { Row } from './harness.js'

const HEAD = [
  'workload',
  'implementation',
  'N',
  'M rec/s median (min..max)',
  'library speed-up',
  'peak RSS MB (+row)',
  'check',
  'target',
]

function rate(r: Row): string {
  if (r.median === undefined) return '—'
  const f = (x: number) =>
    x >= 100
      ? x.toFixed(0)
      : x >= 10
        ? x.toFixed(1)
        : x >= 1
          ? x.toFixed(2)
          : x >= 0.01
            ? x.toFixed(3)
            : x.toPrecision(2)
  return `${f(r.median)} (${f(r.min as number)}..${f(r.max as number)})`
}

/** A speed-up as the table prints it: 2.5x, 12x. */
export function ratioText(x: number): string {
  return `${x >= 10 ? x.toFixed(0) : x >= 2 ? x.toFixed(1) : x.toFixed(2)}x`
}

function cells(r: Row): string[] {
  const targets: string[] = []
  if (r.target !== undefined)
    targets.push(
      r.median === undefined ? `>= ${r.target} M/s` : `>= ${r.target} M/s ${r.median >= r.target ? 'met' : 'NOT MET'}`,
    )
  if (r.speedupTarget !== undefined) {
    targets.push(
      r.speedup === undefined
        ? `library >= ${r.speedupTarget}x`
        : `library >= ${r.speedupTarget}x ${r.speedup >= r.speedupTarget ? 'met' : 'NOT MET'}`,
    )
  }
  for (const t of r.ratioTargets ?? []) {
    const who = t.of.replace(/^library /, '')
    targets.push(
      t.ratio === undefined
        ? `${who} >= ${t.min}x`
        : `${who} >= ${t.min}x: ${ratioText(t.ratio)} ${t.ratio >= t.min ? 'met' : 'NOT MET'}`,
    )
  }
  if (r.rssTargetMb !== undefined) {
    targets.push(
      r.rssPeakMb === undefined
        ? `RSS < ${r.rssTargetMb} MB`
        : `RSS < ${r.rssTargetMb} MB ${r.rssPeakMb < r.rssTargetMb ? 'met' : 'NOT MET'}`,
    )
  }
  const target = targets.join('; ')
  const mem =
    r.rssPeakMb === undefined ? '—' : `${r.rssPeakMb.toFixed(0)} (+${Math.max(0, r.rssDeltaMb ?? 0).toFixed(0)})`
  const check =
    r.check === 'not available' || r.check === 'error' || r.check === 'MISMATCH'
      ? `${r.check}: ${r.note ?? ''}`
      : r.note !== undefined
        ? `${r.check}; ${r.note}`
        : r.check
  return [
    r.workload,
    r.impl,
    r.n > 0 ? `${human(r.n)} ${r.unit}` : '',
    rate(r),
    r.speedup === undefined ? '' : ratioText(r.speedup),
    mem,
    check,
    target,
  ]
}

/** Fixed-width text table; the workload is printed once per group. */
export function formatTable(rows: readonly Row[], opts: { header: boolean }): string {
  const body = rows.map(cells)
  let last = ''
  for (const c of body) {
    if (opts.header && c[0] === last) c[0] = ''
    else last = c[0] as string
  }
  const all = opts.header ? [HEAD, ...body] : body
  const widths = HEAD.map((_, j) => Math.min(j === 6 ? 70 : 60, Math.max(...all.map((c) => (c[j] as string).length))))
  const line = (c: string[]) =>
    c
      .map((x, j) => {
        const w = opts.header ? (widths[j] as number) : 0
        return j === 2 || j === 3 || j === 4 || j === 5 ? x.padStart(w) : x.padEnd(w)
      })
      .join(opts.header ? '  ' : ' | ')
      .trimEnd()
  return all.map(line).join('\n')
}

/** bench/results.md: the machine, how it ran, the table. */
export function markdownTable(
  rows: readonly Row[],
  meta: { machine: string; date: string; seconds: number; load: [string, string] },
): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|')
  const out = [
    '<!-- written by `npm run bench`; do not edit by hand -->',
    `Run: full, ${meta.date.slice(0, 16).replace('T', ' ')} UTC, ${meta.seconds.toFixed(0)} s. Machine: ${meta.machine}. Load average (1 / 5 / 15 min): ${meta.load[0]} before, ${meta.load[1]} after.`,
    '',
    `| ${HEAD.join(' | ')} |`,
    `| ${HEAD.map((_, j) => (j >= 2 && j <= 5 ? '---:' : '---')).join(' | ')} |`,
  ]
  let last = ''
  for (const r of rows) {
    const c = cells(r).map(esc)
    if (c[0] === last) c[0] = ''
    else last = c[0] as string
    out.push(`| ${c.join(' | ')} |`)
  }
  out.push('')
  return out.join('\n')
}

/** Replaces the text between `<!-- bench:<key>:start -->` and `<!-- bench:<key>:end -->` in a file; false when the markers are missing. */
export function replaceBlock(text: string, key: string, body: string): string | undefined {
  const a = `<!-- bench:${key}:start -->`
  const b = `<!-- bench:${key}:end -->`
  const i = text.indexOf(a)
  const j = text.indexOf(b)
  if (i < 0 || j < i) return undefined
  return `${text.slice(0, i + a.length)}\n${body.trimEnd()}\n${text.slice(j)}`
}
