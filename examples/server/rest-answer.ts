// One REST endpoint's answer, the same on the event loop and in a worker thread (rest-pool.ts): the handler's
// result, or, when the library refused what the request asked for, the request's 400 (input-error.ts).
import { inputErrorOf } from './input-error.js'
import { handleRest, type RestContext, type RestResult, type RestRoute } from './rest.js'

/** The endpoints that aggregate trades over a range: computed in the worker pool when there is one. */
export const HISTORY_ENDPOINTS: ReadonlySet<RestRoute['endpoint']> = new Set([
  'candles',
  'footprint',
  'tpo',
  'row-size-scale',
])

/** Runs one endpoint; a MarketDataError becomes the request's 400, anything else is thrown (a bug, or the store). */
export function answerRest(route: RestRoute, query: URLSearchParams, ctx: RestContext): RestResult {
  try {
    return handleRest(route, query, ctx)
  } catch (e) {
    const input = inputErrorOf(e, query.keys())
    if (input === undefined) throw e
    return { ok: false, error: input }
  }
}
