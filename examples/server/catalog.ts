// The reference server's security catalog: plain data a real server would keep in a database.
// Nothing here decides a rule of the service; the shapes of interface A's `security_info` come from the library.
import { toPartnerDecimal, type PartnerDecimal, type SecurityInfo } from '../../src/service/index.js'

/** An exchange as `GET /exchanges` lists it (field names are the spec's). */
export interface Exchange {
  code: string
  name: string
  sourceCodes: string[]
  mic?: string
  acronym: string
  countryCode?: string
  timezone: string
}

/** One catalog security: reference data plus what the sample generator needs to fake its trades. */
export interface CatalogSecurity {
  guid: string
  exchange: string
  symbol: string
  name: string
  /** `stock` or `future`. */
  type: 'stock' | 'future'
  isin?: string
  cfi: string
  tickSize: string
  /** Number of decimals prices are quoted with. */
  pricePrecision: number
  baseAsset: { code: string; assetClass: string; company?: string; industry?: string }
  quoteAsset: { code: string; assetClass: string }
  /** Sample data: start price and seed; `undefined` for a listed security that has no data yet. */
  sample?: { startPrice: string; seed: number }
}

/** The catalog: exchanges and their securities. */
export interface Catalog {
  exchanges: Exchange[]
  securities: CatalogSecurity[]
}

/** The built-in catalog: four exchanges in four IANA zones, seven securities (one listed without data). */
export function defaultCatalog(): Catalog {
  const exchanges: Exchange[] = [
    {
      code: 'NASDAQ',
      name: 'Nasdaq Stock Market',
      sourceCodes: ['NASDAQ'],
      mic: 'XNAS',
      acronym: 'NASDAQ',
      countryCode: 'US',
      timezone: 'America/New_York',
    },
    {
      code: 'CME',
      name: 'Chicago Mercantile Exchange',
      sourceCodes: ['CME', 'GLOBEX'],
      mic: 'XCME',
      acronym: 'CME',
      countryCode: 'US',
      timezone: 'America/Chicago',
    },
    {
      code: 'XETRA',
      name: 'Xetra',
      sourceCodes: ['XETRA'],
      mic: 'XETR',
      acronym: 'XETRA',
      countryCode: 'DE',
      timezone: 'Europe/Berlin',
    },
    {
      code: 'TSE',
      name: 'Tokyo Stock Exchange',
      sourceCodes: ['TSE'],
      mic: 'XTKS',
      acronym: 'TSE',
      countryCode: 'JP',
      timezone: 'Asia/Tokyo',
    },
  ]
  const usd = { code: 'USD', assetClass: 'CURRENCY' }
  const securities: CatalogSecurity[] = [
    {
      guid: '6f1c2a10-0001-4a5e-9c1d-0000000000a1',
      exchange: 'NASDAQ',
      symbol: 'AAPL',
      name: 'Apple Inc.',
      type: 'stock',
      isin: 'US0378331005',
      cfi: 'ESVUFR',
      tickSize: '0.01',
      pricePrecision: 2,
      baseAsset: { code: 'AAPL', assetClass: 'EQUITY', company: 'Apple Inc.', industry: 'Technology Hardware' },
      quoteAsset: usd,
      sample: { startPrice: '190', seed: 11 },
    },
    {
      guid: '6f1c2a10-0002-4a5e-9c1d-0000000000a2',
      exchange: 'NASDAQ',
      symbol: 'MSFT',
      name: 'Microsoft Corporation',
      type: 'stock',
      isin: 'US5949181045',
      cfi: 'ESVUFR',
      tickSize: '0.01',
      pricePrecision: 2,
      baseAsset: { code: 'MSFT', assetClass: 'EQUITY', company: 'Microsoft Corporation', industry: 'Software' },
      quoteAsset: usd,
      sample: { startPrice: '420', seed: 12 },
    },
    {
      guid: '6f1c2a10-0003-4a5e-9c1d-0000000000a3',
      exchange: 'NASDAQ',
      symbol: 'NEWCO',
      name: 'Newco Holdings (listed, not yet trading)',
      type: 'stock',
      isin: 'US0000000001',
      cfi: 'ESVUFR',
      tickSize: '0.01',
      pricePrecision: 2,
      baseAsset: { code: 'NEWCO', assetClass: 'EQUITY', company: 'Newco Holdings' },
      quoteAsset: usd,
    },
    {
      guid: '6f1c2a10-0004-4a5e-9c1d-0000000000a4',
      exchange: 'CME',
      symbol: 'ES',
      name: 'E-mini S&P 500 Futures',
      type: 'future',
      cfi: 'FFICSX',
      tickSize: '0.25',
      pricePrecision: 2,
      baseAsset: { code: 'ES', assetClass: 'INDEX' },
      quoteAsset: usd,
      sample: { startPrice: '5000', seed: 21 },
    },
    {
      guid: '6f1c2a10-0005-4a5e-9c1d-0000000000a5',
      exchange: 'CME',
      symbol: 'NQ',
      name: 'E-mini Nasdaq-100 Futures',
      type: 'future',
      cfi: 'FFICSX',
      tickSize: '0.25',
      pricePrecision: 2,
      baseAsset: { code: 'NQ', assetClass: 'INDEX' },
      quoteAsset: usd,
      sample: { startPrice: '18000', seed: 22 },
    },
    {
      guid: '6f1c2a10-0006-4a5e-9c1d-0000000000a6',
      exchange: 'XETRA',
      symbol: 'SAP',
      name: 'SAP SE',
      type: 'stock',
      isin: 'DE0007164600',
      cfi: 'ESVUFN',
      tickSize: '0.02',
      pricePrecision: 2,
      baseAsset: { code: 'SAP', assetClass: 'EQUITY', company: 'SAP SE', industry: 'Software' },
      quoteAsset: { code: 'EUR', assetClass: 'CURRENCY' },
      sample: { startPrice: '180', seed: 31 },
    },
    {
      guid: '6f1c2a10-0007-4a5e-9c1d-0000000000a7',
      exchange: 'TSE',
      symbol: '7203',
      name: 'Toyota Motor Corporation',
      type: 'stock',
      isin: 'JP3633400001',
      cfi: 'ESVUFR',
      tickSize: '1',
      pricePrecision: 0,
      baseAsset: { code: '7203', assetClass: 'EQUITY', company: 'Toyota Motor Corporation', industry: 'Automobiles' },
      quoteAsset: { code: 'JPY', assetClass: 'CURRENCY' },
      sample: { startPrice: '2800', seed: 41 },
    },
  ]
  return { exchanges, securities }
}

