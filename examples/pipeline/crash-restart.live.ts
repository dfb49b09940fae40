// Everything killed mid-stream (every worker and every NATS node with SIGKILL, Postgres in immediate mode: a
// crash, no shutdown checkpoint) and started again: the store ends as if nothing had happened.
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

describe('pipeline after a crash of every process', () => {
  it('ends with the same store', async () => {
    const partitions = 8
    const securities = sampleSecurities({ securities: 20, tradesPerDay: 2500 })
    const messages = replayMessages(securities, partitions)
    cluster = await startLiveCluster({ nodes: 3, replicas: 3, partitions, securities })
    const c = cluster
    const ids = ['w1', 'w2', 'w3']
    for (const id of ids) c.worker(id)
    const n = messages.length
    let crashed = false
    const stats = await publishMessages(c.nc, messages, {
      async onProgress(done) {
        if (done !== Math.floor(n / 2)) return
        // let the workers commit part of the first half, then crash everything at once
        await new Promise((r) => setTimeout(r, 1500))
        await Promise.all([
          ...ids.map((id) => c.workers.get(id)!.stop('SIGKILL')),
          ...c.nats.nodes.map((node) => node.process().stop('SIGKILL')),
          c.pg.stop('immediate'),
        ])
        crashed = true
        await c.pg.start()
        await Promise.all(c.nats.nodes.map((node) => node.start()))
        for (const id of ids) c.worker(id)
      },
    })
    expect(crashed).toBe(true)
    expect(stats.published).toBe(n)
    await waitForPositions(c.sql, await clockPositions(c.jsm, securities, partitions), 150_000)
    expect(diffBars(expectedBars(securities), await storedBars(c.sql))).toEqual([])
    expect(await countRows(c.sql, 'dead_letters')).toBe(0)
    const info = await c.jsm.streams.info('TRADES')
    expect(info.state.messages).toBe(n)
  })
})
