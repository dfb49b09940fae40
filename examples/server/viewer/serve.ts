// The viewer page at `/`: plain HTML and a script that calls the REST endpoints with the page's own API key
// and draws the answers with the library's SVG renderers (bundled for the browser once, in memory, by esbuild)
// and lightweight-charts (its standalone build, served from node_modules as is), then follows the live streams.
import { readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const HERE = dirname(fileURLToPath(import.meta.url))

/** The page's own scripts, served from this folder. */
const SCRIPTS = ['/viewer/viewer.js', '/viewer/live.js']
/** lightweight-charts' standalone build (sets `window.LightweightCharts`). */
const CHARTS_PATH = '/viewer/lightweight-charts.js'

/** Paths the viewer answers: the page, its scripts, the library bundle and the charting library. */
export function isViewerPath(pathname: string): boolean {
  return pathname === '/' || pathname === '/viewer/lib.js' || pathname === CHARTS_PATH || SCRIPTS.includes(pathname)
}

let charts: string | undefined
function chartsScript(): string {
  const dir = dirname(createRequire(import.meta.url).resolve('lightweight-charts/package.json'))
  charts ??= readFileSync(join(dir, 'dist', 'lightweight-charts.standalone.production.js'), 'utf8')
  return charts
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
  if (pathname === CHARTS_PATH) return reply(res, 200, 'text/javascript', chartsScript())
  if (SCRIPTS.includes(pathname))
    return reply(res, 200, 'text/javascript', readFileSync(join(HERE, pathname.slice('/viewer/'.length)), 'utf8'))
  const key = apiKey.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
  return reply(res, 200, 'text/html', readFileSync(join(HERE, 'index.html'), 'utf8').replace('{{API_KEY}}', key))
}
