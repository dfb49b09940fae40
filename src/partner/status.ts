import { textOf } from '../_lib/describe.js'

/**
 * Interface A status codes (gRPC's): 0 OK, 3 INVALID_ARGUMENT, 5 NOT_FOUND, 8 RESOURCE_EXHAUSTED,
 * 16 UNAUTHENTICATED.
 */
export const StatusCode = {
  OK: 0,
  INVALID_ARGUMENT: 3,
  NOT_FOUND: 5,
  RESOURCE_EXHAUSTED: 8,
  UNAUTHENTICATED: 16,
} as const
export type StatusCode = (typeof StatusCode)[keyof typeof StatusCode]

/**
 * Interface A `Status` object: `code` 0 is success. The constructors below never throw: a message that is not a
 * string is described (`42`, `a value of type object`), so `message` is always a string.
 */
export interface Status {
  code: number
  message: string
  details: unknown[]
}

/**
 * A success Status.
 *
 * @param message - the message (optional)
 * @returns the `Status`
 * @throws never: bad input is answered, not thrown
 * @example statusOk('linked') // { code: 0, message: 'linked', details: [] }
 */
export function statusOk(message = ''): Status {
  return { code: StatusCode.OK, message: textOf(message), details: [] }
}

/**
 * An INVALID_ARGUMENT (3) Status naming the field and the rule.
 *
 * @param message - the message
 * @returns the `Status`
 * @throws never: bad input is answered, not thrown
 * @example invalidArgument('time_frame.count: must be an integer >= 1')
 */
export function invalidArgument(message: string): Status {
  return { code: StatusCode.INVALID_ARGUMENT, message: textOf(message), details: [] }
}

/**
 * A NOT_FOUND (5) Status; the service's message is `NOT_FOUND`.
 *
 * @param message - the message (optional)
 * @returns the `Status`
 * @throws never: bad input is answered, not thrown
 * @example notFound() // { code: 5, message: 'NOT_FOUND', details: [] }
 */
export function notFound(message = 'NOT_FOUND'): Status {
  return { code: StatusCode.NOT_FOUND, message: textOf(message), details: [] }
}

/**
 * An UNAUTHENTICATED (16) Status.
 *
 * @param message - the message (optional)
 * @returns the `Status`
 * @throws never: bad input is answered, not thrown
 * @example unauthenticated('access token expired')
 */
export function unauthenticated(message = 'UNAUTHENTICATED'): Status {
  return { code: StatusCode.UNAUTHENTICATED, message: textOf(message), details: [] }
}

/**
 * A RESOURCE_EXHAUSTED (8) Status.
 *
 * @param message - the message (optional)
 * @returns the `Status`
 * @throws never: bad input is answered, not thrown
 * @example resourceExhausted('rate limited')
 */
export function resourceExhausted(message = 'RESOURCE_EXHAUSTED'): Status {
  return { code: StatusCode.RESOURCE_EXHAUSTED, message: textOf(message), details: [] }
}
