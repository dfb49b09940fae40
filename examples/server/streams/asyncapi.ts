// The AsyncAPI 3.0 document of the live streams (asyncapi.json beside this file), served at /asyncapi.json
// beside /openapi.json.
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { RawBody } from '../http.js'
import type { Route } from '../server.js'

export const ASYNCAPI_PATH = '/asyncapi.json'

let text: string | undefined
/** The document's text (read once). */
export function asyncApiText(): string {
  text ??= readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'asyncapi.json'), 'utf8')
  return text
}

/** A route of the reference server answering `GET /asyncapi.json`. */
export function asyncApiRoute(): Route {
  return {
    name: 'asyncapi',
    match: (p) => p === ASYNCAPI_PATH,
    handle: async (req, { base }) =>
      req.method === 'GET' || req.method === 'HEAD'
        ? {
            status: 200,
            headers: { ...base, 'content-type': 'application/json; charset=utf-8' },
            body: new RawBody(asyncApiText()),
          }
        : {
            status: 405,
            headers: { ...base, allow: 'GET, HEAD' },
            body: { error: { code: 'invalid_argument', message: `method ${req.method ?? ''}: use GET` } },
          },
  }
}