function decimal(x: string): PartnerDecimal {
  const r = toPartnerDecimal(x)
  if (!r.ok) throw new Error(`catalog: ${r.error.message}`)
  return r.value
}

/** Interface A `security_info` of a catalog security. */
export function securityInfo(s: CatalogSecurity): SecurityInfo {
  const classes =
    s.type === 'stock' ? { name: 'Common stock', top: 'Equities' } : { name: 'Index futures', top: 'Futures' }
  const top = { name: classes.top }
  return {
    ticker: s.symbol,
    names: { en: s.name },
    exchange_code: s.exchange,
    cfi: s.cfi,
    ...(s.isin === undefined ? {} : { isin: s.isin }),
    status: 1,
    price_precision: s.pricePrecision,
    tick_size: decimal(s.tickSize),
    asset_base: {
      id: { code: s.baseAsset.code, asset_class_code: s.baseAsset.assetClass },
      ...(s.baseAsset.company === undefined
        ? {}
        : {
            company: {
              name: s.baseAsset.company,
              industries: s.baseAsset.industry === undefined ? [] : [{ name: s.baseAsset.industry, industries: [] }],
            },
          }),
    },
    asset_quote: { id: { code: s.quoteAsset.code, asset_class_code: s.quoteAsset.assetClass } },
    classes: [{ name: classes.name, parent_class: top, top_level_class: top }],
    guid: s.guid,
    exchange_alias: s.exchange,
    price_precisions: [{ price_from: decimal('0'), precision: s.pricePrecision }],
  }
}

/** The REST security record (`/exchanges/{exchange}/securities[/{symbol}]`): type, assets, tick size, precision. */
export function restSecurity(s: CatalogSecurity): Record<string, unknown> {
  return {
    symbol: s.symbol,
    exchange: s.exchange,
    name: s.name,
    type: s.type,
    guid: s.guid,
    ...(s.isin === undefined ? {} : { isin: s.isin }),
    cfi: s.cfi,
    tickSize: s.tickSize,
    pricePrecision: s.pricePrecision,
    baseAsset: {
      code: s.baseAsset.code,
      assetClass: s.baseAsset.assetClass,
      ...(s.baseAsset.company === undefined ? {} : { company: s.baseAsset.company }),
    },
    quoteAsset: { code: s.quoteAsset.code, assetClass: s.quoteAsset.assetClass },
    status: 1,
  }
}
