// End-to-end bench of the live pipeline: trades published onto JetStream, consumed by 1, 2, 3 worker
// processes, committed to Postgres. Prints, per worker count, trades a second from the first publish to the
// last commit, publish -> committed latency (p50, p99, from the partition positions polled every 50 ms), commits
// a second and checkpoint sizes; and the broker's own bounds: publish rate (acknowledged, the publisher's
// window) and an ordered consumer reading the whole stream without doing anything.
//   npm run bench:pipeline -- [--securities 500] [--trades-per-day 10000] [--workers 1,2,3] [--nodes 1] [--partitions 16]
import { DeliverPolicy } from '@nats-io/jetstream'
import { waitForPositions } from '../examples/pipeline/embedded.js'
import { leaseTable } from '../examples/pipeline/leases.js'
import { clockPositions, startLiveCluster } from '../examples/pipeline/live-cluster.js'
import { retry } from '../examples/pipeline/nats-source.js'
import { publishMessages } from '../examples/pipeline/publisher.js'
import { replayMessages, sampleSecurities } from '../examples/pipeline/replay.js'
import { num } from '../examples/pipeline/sql.js'
import { parseSubject, TRADES_STREAM } from '../examples/pipeline/subjects.js'

const arg = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? (process.argv[i + 1] ?? dflt) : dflt
}
const securitiesN = Number(arg('securities', '500'))
const tradesPerDay = Number(arg('trades-per-day', '10000'))
const workerCounts = arg('workers', '1,2,3').split(',').map(Number)
const nodes = Number(arg('nodes', '1'))
const partitions = Number(arg('partitions', '16'))

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN
}

const securities = sampleSecurities({ securities: securitiesN, tradesPerDay })
const messages = replayMessages(securities, partitions)
const trades = messages.length - partitions
console.log(
  `pipeline bench: ${trades} trades over ${securitiesN} securities, ${partitions} partitions, ${nodes} NATS node(s) (replicas ${nodes}), Postgres 15`,
)

for (const w of workerCounts) {
  const c = await startLiveCluster({ nodes, replicas: nodes, partitions, securities })
  try {
    for (let i = 1; i <= w; i++) c.worker(`w${i}`)
    // workers up and holding every partition before the clock starts
    for (;;) {
      const t = await leaseTable(c.sql)
      if (t.every((r) => r.owner !== null) && new Set(t.map((r) => r.owner)).size === w) break
      await new Promise((r) => setTimeout(r, 100))
    }
    const [x0] = await c.sql.query<{ n: unknown }>(
      `select xact_commit as n from pg_stat_database where datname = current_database()`,
    )
    const seqOf: { partition: number; seq: number; at: number }[] = []
    const t0 = Date.now()
    let done = false
    const committedAt = new Map<number, { position: number; at: number }[]>()
    const poll = (async () => {
      while (!done) {
        const now = Date.now()
        for (const r of await leaseTable(c.sql)) {
          let l = committedAt.get(r.partition)
          if (l === undefined) committedAt.set(r.partition, (l = []))
          if (l.length === 0 || l[l.length - 1]!.position !== r.position) l.push({ position: r.position, at: now })
        }
        await new Promise((r) => setTimeout(r, 50))
      }
    })()
    const pub = await publishMessages(c.nc, messages, {
      window: 1024,
      onAck(i, seq, at) {
        if (i % 97 === 0) {
          const s = parseSubject(messages[i]!.subject)
          if (s.kind === 'trade') seqOf.push({ partition: s.partition, seq, at })
        }
      },
    })
    await waitForPositions(c.sql, await clockPositions(c.jsm, securities, partitions), 1_800_000)
    const ms = Date.now() - t0
    done = true
    await poll
    const [x1] = await c.sql.query<{ n: unknown }>(
      `select xact_commit as n from pg_stat_database where datname = current_database()`,
    )
    const lat = seqOf.map((s) => {
      const hit = (committedAt.get(s.partition) ?? []).find((e) => e.position >= s.seq)
      return (hit?.at ?? t0 + ms) - s.at
    })
    const [ck] = await c.sql.query<{ avg: unknown; max: unknown; n: unknown }>(
      'select avg(length(state)) as avg, max(length(state)) as max, count(*) as n from pipeline_checkpoints',
    )
    console.log(
      `${w} worker(s): ${Math.round(trades / (ms / 1000))} trades/s end to end (${ms} ms); publish ${Math.round(pub.published / (pub.ms / 1000))} msg/s acknowledged; ` +
        `latency publish -> committed p50 ${pct(lat, 50)} ms, p99 ${pct(lat, 99)} ms; ` +
        `${Math.round((num(x1?.n) - num(x0?.n)) / (ms / 1000))} commits/s (all transactions); ` +
        `checkpoint ${Math.round(num(ck?.avg))} B average, ${num(ck?.max)} B largest, ${num(ck?.n)} securities`,
    )
    if (w === workerCounts[workerCounts.length - 1]) {
      // the broker's own consume rate: one ordered consumer over the whole stream, nothing done with the messages
      const consumer = await retry(() =>
        c.js.consumers.get(TRADES_STREAM, { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: 1 }),
      )
      const r0 = Date.now()
      let n = 0
      while (n < messages.length) {
        const it = await consumer.fetch({ max_messages: 5000, expires: 2000 })
        for await (const _ of it) n++
      }
      console.log(`broker bound: one ordered consumer reads ${Math.round(n / ((Date.now() - r0) / 1000))} msg/s`)
    }
  } finally {
    await c.stop()
  }
}
