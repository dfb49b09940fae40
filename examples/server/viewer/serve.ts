// The viewer page at `/`: plain HTML and a script that calls the REST endpoints with the page's own API key
// and draws the answers with the library's SVG renderers (bundled for the browser once, in memory, by esbuild).
import { readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const HERE = dirname(fileURLToPath(import.meta.url))

/** Paths the viewer answers: the page and its two scripts. */
export function isViewerPath(pathname: string): boolean {
  return pathname === '/' || pathname === '/viewer/viewer.js' || pathname === '/viewer/lib.js'
}

let bundle: Promise<string> | undefined

/** The library's renderers as one browser ES module (built on first use, then kept). */
function libraryBundle(): Promise<string> {
  bundle ??= build({
    entryPoints: [join(HERE, 'lib-entry.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    minify: true,
    logLevel: 'silent',
  }).then((r) => r.outputFiles[0]!.text)
  return bundle
}

function reply(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    'content-type': `${type}; charset=utf-8`,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  })
  res.end(body)
}

/** Serves the page (with `apiKey` in a meta tag), its script, or the library bundle. */
export async function serveViewer(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  apiKey: string,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return reply(res, 405, 'text/plain', 'use GET')
  if (pathname === '/viewer/lib.js') return reply(res, 200, 'text/javascript', await libraryBundle())
  if (pathname === '/viewer/viewer.js')
    return reply(res, 200, 'text/javascript', readFileSync(join(HERE, 'viewer.js'), 'utf8'))
  const key = apiKey.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
  return reply(res, 200, 'text/html', readFileSync(join(HERE, 'index.html'), 'utf8').replace('{{API_KEY}}', key))
}
