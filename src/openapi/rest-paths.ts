// Interface B (REST) paths, parameters, responses and headers of the OpenAPI document. Parameter names, forms
// and limits, prices (`x-credits`), caps (`x-cap`), error codes per status and the rate-limit headers are read
// from the library's rules, so a change of a rule changes the document.
import { REST_CREDIT_LIMIT, REST_WINDOW_MS } from '../credits/rest-ledger.js'
import {
  invalidArgumentError,
  notFoundError,
  permissionDeniedError,
  rateLimitedError,
  tooMuchDataError,
  unauthenticatedError,
  unavailableError,
  type ApiError,
} from '../_lib/api-error.js'
import { PROFILE_CAPS } from '../rules/cap.js'
import {
  HISTORY_QUERY_LIMITS,
  HISTORY_QUERY_PARAMETERS,
  HISTORY_TIMEFRAME_UNITS,
  MERGE_SESSIONS_QUERY_VALUES,
  TPO_BLOCK_UNITS,
} from '../rules/history-query.js'
import { PER_ITEM_PRICES, PRICE_MAX, PRICE_MIN } from '../rules/price.js'
import { DEFAULT_SERVICE_CONFIG } from '../rules/service-config.js'
import { DEFAULT_WINDOW, PERIOD_MAX_SECONDS } from '../rules/range.js'
import type { HistoryEndpoint, RestEndpoint } from '../rules/types.js'
import { SESSION_NAMES } from '../trades/types.js'
import { ref, timeframeIdPattern, timeframeIdRanges, type JsonObject } from './schema.js'

/** Path (relative to `{base_url}/api/v1/marketdata`) of each priced interface B endpoint, by its `priceOf` name. */
export const REST_PATHS: Readonly<Record<RestEndpoint, string>> = {
  candles: '/candles',
  timeframes: '/timeframes',
  footprint: '/footprint',
  'row-size-scale': '/footprint/row-size-scale',
  tpo: '/tpo',
  search: '/search',
  exchanges: '/exchanges',
  securities: '/exchanges/{exchange}/securities',
  security: '/exchanges/{exchange}/securities/{symbol}',
}

/** Query parameters of the endpoints the spec leaves open, as the reference server takes them. */
export const CATALOG_QUERY = {
  'row-size-scale': ['exchange', 'symbol', 'timeframe'],
  search: ['q', 'exchange', 'limit'],
  /** `q`: 1..128 characters; `limit`: 1..50, default 10. */
  searchTextMax: 128,
  searchLimitMax: 50,
  searchLimitDefault: 10,
} as const

const L = HISTORY_QUERY_LIMITS
const NAME: JsonObject = { type: 'string', minLength: 1, maxLength: L.nameMax }
const TIME_VALUE: JsonObject = {
  anyOf: [
    { type: 'string', pattern: '^[0-9]+$', description: 'Unix seconds.' },
    { type: 'string', format: 'date-time', description: 'RFC 3339 date-time with Z or an offset.' },
  ],
  examples: ['1787230800', '2026-08-20T12:00:00Z'],
}

