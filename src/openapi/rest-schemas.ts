// Interface B (REST) component schemas: the error body, candles, footprint and TPO profiles, timeframe rules,
// the row-size scale and the catalog records. Enumerations come from the library (error codes, session names,
// timeframe units); objects are open (fields may be added), required lists name what is always sent.
import { API_ERROR_CODES } from '../_lib/api-error.js'
import { SESSION_NAMES } from '../trades/types.js'
import { listTimeframes } from '../time/index.js'
import { DATE_TIME, DECIMAL_STRING, ref, VOLUME_STRING, type JsonObject } from './schema.js'

const STRING: JsonObject = { type: 'string' }
const COUNT: JsonObject = { type: 'integer', minimum: 0 }
const SESSION: JsonObject = { type: 'string', enum: [...SESSION_NAMES] }
const SYMBOL_FIELDS: JsonObject = {
  exchange: { type: 'string', description: 'Service exchange code.' },
  symbol: { type: 'string' },
}

/** Why a profile answer is empty although its range was not: sent only then, never required. */
const EMPTIED_NOTE: JsonObject = {
  type: 'string',
  description:
    'Only on an answer whose `profiles` is empty because the range ends before the history held (the data floor, or for footprints the depth counted back from the newest trade): which bound it ended before and what moves it. Text for people; absent otherwise.',
}

/** An object schema: `required` lists every property that is always present. */
function object(description: string, properties: JsonObject, required: string[]): JsonObject {
  return { type: 'object', description, required, properties }
}

const FOOTPRINT_ROW: JsonObject = {
  type: 'array',
  description:
    'Positional row `[price, volumeBuy, volumeSell, tradesCountBuy, tradesCountSell]`; `price` is the lower bound of `[price, price + rowSize)`. Elements may be appended in future: ignore trailing extras.',
  prefixItems: [
    { ...DECIMAL_STRING, description: 'Row price (lower bound).' },
    { ...VOLUME_STRING, description: 'Buy volume.' },
    { ...VOLUME_STRING, description: 'Sell volume.' },
    { ...COUNT, description: 'Buy trades.' },
    { ...COUNT, description: 'Sell trades.' },
  ],
  minItems: 5,
}

const TPO_ROW: JsonObject = {
  type: 'array',
  description:
    "Positional row `[price, blockIndexes, volumeBuy, volumeSell]`; `blockIndexes` index into the profile's `blocks`. Elements may be appended in future: ignore trailing extras.",
  prefixItems: [
    { ...DECIMAL_STRING, description: 'Row price (lower bound).' },
    { type: 'array', items: COUNT, description: 'Indexes of the blocks that marked this row.' },
    { ...VOLUME_STRING, description: 'Buy volume.' },
    { ...VOLUME_STRING, description: 'Sell volume.' },
  ],
  minItems: 4,
}

const FOOTPRINT_PROFILE = object(
  'One footprint profile: one timeframe bucket. Times are UTC date-times; prices and volumes exact decimal strings.',
  {
    time: { ...DATE_TIME, description: 'Bucket start.' },
    end: { ...DATE_TIME, description: 'Bucket end (exclusive).' },
    profileStart: {
      ...DATE_TIME,
      description: 'Real start of the first profile when the range was trimmed to the history depth or the data start.',
    },
    rowSize: {
      type: 'number',
      description: 'Row height in ticks (a ratio when an absolute rowSizeValue is not a whole number of ticks).',
    },
    rowSizeValue: { ...VOLUME_STRING, description: 'Row height as a price step; echo it back to pin the same grid.' },
    tickSize: VOLUME_STRING,
    rows: { type: 'array', items: ref('schemas', 'FootprintRow'), description: 'Rows that traded, ascending price.' },
    high: DECIMAL_STRING,
    low: DECIMAL_STRING,
    volumeBuy: VOLUME_STRING,
    volumeSell: VOLUME_STRING,
    volume: VOLUME_STRING,
    delta: DECIMAL_STRING,
    tradesCountBuy: COUNT,
    tradesCountSell: COUNT,
    trades: COUNT,
    volumePoc: DECIMAL_STRING,
    sessionType: SESSION,
  },
  [
    'time',
    'end',
    'rowSize',
    'rowSizeValue',
    'tickSize',
    'rows',
    'high',
    'low',
    'volumeBuy',
    'volumeSell',
    'volume',
    'delta',
    'tradesCountBuy',
    'tradesCountSell',
    'trades',
    'volumePoc',
  ],
)

const PRICE_PAIR = object('High and low price.', { high: DECIMAL_STRING, low: DECIMAL_STRING }, ['high', 'low'])

