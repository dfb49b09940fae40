// A zombie: a worker stopped with SIGSTOP past its lease while another takes its partitions over, then let go
// on with SIGCONT. Its commits are refused (the epoch moved on), the refusals are recorded, and the store is
// exactly what the batch functions give.
import { afterAll, describe, expect, it } from 'vitest'
import { countRows } from './commit.js'
import { waitForPositions } from './embedded.js'
import { diffBars, expectedBars, storedBars } from './expected.js'
import { leaseTable } from './leases.js'
import { clockPositions, type LiveCluster, startLiveCluster } from './live-cluster.js'
import { publishMessages } from './publisher.js'
import { replayMessages, sampleSecurities } from './replay.js'

let cluster: LiveCluster | undefined
afterAll(async () => {
  await cluster?.stop()
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('pipeline with a zombie worker', () => {
  it('refuses the commits of a worker that lost its lease while paused', async () => {
    const partitions = 8
    const securities = sampleSecurities({ securities: 16, tradesPerDay: 2500 })
    const messages = replayMessages(securities, partitions)
    cluster = await startLiveCluster({ nodes: 1, replicas: 1, partitions, securities })
    const c = cluster
    const zombie = c.worker('w1', { leaseMs: 2000 })
    c.worker('w2', { leaseMs: 2000 })
    const n = messages.length
    let held: number[] = []
    const stats = await publishMessages(c.nc, messages, {
      async onProgress(done) {
        if (done !== Math.floor(n * 0.3)) return
        // both workers hold partitions and have applied some of the stream
        for (;;) {
          const t = await leaseTable(c.sql)
          held = t.filter((r) => r.owner === 'w1').map((r) => r.partition)
          if (held.length > 0 && t.every((r) => r.owner !== null)) break
          await sleep(100)
        }
        process.kill(zombie.pid, 'SIGSTOP')
        for (;;) {
          const t = await leaseTable(c.sql)
          if (t.every((r) => r.owner === 'w2')) break
          await sleep(100)
        }
        process.kill(zombie.pid, 'SIGCONT')
      },
    })
    expect(held.length).toBeGreaterThan(0)
    expect(stats.published).toBe(n)
    await waitForPositions(c.sql, await clockPositions(c.jsm, securities, partitions), 150_000)
    const fenced = await c.sql.query<{ worker: string; partition: number }>(
      'select worker, partition from fenced_commits',
    )
    // every partition the zombie held when it was stopped saw its commit refused (another worker, slowed past its
    // own lease on this busy machine, may be refused too: the fence is the same)
    for (const p of held)
      expect(
        fenced.some((f) => f.worker === 'w1' && f.partition === p),
        `partition ${p}`,
      ).toBe(true)
    expect(diffBars(expectedBars(securities), await storedBars(c.sql))).toEqual([])
    expect(await countRows(c.sql, 'dead_letters')).toBe(0)
  })
})