/** Every interface B query or path parameter, by component name. */
function parameters(): JsonObject {
  const query = (name: string, description: string, schema: JsonObject, required = false): JsonObject => ({
    name,
    in: 'query',
    required,
    description,
    schema,
  })
  const timeframe = (endpoint: HistoryEndpoint, what: string): JsonObject =>
    query(
      'timeframe',
      `Timeframe id from \`GET /timeframes\`; ${what}: ${timeframeIdRanges(HISTORY_TIMEFRAME_UNITS[endpoint])}.`,
      { type: 'string', pattern: timeframeIdPattern(HISTORY_TIMEFRAME_UNITS[endpoint]) },
      true,
    )
  return {
    exchange: query('exchange', 'Service exchange code from `GET /exchanges`.', NAME, true),
    symbol: query('symbol', 'Symbol of the security on that exchange (ISINs only in `/search`).', NAME, true),
    timeframeCandles: timeframe('candles', 'any frame, ticks included'),
    timeframeFootprint: timeframe('footprint', 'minute to month frames'),
    timeframeTpo: timeframe('tpo', 'day, week and month frames only'),
    from: query(
      'from',
      'Range start, inclusive: Unix seconds or RFC 3339. Alone it reads forward; not with tick timeframes.',
      TIME_VALUE,
    ),
    to: query(
      'to',
      'Range end, exclusive; greater than `from`. Alone it reads backwards; defaults to now. Not with tick timeframes.',
      TIME_VALUE,
    ),
    period: query(
      'period',
      'Range length in whole seconds, from `from` or back from `to` (or now); at most two of from, to, period. Not with tick timeframes.',
      { type: 'integer', minimum: 1, maximum: PERIOD_MAX_SECONDS },
    ),
    limit: query(
      'limit',
      `Candles counted from the pinned end (\`from\` when given, else \`to\`); the only range control of tick timeframes. Above ${L.limitMax}: 400 invalid_argument.`,
      { type: 'integer', minimum: 1, maximum: L.limitMax, default: L.limitDefault },
    ),
    sessionType: {
      ...query(
        'sessionType',
        'Sessions to include (default all): repeat the parameter or give comma-separated values.',
        {
          type: 'array',
          items: { type: 'string', enum: [...SESSION_NAMES] },
        },
      ),
      style: 'form',
      explode: true,
    },
    rowSize: query('rowSize', 'Row height in ticks (default 1); not with `rowSizeValue`.', {
      type: 'integer',
      minimum: 1,
      maximum: L.rowSizeMax,
    }),
    rowSizeValue: query(
      'rowSizeValue',
      'Row height as an absolute price step, echoed from a previous response to pin the same grid; a positive decimal, no exponent; not with `rowSize`.',
      { type: 'string', pattern: '^(?=.*[1-9])[0-9]+(?:\\.[0-9]+)?$', maxLength: L.tokenMax, examples: ['0.5'] },
    ),
    blockSize: query(
      'blockSize',
      `TPO time block, a timeframe id (${timeframeIdRanges(TPO_BLOCK_UNITS)}), not seconds.`,
      {
        type: 'string',
        pattern: timeframeIdPattern(TPO_BLOCK_UNITS),
        default: L.blockSizeDefault,
      },
    ),
    mergeSessions: query(
      'mergeSessions',
      'One profile per period (`MERGE_ALL`, `true`, the default) or one per session type per period (`GROUP_BY_TYPE`, `false`).',
      { type: 'string', enum: Object.keys(MERGE_SESSIONS_QUERY_VALUES), default: 'MERGE_ALL' },
    ),
    q: query(
      'q',
      `Search text, or an exact ISIN (1..${CATALOG_QUERY.searchTextMax} characters).`,
      { type: 'string', minLength: 1, maxLength: CATALOG_QUERY.searchTextMax },
      true,
    ),
    searchExchange: query('exchange', 'Only securities of this exchange.', NAME),
    searchLimit: query('limit', 'Most hits to return.', {
      type: 'integer',
      minimum: 1,
      maximum: CATALOG_QUERY.searchLimitMax,
      default: CATALOG_QUERY.searchLimitDefault,
    }),
    exchangePath: { name: 'exchange', in: 'path', required: true, description: 'Service exchange code.', schema: NAME },
    symbolPath: { name: 'symbol', in: 'path', required: true, description: 'Symbol on that exchange.', schema: NAME },
  }
}

/** The component name of each history query parameter of an endpoint (the library's list, in its order). */
function historyParameterRefs(endpoint: HistoryEndpoint): JsonObject[] {
  return HISTORY_QUERY_PARAMETERS[endpoint].map((name) =>
    ref(
      'parameters',
      name === 'timeframe'
        ? `timeframe${endpoint === 'candles' ? 'Candles' : endpoint === 'footprint' ? 'Footprint' : 'Tpo'}`
        : name,
    ),
  )
}

const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const

/** Headers of interface B answers. */
function headers(): JsonObject {
  return {
    'x-request-id': {
      description: 'Request id, on every answer (errors included).',
      required: true,
      schema: { type: 'string', minLength: 1 },
    },
    'x-ratelimit-limit': {
      description: `Credits per ${REST_WINDOW_MS / 1000} s window, shared by all API keys of the account.`,
      required: true,
      schema: { type: 'integer', minimum: 0, examples: [REST_CREDIT_LIMIT] },
    },
    'x-ratelimit-remaining': {
      description: "Credits left in the window, this request's price already taken.",
      required: true,
      schema: { type: 'integer', minimum: 0 },
    },
    'x-ratelimit-reset': {
      description: 'When the window resets and the whole quota returns (Unix seconds).',
      required: true,
      schema: { type: 'integer', minimum: 0 },
    },
    'retry-after': {
      description: 'Whole seconds until the window resets (at least 1).',
      required: true,
      schema: { type: 'integer', minimum: 1 },
    },
  }
}

