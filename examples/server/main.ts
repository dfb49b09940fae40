// Command line of the reference server:
//   node examples/server [--port N] [--api-key KEY ...] [--no-access-key KEY ...] [--partner-key KEY ...]
//                        [--trades FILE ...] [--tick-size X] [--now ISO] [--days N] [--trades-per-day N]
//                        [--data-floor TIME] [--time-column C] [--input-zone ZONE] ... (the reader's options)
//                        [--data-dir DIR | --database-url URL | --memory] [--rotate-signing-key]
//                        [--live-rate N | --nats URL]
//                        [--history-url URL | --history-dir DIR]   (history from the pipeline's store)
import { randomBytes } from 'node:crypto'
import { resolve } from 'node:path'
import {
  DEFAULT_SERVICE_CONFIG,
  PARTNER_OPERATION_PATHS,
  parseRfc3339,
  parseUnixSeconds,
} from '../../src/service/index.js'
import { sliceTradeColumns, type TradeColumns } from '../../src/index.js'
import { defaultCatalog } from './catalog.js'
import { installProcessGuard } from './process-guard.js'
import { OPENAPI_PATH, REFERENCE_PATH } from './reference.js'
import { REST_PREFIX } from './rest.js'
import { startServer, type ApiKeyConfig } from './server.js'
import { memoryState } from './state.js'
import { openPgliteState, openPostgresState } from './state-sql.js'
import { createStore, sampleStore } from './store.js'
import { addFileSecurity, checkTickSize, readTradesFile, type TradeFileOptions } from './trades-file.js'
import { startLiveStreams, type LiveOptions } from './streams/start.js'

interface Args {
  port: number
  apiKeys: string[]
  noAccessKeys: string[]
  partnerKeys: string[]
  trades: string[]
  tickSize: string
  now?: number
  days: number
  tradesPerDay: number
  dataDir: string
  databaseUrl?: string
  rotateSigningKey: boolean
  /** Keep the state in memory only (nothing survives the process). */
  memory: boolean
  live: LiveOptions
  /** `--data-floor`: the first time footprint and TPO answers cover, for every security. */
  dataFloor?: number
  /** How `--trades` files are read (the command line's reader options). */
  read: TradeFileOptions & { columns: Record<string, string | number> }
  /** Answer history from the pipeline's store: a Postgres URL or a PGlite folder (examples/pipeline). */
  history?: { url?: string; dir?: string }
}

/** The reader options the server takes, as the command line spells them. */
const READ_OPTIONS = ['--time-column', '--price-column', '--volume-column', '--side-column', '--session-column']

/** Where the state lives without `--data-dir`: a folder under the working directory (gitignored in this repository). */
const DEFAULT_DATA_DIR = '.server-data'

const USAGE = `usage: node examples/server [--port N] [--api-key KEY ...] [--no-access-key KEY ...] [--partner-key KEY ...]
                           [--trades FILE ...] [--tick-size X] [--now ISO] [--days N] [--trades-per-day N]
                           [--data-floor TIME] [--time-column C] [--price-column C] [--volume-column C]
                           [--side-column C] [--session-column C] [--time-unit s|ms|us|ns] [--input-zone ZONE]
                           [--side-rule column|tick] [--input-format csv|ndjson|parquet]
                           [--data-dir DIR | --database-url URL | --memory] [--rotate-signing-key]
                           [--live-rate N | --nats URL] [--history-url URL | --history-dir DIR]
  --data-floor TIME  the first time footprint and TPO answers cover (Unix seconds or RFC 3339); default: the
                     service's 2026-05-29 for the generated sample, the first trade of each --trades file`

