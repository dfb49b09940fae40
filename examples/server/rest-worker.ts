// A worker thread of the REST pool (rest-pool.ts): it builds the store over the trade columns the server
// shares with it (SharedArrayBuffers, nothing copied), then answers history jobs one at a time, serialising
// each body to UTF-8 here, so that neither the aggregation nor the JSON of a large answer runs on the event loop.
import { parentPort, workerData } from 'node:worker_threads'
import type { TradeColumns } from '../../src/index.js'
import type { ApiError } from '../../src/service/index.js'
import type { Catalog } from './catalog.js'
import { answerRest } from './rest-answer.js'
import type { RestRoute } from './rest.js'
import { createStore } from './store.js'

/** What a worker starts with. */
export interface RestWorkerData {
  catalog: Catalog
  /** GUID -> trades, on shared memory. */
  trades: Array<[string, TradeColumns]>
  /** GUID -> data floor, for the securities that have their own. */
  floors: Array<[string, number]>
}

/** One job: an endpoint, its query string and the request's clock reading. */
export interface RestJob {
  id: number
  route: RestRoute
  search: string
  now: number
}

/** A job's outcome: the serialised 200 body and its price, an error answer, or a failure (a bug: 500). */
export type RestReply =
  | { id: number; ok: true; bytes: Uint8Array; price: number }
  | { id: number; ok: false; error: ApiError }
  | { id: number; failed: string }

const port = parentPort
if (port !== null) {
  const data = workerData as RestWorkerData
  const store = createStore(data.catalog, new Map(data.trades), new Map(data.floors))
  port.on('message', (job: RestJob) => {
    let reply: RestReply
    try {
      const r = answerRest(job.route, new URLSearchParams(job.search), { store, now: job.now })
      reply = r.ok
        ? { id: job.id, ok: true, bytes: new TextEncoder().encode(JSON.stringify(r.body)), price: r.price }
        : { id: job.id, ok: false, error: r.error }
    } catch (e) {
      reply = { id: job.id, failed: e instanceof Error ? (e.stack ?? e.message) : String(e) }
    }
    // the body's bytes are transferred, not copied
    port.postMessage(reply, 'bytes' in reply ? [reply.bytes.buffer as ArrayBuffer] : [])
  })
  port.postMessage({ ready: true })
}