function headerRefs(names: readonly string[], optional: readonly string[] = []): JsonObject {
  const out: JsonObject = {}
  for (const n of names) out[n] = ref('headers', n)
  // an optional header: the same schema, not required (absent when the answer came before the key was read)
  const defs = headers()
  for (const n of optional) {
    const h = defs[n] as JsonObject
    out[n] = { ...h, required: false, description: `${String(h.description)} Present once the API key was read.` }
  }
  return out
}

/** The library's errors, one per condition, each the example of its status. */
function errorsByStatus(): Map<number, ApiError[]> {
  const all: ApiError[] = [
    invalidArgumentError(`limit: must be at most ${L.limitMax}`, 'limit'),
    tooMuchDataError(PROFILE_CAPS.footprint, 'footprint profiles'),
    unauthenticatedError(),
    permissionDeniedError(),
    notFoundError('exchange'),
    notFoundError('security'),
    notFoundError('data'),
    rateLimitedError(30),
    unavailableError(502),
    unavailableError(503),
    unavailableError(504),
  ]
  const out = new Map<number, ApiError[]>()
  for (const e of all) out.set(e.status, [...(out.get(e.status) ?? []), e])
  return out
}

const ERROR_WORDS: Readonly<Record<number, string>> = {
  400: 'Invalid or unknown query parameter, or the range exceeds the per-request cap (`too_much_data`, the message names the cap). Not billed.',
  401: 'Missing or invalid API key.',
  403: 'The key has no access to this data.',
  404: 'Unknown exchange, symbol not listed on it, or no data of that kind. Not billed.',
  429: 'Credit quota of the window exhausted; until the reset every request gets 429. Not billed.',
  503: 'Temporary upstream problem (502, 503 or 504); retry later.',
}

/** Error responses by component name (status in the name); each body's `code` is limited to its status' codes. */
function responses(): JsonObject {
  const out: JsonObject = {}
  for (const [status, errors] of errorsByStatus()) {
    const codes = [...new Set(errors.map((e) => e.code))]
    const rate =
      status === 401
        ? headerRefs(['x-request-id'])
        : status === 400 || status >= 500
          ? headerRefs(['x-request-id'], RATE_HEADERS)
          : headerRefs(['x-request-id', ...RATE_HEADERS, ...(status === 429 ? ['retry-after'] : [])])
    const examples: JsonObject = {}
    errors.forEach((e, i) => {
      examples[`${e.code}${errors.length > 1 ? `_${i + 1}` : ''}`] = {
        value: { error: { code: e.code, message: e.message } },
      }
    })
    out[status >= 500 ? 'Unavailable' : `Error${status}`] = {
      description: ERROR_WORDS[status] ?? errors[0]!.message,
      headers: rate,
      content: {
        'application/json': {
          schema: {
            ...ref('schemas', 'ErrorBody'),
            type: 'object',
            properties: {
              error: {
                type: 'object',
                properties: { code: { type: 'string', enum: codes }, message: { type: 'string' } },
              },
            },
          },
          examples,
        },
      },
    }
  }
  return out
}

/** `x-credits`: how an endpoint is priced (the default service config's prices, `PRICE_MIN`, `PRICE_MAX`). */
function credits(endpoint: RestEndpoint): JsonObject {
  const per =
    endpoint === 'candles' || endpoint === 'footprint' || endpoint === 'tpo' ? PER_ITEM_PRICES[endpoint] : undefined
  return per === undefined
    ? { flat: DEFAULT_SERVICE_CONFIG.prices.otherEndpoint }
    : { perItem: DEFAULT_SERVICE_CONFIG.prices[per.price], item: per.field, minimum: PRICE_MIN, maximum: PRICE_MAX }
}

function creditWords(endpoint: RestEndpoint): string {
  const c = credits(endpoint)
  return c.flat !== undefined
    ? `Costs ${DEFAULT_SERVICE_CONFIG.prices.otherEndpoint} credits.`
    : `Costs ${c.perItem} credit${c.perItem === 1 ? '' : 's'} per returned ${String(c.item).replace(/s$/, '')}, at least ${PRICE_MIN} (an empty range too) and at most ${PRICE_MAX}.`
}

