/** Stable interface B error codes (`error.code` of the JSON body). */
export type ApiErrorCode =
  | 'invalid_argument'
  | 'too_much_data'
  | 'unauthenticated'
  | 'permission_denied'
  | 'not_found'
  | 'rate_limited'
  | 'too_many_streams'
  | 'unavailable'

/** An interface B error: the HTTP status, the stable `code`, a message for people; 429 carries `retryAfter` (seconds). */
export interface ApiError {
  status: number
  code: ApiErrorCode
  message: string
  retryAfter?: number
}

/** 400 `invalid_argument`, naming the parameter and the rule. @example invalidArgumentError('limit: must be an integer 1..10000') */
export function invalidArgumentError(message: string): ApiError {
  return { status: 400, code: 'invalid_argument', message }
}
