// The OpenAPI document agrees with the library: each check asks the library's behaviour (parsers, validators,
// priceOf, checkCap, the ledger, the error constructors, the aggregators' output) and compares it with what the
// document says, so a rule changed on one side only fails here.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { footprintProfiles, listTimeframes, parseTimeframe, tpoProfiles } from '../../src/index.js'
import {
  createRestLedger,
  invalidArgumentError,
  notFoundError,
  openApiDocument,
  parseHistoryQuery,
  permissionDeniedError,
  priceOf,
  checkCap,
  rateLimitedError,
  REST_ENDPOINTS,
  REST_PATHS,
  StatusCode,
  tooManyStreamsError,
  tooMuchDataError,
  unauthenticatedError,
  unavailableError,
  validateLinkRequest,
  validateListCandlesRequest,
  parseSecurityId,
  type HistoryEndpoint,
  type JsonObject,
  type RestEndpoint,
} from '../../src/service/index.js'
import { PARTNER_OPERATION_PATHS, PARTNER_TOKENLESS_OPERATIONS } from '../../src/partner/index.js'
import { createContract } from '../../examples/server/contract.js'

type Obj = Record<string, any>
const doc = openApiDocument() as Obj
const contract = createContract(doc as JsonObject)
const NOW = Date.UTC(2026, 7, 20, 12)
const BASE = { exchange: 'XNAS', symbol: 'AAPL' }
const HISTORY: HistoryEndpoint[] = ['candles', 'footprint', 'tpo']

const deref = (x: Obj): Obj =>
  typeof x.$ref === 'string'
    ? deref(
        x.$ref
          .split('/')
          .slice(1)
          .reduce((o: Obj, k: string) => o[k], doc),
      )
    : x
const get = (endpoint: RestEndpoint): Obj => doc.paths[REST_PATHS[endpoint]].get
const params = (endpoint: RestEndpoint): Obj[] => (get(endpoint).parameters ?? []).map(deref)
const param = (endpoint: RestEndpoint, name: string): Obj => {
  const p = params(endpoint).find((x) => x.name === name)
  if (p === undefined) throw new Error(`${endpoint} documents no ${name}`)
  return p
}
/** The query parameter names of the history endpoints (candles, footprint, TPO) in the service description (docs/service.md). */
const SPEC_PARAMETERS = [
  'exchange',
  'symbol',
  'timeframe',
  'from',
  'to',
  'period',
  'limit',
  'sessionType',
  'rowSize',
  'rowSizeValue',
  'blockSize',
  'mergeSessions',
]
const TIMEFRAME_VALUE: Readonly<Record<HistoryEndpoint, string>> = { candles: '1h', footprint: '1h', tpo: '1d' }
const parse = (endpoint: HistoryEndpoint, extra: Record<string, string>) =>
  parseHistoryQuery(endpoint, { ...BASE, timeframe: TIMEFRAME_VALUE[endpoint], ...extra }, { now: NOW })

