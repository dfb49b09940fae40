// The AsyncAPI 3.0 document of the live streams: valid for @asyncapi/parser (no error diagnostics), served at
// /asyncapi.json, and a contract: every frame a real session receives matches its message's payload schema.
import { Parser } from '@asyncapi/parser'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ASYNCAPI_PATH, asyncApiText } from './asyncapi.js'
import { startStreamHarness, type StreamHarness } from './stream-harness.js'

let h: StreamHarness
beforeAll(async () => {
  h = await startStreamHarness()
})
afterAll(() => h.close())

describe('AsyncAPI document', () => {
  it('parses without errors with @asyncapi/parser 3 and names every frame type', async () => {
    const { document, diagnostics } = await new Parser().parse(asyncApiText())
    const errors = diagnostics.filter((d) => d.severity === 0)
    expect(errors.map((e) => `${e.path.join('.')}: ${e.message}`)).toEqual([])
    expect(document?.version()).toBe('3.0.0')
    expect(
      document
        ?.channels()
        .all()
        .map((c) => c.address()),
    ).toEqual(['/candles', '/footprint'])
    const names = new Set(
      document!
        .allMessages()
        .all()
        .map((m) => m.name()),
    )
    for (const t of [
      'subscribe',
      'ping',
      'pong',
      'subscribed',
      'snapshot',
      'update',
      'closed',
      'charged',
      'rangeTruncated',
      'error',
    ])
      expect(names.has(t), t).toBe(true)
  })

  it('is served at /asyncapi.json', async () => {
    const r = await fetch(`${h.server.url}${ASYNCAPI_PATH}`)
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toContain('application/json')
    expect(await r.json()).toEqual(JSON.parse(asyncApiText()))
    expect((await fetch(`${h.server.url}${ASYNCAPI_PATH}`, { method: 'POST' })).status).toBe(405)
  })

  it('the frames of a real session match the payload schemas of their messages', async () => {
    const doc = JSON.parse(asyncApiText())
    const ajv = new Ajv({ strict: false, allErrors: true })
    addFormats(ajv)
    ajv.addSchema({ $id: 'doc', ...doc })
    const check = (kind: string, frame: any): void => {
      const refs = doc.channels[kind].messages as Record<string, { $ref: string }>
      const ref = refs[frame.type]
      expect(ref, `${kind}: ${frame.type}`).toBeDefined()
      const name = ref!.$ref.split('/').pop()!
      const validate = ajv.getSchema(`doc#/components/messages/${name}/payload`)!
      expect(validate(frame), `${frame.type}: ${JSON.stringify(validate.errors)}`).toBe(true)
    }
    const c = await h.subscribe('footprint', { exchange: 'CME', symbol: 'ES', timeframe: '1m', rowSize: 2 })
    if (c.refused) throw new Error('refused')
    await c.next('snapshot')
    const t = h.now()
    h.feed.push('CME', 'ES', [
      { time: t + 1000, price: 5000, volume: 1, side: 'buy' },
      { time: t + 61_000, price: 5000.25, volume: 2, side: 'sell' },
    ])
    await c.next('closed')
    await c.next('update')
    c.send({ type: 'ping', id: 'x' })
    await c.next('pong')
    c.send({ type: 'nope' })
    await c.next('error')
    expect(c.frames.length).toBeGreaterThanOrEqual(6)
    for (const f of c.frames) check('footprint', f)
    const bad = { type: 'subscribed', streamId: 's1' }
    expect(() => check('footprint', bad)).toThrow()
  })
})
