// Which live worker should own which partition: the partitions in order dealt round-robin over the live
// workers sorted by id. Every worker computes the same answer from the same list, so no coordinator is
// needed; a worker only takes a partition whose lease is free or expired and gives up, after a commit, one
// that the answer gives to another live worker.

/** The owner every partition should have, `partitions` entries; `undefined` entries when no worker is alive. */
export function assignPartitions(workers: readonly string[], partitions: number): (string | undefined)[] {
  const live = [...new Set(workers)].sort()
  const out: (string | undefined)[] = []
  for (let p = 0; p < partitions; p++) out.push(live.length === 0 ? undefined : live[p % live.length])
  return out
}