describe('interface B endpoints and parameters', () => {
  test('one GET path per priced endpoint name, each with its operation', () => {
    const gets = Object.keys(doc.paths).filter((p) => doc.paths[p].get !== undefined)
    expect(gets.sort()).toEqual(REST_ENDPOINTS.map((e) => REST_PATHS[e]).sort())
  })

  test('the history endpoints document exactly the query parameters parseHistoryQuery accepts, required as it requires them', () => {
    for (const endpoint of HISTORY) {
      const documented = params(endpoint).map((p) => p.name)
      // every name the spec gives a history endpoint, every name documented anywhere, and names no endpoint takes
      const candidates = new Set([
        ...SPEC_PARAMETERS,
        ...HISTORY.flatMap((e) => params(e).map((p) => p.name)),
        'q',
        'bogus',
        'Limit',
        'session_type',
      ])
      for (const name of candidates) {
        const r = parse(endpoint, { [name]: 'x' })
        const unknown =
          !r.ok && r.error.parameter === name && /unknown query parameter|not accepted by/.test(r.error.message)
        expect({ endpoint, name, accepted: !unknown }).toEqual({ endpoint, name, accepted: documented.includes(name) })
      }
      for (const p of params(endpoint)) {
        const query: Record<string, string> = { ...BASE, timeframe: TIMEFRAME_VALUE[endpoint] }
        delete query[p.name]
        const r = parseHistoryQuery(endpoint, query, { now: NOW })
        const missing = !r.ok && r.error.parameter === p.name && /is required/.test(r.error.message)
        expect({ endpoint, name: p.name, required: missing }).toEqual({ endpoint, name: p.name, required: p.required })
      }
    }
  })

  test('timeframe patterns accept exactly the ids parseTimeframe accepts for each endpoint (and blockSize)', () => {
    const cases: [string, RegExp, (id: string) => boolean][] = HISTORY.map((e) => [
      e,
      new RegExp(param(e, 'timeframe').schema.pattern),
      (id: string) => parseTimeframe(id).ok && parse(e, { timeframe: id }).ok,
    ])
    const tpoBlock = new RegExp(param('tpo', 'blockSize').schema.pattern)
    cases.push(['blockSize', tpoBlock, (id) => parse('tpo', { blockSize: id }).ok])
    cases.push([
      'row-size-scale',
      new RegExp(param('row-size-scale', 'timeframe').schema.pattern),
      (id) => parse('footprint', { timeframe: id }).ok,
    ])
    const everyId = listTimeframes().flatMap((r) => Array.from({ length: r.max + 2 }, (_, i) => `${i}${r.suffix}`))
    const id = fc.oneof(
      fc
        .tuple(fc.nat(20_000), fc.constantFrom('m', 'h', 'd', 'w', 'M', 'y', 't', 'Q', 's'))
        .map(([n, s]) => `${n}${s}`),
      fc.string({ maxLength: 6 }),
      fc.constantFrom('060m', '01h', '1m ', ' 1m', '1mm', '+1m', '-1m', '1.5h'),
    )
    for (const [name, pattern, accepts] of cases) {
      for (const v of everyId) expect({ name, v, match: pattern.test(v) }).toEqual({ name, v, match: accepts(v) })
      fc.assert(
        fc.property(id, (v) => pattern.test(v) === accepts(v)),
        { numRuns: 500 },
      )
    }
  })

  test('limits and defaults: limit, rowSize, period, rowSizeValue, blockSize, mergeSessions, sessionType', () => {
    const limit = param('candles', 'limit').schema
    expect(parse('candles', { limit: String(limit.maximum) }).ok).toBe(true)
    expect(parse('candles', { limit: String(limit.maximum + 1) }).ok).toBe(false)
    expect(parse('candles', { limit: String(limit.minimum - 1) }).ok).toBe(false)
    const candles = parse('candles', {})
    expect(candles.ok && candles.value.endpoint === 'candles' && candles.value.limit).toBe(limit.default)

    const rowSize = param('footprint', 'rowSize').schema
    expect(parse('footprint', { rowSize: String(rowSize.maximum) }).ok).toBe(true)
    expect(parse('footprint', { rowSize: String(rowSize.maximum + 1) }).ok).toBe(false)
    expect(parse('footprint', { rowSize: '0' }).ok).toBe(false)

    const period = param('candles', 'period').schema
    expect(parse('candles', { period: String(period.maximum) }).ok).toBe(true)
    expect(parse('candles', { period: String(period.maximum + 1) }).ok).toBe(false)

    const rowSizeValue = new RegExp(param('footprint', 'rowSizeValue').schema.pattern)
    fc.assert(
      fc.property(
        fc.oneof(
          fc.stringMatching(/^[0-9]{1,4}(\.[0-9]{1,4})?$/),
          fc.constantFrom('0', '0.0', '-1', '1e-3', '.5', '5.', '+1', ' 1'),
        ),
        (v) => rowSizeValue.test(v) === parse('footprint', { rowSizeValue: v }).ok,
      ),
    )

    const tpo = parse('tpo', {})
    expect(tpo.ok && tpo.value.endpoint === 'tpo' && tpo.value.blockSize.id).toBe(
      param('tpo', 'blockSize').schema.default,
    )
    expect(tpo.ok && tpo.value.endpoint === 'tpo' && tpo.value.mergeSessions).toBe(
      param('tpo', 'mergeSessions').schema.default,
    )
    const merge: string[] = param('tpo', 'mergeSessions').schema.enum
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom(...merge), fc.string({ maxLength: 14 })),
        (v) => merge.includes(v) === parse('tpo', { mergeSessions: v }).ok,
      ),
    )

    const sessions: string[] = param('candles', 'sessionType').schema.items.enum
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom(...sessions), fc.string({ maxLength: 12 })),
        (v) => (v.length > 0 && sessions.includes(v)) === parse('candles', { sessionType: v }).ok,
      ),
    )
    const all = parse('candles', {})
    expect(all.ok && all.value.sessionTypes).toEqual(sessions)
  })

  test('x-credits prices every endpoint as priceOf does, for any returned count', () => {
    const field: Partial<Record<RestEndpoint, 'candles' | 'profiles' | 'periods'>> = {
      candles: 'candles',
      footprint: 'profiles',
      tpo: 'periods',
    }
    for (const endpoint of REST_ENDPOINTS) {
      const c = get(endpoint)['x-credits']
      const f = field[endpoint]
      if (f === undefined) {
        expect({ endpoint, credits: c }).toEqual({ endpoint, credits: { flat: priceOf(endpoint) } })
        continue
      }
      expect(c.item).toBe(f)
      fc.assert(
        fc.property(
          fc.nat(100_000),
          (n) => Math.min(c.maximum, Math.max(c.minimum, n * c.perItem)) === priceOf(endpoint, { [f]: n }),
        ),
      )
    }
  })

  test('x-cap is where checkCap starts answering too_much_data', () => {
    const at = (endpoint: 'footprint' | 'tpo', timeframe: string, slots: number, seconds: number) => {
      const from = Date.UTC(2026, 0, 5) / 1000
      const r = parseHistoryQuery(
        endpoint,
        { ...BASE, timeframe, from: String(from), period: String(slots * seconds) },
        { now: NOW },
      )
      if (!r.ok) throw new Error(r.error.message)
      return checkCap(r.value)?.code
    }
    const footprint = get('footprint')['x-cap'].maximum
    expect([at('footprint', '1m', footprint, 60), at('footprint', '1m', footprint + 1, 60)]).toEqual([
      undefined,
      'too_much_data',
    ])
    const tpo = get('tpo')['x-cap'].maximum
    expect([at('tpo', '1d', tpo, 86_400), at('tpo', '1d', tpo + 1, 86_400)]).toEqual([undefined, 'too_much_data'])
    expect(get('candles')['x-cap']).toBeUndefined() // candles are capped by limit
  })

  test('each error of the library has a documented response of its status whose codes include it', () => {
    const errors = [
      invalidArgumentError('x', 'limit'),
      tooMuchDataError(1000, 'footprint profiles'),
      unauthenticatedError(),
      permissionDeniedError(),
      notFoundError('exchange'),
      rateLimitedError(3),
      unavailableError(502),
      unavailableError(503),
      unavailableError(504),
    ]
    const documented: string[] = doc.components.schemas.ErrorBody.properties.error.properties.code.enum
    expect(documented.sort()).toEqual(
      [...new Set([...errors.map((e) => e.code), tooManyStreamsError('candles', 100).code])].sort(),
    )
    for (const endpoint of REST_ENDPOINTS) {
      const responses = get(endpoint).responses
      for (const e of errors) {
        if (e.code === 'not_found' && (endpoint === 'timeframes' || endpoint === 'exchanges')) continue
        const r = deref(responses[String(e.status)] ?? responses[`${String(e.status)[0]}XX`])
        const codes: string[] = r.content['application/json'].schema.properties.error.properties.code.enum
        expect({ endpoint, status: e.status, has: codes.includes(e.code) }).toEqual({
          endpoint,
          status: e.status,
          has: true,
        })
        expect(
          contract.validate(r.content['application/json'].schema, { error: { code: e.code, message: e.message } }),
        ).toEqual([])
      }
    }
  })

  test('rate-limit headers: a charge documents what the ledger sends on 200, a lock-out what it sends on 429', () => {
    const ledger = createRestLedger()
    const ok = ledger.charge(NOW, 1000)
    const locked = ledger.charge(NOW, 200_000)
    for (const endpoint of REST_ENDPOINTS) {
      const responses = get(endpoint).responses
      const of = (status: string) =>
        Object.entries(deref(responses[status]).headers as Obj)
          .filter(([, h]) => deref(h).required)
          .map(([n]) => n)
      expect(of('200').sort()).toEqual(['x-request-id', ...Object.keys(ok.headers)].sort())
      expect(of('429').sort()).toEqual(['x-request-id', ...Object.keys(locked.headers)].sort())
      expect(locked.ok).toBe(false)
      for (const [name, value] of Object.entries(locked.headers)) {
        expect(contract.validate(deref(deref(responses['429']).headers[name]).schema, Number(value))).toEqual([])
      }
    }
  })
})

