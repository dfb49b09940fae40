// Bad records mixed into the stream (malformed, refused by the library's rules, late, past maxTime, off the
// tick grid, of an unknown security): each is refused, counted and kept with its reason, never stalls its
// partition, and the store holds exactly what the batch functions give for the good trades.
import { afterAll, describe, expect, it } from 'vitest'
import { countRows } from './commit.js'
import { waitForPositions } from './embedded.js'
import { diffBars, expectedBars, storedBars } from './expected.js'
import { clockPositions, type LiveCluster, startLiveCluster } from './live-cluster.js'
import { publishMessages } from './publisher.js'
import { badMessages } from './bad-messages.js'
import { replayMessages, sampleSecurities } from './replay.js'

let cluster: LiveCluster | undefined
afterAll(async () => {
  await cluster?.stop()
})

describe('pipeline with bad records on the stream', () => {
  it('refuses, counts and keeps each with its reason; the rest is exact', async () => {
    const partitions = 6
    const securities = sampleSecurities({ securities: 12, tradesPerDay: 2000 })
    const good = replayMessages(securities, partitions)
    const { messages, reasons } = badMessages(good, securities, partitions)
    cluster = await startLiveCluster({ nodes: 1, replicas: 1, partitions, securities })
    const c = cluster
    c.worker('w1')
    c.worker('w2')
    await publishMessages(c.nc, messages)
    await waitForPositions(c.sql, await clockPositions(c.jsm, securities, partitions), 120_000)
    expect(diffBars(expectedBars(securities), await storedBars(c.sql))).toEqual([])
    expect(await countRows(c.sql, 'dead_letters')).toBe(reasons.length)
    const kept = await c.sql.query<{ payload: string; reason: string }>(
      'select payload, reason from dead_letters order by partition, stream_seq',
    )
    for (const r of reasons) {
      const hit = kept.find((k) => k.payload === r.payload)
      expect(hit?.reason, r.payload).toMatch(r.reason)
    }
  })
})
