// The last line of defence: an exception nothing caught, or a promise rejection nobody handled, is logged and
// answered 500 `internal` for the request it happened in (found through the request's async context), and
// the process goes on serving. Input never gets here: bodies are bounded and library errors are answered 400
// where they are thrown; this guard is for the server's own bugs, so that one of them cannot end the process.
import { AsyncLocalStorage } from 'node:async_hooks'
import type { ServerResponse } from 'node:http'
import { INTERNAL_ERROR_BODY, send } from './http.js'

/** The request a piece of work belongs to. */
export interface RequestScope {
  requestId: string
  res: ServerResponse
}

/** Carries the current request through every callback and promise its handling starts. */
export const requestScope = new AsyncLocalStorage<RequestScope>()

/**
 * Installs the process-wide handlers (`uncaughtException`, `unhandledRejection`); returns a function that
 * removes them. `log` gets one line per failure with the request id when there is one.
 */
export function installProcessGuard(log: (...args: unknown[]) => void = console.error): () => void {
  const onFailure =
    (kind: string) =>
    (e: unknown): void => {
      const scope = requestScope.getStore()
      log(`[${scope?.requestId ?? 'no request'}] ${kind} (the server goes on):`, e)
      if (scope === undefined) return
      const { res, requestId } = scope
      if (!res.headersSent && !res.destroyed) {
        send(res, { status: 500, headers: { 'x-request-id': requestId }, body: INTERNAL_ERROR_BODY })
      } else if (!res.writableEnded) res.destroy()
    }
  const uncaught = onFailure('uncaught exception')
  const rejection = onFailure('unhandled rejection')
  process.on('uncaughtException', uncaught)
  process.on('unhandledRejection', rejection)
  return () => {
    process.off('uncaughtException', uncaught)
    process.off('unhandledRejection', rejection)
  }
}
