// Loads a trades file given on the command line through the command line's own file layer (src/cli), so that
// the server and `svc-marketdata` read every file alike.
import { basename, extname } from 'node:path'
import { parseDecimal, tradesToColumns, type Trade, type TradeColumns } from '../../src/index.js'
import type { InputFormat } from '../../src/cli/file-text.js'
import type { ReadOptions } from '../../src/cli/input.js'
import type { Catalog, CatalogSecurity, Exchange } from './catalog.js'

/** Exchange code of securities loaded from files (zone UTC). */
export const FILE_EXCHANGE: Exchange = {
  code: 'LOCAL',
  name: 'Trades loaded from a file',
  sourceCodes: ['FILE'],
  acronym: 'LOCAL',
  timezone: 'UTC',
}

/** How `--trades` files are read: the command line's reader options (`--time-column`, `--input-zone`, ...). */
export type TradeFileOptions = Partial<ReadOptions> & { format?: InputFormat }

/**
 * Reads a trades file through the command line's file layer and the library's one reader (CSV, NDJSON or
 * Parquet, gzipped or not; columns, time units, zones and side rules as `svc-marketdata footprint` reads
 * them). Trades come back sorted by time (stable); errors are the reader's, naming the line and the option.
 */
export async function readTradesFile(path: string, options: TradeFileOptions = {}): Promise<TradeColumns> {
  // loaded when a file is read: a server without --trades starts without the file layer
  const { readRecordFile } = await import('../../src/cli/input.js')
  let read: Awaited<ReturnType<typeof readRecordFile>>
  try {
    read = await readRecordFile(path, {
      columns: options.columns ?? {},
      timeUnit: options.timeUnit,
      inputZone: options.inputZone,
      sideRule: options.sideRule ?? 'column',
      kind: 'trades',
      sorted: false,
      ...(options.format !== undefined ? { format: options.format } : {}),
    })
  } catch (e) {
    throw new Error(`--trades ${path}: ${e instanceof Error ? e.message : String(e)}`)
  }
  const trades = (read.records as Trade[]).slice().sort((a, b) => a.time - b.time)
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
    basename(path.replace(/\.gz$/i, ''), extname(path.replace(/\.gz$/i, '')))
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
