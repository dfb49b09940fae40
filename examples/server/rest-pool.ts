// The REST history endpoints run in a small pool of worker threads, so that one caller's long footprint, TPO
// or candle range cannot hold the event loop that answers everyone else. Workers start on the first job and
// share the store's trade columns (copied once into SharedArrayBuffers); jobs wait in a bounded queue; a
// worker that dies fails its job (500) and is replaced on the next one.
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { TradeColumns } from '../../src/index.js'
import { RawBody } from './http.js'
import type { RestResult, RestRoute } from './rest.js'
import type { RestJob, RestReply, RestWorkerData } from './rest-worker.js'
import type { MarketStore } from './store.js'

/** A pool of REST workers. */
export interface RestPool {
  /** Runs an endpoint in a worker (the 200 body comes back serialised); `undefined` when the queue is full. */
  run(route: RestRoute, search: string, now: number): Promise<RestResult> | undefined
  /** Jobs running and waiting now, and jobs answered so far. */
  readonly load: { running: number; queued: number; done: number }
  /** Stops every worker. */
  close(): Promise<void>
}

/** A worker's failure, answered 500 `internal` (logged with the request id by the server). */
export class WorkerFailed extends Error {}

function shared<T extends Float64Array | Uint8Array>(a: T): T {
  if (a.buffer instanceof SharedArrayBuffer) return a
  const sab = new SharedArrayBuffer(a.byteLength)
  const copy = new (a.constructor as { new (b: SharedArrayBuffer): T })(sab)
  copy.set(a)
  return copy
}

function sharedColumns(c: TradeColumns): TradeColumns {
  return {
    time: shared(c.time),
    price: shared(c.price),
    volume: shared(c.volume),
    side: shared(c.side),
    ...(c.session === undefined ? {} : { session: shared(c.session) }),
  }
}

/**
 * The bootstrap of a worker running a TypeScript module: registers tsx's hooks inside the worker, then imports
 * it (Node 20 does not apply `--import tsx` to a worker's entry module).
 */
function tsWorkerSource(url: URL): string {
  const api = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href
  return `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}) })`
}

interface Slot {
  worker: Worker
  ready: Promise<void>
  job?: { id: number; resolve(r: RestResult): void; reject(e: Error): void }
}

/** A pool of `size` workers over `store`'s catalog and trades, with at most `maxQueued` jobs waiting. */
export function createRestPool(store: MarketStore, opts: { size: number; maxQueued: number }): RestPool {
  let data: RestWorkerData | undefined
  const slots: Array<Slot | undefined> = new Array(opts.size).fill(undefined)
  const waiting: Array<{ job: RestJob; resolve(r: RestResult): void; reject(e: Error): void }> = []
  let nextId = 0
  let done = 0
  let closed = false

  function spawn(i: number): Slot {
    data ??= {
      catalog: store.catalog,
      trades: store.all().map((s) => [s.security.guid, sharedColumns(s.trades)]),
      floors: store
        .all()
        .flatMap((s) => (s.dataFloor === undefined ? [] : [[s.security.guid, s.dataFloor] as [string, number]])),
    }
    const worker = new Worker(tsWorkerSource(new URL('./rest-worker.ts', import.meta.url)), {
      eval: true,
      workerData: data,
    })
    const slot: Slot = {
      worker,
      ready: new Promise<void>((resolve, reject) => {
        worker.once('message', () => resolve())
        worker.once('error', reject)
      }),
    }
    const fail = (e: Error): void => {
      if (slots[i] === slot) slots[i] = undefined
      const job = slot.job
      slot.job = undefined
      job?.reject(new WorkerFailed(`REST worker failed: ${e.message}`))
      pump()
    }
    worker.on('error', fail)
    worker.on('exit', (code) => fail(new Error(`exited with code ${code}`)))
    worker.on('message', (m: RestReply | { ready: true }) => {
      if (!('id' in m) || slot.job?.id !== m.id) return
      const job = slot.job
      slot.job = undefined
      done++
      if ('failed' in m) job.reject(new WorkerFailed(`REST worker: ${m.failed}`))
      else if (m.ok) job.resolve({ ok: true, body: new RawBody(m.bytes), price: m.price })
      else job.resolve({ ok: false, error: m.error })
      pump()
    })
    slots[i] = slot
    return slot
  }

  function pump(): void {
    if (closed) return
    for (let i = 0; i < slots.length && waiting.length > 0; i++) {
      const slot = slots[i] ?? spawn(i)
      if (slot.job !== undefined) continue
      const next = waiting.shift()!
      slot.job = { id: next.job.id, resolve: next.resolve, reject: next.reject }
      slot.ready.then(
        () => slot.worker.postMessage(next.job),
        (e: Error) => slot.job?.reject(new WorkerFailed(`REST worker did not start: ${e.message}`)),
      )
    }
  }

  return {
    run(route, search, now) {
      const busy = slots.filter((s) => s?.job !== undefined).length
      if (closed || (busy >= opts.size && waiting.length >= opts.maxQueued)) return undefined
      return new Promise<RestResult>((resolve, reject) => {
        waiting.push({ job: { id: nextId++, route, search, now }, resolve, reject })
        pump()
      })
    },
    get load() {
      return { running: slots.filter((s) => s?.job !== undefined).length, queued: waiting.length, done }
    },
    async close() {
      closed = true
      for (const w of waiting.splice(0)) w.reject(new WorkerFailed('server closing'))
      await Promise.all(slots.map((s) => s?.worker.terminate()))
    },
  }
}