describe('interface B bodies', () => {
  const trades = [
    { time: Date.UTC(2026, 5, 1, 14), price: '10', volume: '1', side: 'buy' as const },
    {
      time: Date.UTC(2026, 5, 1, 15),
      price: '10.5',
      volume: '2',
      side: 'sell' as const,
      session: 'PRE_MARKET' as const,
    },
  ]
  const keys = (schema: string) => Object.keys(doc.components.schemas[schema].properties).sort()
  const iso = (x: Obj, fields: string[]) => {
    const out: Obj = { ...x }
    for (const f of fields) if (typeof out[f] === 'number') out[f] = new Date(out[f]).toISOString()
    if (Array.isArray(out.blocks)) out.blocks = out.blocks.map((t: number) => new Date(t).toISOString())
    return out
  }

  test('footprint and TPO profiles have exactly the documented fields, and validate once times are on the wire', () => {
    const fp = footprintProfiles(trades, {
      timeframe: '1d',
      tickSize: '0.5',
      sessions: ['PRE_MARKET'],
      from: Date.UTC(2026, 5, 1, 12),
    })[0]!
    expect([...new Set([...Object.keys(fp), 'sessionType', 'profileStart'])].sort()).toEqual(keys('FootprintProfile'))
    expect(contract.validate('FootprintProfile', iso(fp, ['time', 'end', 'profileStart']))).toEqual([])
    for (const mergeSessions of ['MERGE_ALL', 'GROUP_BY_TYPE'] as const) {
      for (const p of tpoProfiles(trades, { timeframe: '1d', tickSize: '0.5', mergeSessions })) {
        expect([...new Set([...Object.keys(p), 'sessionType', 'profileStart'])].sort()).toEqual(keys('TpoProfile'))
        expect(
          contract.validate('TpoProfile', iso(p, ['time', 'end', 'openTime', 'closeTime', 'initialBalanceStart'])),
        ).toEqual([])
      }
    }
  })

  test('GET /timeframes is documented with the count rules listTimeframes() answers, which the schema allows', () => {
    const example = get('timeframes').responses['200'].content['application/json'].examples.rules.value
    expect(example).toEqual({ timeframes: listTimeframes() })
    expect(contract.validate('TimeframesResponse', example)).toEqual([])
  })
})

