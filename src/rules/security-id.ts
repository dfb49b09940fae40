import { invalidArgument, type Status } from '../partner/status.js'
import { err, ok, type Result } from '../result.js'
import { closedObject, field, join, readingJson } from './json-fields.js'
import { FIELD_MSG } from './messages.js'

/** Interface A SecurityId, as on the wire: exactly one of `guid` or `ticker_code {ticker, exchange_code}`. */
export type SecurityId = { guid: string } | { ticker_code: { ticker: string; exchange_code: string } }

/** Longest accepted identifier string (guid, ticker, exchange code). */
export const SECURITY_ID_STRING_MAX = 128

const TOP: ReadonlySet<string> = new Set(['guid', 'ticker_code'])
const TICKER: ReadonlySet<string> = new Set(['ticker', 'exchange_code'])

/**
 * Validates an interface A SecurityId: exactly one of `guid` (non-empty string) or `ticker_code` with both
 * `ticker` and `exchange_code` (non-empty strings); at most 128 characters each; unknown fields rejected by
 * name; `null` counts as absent. Returns a fresh object or a 3 INVALID_ARGUMENT Status naming the field
 * (prefixed by `path`, default `security_id`). Never throws.
 *
 * @param x - the value to check: anything, never trusted
 * @param path - see the type (optional)
 * @returns `{ ok: true, value }`, or `{ ok: false, error }` naming the field and the rule
 * @throws never: bad input is answered, not thrown
 * @example
 * parseSecurityId({ ticker_code: { ticker: 'AAPL', exchange_code: 'XNAS' } }) // { ok: true, value: { ticker_code: { ticker: 'AAPL', exchange_code: 'XNAS' } } }
 * parseSecurityId({ guid: 'a', ticker_code: { ticker: 'A', exchange_code: 'X' } }).ok // false: exactly one of guid or ticker_code
 */
export function parseSecurityId(x: unknown, path = 'security_id'): Result<SecurityId, Status> {
  if (typeof path !== 'string') return err(invalidArgument(FIELD_MSG.pathNotString()))
  return readingJson(path, () => readSecurityId(x, path))
}

function readSecurityId(x: unknown, path: string): Result<SecurityId, Status> {
  const closed = closedObject(x, path, TOP, FIELD_MSG.securityIdNotObject(path))
  if (!closed.ok) return closed
  const fields = closed.value
  const guid = field(fields, 'guid', path)
  const tickerCode = field(fields, 'ticker_code', path)
  if ((guid === undefined) === (tickerCode === undefined)) {
    return err(invalidArgument(FIELD_MSG.securityIdOneOf(path)))
  }
  if (guid !== undefined) {
    const g = idString(guid, join(path, 'guid'))
    return g.ok ? ok({ guid: g.value }) : g
  }
  const tcPath = join(path, 'ticker_code')
  const closedTc = closedObject(tickerCode, tcPath, TICKER, FIELD_MSG.tickerCodeNotObject(tcPath))
  if (!closedTc.ok) return closedTc
  const tc = closedTc.value
  const ticker = idString(field(tc, 'ticker', tcPath), join(tcPath, 'ticker'))
  if (!ticker.ok) return ticker
  const exchange = idString(field(tc, 'exchange_code', tcPath), join(tcPath, 'exchange_code'))
  if (!exchange.ok) return exchange
  return ok({ ticker_code: { ticker: ticker.value, exchange_code: exchange.value } })
}

function idString(v: unknown, path: string): Result<string, Status> {
  if (v === undefined) return err(invalidArgument(FIELD_MSG.required(path)))
  if (typeof v !== 'string') return err(invalidArgument(FIELD_MSG.notString(path)))
  if (v.length === 0) return err(invalidArgument(FIELD_MSG.empty(path)))
  if (v.length > SECURITY_ID_STRING_MAX) return err(invalidArgument(FIELD_MSG.tooLong(path, SECURITY_ID_STRING_MAX)))
  return ok(v)
}
