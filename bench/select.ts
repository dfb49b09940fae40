// Which workloads `--only` selects: pure, so it can be tested without running the bench.

/** True when `--only` entry `w` selects workload `id`: the id itself, or the id and one lowercase letter (`W3` -> `W3a`). */
export function selects(w: string, id: string): boolean {
  return id === w || (id.startsWith(w) && /^[a-z]$/.test(id.slice(w.length)))
}

/**
 * The workload ids (in run order) that the `--only` value selects, every id when it is undefined or empty;
 * throws naming an entry that selects nothing (an empty entry, as in `W1,`, included).
 */
export function selectWorkloads(ids: readonly string[], only: string | undefined): string[] {
  if (only === undefined || only === '') return [...ids]
  const wanted = only.split(',').map((s) => s.trim())
  for (const w of wanted)
    if (!ids.some((id) => selects(w, id)))
      throw new Error(`unknown workload ${JSON.stringify(w)}; known: ${ids.join(', ')}`)
  return ids.filter((id) => wanted.some((w) => selects(w, id)))
}

/** Whether a run rewrites bench/results.md and docs/performance.md: only a full run of every workload does. */
export function rewritesTables(quick: boolean, only: string | undefined): boolean {
  return !quick && (only === undefined || only === '')
}
