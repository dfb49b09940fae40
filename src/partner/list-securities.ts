import { err, ok, type Result } from '../result.js'
import { isArray } from '../_lib/describe.js'
import { parseSecurityId } from '../rules/index.js'
import { itemOf, lengthOf, readingJson } from '../rules/json-fields.js'
import { PARTNER_MSG } from './messages.js'
import { invalidArgument, notFound, statusOk, type Status } from './status.js'
import type { ListSecuritiesItem, SecurityId, SecurityInfo } from './types.js'

/**
 * Most ids one ListSecurities request may ask for: the answer echoes each id and carries its security, so the
 * list is bounded like any other input a server parses and echoes.
 */
export const LIST_SECURITIES_MAX = 1000

/**
 * Answers ListSecurities' `security_ids`: one item per requested id, in request order, guid and ticker
 * variants mixed. Found: status 0 with `security_info`; not found: 5 NOT_FOUND without it; an invalid id:
 * its own item with status 3 naming the problem (the others are still answered). `security_id` echoes the
 * id as requested. A missing, non-array or empty list, or one longer than {@link LIST_SECURITIES_MAX} (1,000),
 * is a request-level 3 INVALID_ARGUMENT naming `security_ids` (and the maximum); `lookup` is then never called.
 * `lookup` resolves a valid id (fetch the catalog first, then pass a synchronous lookup).
 *
 * @param ids - the requested security ids
 * @param lookup - finds a security by id
 * @returns `{ ok: true, value }`, or `{ ok: false, error }` naming the field and the rule
 * @throws never: bad input is answered, not thrown
 * @example
 * const catalog = new Map([['g-1', { guid: 'g-1', ticker: 'AAPL', exchange_code: 'NASDAQ' }]])
 * const r = listSecuritiesItems([{ guid: 'g-1' }, { guid: 'nope' }, { guid: '' }], (id) => ('guid' in id ? catalog.get(id.guid) : undefined))
 * // r.ok; statuses 0 (with security_info), 5 NOT_FOUND, 3 INVALID_ARGUMENT
 */
export function listSecuritiesItems(
  ids: unknown,
  lookup: (id: SecurityId) => SecurityInfo | undefined,
): Result<ListSecuritiesItem[], Status> {
  if (!isArray(ids)) return err(invalidArgument(PARTNER_MSG.idsNotArray(ids)))
  // reads that throw (a Proxy's traps) are an error naming security_ids or the item; lookup is called
  // outside them, so its own errors are the caller's and pass through
  const len = readingJson('security_ids', () => ok(lengthOf(ids, 'security_ids')))
  if (!len.ok) return len
  const n = len.value
  if (n === 0) return err(invalidArgument(PARTNER_MSG.idsEmpty()))
  if (n > LIST_SECURITIES_MAX) return err(invalidArgument(PARTNER_MSG.idsTooMany(LIST_SECURITIES_MAX, n)))
  const items: ListSecuritiesItem[] = new Array(n)
  for (let i = 0; i < n; i++) {
    const item = readingJson('security_ids', () => ok(itemOf(ids, i, 'security_ids')))
    if (!item.ok) return item
    const raw: unknown = item.value
    const id = parseSecurityId(raw, `security_ids[${i}]`)
    if (!id.ok) {
      items[i] = { status: id.error, security_id: raw }
      continue
    }
    const info = lookup(id.value)
    items[i] =
      info === undefined
        ? { status: notFound(), security_id: raw }
        : { status: statusOk(), security_id: raw, security_info: info }
  }
  return ok(items)
}