function parseArgs(argv: readonly string[]): Args {
  const a: Args = {
    port: 8080,
    apiKeys: [],
    noAccessKeys: [],
    partnerKeys: [],
    trades: [],
    tickSize: '0.01',
    days: 60,
    tradesPerDay: 3000,
    dataDir: DEFAULT_DATA_DIR,
    rotateSigningKey: false,
    memory: false,
    live: {},
    read: { columns: {} },
  }
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i]!
    if (name === '--help' || name === '-h') {
      console.log(USAGE)
      process.exit(0)
    }
    if (name === '--rotate-signing-key' || name === '--memory') {
      if (name === '--memory') a.memory = true
      else a.rotateSigningKey = true
      continue
    }
    const value = argv[i + 1]
    if (value === undefined) throw new Error(`${name}: needs a value\n${USAGE}`)
    i++
    const int = (min: number, max: number): number => {
      if (!/^[0-9]+$/.test(value) || Number(value) < min || Number(value) > max)
        throw new Error(`${name}: must be an integer ${min}..${max}`)
      return Number(value)
    }
    switch (name) {
      case '--port':
        a.port = int(0, 65535)
        break
      case '--api-key':
        a.apiKeys.push(value)
        break
      case '--no-access-key':
        a.noAccessKeys.push(value)
        break
      case '--partner-key':
        a.partnerKeys.push(value)
        break
      case '--trades':
        a.trades.push(value)
        break
      case '--tick-size': {
        const t = checkTickSize(value, '--tick-size')
        if (!t.ok) throw new Error(t.error)
        a.tickSize = value
        break
      }
      case '--now': {
        const t = parseRfc3339(value)
        if (!t.ok) throw new Error(`--now: ${t.error}`)
        a.now = t.value
        break
      }
      case '--days':
        a.days = int(1, 3660)
        break
      case '--trades-per-day':
        a.tradesPerDay = int(0, 1_000_000)
        break
      case '--data-dir':
        a.dataDir = value
        break
      case '--data-floor': {
        const t = /^[0-9]+$/.test(value) ? parseUnixSeconds(value) : parseRfc3339(value)
        if (!t.ok) throw new Error(`--data-floor: ${t.error}`)
        a.dataFloor = t.value
        break
      }
      case '--time-unit':
        if (!['s', 'ms', 'us', 'ns'].includes(value)) throw new Error('--time-unit: must be s, ms, us or ns')
        a.read.timeUnit = value as 's' | 'ms' | 'us' | 'ns'
        break
      case '--input-zone':
        a.read.inputZone = value
        break
      case '--side-rule':
        if (value !== 'column' && value !== 'tick') throw new Error('--side-rule: must be column or tick')
        a.read.sideRule = value
        break
      case '--input-format':
        if (value !== 'csv' && value !== 'ndjson' && value !== 'parquet')
          throw new Error('--input-format: must be csv, ndjson or parquet')
        a.read.format = value
        break
      case '--history-url':
      case '--history-dir':
        a.history = name === '--history-url' ? { url: value } : { dir: value }
        break
      case '--database-url':
        if (!/^postgres(ql)?:\/\//.test(value)) throw new Error('--database-url: must be a postgres:// URL')
        a.databaseUrl = value
        break
      case '--live-rate':
        a.live.rate = int(0, 1000)
        break
      case '--nats':
        if (!/^(nats|tls):\/\//.test(value)) throw new Error('--nats: must be a nats:// URL')
        a.live.nats = value
        break
      default:
        if (READ_OPTIONS.includes(name)) {
          a.read.columns[name.slice(2, -'-column'.length)] = /^[0-9]+$/.test(value) ? Number(value) : value
          break
        }
        throw new Error(`unknown option ${name}\n${USAGE}`)
    }
  }
  return a
}

/** The pipeline's store (examples/pipeline/history-store.ts) as the market store. */
async function historyStore(h: { url?: string; dir?: string }, catalog: ReturnType<typeof defaultCatalog>) {
  const { openPglite, openPostgres } = await import('../pipeline/sql.js')
  const { loadHistoryStore } = await import('../pipeline/history-store.js')
  const sql = h.url !== undefined ? await openPostgres(h.url) : await openPglite(resolve(h.dir ?? '.pipeline-data'))
  const store = await loadHistoryStore(sql, catalog)
  await sql.close()
  return store
}

