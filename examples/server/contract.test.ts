// The contract check itself: answers the document allows pass, and each way an answer can break it is caught
// (status, body, status-dependent fields, headers, content type, undocumented paths).
import { describe, expect, test } from 'vitest'
import { PARTNER_OPERATION_PATHS } from '../../src/partner/index.js'
import { createContract, type SeenAnswer } from './contract.js'

const contract = createContract()
const REST = '/api/v1/marketdata'
const rate = {
  'x-request-id': 'r-1',
  'x-ratelimit-limit': '100000',
  'x-ratelimit-remaining': '99000',
  'x-ratelimit-reset': '1787230860',
}
const json = { 'content-type': 'application/json; charset=utf-8' }

function answer(
  path: string,
  status: number,
  headers: Record<string, string>,
  body: unknown,
  method = 'GET',
): SeenAnswer {
  return { method, path, status, headers: new Headers({ ...json, ...headers }), body }
}
const exchanges = {
  exchanges: [
    {
      code: 'CME',
      name: 'Chicago Mercantile Exchange',
      sourceCodes: ['CME'],
      acronym: 'CME',
      timezone: 'America/Chicago',
    },
  ],
}
const limited = { error: { code: 'rate_limited', message: 'credit quota exhausted; retry after 50 s' } }

describe('interface B', () => {
  test('documented answers pass', () => {
    expect(contract.check(answer(`${REST}/exchanges`, 200, rate, exchanges))).toEqual([])
    expect(contract.check(answer(`${REST}/exchanges`, 429, { ...rate, 'retry-after': '50' }, limited))).toEqual([])
    expect(
      contract.check(
        answer(`${REST}/exchanges/CME/securities`, 404, rate, {
          error: { code: 'not_found', message: 'exchange not found' },
        }),
      ),
    ).toEqual([])
    expect(
      contract.check(
        answer(`${REST}/candles`, 400, { 'x-request-id': 'r' }, { error: { code: 'invalid_argument', message: 'm' } }),
      ),
    ).toEqual([])
  })

  test.each([
    ['an undocumented status', answer(`${REST}/exchanges`, 418, rate, exchanges), /status 418 is not documented/],
    [
      'a body missing a required field',
      answer(`${REST}/exchanges`, 200, rate, { exchanges: [{ code: 'CME' }] }),
      /required property 'name'/,
    ],
    [
      'a code of another status',
      answer(`${REST}/exchanges`, 401, { 'x-request-id': 'r' }, { error: { code: 'too_much_data', message: 'm' } }),
      /allowed values/,
    ],
    [
      'a missing rate-limit header on a 200',
      answer(`${REST}/exchanges`, 200, { 'x-request-id': 'r' }, exchanges),
      /header x-ratelimit-limit is required/,
    ],
    ['a 429 without Retry-After', answer(`${REST}/exchanges`, 429, rate, limited), /header retry-after is required/],
    [
      'a header of the wrong type',
      answer(`${REST}/exchanges`, 200, { ...rate, 'x-ratelimit-remaining': 'lots' }, exchanges),
      /x-ratelimit-remaining: value must be integer/,
    ],
    [
      'another content type',
      {
        ...answer(`${REST}/exchanges`, 200, rate, exchanges),
        headers: new Headers({ ...rate, 'content-type': 'text/plain' }),
      },
      /content-type "text\/plain"/,
    ],
    [
      'a success on a path the document lacks',
      answer(`${REST}/nowhere`, 200, rate, exchanges),
      /not an operation of the document/,
    ],
    [
      'another error body on a method the document lacks',
      answer(`${REST}/exchanges`, 405, rate, { message: 'no' }, 'POST'),
      /required property 'error'/,
    ],
  ])('%s is caught', (_, a, problem) => {
    const problems = contract.check(a)
    expect(
      problems.some((p) => problem.test(p)),
      problems.join('\n'),
    ).toBe(true)
  })
})

describe('interface A', () => {
  const path = (op: keyof typeof PARTNER_OPERATION_PATHS) => `/partner/${PARTNER_OPERATION_PATHS[op]}`
  const ok = { code: 0, message: '', details: [] }
  const notFound = { code: 5, message: 'NOT_FOUND', details: [] }
  const info = { guid: 'g', ticker: 'AAPL', exchange_code: 'NASDAQ' }

  test('status-dependent fields: present with code 0, absent otherwise', () => {
    const list = (items: unknown[]) =>
      contract.check(answer(path('ListSecurities'), 200, {}, { status: ok, securities: items }, 'POST'))
    expect(
      list([
        { status: ok, security_id: { guid: 'g' }, security_info: info },
        { status: notFound, security_id: { guid: 'x' } },
      ]),
    ).toEqual([])
    expect(list([{ status: ok, security_id: { guid: 'g' } }]).join()).toMatch(/security_info/)
    expect(list([{ status: notFound, security_id: { guid: 'x' }, security_info: info }]).join()).toMatch(
      /security_info/,
    )
    const login = (body: unknown) => contract.check(answer(path('Login'), 200, {}, body, 'POST'))
    expect(login({ status: { code: 16, message: 'invalid api_key', details: [] } })).toEqual([])
    expect(login({ status: ok }).join()).toMatch(/access_token/)
  })

  test('an unknown operation still answers a status body; a failure is never an HTTP 4XX of a documented operation', () => {
    expect(contract.check(answer('/partner/Nope', 404, {}, { status: notFound }, 'POST'))).toEqual([])
    expect(contract.check(answer('/partner/Nope', 404, {}, { error: 'no' }, 'POST')).join()).toMatch(/status/)
    expect(contract.check(answer(path('Refresh'), 401, {}, { status: notFound }, 'POST')).join()).toMatch(
      /status 401 is not documented/,
    )
  })
})
