// The OpenAPI 3.1 document of both interfaces, assembled from the REST and partner parts. Pure data: every call
// builds a fresh object from the library's rules; `npm run openapi` writes it to openapi.json.
import { REST_CREDIT_LIMIT, REST_WINDOW_MS } from '../credits/rest-ledger.js'
import { PRICE_MAX, PRICE_MIN } from '../rules/price.js'
import { listTimeframes } from '../time/index.js'
import { partnerPaths, partnerSchemas } from './partner.js'
import { restPart } from './rest-paths.js'
import { restSchemas } from './rest-schemas.js'
import type { JsonObject } from './schema.js'
import { checkOptions } from '../_lib/closed-options.js'

/** Where the two interfaces live; defaults are the reference server's on its default port. */
export interface OpenApiDocumentOptions {
  /** Base URL of interface B, ending in `/api/v1/marketdata` (absolute, or relative to the document). */
  restServerUrl?: string
  /** Base URL of interface A: operation paths follow it after a `/`. */
  partnerServerUrl?: string
  /** `info.version` (default the package's, `0.1.0`). */
  version?: string
}

const DEFAULT_REST = '{base_url}/api/v1/marketdata'
const DEFAULT_PARTNER = '{partner_base_url}'
const REFERENCE_SERVER = 'http://127.0.0.1:8080'

function server(url: string, fallback: string, variable: string, description: string, example: string): JsonObject {
  return url === fallback
    ? {
        url,
        description,
        variables: {
          [variable]: {
            default: example,
            description: "The operator's address (the default is the reference server on its default port).",
          },
        },
      }
    : { url, description }
}

/**
 * The OpenAPI 3.1 document of the service: interface B (GET endpoints under `{base_url}/api/v1/marketdata`:
 * parameters with their forms and limits, the error body and codes, rate-limit headers, 429 with Retry-After,
 * prices in `x-credits`, caps in `x-cap`) and interface A (POST operations under `{partner_base_url}`, bodies,
 * the `accesstoken` header, `Status` codes). Built from the library's own rules, constants and prices. Pure:
 * a fresh object on every call, JSON-safe (`JSON.stringify` writes openapi.json).
 *
 * @param options - server URLs to put in the document (a server passes its own, e.g. relative `/api/v1/marketdata`); version
 * @returns the document as a plain JSON object
 * @throws never for valid options (URLs are used as given)
 * @example
 * const doc = openApiDocument()
 * Object.keys(doc.paths) // ['/candles', '/timeframes', ..., '/svc.partner.external.auth.v1.AuthApi.Login', ...]
 * openApiDocument({ restServerUrl: '/api/v1/marketdata', partnerServerUrl: '/partner' }) // for a server's /openapi.json
 */
export function openApiDocument(
  options: OpenApiDocumentOptions = {},
): JsonObject & { paths: JsonObject; components: JsonObject } {
  checkOptions(options, ['restServerUrl', 'partnerServerUrl', 'version'], 'openApiDocument')
  const restUrl = options.restServerUrl ?? DEFAULT_REST
  const partnerUrl = options.partnerServerUrl ?? DEFAULT_PARTNER
  const rest = restPart({ timeframes: listTimeframes() as unknown as JsonObject[] })
  const partnerServer = server(
    partnerUrl,
    DEFAULT_PARTNER,
    'partner_base_url',
    'Interface A (partner API)',
    `${REFERENCE_SERVER}/partner`,
  )
  return {
    openapi: '3.1.0',
    info: {
      title: 'svc-marketdata service',
      version: options.version ?? '0.1.0',
      summary: 'Historical market data (candles, footprint, TPO), a security catalog, and the partner API.',
      description: [
        'Two interfaces. **Interface B** (REST): GET endpoints under `{base_url}/api/v1/marketdata`, JSON answers, header `x-api-key`.',
        `Every authenticated answer carries \`x-ratelimit-limit\` (${REST_CREDIT_LIMIT} credits per fixed ${REST_WINDOW_MS / 1000} s window, shared by all keys of an account), \`x-ratelimit-remaining\` and \`x-ratelimit-reset\`; every answer carries \`x-request-id\`.`,
        `A billed request costs ${PRICE_MIN} to ${PRICE_MAX} credits (\`x-credits\` on each operation); 400, 404 and 429 are not billed. Failures are \`{error: {code, message}}\`: branch on \`code\`.`,
        '**Interface A** (partner API, version 0.1-beta): POST operations under `{partner_base_url}`; Login and Refresh give JWTs, every other operation needs header `accesstoken`.',
        'Every answer is HTTP 200 with a `status`: check `status.code` (0 is success). All times are UTC.',
        'Usage terms: personal, non-commercial use only; no redistribution or resale of data.',
      ].join('\n\n'),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [server(restUrl, DEFAULT_REST, 'base_url', 'Interface B (REST)', REFERENCE_SERVER)],
    security: [{ apiKey: [] }],
    tags: [
      { name: 'History', description: 'Interface B: candles, footprint and TPO profiles, timeframes.' },
      { name: 'Catalog', description: 'Interface B: exchanges, securities, search.' },
      { name: 'Partner: auth', description: 'Interface A: tokens.' },
      { name: 'Partner: securities', description: 'Interface A: security reference data.' },
      { name: 'Partner: candles', description: 'Interface A: historical candles.' },
      { name: 'Partner: links', description: 'Interface A: links between service GUIDs and partner ids.' },
    ],
    paths: { ...rest.paths, ...partnerPaths(partnerServer) },
    components: {
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-key',
          description: 'Interface B API key; a missing or invalid key is 401.',
        },
        accessToken: {
          type: 'apiKey',
          in: 'header',
          name: 'accesstoken',
          description: 'Interface A access token (JWT from Login or Refresh).',
        },
      },
      schemas: { ...restSchemas(), ...partnerSchemas() },
      parameters: rest.parameters,
      responses: rest.responses,
      headers: rest.headers,
    },
  }
}

/**
 * The document as the text of openapi.json: two-space JSON and a final newline (what `npm run openapi` writes).
 *
 * @param options - as for {@link openApiDocument}
 * @returns the JSON text
 * @throws never for valid options
 * @example
 * JSON.parse(openApiJson()).openapi // '3.1.0'
 */
export function openApiJson(options: OpenApiDocumentOptions = {}): string {
  return `${JSON.stringify(openApiDocument(options), null, 2)}\n`
}
