// Interface A (partner API) paths and schemas of the OpenAPI document: seven POST operations under the partner
// base URL, JSON bodies with the library's field rules (unknown fields rejected, id lengths, enums), and the
// `Status` every answer carries. Success and failure are both HTTP 200: clients check `status.code`.
import {
  PARTNER_OPERATION_PATHS,
  PARTNER_TOKENLESS_OPERATIONS,
  type PartnerOperationName,
} from '../partner/operations.js'
import { StatusCode } from '../partner/status.js'
import { INT32_MAX, LIST_CANDLES_PROPERTIES } from '../rules/list-candles.js'
import { SECURITY_ID_STRING_MAX } from '../rules/security-id.js'
import { PARTNER_UNITS } from '../time/timeframe.js'
import { SESSION_NAMES } from '../trades/types.js'
import { DATE_TIME, ref, type JsonObject } from './schema.js'

const STRING: JsonObject = { type: 'string' }
const closed = (required: string[], properties: JsonObject, description?: string): JsonObject => ({
  type: 'object',
  ...(description === undefined ? {} : { description }),
  required,
  additionalProperties: false,
  properties,
})
const open = (required: string[], properties: JsonObject, description?: string): JsonObject => ({
  type: 'object',
  ...(description === undefined ? {} : { description }),
  required,
  properties,
})
const idString = (max: number, description?: string): JsonObject => ({
  type: 'string',
  minLength: 1,
  maxLength: max,
  ...(description === undefined ? {} : { description }),
})
/** When `status.code` is 0 (the `if`), the fields are present (the `then`, which names their schemas too). */
const OK_STATUS: JsonObject = {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'object', properties: { code: { const: StatusCode.OK } } } },
}
const whenOk = (fields: JsonObject): JsonObject => ({
  if: OK_STATUS,
  // biome-ignore lint/suspicious/noThenProperty: `if` / `then` are JSON Schema keywords, not a thenable
  then: { type: 'object', required: Object.keys(fields), properties: fields },
})

/**
 * A response whose list the spec names without a `status`: the list is there when `status.code` is 0; a
 * request-level failure carries the failing `status`, the list absent or empty.
 */
const listResponse = (list: string, item: string, description: string): JsonObject => {
  const items: JsonObject = { type: 'array', items: ref('schemas', item) }
  return {
    ...open(
      [],
      { status: ref('schemas', 'Status'), [list]: items },
      `${description} On a request-level failure: the failing \`status\`, \`${list}\` absent or empty.`,
    ),
    ...whenOk({ [list]: items }),
  }
}

const STATUS_WORDS = Object.entries(StatusCode)
  .map(([name, code]) => `${code} ${name}`)
  .join(', ')

