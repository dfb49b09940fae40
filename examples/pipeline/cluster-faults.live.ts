// A 3-node JetStream cluster (stream replicas 3), Postgres and worker processes; mid-stream a worker is killed
// with SIGKILL, then the node leading the stream, then a fourth worker joins. The store must end equal to the
// batch functions over every trade, minute for minute and byte for byte: nothing lost, nothing twice.
import { afterAll, describe, expect, it } from 'vitest'
import { countRows } from './commit.js'
import { waitForPositions } from './embedded.js'
import { diffBars, expectedBars, storedBars } from './expected.js'
import { clockPositions, type LiveCluster, startLiveCluster } from './live-cluster.js'
import { publishMessages } from './publisher.js'
import { replayMessages, sampleSecurities } from './replay.js'

let cluster: LiveCluster | undefined
afterAll(async () => {
  await cluster?.stop()
})

describe('pipeline on a 3-node cluster', () => {
  it('keeps every trade exactly once through a worker kill, a stream leader kill and a worker joining', async () => {
    const partitions = 12
    const securities = sampleSecurities({ securities: 50, tradesPerDay: 4000 })
    const messages = replayMessages(securities, partitions)
    expect(messages.length).toBeGreaterThanOrEqual(200_000)
    cluster = await startLiveCluster({ nodes: 3, replicas: 3, partitions, securities })
    const c = cluster
    for (const id of ['w1', 'w2', 'w3']) c.worker(id)
    const n = messages.length
    const faults: string[] = []
    let killedNode = -1
    const stats = await publishMessages(c.nc, messages, {
      async onProgress(done) {
        if (done === Math.floor(n * 0.2)) {
          await c.workers.get('w1')!.stop('SIGKILL')
          faults.push(`w1 killed at ${done}`)
        } else if (done === Math.floor(n * 0.4)) {
          killedNode = await c.streamLeader()
          await c.nats.nodes[killedNode]!.process().stop('SIGKILL')
          faults.push(`leader ${c.nats.nodes[killedNode]!.name} killed at ${done}`)
        } else if (done === Math.floor(n * 0.6)) {
          c.worker('w4')
          faults.push(`w4 started at ${done}`)
        }
      },
    })
    expect(faults).toHaveLength(3)
    expect(stats.published).toBe(n)
    await c.nats.nodes[killedNode]!.start()
    await waitForPositions(c.sql, await clockPositions(c.jsm, securities, partitions), 150_000)
    const diff = diffBars(expectedBars(securities), await storedBars(c.sql))
    expect(diff).toEqual([])
    expect(await countRows(c.sql, 'dead_letters')).toBe(0)
    // the stream holds every trade once: the publisher's retries were dropped as duplicates
    const info = await c.jsm.streams.info('TRADES')
    expect(info.state.messages).toBe(n)
  })
})
