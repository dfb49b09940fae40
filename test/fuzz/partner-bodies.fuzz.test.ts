// Fuzz: interface A request bodies, through the validator of every operation the library validates
// (ListCandles, ListSecurities, LinkSecurity, UnlinkSecurity, GetLinkedSecurity, and the SecurityId, time
// frame and Decimal parts they hold). Bodies are valid ones edited at a random place (a value replaced,
// a field removed or added), any JSON value, and JSON texts cut or spliced. Contract: a Result every time, an
// error a Status 3 with a message; an accepted body is what the rules promise.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  fromPartnerDecimal,
  listSecuritiesItems,
  parseSecurityId,
  timeframeFromPartner,
  toPartnerDecimal,
  validateLinkRequest,
  validateListCandlesRequest,
  type LinkOperationName,
  type Status,
} from '../../src/service/index.js'
import { edited, FUZZ_TIMEOUT, fuzzParams, jsonPaths } from './fuzz-params.js'

const ID = { guid: '6f1c2a10-0004-4a5e-9c1d-0000000000a4' }
const TICKER = { ticker_code: { ticker: 'ES', exchange_code: 'CME' } }
const TEMPLATES: Record<string, unknown> = {
  ListCandles: {
    security_id: ID,
    time_frame: { time_unit: 'MINUTE', count: 15 },
    range: { first_bound_time: '2026-06-01T00:00:00Z', duration: 'PT4H' },
    properties: ['OPEN', 'CLOSE'],
    session_types: ['MAINSESSION'],
  },
  ListCandlesCount: {
    security_id: TICKER,
    time_frame: { time_unit: 'HOUR' },
    range: { first_bound_time: '2026-06-01T00:00:00+02:00', count: -24 },
  },
  ListCandlesBounds: {
    security_id: ID,
    time_frame: { time_unit: 'DAY', count: 1 },
    range: { first_bound_time: '2026-06-01T00:00:00Z', second_bound_time: '2026-05-01T00:00:00Z' },
  },
  ListSecurities: { security_ids: [ID, TICKER, { guid: 'nope' }] },
  LinkSecurity: { security_guid: ID.guid, partner_security_id: 'P-1' },
  UnlinkSecurity: { security_guid: ID.guid },
  GetLinkedSecurity: { security_guid: ID.guid },
}

const json = fc.jsonValue({ maxDepth: 3 })
/** A replacement value: any JSON value, a near miss of the usual kinds, or a long string. */
const replacement = fc.oneof(
  json,
  fc.constantFrom('', ' ', '0', '-1', 'PT0S', 'P1D', '2026-13-01T00:00:00Z', 'MINUTE', 'QUARTER', 2 ** 31, -0, 1e308),
  fc.nat({ max: 2000 }).map((n) => 'x'.repeat(n)),
)
/** A valid template edited at one place: replaced, removed, or given an unknown field. */
const editedBody = fc
  .tuple(fc.constantFrom(...Object.keys(TEMPLATES)), fc.nat(), replacement, fc.constantFrom('set', 'remove', 'add'))
  .map(([t, pick, v, how]) => {
    const tpl = TEMPLATES[t]
    const ps = jsonPaths(tpl)
    const path = ps[pick % ps.length] as (string | number)[]
    if (how === 'remove' && path.length > 0) return { t, body: edited(tpl, path, () => undefined, true) }
    if (how === 'add') {
      return {
        t,
        body: edited(tpl, path, (old) =>
          typeof old === 'object' && old !== null && !Array.isArray(old) ? { ...old, extra_field: v } : v,
        ),
      }
    }
    return { t, body: edited(tpl, path, () => v) }
  })
/** JSON text of a template cut at a random place or spliced with random text, parsed when it still parses. */
const textBody = fc
  .tuple(fc.constantFrom(...Object.keys(TEMPLATES)), fc.nat(), fc.nat(), fc.string({ maxLength: 8 }))
  .map(([t, a, b, s]) => {
    const text = JSON.stringify(TEMPLATES[t])
    const i = a % (text.length + 1)
    const j = i + (b % 4)
    try {
      return { t, body: JSON.parse(text.slice(0, i) + s + text.slice(j)) as unknown }
    } catch {
      return { t, body: text.slice(0, i) as unknown }
    }
  })
const body = fc.oneof(editedBody, textBody, fc.record({ t: fc.constantFrom(...Object.keys(TEMPLATES)), body: json }))

function isStatus3(s: Status): boolean {
  return s.code === 3 && typeof s.message === 'string' && s.message.length > 0 && Array.isArray(s.details)
}
const lookup = (id: { guid: string } | { ticker_code: { ticker: string; exchange_code: string } }) =>
  'guid' in id && id.guid === ID.guid ? { guid: ID.guid, ticker: 'ES', exchange_code: 'CME' } : undefined
const at = (x: unknown, k: string): unknown =>
  typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>)[k] : undefined

describe('fuzz: partner request bodies', () => {
  it(
    'every operation validator answers a Result; an error is status 3 with a message',
    () => {
      fc.assert(
        fc.property(body, ({ body: b }) => {
          const lc = validateListCandlesRequest(b)
          if (!lc.ok) expect(isStatus3(lc.error)).toBe(true)
          else expect(lc.value.from < lc.value.to && lc.value.timeframe.count >= 1).toBe(true)
          for (const op of ['LinkSecurity', 'UnlinkSecurity', 'GetLinkedSecurity'] as LinkOperationName[]) {
            const l = validateLinkRequest(op, b)
            if (!l.ok) expect(isStatus3(l.error)).toBe(true)
            else expect(typeof l.value.security_guid).toBe('string')
          }
          const ls = listSecuritiesItems(at(b, 'security_ids'), lookup)
          if (!ls.ok) expect(isStatus3(ls.error)).toBe(true)
          else for (const item of ls.value) expect([0, 3, 5]).toContain(item.status.code)
          // the parts, on the body and on each of its fields
          for (const part of [b, at(b, 'security_id'), at(b, 'time_frame'), at(b, 'range')]) {
            for (const r of [parseSecurityId(part), timeframeFromPartner(part as never), fromPartnerDecimal(part)]) {
              if (!r.ok) expect(isStatus3(r.error)).toBe(true)
            }
            const d = toPartnerDecimal(part as string)
            if (!d.ok) expect(isStatus3(d.error)).toBe(true)
          }
        }),
        fuzzParams(300),
      )
    },
    FUZZ_TIMEOUT,
  )
})
