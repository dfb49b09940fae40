// The stream's answers to a publish, read back: an acknowledgement (new or duplicate), an error object, a
// status without a body (503: no stream leader), or something that is no answer at all.
import { describe, expect, it } from 'vitest'
import { readPubAck } from './acked-publish.js'

const utf8 = new TextEncoder()
const answer = (body: string, headers?: { code: number; description: string }) => {
  const data = utf8.encode(body)
  return { data, headers: headers as never, string: () => body }
}

describe('readPubAck', () => {
  it('reads acknowledgements, duplicates included', () => {
    expect(readPubAck(answer('{"stream":"TRADES","seq":42}'))).toEqual({ ok: true, ack: { seq: 42, duplicate: false } })
    expect(readPubAck(answer('{"stream":"TRADES","seq":7,"duplicate":true}'))).toEqual({
      ok: true,
      ack: { seq: 7, duplicate: true },
    })
  })

  it('turns refusals, bare statuses and junk into a reason', () => {
    const refused = readPubAck(answer('{"error":{"code":503,"err_code":10077,"description":"stream offline"}}'))
    expect(refused).toEqual({ ok: false, reason: 'refused: 503 stream offline' })
    expect(readPubAck(answer('', { code: 503, description: 'No Responders' }))).toEqual({
      ok: false,
      reason: 'status 503 No Responders',
    })
    expect(readPubAck(answer('nope'))).toEqual({ ok: false, reason: 'answer: not JSON text' })
    expect(readPubAck(answer('{"stream":"TRADES"}'))).toEqual({ ok: false, reason: 'answer: no stream sequence' })
  })
})