/** Interface A component schemas, by name. */
export function partnerSchemas(): JsonObject {
  const token = open(['token', 'valid_to_time'], {
    token: { type: 'string', description: 'JWT.' },
    valid_to_time: { ...DATE_TIME, description: 'Expiry, UTC.' },
  })
  const sid = SECURITY_ID_STRING_MAX
  return {
    Status: open(
      ['code', 'message', 'details'],
      {
        code: {
          type: 'integer',
          format: 'int32',
          description: `0 means success. Codes of this library: ${STATUS_WORDS} (gRPC's). Other codes may appear: treat any non-zero code as a failure.`,
          'x-status-codes': Object.fromEntries(
            Object.entries(StatusCode).map(([name, code]) => [name, code]),
          ) as JsonObject,
        },
        message: STRING,
        details: { type: 'array', items: {} },
      },
      'The outcome of a call or of one ListSecurities item.',
    ),
    Decimal: open(
      ['value', 'scale'],
      {
        value: { type: 'string', pattern: '^-?[0-9]+$', description: 'Digits, optional leading `-`.' },
        scale: { type: 'string', pattern: '^10*$', description: 'Divisor, a power of ten >= 1.' },
      },
      'Real value = value / scale.',
    ),
    SecurityId: {
      description: 'Exactly one of `guid` or `ticker_code`.',
      oneOf: [
        closed(['guid'], { guid: idString(sid) }),
        closed(['ticker_code'], {
          ticker_code: closed(['ticker', 'exchange_code'], { ticker: idString(sid), exchange_code: idString(sid) }),
        }),
      ],
    },
    TokenInfo: token,
    LoginRequest: closed(['api_key'], { api_key: { type: 'string', minLength: 1 } }),
    LoginResponse: {
      ...open(
        ['status'],
        {
          status: ref('schemas', 'Status'),
          access_token: ref('schemas', 'TokenInfo'),
          refresh_token: ref('schemas', 'TokenInfo'),
        },
        'Both tokens when `status.code` is 0.',
      ),
      ...whenOk({ access_token: ref('schemas', 'TokenInfo'), refresh_token: ref('schemas', 'TokenInfo') }),
    },
    RefreshRequest: closed(['refresh_token'], { refresh_token: { type: 'string', minLength: 1 } }),
    RefreshResponse: {
      ...open(
        ['status'],
        { status: ref('schemas', 'Status'), access_token: ref('schemas', 'TokenInfo') },
        'A new access token when `status.code` is 0.',
      ),
      ...whenOk({ access_token: ref('schemas', 'TokenInfo') }),
    },
    AssetId: open(['code', 'asset_class_code'], { code: STRING, asset_class_code: STRING }),
    Industry: open(['name', 'industries'], {
      name: STRING,
      industries: { type: 'array', items: ref('schemas', 'Industry') },
    }),
    Asset: open(['id'], {
      id: ref('schemas', 'AssetId'),
      icon_url: STRING,
      background_color: STRING,
      company: open(['name', 'industries'], {
        name: STRING,
        industries: { type: 'array', items: ref('schemas', 'Industry') },
      }),
    }),
    SecurityClass: open(['name'], {
      name: STRING,
      parent_class: ref('schemas', 'SecurityClass'),
      top_level_class: ref('schemas', 'SecurityClass'),
    }),
    PricePrecision: open(['price_from', 'precision'], {
      price_from: ref('schemas', 'Decimal'),
      price_to: { ...ref('schemas', 'Decimal'), description: 'Omitted on the open-ended top band.' },
      precision: { type: 'integer', minimum: 0 },
    }),
    SecurityInfo: open(['guid', 'ticker', 'exchange_code'], {
      ticker: STRING,
      names: { type: 'object', additionalProperties: STRING, description: 'Language code to name.' },
      exchange_code: STRING,
      cfi: { type: 'string', description: 'ISO 10962 code.' },
      isin: STRING,
      status: { type: 'integer', description: '1 means active.' },
      price_precision: { type: 'integer', minimum: 0, description: 'Number of decimal places.' },
      tick_size: ref('schemas', 'Decimal'),
      asset_base: ref('schemas', 'Asset'),
      asset_quote: ref('schemas', 'Asset'),
      classes: { type: 'array', items: ref('schemas', 'SecurityClass') },
      guid: STRING,
      exchange_alias: STRING,
      price_precisions: { type: 'array', items: ref('schemas', 'PricePrecision') },
    }),
    ListSecuritiesRequest: closed(['security_ids'], {
      security_ids: { type: 'array', minItems: 1, items: ref('schemas', 'SecurityId') },
    }),
    ListSecuritiesItem: {
      ...open(
        ['status', 'security_id'],
        {
          status: ref('schemas', 'Status'),
          security_id: { description: 'The id as requested (echoed even when invalid).' },
          security_info: ref('schemas', 'SecurityInfo'),
        },
        'Status 0 with `security_info`; 5 NOT_FOUND or 3 INVALID_ARGUMENT without it.',
      ),
      ...whenOk({ security_info: ref('schemas', 'SecurityInfo') }),
      else: { type: 'object', properties: { security_info: false } },
    },
    ListSecuritiesResponse: listResponse(
      'securities',
      'ListSecuritiesItem',
      'One item per requested id, in request order.',
    ),
    ListCandlesRequest: closed(['security_id', 'time_frame', 'range'], {
      security_id: ref('schemas', 'SecurityId'),
      time_frame: closed(['time_unit'], {
        time_unit: { type: 'string', enum: [...PARTNER_UNITS], description: 'QUARTER is 3 months.' },
        count: {
          type: 'integer',
          minimum: 1,
          maximum: INT32_MAX,
          default: 1,
          description: 'Units per candle (custom frames such as 90 minutes are allowed).',
        },
      }),
      range: {
        description:
          '`first_bound_time` and exactly one of `second_bound_time` (either order, not equal), `duration` (positive ISO 8601, forward), `count` (non-zero; negative reads before `first_bound_time`).',
        oneOf: [
          closed(['first_bound_time', 'second_bound_time'], {
            first_bound_time: DATE_TIME,
            second_bound_time: DATE_TIME,
          }),
          closed(['first_bound_time', 'duration'], {
            first_bound_time: DATE_TIME,
            duration: { type: 'string', examples: ['PT4H', 'P1D'] },
          }),
          closed(['first_bound_time', 'count'], {
            first_bound_time: DATE_TIME,
            count: { type: 'integer', minimum: -INT32_MAX - 1, maximum: INT32_MAX, not: { const: 0 } },
          }),
        ],
      },
      properties: {
        type: 'array',
        items: { type: 'string', enum: [...LIST_CANDLES_PROPERTIES] },
        description: 'Fields to return (default all).',
      },
      session_types: {
        type: 'array',
        items: { type: 'string', enum: [...SESSION_NAMES] },
        description: 'Sessions to return (default all).',
      },
    }),
    PartnerCandle: open(['time'], {
      time: { ...DATE_TIME, description: 'Candle start.' },
      open: ref('schemas', 'Decimal'),
      high: ref('schemas', 'Decimal'),
      low: ref('schemas', 'Decimal'),
      close: ref('schemas', 'Decimal'),
      value: ref('schemas', 'Decimal'),
      volume: ref('schemas', 'Decimal'),
      session_type: {
        type: 'integer',
        enum: SESSION_NAMES.map((_, i) => i),
        description: SESSION_NAMES.map((s, i) => `${i} = ${s}`).join(', '),
      },
    }),
    ListCandlesResponse: listResponse('candles', 'PartnerCandle', 'Candles in ascending time.'),
    LinkedSecurity: open(['security_guid', 'partner_security_id'], {
      security_guid: STRING,
      partner_security_id: STRING,
    }),
    LinkSecurityRequest: closed(['security_guid', 'partner_security_id'], {
      security_guid: idString(SECURITY_ID_STRING_MAX),
      partner_security_id: idString(SECURITY_ID_STRING_MAX),
    }),
    UnlinkSecurityRequest: closed(['security_guid'], { security_guid: idString(SECURITY_ID_STRING_MAX) }),
    GetLinkedSecurityRequest: closed(['security_guid'], { security_guid: idString(SECURITY_ID_STRING_MAX) }),
    StatusResponse: open(
      ['status'],
      { status: ref('schemas', 'Status') },
      'Link and unlink answers; unlinking a security without a link is 5 NOT_FOUND.',
    ),
    GetLinkedSecurityResponse: {
      ...open(
        ['status'],
        { status: ref('schemas', 'Status'), linked_security: ref('schemas', 'LinkedSecurity') },
        '`linked_security` when `status.code` is 0; 5 NOT_FOUND when the security has no link.',
      ),
      ...whenOk({ linked_security: ref('schemas', 'LinkedSecurity') }),
    },
  }
}