const TPO_PROFILE = object(
  'One TPO (Market Profile) profile: a period (or one session type of it with GROUP_BY_TYPE).',
  {
    time: { ...DATE_TIME, description: 'Period start.' },
    end: { ...DATE_TIME, description: 'Period end (exclusive).' },
    profileStart: {
      ...DATE_TIME,
      description: 'Real start of the first profile when the range was trimmed to the data start.',
    },
    sessionType: { ...SESSION, description: 'Only on GROUP_BY_TYPE profiles.' },
    blockSize: { type: 'string', description: 'Block timeframe id.' },
    blocks: { type: 'array', items: DATE_TIME, description: 'Start times of the blocks that hold data.' },
    rowSize: { type: 'number' },
    rowSizeValue: VOLUME_STRING,
    rows: {
      type: 'array',
      items: ref('schemas', 'TpoRow'),
      description: 'Every grid row from the lowest to the highest marked row, ascending price.',
    },
    poc: DECIMAL_STRING,
    volumePoc: DECIMAL_STRING,
    valueAreaHigh: DECIMAL_STRING,
    valueAreaLow: DECIMAL_STRING,
    volumeValueAreaHigh: DECIMAL_STRING,
    volumeValueAreaLow: DECIMAL_STRING,
    initialBalance: {
      oneOf: [PRICE_PAIR, { type: 'null' }],
      description: 'Null when the profile has no main-session trade.',
    },
    high: DECIMAL_STRING,
    low: DECIMAL_STRING,
    open: DECIMAL_STRING,
    close: DECIMAL_STRING,
    tpoCount: COUNT,
    tpoAbovePoc: COUNT,
    tpoBelowPoc: COUNT,
    singlePrints: { type: 'array', items: DECIMAL_STRING },
    poorHigh: { type: 'boolean' },
    poorLow: { type: 'boolean' },
    excessHigh: COUNT,
    excessLow: COUNT,
    volumeBuy: VOLUME_STRING,
    volumeSell: VOLUME_STRING,
    tickSize: VOLUME_STRING,
    openTime: DATE_TIME,
    closeTime: DATE_TIME,
    blockHighs: { type: 'array', items: DECIMAL_STRING },
    blockLows: { type: 'array', items: DECIMAL_STRING },
    valueAreaPercent: { type: 'number' },
    initialBalancePeriod: STRING,
    initialBalanceStart: { oneOf: [DATE_TIME, { type: 'null' }] },
  },
  [
    'time',
    'end',
    'blockSize',
    'blocks',
    'rowSize',
    'rowSizeValue',
    'rows',
    'poc',
    'volumePoc',
    'valueAreaHigh',
    'valueAreaLow',
    'volumeValueAreaHigh',
    'volumeValueAreaLow',
    'initialBalance',
    'high',
    'low',
    'open',
    'close',
    'tpoCount',
    'volumeBuy',
    'volumeSell',
  ],
)

const CANDLE = object(
  "One candle. Prices keep the grid of the security's tick size.",
  {
    time: { ...DATE_TIME, description: 'Candle start.' },
    open: DECIMAL_STRING,
    high: DECIMAL_STRING,
    low: DECIMAL_STRING,
    close: DECIMAL_STRING,
    volume: VOLUME_STRING,
    value: { ...DECIMAL_STRING, description: 'Traded value (sum of price x volume), when known.' },
    trades: COUNT,
    session: SESSION,
  },
  ['time', 'open', 'high', 'low', 'close', 'volume'],
)

const UNITS = [...new Set(listTimeframes().map((r) => r.unit))]