const generated = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2))
  // no request can end the process: what escapes a handler is logged and answered 500 for its request
  installProcessGuard()
  const pinned = args.now
  const now = pinned ?? Date.now()
  const clock = pinned === undefined ? Date.now : () => pinned

  const catalog = defaultCatalog()
  const sample = sampleStore({ now, days: args.days, tradesPerDay: args.tradesPerDay, catalog })
  const trades = new Map<string, TradeColumns>()
  for (const s of sample.all()) trades.set(s.security.guid, s.trades)
  // the data floor: --data-floor for every security; else the service's for the sample, a file's first trade
  const floors = new Map<string, number>()
  const floorLines: string[] = []
  for (const [i, file] of args.trades.entries()) {
    const security = addFileSecurity(catalog, file, args.tickSize, i)
    const cols = await readTradesFile(file, args.read)
    let end = 0
    while (end < cols.time.length && cols.time[end]! < now) end++
    trades.set(security.guid, sliceTradeColumns(cols, 0, end))
    const floor = args.dataFloor ?? cols.time[0]
    if (floor !== undefined) floors.set(security.guid, floor)
    if (args.dataFloor === undefined && floor !== undefined)
      floorLines.push(
        `              ${security.exchange}/${security.symbol}: ${new Date(floor).toISOString()} (its first trade)`,
      )
  }
  if (args.dataFloor !== undefined) for (const s of catalog.securities) floors.set(s.guid, args.dataFloor)
  const base =
    args.history === undefined ? createStore(catalog, trades, floors) : await historyStore(args.history, catalog)
  const live = startLiveStreams(base, args.live, clock)
  // Without a live feed nothing is appended, so the server keeps the plain store, which its REST worker pool
  // can share with its threads; with one, history must see the appended trades, and it answers on the event loop.
  const store = args.live.rate === undefined && args.live.nats === undefined ? base : live.store

  const apiKeys = args.apiKeys.length > 0 || args.noAccessKeys.length > 0 ? args.apiKeys : [generated('key')]
  const partnerKeys = args.partnerKeys.length > 0 ? args.partnerKeys : [generated('partner')]
  const keyConfig: ApiKeyConfig[] = [
    ...apiKeys.map((key) => ({ key })),
    ...args.noAccessKeys.map((key) => ({ key, access: false })),
  ]
  const viewerKey = apiKeys[0]
  const state = args.memory
    ? memoryState()
    : args.databaseUrl !== undefined
      ? await openPostgresState(args.databaseUrl)
      : await openPgliteState(resolve(args.dataDir))
  for (const note of state.notes ?? []) console.error(note)
  const running = await startServer({
    store,
    apiKeys: keyConfig,
    partnerKeys,
    clock,
    port: args.port,
    state,
    rotateSigningKey: args.rotateSigningKey,
    ...(viewerKey === undefined ? {} : { viewerKey }),
    routes: live.routes,
  })
  const streams = await live.attach(running.server, { apiKeys: keyConfig, state })

  const url = running.url
  const key = apiKeys[0] ?? args.noAccessKeys[0] ?? ''
  const login = PARTNER_OPERATION_PATHS.Login
  const candles = PARTNER_OPERATION_PATHS.ListCandles
  const lines = [
    `listening on ${url}`,
    ...(viewerKey === undefined
      ? []
      : [`viewer:       ${url}/   (footprint, TPO and candles in a browser, with the first api key)`]),
    ``,
    `clock:        ${pinned === undefined ? 'system time' : `pinned at ${new Date(pinned).toISOString()}`}`,
    `data floor:   ${new Date(args.dataFloor ?? DEFAULT_SERVICE_CONFIG.dataFloor).toISOString()} ${args.dataFloor !== undefined ? '(--data-floor, every security)' : "(the service's, for the sample)"}`,
    ...floorLines,
    `data:         ${store.all().length} securities, ${store.all().reduce((n, s) => n + s.trades.time.length, 0)} trades, ${args.days} days ending ${new Date(now).toISOString()}`,
    `reference:    ${url}${REFERENCE_PATH}   (OpenAPI document: ${url}${OPENAPI_PATH})`,
    `streams:      ${streams.banner}`,
    `state:        ${state.where}`,
    `api keys:     ${apiKeys.join(' ')}${args.apiKeys.length === 0 && args.noAccessKeys.length === 0 ? '   (generated)' : ''}`,
    ...(args.noAccessKeys.length > 0 ? [`no-access:    ${args.noAccessKeys.join(' ')}`] : []),
    `partner keys: ${partnerKeys.join(' ')}${args.partnerKeys.length === 0 ? '   (generated)' : ''}`,
    ``,
    `try:`,
    `  curl -si -H 'x-api-key: ${key}' '${url}${REST_PREFIX}/exchanges'`,
    `  curl -s  -H 'x-api-key: ${key}' '${url}${REST_PREFIX}/exchanges/CME/securities'`,
    `  curl -s  -H 'x-api-key: ${key}' '${url}${REST_PREFIX}/search?q=apple'`,
    `  curl -s  -H 'x-api-key: ${key}' '${url}${REST_PREFIX}/candles?exchange=NASDAQ&symbol=AAPL&timeframe=1h&limit=5'`,
    `  curl -s  -H 'x-api-key: ${key}' '${url}${REST_PREFIX}/footprint?exchange=CME&symbol=ES&timeframe=1h&rowSize=4&period=7200'`,
    `  curl -s  -H 'x-api-key: ${key}' '${url}${REST_PREFIX}/tpo?exchange=CME&symbol=ES&timeframe=1d&period=172800'`,
    `  curl -s  -H 'x-api-key: ${key}' '${url}${REST_PREFIX}/footprint/row-size-scale?exchange=CME&symbol=ES&timeframe=15m'`,
    `  curl -s  -H 'x-api-key: ${key}' '${url}${REST_PREFIX}/timeframes'`,
    `  TOKEN=$(curl -s -X POST -H 'content-type: application/json' -d '{"api_key":"${partnerKeys[0]}"}' '${url}/partner/${login}' | jq -r .access_token.token)`,
    `  curl -s -X POST -H 'content-type: application/json' -H "accesstoken: $TOKEN" \\`,
    `       -d '{"security_id":{"ticker_code":{"ticker":"ES","exchange_code":"CME"}},"time_frame":{"time_unit":"MINUTE","count":90},"range":{"first_bound_time":"${new Date(now - 86_400_000).toISOString()}","duration":"PT6H"}}' \\`,
    `       '${url}/partner/${candles}'`,
  ]
  // the signals are handled before the banner says the server is up (a supervisor may stop it at once)
  const stop = (): void => {
    streams
      .close()
      .then(running.close)
      .then(
        () => process.exit(0),
        () => process.exit(1),
      )
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  console.log(lines.join('\n'))
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e)
  process.exit(1)
})
