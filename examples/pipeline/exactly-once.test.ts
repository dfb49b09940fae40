// Exactly-once on the embedded database (PGlite): a worker that dies between commits, the stream read again
// from the committed position by the next owner, a commit under a lost lease, a checkpoint through the text
// column it is stored in, and bad records mixed into the feed.
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { badMessages } from './bad-messages.js'
import { commitPartition, countRows, LeaseLost } from './commit.js'
import { asStream, lastPositions, runEmbedded, streamSource, waitForPositions } from './embedded.js'
import { diffBars, expectedBars, storedBars } from './expected.js'
import { acquireLease, leaseTable } from './leases.js'
import { createPartitionState } from './partition-state.js'
import { replayMessages, sampleSecurities } from './replay.js'
import { ensureSchema, registerSecurities } from './schema.js'
import { createSecurityState, type SecurityCheckpoint } from './security-state.js'
import { openPglite, type Sql } from './sql.js'
import { startWorker } from './worker.js'
import { columnsToTrades } from '../../src/index.js'

let sql: Sql | undefined
afterEach(async () => {
  await sql?.close()
  sql = undefined
})

const securities = sampleSecurities({ securities: 5, tradesPerDay: 1500 })

describe('exactly-once on the embedded store', () => {
  it('a worker dying between commits loses nothing and counts nothing twice', async () => {
    sql = await openPglite()
    const partitions = 3
    const stream = asStream(replayMessages(securities, partitions))
    await ensureSchema(sql, partitions)
    await registerSecurities(sql, securities)
    const source = streamSource(stream)
    const first = startWorker({ id: 'a', sql, source, partitions, leaseMs: 600, batch: 400, commitEveryMs: 50 })
    // let it commit part of the stream, then kill it: what it applied since its last commit is lost with it
    for (;;) {
      const t = await leaseTable(sql)
      if (t.some((r) => r.position > 0)) break
      await new Promise((r) => setTimeout(r, 20))
    }
    await first.abort()
    const mid = await leaseTable(sql)
    const last = lastPositions(stream)
    expect([...last].some(([p, seq]) => mid[p]!.position < seq)).toBe(true)
    const second = startWorker({ id: 'b', sql, source, partitions, leaseMs: 600 })
    await waitForPositions(sql, last, 60_000)
    await second.stop()
    const after = await leaseTable(sql)
    expect(after.every((r) => r.epoch >= 2)).toBe(true)
    expect(diffBars(expectedBars(securities), await storedBars(sql))).toEqual([])
  }, 90_000)

  it('refuses a commit under a lease another worker took, writing nothing', async () => {
    sql = await openPglite()
    await ensureSchema(sql, 1)
    await registerSecurities(sql, securities)
    const stale = (await acquireLease(sql, 0, 'a', 1))!
    await new Promise((r) => setTimeout(r, 5))
    const fresh = (await acquireLease(sql, 0, 'b', 60_000))!
    expect(fresh.epoch).toBe(stale.epoch + 1)
    const state = createPartitionState({
      lease: stale,
      checkpoints: [],
      tickSizes: () => securities[0]!.tickSize,
    })
    for (const m of asStream(replayMessages(securities.slice(0, 1), 1))) state.apply(m)
    const c = state.pending()
    expect(c.bars.length).toBeGreaterThan(0)
    await expect(commitPartition(sql, 'a', c, 1000)).rejects.toBeInstanceOf(LeaseLost)
    expect(await countRows(sql, 'minute_bars')).toBe(0)
    expect((await leaseTable(sql))[0]).toMatchObject({ owner: 'b', epoch: fresh.epoch, position: 0 })
  })

  it('a checkpoint through the text column continues a security exactly, wherever the stream stops', async () => {
    sql = await openPglite()
    const db = sql
    const s = securities[1]!
    const trades = columnsToTrades(s.trades)
    const want = [...expectedBars([s]).values()].sort()
    const end = trades[trades.length - 1]!.time + 86_400_000
    const text = (b: { candle: object; footprint: object; openTime: number; closeTime: number }) =>
      `${JSON.stringify(b.candle)}|${JSON.stringify(b.footprint)}|${b.openTime}|${b.closeTime}`
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: trades.length }), async (cut) => {
        const opts = { exchange: s.exchange, symbol: s.symbol, tickSize: s.tickSize }
        const a = createSecurityState(opts)
        for (const t of trades.slice(0, cut)) a.add(t)
        const got = a.takeClosed()
        const [row] = await db.query<{ t: string }>('select $1::text as t', [JSON.stringify(a.checkpoint())])
        const b = createSecurityState(opts, JSON.parse(row!.t) as SecurityCheckpoint)
        for (const t of trades.slice(cut)) b.add(t)
        b.advance(end)
        got.push(...b.takeClosed())
        expect(got.map(text).sort()).toEqual(want)
      }),
      { numRuns: 12 },
    )
  }, 60_000)

  it('keeps bad records with their reasons and stays exact for the rest', async () => {
    sql = await openPglite()
    const partitions = 2
    const { messages, reasons } = badMessages(replayMessages(securities, partitions), securities, partitions)
    await runEmbedded({ sql, securities, messages, partitions })
    expect(diffBars(expectedBars(securities), await storedBars(sql))).toEqual([])
    const kept = await sql.query<{ payload: string; reason: string }>('select payload, reason from dead_letters')
    expect(kept).toHaveLength(reasons.length)
    for (const r of reasons) expect(kept.find((k) => k.payload === r.payload)?.reason, r.payload).toMatch(r.reason)
  }, 60_000)
})
