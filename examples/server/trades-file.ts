// Loads a trades CSV file given on the command line: the I/O part only; the library validates the records.
import { readFileSync } from 'node:fs'
import { basename, extname } from 'node:path'
import { parseDecimal, tradesToColumns, validateTrades, type Trade, type TradeColumns } from '../../src/index.js'
import { parseRfc3339 } from '../../src/service/index.js'
import type { Catalog, CatalogSecurity, Exchange } from './catalog.js'

/** Exchange code of securities loaded from files (zone UTC). */
export const FILE_EXCHANGE: Exchange = {
  code: 'LOCAL',
  name: 'Trades loaded from a file',
  sourceCodes: ['FILE'],
  acronym: 'LOCAL',
  timezone: 'UTC',
}

/**
 * Reads a CSV file with a header line naming the columns `time,price,volume,side[,session]`: `time` epoch ms
 * or RFC 3339, `price` and `volume` decimals (read as strings, never through a float), `side` buy / sell,
 * `session` MAINSESSION / PRE_MARKET / POST_MARKET. Trades come back sorted by time (stable).
 */
export function readTradesCsv(path: string): TradeColumns {
  const text = readFileSync(path, 'utf8')
  const lines = text.split(/\r?\n/)
  const header = (lines[0] ?? '').split(',').map((h) => h.trim())
  const col = (name: string): number => header.indexOf(name)
  const [ti, pi, vi, si, ssi] = [col('time'), col('price'), col('volume'), col('side'), col('session')]
  if (ti < 0 || pi < 0 || vi < 0 || si < 0)
    throw new Error(`${path}: the header must name time, price, volume and side (got ${lines[0] ?? ''})`)
  const raw: Record<string, unknown>[] = []
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.trim()
    if (line === '') continue
    const f = line.split(',').map((x) => x.trim())
    const t = f[ti] ?? ''
    const time = /^-?\d+$/.test(t)
      ? Number(t)
      : (() => {
          const r = parseRfc3339(t)
          if (!r.ok) throw new Error(`${path}:${i + 1}: time: ${r.error}`)
          return r.value
        })()
    const rec: Record<string, unknown> = { time, price: f[pi], volume: f[vi], side: f[si] }
    if (ssi >= 0 && (f[ssi] ?? '') !== '') rec.session = f[ssi]
    raw.push(rec)
  }
  const v = validateTrades(raw)
  if (!v.ok) throw new Error(`${path}: ${v.error.message}`)
  const trades: Trade[] = v.value.slice().sort((a, b) => a.time - b.time)
  return tradesToColumns(trades)
}

/** Largest tick in units of its last decimal: the library's price grids need row units below 2^52. */
const TICK_UNITS_LIMIT = 2n ** 52n

/**
 * Checks a tick size: a plain decimal (as `parseDecimal` reads it) greater than 0, below 2^52 units of its
 * last decimal. Returns its number of decimals, or an error message naming `name`.
 */
export function checkTickSize(
  tickSize: unknown,
  name = 'tickSize',
): { ok: true; decimals: number } | { ok: false; error: string } {
  const r = parseDecimal(tickSize)
  if (!r.ok || r.value.units <= 0n)
    return { ok: false, error: `${name}: ${JSON.stringify(tickSize)} must be a decimal greater than 0 (e.g. 0.25)` }
  if (r.value.units >= TICK_UNITS_LIMIT)
    return { ok: false, error: `${name}: ${JSON.stringify(tickSize)} has too many digits` }
  return { ok: true, decimals: r.value.scale }
}

/**
 * Adds a file's trades to a catalog as one security of exchange `LOCAL`; returns the new catalog entry.
 * Throws (naming tickSize, before touching the catalog) when `tickSize` is not a decimal greater than 0.
 */
export function addFileSecurity(catalog: Catalog, path: string, tickSize: string, index: number): CatalogSecurity {
  const tick = checkTickSize(tickSize)
  if (!tick.ok) throw new Error(tick.error)
  const decimals = tick.decimals
  if (!catalog.exchanges.some((e) => e.code === FILE_EXCHANGE.code)) catalog.exchanges.push({ ...FILE_EXCHANGE })
  const symbol =
    basename(path, extname(path))
      .toUpperCase()
      .replace(/[^A-Z0-9._-]/g, '_') || `FILE${index}`
  // two files with the same base name would share a symbol: the second could never be reached
  const taken = catalog.securities.find((x) => x.exchange === FILE_EXCHANGE.code && x.symbol === symbol)
  if (taken !== undefined)
    throw new Error(
      `--trades: ${path} would be security ${FILE_EXCHANGE.code}/${symbol}, which ${taken.name.replace(/^Trades of /, '')} already is; give the files different names`,
    )
  const s: CatalogSecurity = {
    guid: `f11e0000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`,
    exchange: FILE_EXCHANGE.code,
    symbol,
    name: `Trades of ${basename(path)}`,
    type: 'stock',
    cfi: 'ESXXXX',
    tickSize,
    pricePrecision: decimals,
    baseAsset: { code: symbol, assetClass: 'EQUITY' },
    quoteAsset: { code: 'USD', assetClass: 'CURRENCY' },
  }
  catalog.securities.push(s)
  return s
}
