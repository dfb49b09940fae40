// A library error thrown while a request is answered is the request's fault: the server's own data was checked
// when it was loaded, so what the library refuses is what the request asked for (a row size whose grid the
// prices cannot use, an option the aggregation cannot honour). It is answered 400 `invalid_argument` naming
// the query parameter, never 500.
import { MarketDataError } from '../../src/index.js'
import { invalidArgumentError, type ApiError } from '../../src/service/index.js'

/** `record 12: ` of a record error: the index is the server's own trade, meaningless to the client. */
const RECORD_PREFIX = /^record \d+: /

/**
 * The 400 a {@link MarketDataError} means for a request with these query parameters; `undefined` for any
 * other error (a bug: answered 500). The parameter named is the error's field when the request has it, else
 * the first of the request's parameters the message names.
 */
export function inputErrorOf(e: unknown, params: Iterable<string>): ApiError | undefined {
  if (!(e instanceof MarketDataError)) return undefined
  const message = e.message.replace(RECORD_PREFIX, '')
  const names = [...new Set(params)]
  const field = e.field
  const parameter =
    field !== undefined && names.includes(field)
      ? field
      : names.find((n) => /^[A-Za-z][A-Za-z0-9_]*$/.test(n) && new RegExp(`\\b${n}\\b`).test(message))
  if (parameter === undefined) return invalidArgumentError(`request: ${message}`)
  return invalidArgumentError(message.startsWith(`${parameter}:`) ? message : `${parameter}: ${message}`, parameter)
}