describe('interface A', () => {
  test('one POST path per operation under the partner server, accesstoken on all but Login and Refresh', () => {
    const posts = Object.keys(doc.paths).filter((p) => doc.paths[p].post !== undefined)
    expect(posts.sort()).toEqual(
      Object.values(PARTNER_OPERATION_PATHS)
        .map((p) => `/${p}`)
        .sort(),
    )
    for (const [name, path] of Object.entries(PARTNER_OPERATION_PATHS)) {
      const op = doc.paths[`/${path}`]
      expect(op.servers[0].url).toBe('{partner_base_url}')
      const tokenless = (PARTNER_TOKENLESS_OPERATIONS as readonly string[]).includes(name)
      expect(op.post.security).toEqual(tokenless ? [] : [{ accessToken: [] }])
    }
    expect(doc.components.securitySchemes.accessToken).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'accesstoken',
    })
    expect(doc.components.schemas.Status.properties.code['x-status-codes']).toEqual(StatusCode)
  })

  const text = fc.oneof(fc.constantFrom('', 'g', 'x'.repeat(128), 'x'.repeat(129)), fc.string({ maxLength: 3 }))
  const anyValue = fc.oneof(text, fc.integer(), fc.constant(null), fc.constant(undefined), fc.boolean())
  const securityId = fc.oneof(
    fc.record({ guid: anyValue }, { requiredKeys: [] }),
    fc.record({
      ticker_code: fc.record({ ticker: text, exchange_code: text, extra: text }, { requiredKeys: ['ticker'] }),
    }),
    fc.record({ guid: text, ticker_code: fc.record({ ticker: text, exchange_code: text }) }),
  )
  const time = fc.constantFrom('2026-06-01T00:00:00Z', '2026-06-01T04:00:00+02:00', '2026-06-01', 'soon', '')
  const candlesBody = fc.record(
    {
      security_id: securityId,
      time_frame: fc.record(
        {
          time_unit: fc.constantFrom('MINUTE', 'DAY', 'QUARTER', 'TICK', 'minute'),
          count: fc.oneof(fc.integer({ min: -2, max: 2 }), fc.constant(1.5)),
        },
        { requiredKeys: ['time_unit'] },
      ),
      range: fc.oneof(
        fc.record({ first_bound_time: time, second_bound_time: time }),
        fc.record({ first_bound_time: time, duration: fc.constantFrom('PT4H', 'P1D', 'PT0S', '4h') }),
        fc.record({ first_bound_time: time, count: fc.integer({ min: -3, max: 3 }) }),
        fc.record({ first_bound_time: time, count: fc.constant(5), duration: fc.constant('PT4H') }),
      ),
      properties: fc.array(fc.constantFrom('OPEN', 'CLOSE', 'SESSION_TYPE', 'open', 'TIME')),
      session_types: fc.array(fc.constantFrom('MAINSESSION', 'PRE_MARKET', 'AFTER')),
      extra: fc.constant(1),
    },
    { requiredKeys: [] },
  )

  test('the library never accepts a body the document refuses (ListCandles, SecurityId, link bodies)', () => {
    fc.assert(
      fc.property(candlesBody, (body) => {
        const json = JSON.parse(JSON.stringify(body))
        if (validateListCandlesRequest(json).ok) expect(contract.validate('ListCandlesRequest', json)).toEqual([])
      }),
      { numRuns: 2000 },
    )
    fc.assert(
      fc.property(securityId, (id) => {
        const json = JSON.parse(JSON.stringify(id))
        if (parseSecurityId(json).ok) expect(contract.validate('SecurityId', json)).toEqual([])
        else expect(contract.validate('SecurityId', json)).not.toEqual([])
      }),
    )
    for (const op of ['LinkSecurity', 'UnlinkSecurity', 'GetLinkedSecurity'] as const) {
      fc.assert(
        fc.property(
          fc.record({ security_guid: text, partner_security_id: text, other: text }, { requiredKeys: [] }),
          (body) => {
            const ok = validateLinkRequest(op, body).ok
            expect({ op, body, documented: contract.validate(`${op}Request`, body).length === 0 }).toEqual({
              op,
              body,
              documented: ok,
            })
          },
        ),
      )
    }
  })
})