/** Interface B component schemas, by name. */
export function restSchemas(): JsonObject {
  return {
    ErrorBody: {
      type: 'object',
      description: 'Every interface B failure: branch on `error.code` (stable); `message` is for people.',
      required: ['error'],
      properties: {
        error: {
          type: 'object',
          required: ['code', 'message'],
          properties: { code: { type: 'string', enum: [...API_ERROR_CODES] }, message: STRING },
        },
      },
    },
    Candle: CANDLE,
    CandlesResponse: object(
      '`GET /candles`.',
      { ...SYMBOL_FIELDS, timeframe: STRING, candles: { type: 'array', items: ref('schemas', 'Candle') } },
      ['exchange', 'symbol', 'timeframe', 'candles'],
    ),
    TimeframeRule: object(
      'One count rule: ids `<count><suffix>` for count in [min, max].',
      {
        unit: { type: 'string', enum: UNITS },
        suffix: STRING,
        min: { type: 'integer', minimum: 1 },
        max: { type: 'integer', minimum: 1 },
        examples: { type: 'array', items: STRING },
      },
      ['unit', 'suffix', 'min', 'max', 'examples'],
    ),
    TimeframesResponse: object(
      '`GET /timeframes`.',
      { timeframes: { type: 'array', items: ref('schemas', 'TimeframeRule') } },
      ['timeframes'],
    ),
    FootprintRow: FOOTPRINT_ROW,
    FootprintProfile: FOOTPRINT_PROFILE,
    FootprintResponse: object(
      '`GET /footprint`: the resolved range and the profiles in it.',
      {
        ...SYMBOL_FIELDS,
        timeframe: STRING,
        from: DATE_TIME,
        to: DATE_TIME,
        profiles: { type: 'array', items: ref('schemas', 'FootprintProfile') },
        note: EMPTIED_NOTE,
      },
      ['exchange', 'symbol', 'timeframe', 'from', 'to', 'profiles'],
    ),
    RowSizeScale: object(
      '`GET /footprint/row-size-scale`: row sizes in ticks a settings UI can offer.',
      {
        ...SYMBOL_FIELDS,
        timeframe: STRING,
        min: { type: 'integer', minimum: 1 },
        max: { type: 'integer', minimum: 1 },
        step: { type: 'integer', minimum: 1 },
        default: { type: 'integer', minimum: 1 },
        tickSize: VOLUME_STRING,
        defaultRowSizeValue: VOLUME_STRING,
        rangeTicks: {
          oneOf: [{ type: 'number' }, { type: 'null' }],
          description: 'Typical bucket range in ticks; null when unknown.',
        },
      },
      ['exchange', 'symbol', 'timeframe', 'min', 'max', 'step', 'default', 'tickSize', 'defaultRowSizeValue'],
    ),
    TpoRow: TPO_ROW,
    TpoProfile: TPO_PROFILE,
    TpoResponse: object(
      '`GET /tpo`: the resolved range, options and profiles.',
      {
        ...SYMBOL_FIELDS,
        timeframe: STRING,
        blockSize: STRING,
        mergeSessions: { type: 'string', enum: ['MERGE_ALL', 'GROUP_BY_TYPE'] },
        from: DATE_TIME,
        to: DATE_TIME,
        profiles: { type: 'array', items: ref('schemas', 'TpoProfile') },
        note: EMPTIED_NOTE,
      },
      ['exchange', 'symbol', 'timeframe', 'blockSize', 'mergeSessions', 'from', 'to', 'profiles'],
    ),
    SearchHit: object(
      'One search hit.',
      {
        ...SYMBOL_FIELDS,
        name: STRING,
        type: STRING,
        guid: STRING,
        isin: STRING,
        match: STRING,
        score: { type: 'number' },
      },
      ['exchange', 'symbol', 'name', 'guid'],
    ),
    SearchResponse: object(
      '`GET /search`: ranked hits.',
      { query: STRING, results: { type: 'array', items: ref('schemas', 'SearchHit') } },
      ['query', 'results'],
    ),
    Exchange: object(
      'An exchange. `code` is the service code used by every other endpoint (not the MIC).',
      {
        code: STRING,
        name: STRING,
        sourceCodes: { type: 'array', items: STRING },
        mic: STRING,
        acronym: STRING,
        countryCode: STRING,
        timezone: { type: 'string', description: "IANA time zone of the exchange's market data." },
      },
      ['code', 'name', 'sourceCodes', 'acronym', 'timezone'],
    ),
    ExchangesResponse: object(
      '`GET /exchanges`.',
      { exchanges: { type: 'array', items: ref('schemas', 'Exchange') } },
      ['exchanges'],
    ),
    Security: object(
      'A security specification: type, assets, tick size and precision.',
      {
        ...SYMBOL_FIELDS,
        name: STRING,
        type: STRING,
        guid: STRING,
        isin: STRING,
        cfi: STRING,
        tickSize: VOLUME_STRING,
        pricePrecision: { type: 'integer', minimum: 0 },
        baseAsset: {
          type: 'object',
          required: ['code'],
          properties: { code: STRING, assetClass: STRING, company: STRING },
        },
        quoteAsset: { type: 'object', required: ['code'], properties: { code: STRING, assetClass: STRING } },
        status: { type: 'integer', description: '1 means active.' },
      },
      ['symbol', 'exchange', 'type', 'tickSize', 'pricePrecision', 'baseAsset', 'quoteAsset'],
    ),
    SecuritiesResponse: object(
      '`GET /exchanges/{exchange}/securities`.',
      { exchange: STRING, securities: { type: 'array', items: ref('schemas', 'Security') } },
      ['exchange', 'securities'],
    ),
  }
}
