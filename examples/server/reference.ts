// The contract pages of the reference server: `GET /openapi.json` (the library's document, with this server's
// own paths as server URLs) and `GET /reference`, the document rendered by Swagger UI served from
// node_modules/swagger-ui-dist (no network: no CDN, the online validator badge off).
import { readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { openApiJson } from '../../src/service/index.js'
import { REST_PREFIX } from './rest.js'

/** Path of the rendered reference (link it from a page). */
export const REFERENCE_PATH = '/reference'
/** Path of the OpenAPI document. */
export const OPENAPI_PATH = '/openapi.json'

/** The only files served from swagger-ui-dist, with their types. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>svc-marketdata API reference</title>
<link rel="stylesheet" href="${REFERENCE_PATH}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${REFERENCE_PATH}/swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle({ url: '${OPENAPI_PATH}', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null })
</script>
</body>
</html>
`

/**
 * Returns a request listener step: answers `GET /openapi.json`, `GET /reference` and its two assets, and
 * returns true; returns false for every other request. `partnerPrefix` is the server's interface A prefix.
 */
export function createReferencePages(
  partnerPrefix: string,
): (req: IncomingMessage, res: ServerResponse, requestId: string) => boolean {
  const document = openApiJson({ restServerUrl: REST_PREFIX, partnerServerUrl: partnerPrefix.replace(/\/$/, '') })
  const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
  const assets = new Map<string, Buffer>()
  const asset = (name: string): Buffer => {
    let b = assets.get(name)
    if (b === undefined) {
      b = readFileSync(join(dist, name))
      assets.set(name, b)
    }
    return b
  }
  const send = (res: ServerResponse, requestId: string, type: string, body: string | Buffer): true => {
    res.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(body), 'x-request-id': requestId })
    res.end(body)
    return true
  }
  return (req, res, requestId) => {
    if (req.method !== 'GET') return false
    const path = (req.url ?? '').split('?')[0]
    if (path === OPENAPI_PATH) return send(res, requestId, 'application/json; charset=utf-8', document)
    if (path === REFERENCE_PATH || path === `${REFERENCE_PATH}/`)
      return send(res, requestId, 'text/html; charset=utf-8', PAGE)
    const name = path?.startsWith(`${REFERENCE_PATH}/`) ? path.slice(REFERENCE_PATH.length + 1) : undefined
    if (name !== undefined && Object.hasOwn(ASSETS, name)) return send(res, requestId, ASSETS[name]!, asset(name))
    return false
  }
}
