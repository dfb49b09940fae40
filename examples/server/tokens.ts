// Real JWTs for interface A, signed and verified with `jose` (HS256). The library decides lifetimes
// (`tokenValidity`, `accessTokenValidity`) and expiry (`checkAccessToken`, against the server's clock);
// jose only signs and checks signatures, so an injected clock governs expiry end to end. Keys are named: the
// JWT header's `kid` says which stored key signed a token, so a new key can take over signing while tokens
// signed by older ones stay valid until they expire.
import { randomBytes, randomUUID } from 'node:crypto'
import { compactVerify, decodeProtectedHeader, SignJWT } from 'jose'
import type { SigningKey } from './state.js'

/** What a token of this server carries. */
export interface TokenClaims {
  /** The partner (one per interface A api key). */
  sub: string
  typ: 'access' | 'refresh'
  /** Expiry, ISO 8601 UTC, as the library computed it. */
  valid_to_time: string
}

/** Signs and reads this server's tokens. */
export interface TokenSigner {
  sign(claims: TokenClaims, now: number): Promise<string>
  /** The claims of a token whose signature is valid, otherwise undefined. Expiry is not checked here. */
  read(token: string): Promise<TokenClaims | undefined>
}

const ISSUER = 'svc-marketdata-example'

/** A new signing key: 32 random bytes and a random key id. */
export function newSigningKey(createdAt: number): SigningKey {
  return { kid: randomBytes(8).toString('hex'), secret: new Uint8Array(randomBytes(32)), createdAt }
}

/**
 * A signer over named HMAC keys: the last of `keys` signs; a token verifies only with the key its header's
 * `kid` names. A bare secret is one key with kid `k0`.
 */
export function createTokenSigner(keys: Uint8Array | readonly SigningKey[]): TokenSigner {
  const list: readonly SigningKey[] = keys instanceof Uint8Array ? [{ kid: 'k0', secret: keys, createdAt: 0 }] : keys
  const current = list[list.length - 1]
  if (current === undefined) throw new Error('createTokenSigner: no signing key')
  const byKid = new Map(list.map((k) => [k.kid, k.secret]))
  return {
    async sign(claims, now) {
      const validTo = Date.parse(claims.valid_to_time)
      return new SignJWT({ typ: claims.typ, valid_to_time: claims.valid_to_time })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: current.kid })
        .setIssuer(ISSUER)
        .setSubject(claims.sub)
        .setJti(randomUUID())
        .setIssuedAt(Math.floor(now / 1000))
        .setExpirationTime(Math.ceil(validTo / 1000))
        .sign(current.secret)
    },
    async read(token) {
      if (typeof token !== 'string' || token.length === 0 || token.length > 4096) return undefined
      try {
        const kid = decodeProtectedHeader(token).kid
        const secret = typeof kid === 'string' ? byKid.get(kid) : undefined
        if (secret === undefined) return undefined
        const { payload, protectedHeader } = await compactVerify(token, secret, { algorithms: ['HS256'] })
        if (protectedHeader.alg !== 'HS256') return undefined
        const claims: unknown = JSON.parse(new TextDecoder().decode(payload))
        if (typeof claims !== 'object' || claims === null) return undefined
        const c = claims as Record<string, unknown>
        if (
          c.iss !== ISSUER ||
          typeof c.sub !== 'string' ||
          (c.typ !== 'access' && c.typ !== 'refresh') ||
          typeof c.valid_to_time !== 'string'
        ) {
          return undefined
        }
        return { sub: c.sub, typ: c.typ, valid_to_time: c.valid_to_time }
      } catch {
        return undefined
      }
    },
  }
}