const OPERATIONS: Readonly<
  Record<PartnerOperationName, { tag: string; summary: string; request: string; response: string; description: string }>
> = {
  Login: {
    tag: 'Partner: auth',
    summary: 'Log in',
    request: 'LoginRequest',
    response: 'LoginResponse',
    description: 'Exchanges an api_key for an access token (30 minutes) and a refresh token.',
  },
  Refresh: {
    tag: 'Partner: auth',
    summary: 'Refresh the access token',
    request: 'RefreshRequest',
    response: 'RefreshResponse',
    description: 'Exchanges a valid refresh token for a new access token; only `access_token` is returned.',
  },
  ListSecurities: {
    tag: 'Partner: securities',
    summary: 'Security reference data',
    request: 'ListSecuritiesRequest',
    response: 'ListSecuritiesResponse',
    description:
      'One item per requested id (guid and ticker variants may be mixed), each with its own status; a security not found is 5 NOT_FOUND in its item and the call still answers HTTP 200.',
  },
  ListCandles: {
    tag: 'Partner: candles',
    summary: 'Historical candles',
    request: 'ListCandlesRequest',
    response: 'ListCandlesResponse',
    description: 'Candles of any unit and count, over one of three range forms.',
  },
  LinkSecurity: {
    tag: 'Partner: links',
    summary: 'Link a security',
    request: 'LinkSecurityRequest',
    response: 'StatusResponse',
    description: "Links the service GUID to the partner's own id; linking again overwrites `partner_security_id`.",
  },
  UnlinkSecurity: {
    tag: 'Partner: links',
    summary: 'Unlink a security',
    request: 'UnlinkSecurityRequest',
    response: 'StatusResponse',
    description: 'Removes the link; 5 NOT_FOUND when there is none.',
  },
  GetLinkedSecurity: {
    tag: 'Partner: links',
    summary: 'Read a link',
    request: 'GetLinkedSecurityRequest',
    response: 'GetLinkedSecurityResponse',
    description: 'Returns `linked_security`; 5 NOT_FOUND when there is none.',
  },
}

/** The interface A paths (`/<operation path>` under `partnerServer`). */
export function partnerPaths(partnerServer: JsonObject): JsonObject {
  const paths: JsonObject = {}
  for (const name of Object.keys(PARTNER_OPERATION_PATHS) as PartnerOperationName[]) {
    const o = OPERATIONS[name]
    const tokenless = PARTNER_TOKENLESS_OPERATIONS.includes(name)
    paths[`/${PARTNER_OPERATION_PATHS[name]}`] = {
      servers: [partnerServer],
      post: {
        operationId: `partner${name}`,
        tags: [o.tag],
        summary: o.summary,
        description: `${o.description} Failures are HTTP 200 too: check \`status.code\`${tokenless ? '' : ' (16 UNAUTHENTICATED for a missing, invalid or expired `accesstoken`)'}.`,
        security: tokenless ? [] : [{ accessToken: [] }],
        requestBody: { required: true, content: { 'application/json': { schema: ref('schemas', o.request) } } },
        responses: {
          '200': {
            description: 'The answer; `status.code` 0 is success.',
            content: { 'application/json': { schema: ref('schemas', o.response) } },
          },
        },
      },
    }
  }
  return paths
}
