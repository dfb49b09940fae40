// Bounds on what the server parses and echoes: a JSON body nested deeper than the limit is status 3 (measured on
// the text, before it is parsed), an echoed id is capped, and an error the library throws while a REST request
// is answered is that request's 400, naming the parameter, never a 500.
import { fc, test as prop } from '@fast-check/vitest'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { MarketDataError, type MarketDataErrorCode } from '../../src/index.js'
import { NOW, OPS, remaining, startHarness, type Harness } from './harness.js'
import { inputErrorOf } from './input-error.js'
import { boundedEcho, jsonDepth, parseJsonBody } from './json-body.js'
import { DEFAULT_LIMITS, MAX_ECHO_CHARS } from './limits.js'

const KEY = 'bounds-key'
const PARTNER = 'bounds-partner'
let h: Harness
let token: string
beforeAll(async () => {
  h = await startHarness([{ key: KEY, account: 'bounds' }], [PARTNER])
  token = (await h.post(OPS.login, { api_key: PARTNER })).body.access_token.token
})
afterAll(async () => {
  await h.close()
})

/** `{"security_ids":[X]}` with X an object nested `levels` deep around a string. */
function nestedIds(levels: number, key = 'a'): string {
  return `{"security_ids":[${`{"${key}":`.repeat(levels)}"x"${'}'.repeat(levels)}]}`
}

describe('JSON bodies', () => {
  test('a 38 KB ListSecurities body nested 4,200 levels is status 3, and the process goes on serving', async () => {
    const body = nestedIds(4200, 'abcd')
    expect(body.length).toBeGreaterThan(37_000)
    const r = await h.post(OPS.listSecurities, body, token)
    expect(r.status).toBe(200)
    expect(r.body.status.code).toBe(3)
    expect(r.body.status.message).toBe(
      `request body: nested deeper than ${DEFAULT_LIMITS.maxBodyDepth} levels (arrays and objects)`,
    )
    const again = await h.post(OPS.listSecurities, { security_ids: [{ guid: 'nope' }] }, token)
    expect(again.body.securities[0].status.code).toBe(5)
  })

  test('a body at the depth limit is answered: the invalid id gets its own status 3, echoed', async () => {
    // the body's own object and the array take two levels
    const r = await h.post(OPS.listSecurities, nestedIds(DEFAULT_LIMITS.maxBodyDepth - 2), token)
    expect(r.body.status.code).toBe(0)
    expect(r.body.securities[0].status.code).toBe(3)
    expect(JSON.stringify(r.body.securities[0].security_id)).toContain('{"a":{"a":')
    const over = await h.post(OPS.listSecurities, nestedIds(DEFAULT_LIMITS.maxBodyDepth - 1), token)
    expect(over.body.status.code).toBe(3)
  })

  test('an echoed invalid security_id is capped at MAX_ECHO_CHARS characters of its JSON', async () => {
    const big = { guid: 'g'.repeat(200_000) }
    const r = await h.post(OPS.listSecurities, { security_ids: [big, { guid: 'nope' }] }, token)
    expect(r.body.status.code).toBe(0)
    const [first, second] = r.body.securities
    expect(first.status.code).toBe(3)
    expect(typeof first.security_id).toBe('string')
    expect(first.security_id.length).toBeLessThan(MAX_ECHO_CHARS + 64)
    expect(first.security_id).toContain(`(${JSON.stringify(big).length} characters in all)`)
    expect(second.security_id).toEqual({ guid: 'nope' })
  })

  prop.prop([fc.jsonValue({ maxDepth: 12 })])('jsonDepth equals the nesting depth of any JSON value', (v) => {
    const depth = (x: unknown): number =>
      typeof x === 'object' && x !== null ? 1 + Math.max(0, ...Object.values(x).map(depth)) : 0
    const text = JSON.stringify(v)
    expect(jsonDepth(text, 100)).toBe(depth(v))
    const parsed = parseJsonBody(text, depth(v))
    expect(parsed).toEqual({ ok: true, value: JSON.parse(text) })
    if (depth(v) > 0) expect(parseJsonBody(text, depth(v) - 1).ok).toBe(false)
  })

  prop.prop([fc.jsonValue(), fc.integer({ min: 2, max: 400 })])(
    'boundedEcho keeps small values, caps big ones',
    (v, max) => {
      const text = JSON.stringify(v)
      const echo = boundedEcho(v, max)
      if (text.length <= max) expect(echo).toBe(v)
      else expect(echo).toBe(`${text.slice(0, max)}... (${text.length} characters in all)`)
    },
  )
})

describe("library errors are the request's 400", () => {
  test.each(['0.0000000000001', '9007199254740993', '4503599627370496'])(
    'footprint rowSizeValue=%s: 400 invalid_argument naming rowSizeValue, nothing billed',
    async (v) => {
      h.setNow(NOW + 60_000)
      const before = remaining(await h.get('/timeframes', KEY))
      const r = await h.get(`/footprint?exchange=CME&symbol=ES&timeframe=1h&rowSizeValue=${v}&period=7200`, KEY)
      expect(r.status).toBe(400)
      expect(r.body.error.code).toBe('invalid_argument')
      expect(r.body.error.message).toMatch(/^rowSizeValue: /)
      expect(r.body.error.message).not.toMatch(/record \d+/)
      expect(remaining(r)).toBe(before)
    },
  )

  const codes: MarketDataErrorCode[] = [
    'invalid_decimal',
    'invalid_option',
    'grid_mismatch',
    'incompatible',
    'inexact',
    'out_of_range',
  ]
  prop.prop([
    fc.constantFrom(...codes),
    fc.constantFrom('rowSizeValue', 'timeframe', 'price', undefined),
    fc.option(fc.nat(), { nil: undefined }),
  ])('any MarketDataError is 400 invalid_argument; the parameter named is one of the request', (code, field, index) => {
    const params = ['exchange', 'symbol', 'timeframe', 'rowSizeValue']
    const e = new MarketDataError(code, `${field ?? 'x'}: refused for rowSizeValue 1`, {
      ...(field === undefined ? {} : { field }),
      ...(index === undefined ? {} : { index }),
    })
    const a = inputErrorOf(e, params)!
    expect(a.status).toBe(400)
    expect(a.code).toBe('invalid_argument')
    expect(params).toContain(a.parameter)
    expect(a.message.startsWith(`${a.parameter}: `)).toBe(true)
    expect(a.message).not.toMatch(/^record /)
    expect(inputErrorOf(new Error(e.message), params)).toBeUndefined()
  })
})