function operation(
  endpoint: RestEndpoint,
  tag: string,
  summary: string,
  description: string,
  params: JsonObject[],
  body: string,
  extra: JsonObject = {},
  examples?: JsonObject,
): JsonObject {
  const errors: JsonObject = {
    '400': ref('responses', 'Error400'),
    '401': ref('responses', 'Error401'),
    '403': ref('responses', 'Error403'),
  }
  if (endpoint !== 'timeframes' && endpoint !== 'exchanges') errors['404'] = ref('responses', 'Error404')
  errors['429'] = ref('responses', 'Error429')
  errors['5XX'] = ref('responses', 'Unavailable')
  return {
    get: {
      operationId:
        endpoint === 'row-size-scale' ? 'getRowSizeScale' : `get${endpoint[0]!.toUpperCase()}${endpoint.slice(1)}`,
      tags: [tag],
      summary,
      description: `${description} ${creditWords(endpoint)}`,
      ...(params.length > 0 ? { parameters: params } : {}),
      'x-credits': credits(endpoint),
      ...extra,
      responses: {
        '200': {
          description: 'OK. Billed; the rate-limit headers already include the price.',
          headers: headerRefs(['x-request-id', ...RATE_HEADERS]),
          content: {
            'application/json': { schema: ref('schemas', body), ...(examples === undefined ? {} : { examples }) },
          },
        },
        ...errors,
      },
    },
  }
}

const cap = (endpoint: 'footprint' | 'tpo', items: string): JsonObject => ({
  'x-cap': { maximum: PROFILE_CAPS[endpoint], items },
})

/** The interface B part of the document: paths and the components they use. */
export function restPart(timeframesExample: JsonObject): {
  paths: JsonObject
  parameters: JsonObject
  responses: JsonObject
  headers: JsonObject
} {
  const P = (name: string) => ref('parameters', name)
  const paths: JsonObject = {
    [REST_PATHS.candles]: operation(
      'candles',
      'History',
      'Historical candles',
      `Candles of one security and timeframe. With no range, the last ${L.limitDefault}; \`limit\` (at most ${L.limitMax}) is the cap, counted from the pinned end.`,
      historyParameterRefs('candles'),
      'CandlesResponse',
    ),
    [REST_PATHS.timeframes]: operation(
      'timeframes',
      'History',
      'Supported timeframes',
      'Every timeframe id, as count rules.',
      [],
      'TimeframesResponse',
      {},
      {
        rules: { summary: 'The count rules', value: timeframesExample },
      },
    ),
    [REST_PATHS.footprint]: operation(
      'footprint',
      'History',
      'Volume footprint profiles',
      `Buy and sell volume and trade counts per price row, one profile per bucket. With no range, a default window of ${DEFAULT_WINDOW.footprint} buckets. At most ${PROFILE_CAPS.footprint} profiles per request (400 too_much_data); history depth depends on the timeframe and a \`from\` older than it is trimmed (see \`profileStart\`).`,
      historyParameterRefs('footprint'),
      'FootprintResponse',
      cap('footprint', 'profiles'),
    ),
    [REST_PATHS['row-size-scale']]: operation(
      'row-size-scale',
      'History',
      'Footprint row-size scale',
      'Row sizes in ticks (bounds, step, default) a settings UI can offer for a security and timeframe.',
      CATALOG_QUERY['row-size-scale'].map((n) => P(n === 'timeframe' ? 'timeframeFootprint' : n)),
      'RowSizeScale',
    ),
    [REST_PATHS.tpo]: operation(
      'tpo',
      'History',
      'TPO (Market Profile) profiles',
      `Profiles with point of control, value area, initial balance and time blocks. With no range, a default window of ${DEFAULT_WINDOW.tpo} periods. At most ${PROFILE_CAPS.tpo} profiles per request, each session type of a period counting as one with GROUP_BY_TYPE (400 too_much_data); GROUP_BY_TYPE profiles of one period cost no extra.`,
      historyParameterRefs('tpo'),
      'TpoResponse',
      cap('tpo', 'profiles'),
    ),
    [REST_PATHS.search]: operation(
      'search',
      'Catalog',
      'Search securities',
      'Ranked search over securities by text, or by exact ISIN.',
      [P('q'), P('searchExchange'), P('searchLimit')],
      'SearchResponse',
    ),
    [REST_PATHS.exchanges]: operation(
      'exchanges',
      'Catalog',
      'Exchanges',
      'Every exchange with its service code and IANA time zone.',
      [],
      'ExchangesResponse',
    ),
    [REST_PATHS.securities]: operation(
      'securities',
      'Catalog',
      'Securities of an exchange',
      'Securities listed on one exchange.',
      [P('exchangePath')],
      'SecuritiesResponse',
    ),
    [REST_PATHS.security]: operation(
      'security',
      'Catalog',
      'One security specification',
      'Type, assets, tick size and precision of one security.',
      [P('exchangePath'), P('symbolPath')],
      'Security',
    ),
  }
  return { paths, parameters: parameters(), responses: responses(), headers: headers() }
}
