// The local services the live suites stand on: a 3-node JetStream cluster that keeps a replicated stream
// through the loss of a node, and a Postgres server that comes back after an immediate (crash) stop.
import { jetstream, jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { startNatsCluster, type NatsCluster } from './nats.js'
import { startPostgres, type LocalPostgres } from './postgres.js'

let cluster: NatsCluster | undefined
let db: LocalPostgres | undefined
afterAll(async () => {
  await cluster?.stop()
  await db?.destroy()
})

async function retry<T>(what: () => Promise<T>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms
  for (;;) {
    try {
      return await what()
    } catch (e) {
      if (Date.now() > until) throw e
      await new Promise((r) => setTimeout(r, 250))
    }
  }
}

describe('local services', () => {
  it('a 3-node JetStream cluster keeps an R3 stream through a node kill, and drops a duplicate id', async () => {
    cluster = await startNatsCluster({ nodes: 3 })
    const nc = await connect({ servers: [...cluster.servers] })
    try {
      const jsm = await retry(() => jetstreamManager(nc))
      await retry(() => jsm.streams.add({ name: 'T', subjects: ['t.>'], num_replicas: 3 }))
      const js = jetstream(nc)
      for (let i = 0; i < 20; i++) await retry(() => js.publish(`t.${i % 4}`, `m${i}`, { msgID: `id-${i}` }))
      const dup = await js.publish('t.0', 'again', { msgID: 'id-0' })
      expect(dup.duplicate).toBe(true)
      await cluster.nodes[0]!.process().stop('SIGKILL')
      for (let i = 20; i < 30; i++) await retry(() => js.publish(`t.${i % 4}`, `m${i}`, { msgID: `id-${i}` }))
      const info = await retry(() => jsm.streams.info('T'))
      expect(info.state.messages).toBe(30)
      await cluster.nodes[0]!.start()
    } finally {
      await nc.close()
    }
  })

  it('Postgres starts on a free port and recovers from an immediate stop', async () => {
    db = await startPostgres()
    const c1 = new pg.Client({ connectionString: db.url })
    await c1.connect()
    await c1.query('create table t (x int)')
    await c1.query('insert into t values (1), (2)')
    await c1.end()
    await db.stop('immediate')
    await db.start()
    const c2 = new pg.Client({ connectionString: db.url })
    await c2.connect()
    const r = await c2.query('select count(*)::int as n from t')
    await c2.end()
    expect(r.rows[0].n).toBe(2)
  })
})
