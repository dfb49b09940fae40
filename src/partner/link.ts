import { MarketDataError } from '../errors.js'
import { err, ok, type Result } from '../result.js'
import { field, isJsonObject, readingJson } from '../rules/json-fields.js'
import { SECURITY_ID_STRING_MAX } from '../rules/security-id.js'
import { PARTNER_MSG } from './messages.js'
import { invalidArgument, notFound, statusOk, type Status } from './status.js'
import type {
  GetLinkedSecurityRequest,
  GetLinkedSecurityResponse,
  LinkedSecurity,
  LinkSecurityRequest,
  LinkSecurityResponse,
  UnlinkSecurityRequest,
  UnlinkSecurityResponse,
} from './types.js'

/** The three link operations of interface A (the last part of their operation path). */
export type LinkOperationName = 'LinkSecurity' | 'UnlinkSecurity' | 'GetLinkedSecurity'

/** A link operation with its (untrusted) JSON body. */
export type LinkOperation =
  | { operation: 'LinkSecurity'; body: unknown }
  | { operation: 'UnlinkSecurity'; body: unknown }
  | { operation: 'GetLinkedSecurity'; body: unknown }

/** The validated body of a link operation. */
export type LinkRequest<O extends LinkOperationName = LinkOperationName> = O extends 'LinkSecurity'
  ? LinkSecurityRequest
  : O extends 'UnlinkSecurity'
    ? UnlinkSecurityRequest
    : GetLinkedSecurityRequest

/** The response body of a link operation. */
export type LinkResponse<O extends LinkOperationName = LinkOperationName> = O extends 'LinkSecurity'
  ? LinkSecurityResponse
  : O extends 'UnlinkSecurity'
    ? UnlinkSecurityResponse
    : GetLinkedSecurityResponse

const FIELDS: Readonly<Record<LinkOperationName, readonly string[]>> = {
  LinkSecurity: ['security_guid', 'partner_security_id'],
  UnlinkSecurity: ['security_guid'],
  GetLinkedSecurity: ['security_guid'],
}

/** A non-empty string of at most 128 characters (UTF-16 code units, as `parseSecurityId` counts them). */
function isIdString(x: unknown): x is string {
  return typeof x === 'string' && x.length > 0 && x.length <= SECURITY_ID_STRING_MAX
}

/**
 * Validates the body of a link operation: a JSON object holding exactly the operation's fields
 * (`security_guid`, and `partner_security_id` for LinkSecurity), each a non-empty string of at most
 * 128 characters. Unknown fields are rejected. Errors are Status 3 INVALID_ARGUMENT naming the field.
 *
 * @param operation - a `O`
 * @param body - a parsed JSON body: anything, never trusted
 * @returns `{ ok: true, value }`, or `{ ok: false, error }` naming the field and the rule
 * @throws never: bad input is answered, not thrown
 * @example
 * validateLinkRequest('UnlinkSecurity', { security_guid: 'g-1' }) // { ok: true, value: { security_guid: 'g-1' } }
 */
export function validateLinkRequest<O extends LinkOperationName>(
  operation: O,
  body: unknown,
): Result<LinkRequest<O>, Status> {
  if (typeof operation !== 'string' || !Object.hasOwn(FIELDS, operation))
    return err(invalidArgument(PARTNER_MSG.badOperation(operation)))
  const fields = FIELDS[operation]
  return readingJson('body', () => {
    if (!isJsonObject(body, 'body')) return err(invalidArgument(PARTNER_MSG.notObject('body')))
    for (const k of Object.keys(body)) if (!fields.includes(k)) return err(invalidArgument(PARTNER_MSG.unknownField(k)))
    const out: Record<string, string> = {}
    for (const f of fields) {
      // own data properties only, as every interface A body (a getter never runs)
      const v = field(body, f, 'body')
      if (!isIdString(v)) return err(invalidArgument(PARTNER_MSG.badIdString(f, v)))
      out[f] = v
    }
    return ok(out as unknown as LinkRequest<O>)
  })
}

/**
 * Applies one link operation to the link of one `security_guid` within one partner — the service's state
 * table: LinkSecurity links (or overwrites `partner_security_id`); UnlinkSecurity unlinks; GetLinkedSecurity
 * returns `linked_security`. Unlinking or reading an unlinked security answers 5 NOT_FOUND. An invalid
 * body answers 3 INVALID_ARGUMENT and changes nothing. `current` is the caller's stored link for the body's
 * `security_guid` (undefined when unlinked); store `next` (undefined: delete).
 *
 * @param current - the current link of the `security_guid`, or `undefined`
 * @param op - the operation to apply
 * @returns the `{ next: LinkedSecurity | undefined; response: LinkResponse<O> }`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * const r = applyLinkOperation(undefined, { operation: 'LinkSecurity', body: { security_guid: 'g-1', partner_security_id: 'P1' } })
 * r.next // { security_guid: 'g-1', partner_security_id: 'P1' }
 * r.response // { status: { code: 0, message: 'security linked', details: [] } }
 */
export function applyLinkOperation<O extends LinkOperationName>(
  current: LinkedSecurity | undefined,
  op: { operation: O; body: unknown },
): { next: LinkedSecurity | undefined; response: LinkResponse<O> } {
  const v = validateLinkRequest(op.operation, op.body)
  const answer = (next: LinkedSecurity | undefined, response: LinkResponse) => ({
    next,
    response: response as LinkResponse<O>,
  })
  if (!v.ok) return answer(current, { status: v.error })
  const guid = v.value.security_guid
  if (current !== undefined && current.security_guid !== guid) {
    throw new MarketDataError('invalid_option', PARTNER_MSG.otherGuid(current.security_guid, guid), {
      field: 'current',
    })
  }
  switch (op.operation as LinkOperationName) {
    case 'LinkSecurity': {
      const body = v.value as LinkSecurityRequest
      return answer(
        { security_guid: guid, partner_security_id: body.partner_security_id },
        { status: statusOk(PARTNER_MSG.linked()) },
      )
    }
    case 'UnlinkSecurity':
      return current === undefined
        ? answer(undefined, { status: notFound() })
        : answer(undefined, { status: statusOk(PARTNER_MSG.unlinked()) })
    case 'GetLinkedSecurity':
      return current === undefined
        ? answer(undefined, { status: notFound() })
        : answer(current, {
            status: statusOk(),
            linked_security: { security_guid: current.security_guid, partner_security_id: current.partner_security_id },
          })
  }
}
