// Signing keys by key id: the newest key signs, every stored key verifies its own tokens (rotation), a token
// naming an unknown or no key id is refused.
import { decodeProtectedHeader, SignJWT } from 'jose'
import { expect, test } from 'vitest'
import { createTokenSigner, newSigningKey } from './tokens.js'

const claims = { sub: 'partner-x', typ: 'refresh' as const, valid_to_time: '2026-07-20T15:00:10.000Z' }
const NOW = Date.UTC(2026, 5, 20, 15, 0, 10)

test('after a rotation the new key signs and tokens of the old key still verify', async () => {
  const old = newSigningKey(1)
  const before = await createTokenSigner([old]).sign(claims, NOW)
  expect(decodeProtectedHeader(before).kid).toBe(old.kid)
  const fresh = newSigningKey(2)
  const rotated = createTokenSigner([old, fresh])
  const after = await rotated.sign(claims, NOW)
  expect(decodeProtectedHeader(after).kid).toBe(fresh.kid)
  expect(await rotated.read(before)).toEqual(claims)
  expect(await rotated.read(after)).toEqual(claims)
  // a signer that lost the old key refuses its tokens
  expect(await createTokenSigner([fresh]).read(before)).toBeUndefined()
})

test('a token whose kid names another key, or no kid, is refused even when the signature matches some key', async () => {
  const a = newSigningKey(1)
  const b = newSigningKey(2)
  const signer = createTokenSigner([a, b])
  const payload = { iss: 'svc-marketdata-example', sub: 'p', typ: 'access', valid_to_time: claims.valid_to_time }
  const wrongKid = await new SignJWT(payload).setProtectedHeader({ alg: 'HS256', kid: b.kid }).sign(a.secret)
  const noKid = await new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).sign(b.secret)
  const right = await new SignJWT(payload).setProtectedHeader({ alg: 'HS256', kid: a.kid }).sign(a.secret)
  expect(await signer.read(wrongKid)).toBeUndefined()
  expect(await signer.read(noKid)).toBeUndefined()
  expect(await signer.read(right)).toEqual({ sub: 'p', typ: 'access', valid_to_time: claims.valid_to_time })
})
