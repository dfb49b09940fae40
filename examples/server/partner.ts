// Interface A (partner API) handlers: seven POST operations, JSON in and out, HTTP 200 with a `status`.
// Tokens are real JWTs (tokens.ts); validation, link states, ListSecurities items, token lifetimes and expiry,
// partner Decimals and candle resampling are the library's.
import {
  accessTokenValidity,
  applyLinkOperation,
  checkAccessToken,
  invalidArgument,
  listSecuritiesItems,
  resourceExhausted,
  statusOk,
  tokenValidity,
  unauthenticated,
  type LinkedSecurity,
  type LinkOperationName,
  PARTNER_OPERATION_PATHS,
  type PartnerOperationName,
  type Status,
} from '../../src/service/index.js'
import { securityInfo } from './catalog.js'
import { boundedEcho } from './json-body.js'
import { MAX_ECHO_CHARS } from './limits.js'
import { listCandles, type ListCandlesContext } from './list-candles.js'
import { securityById, type MarketStore } from './store.js'
import type { TokenSigner } from './tokens.js'

/** Operation paths (after the partner prefix) and their short names: the library's paths, turned around. */
export const PARTNER_OPERATIONS: Readonly<Record<string, PartnerOperationName>> = Object.fromEntries(
  (Object.keys(PARTNER_OPERATION_PATHS) as PartnerOperationName[]).map((name) => [PARTNER_OPERATION_PATHS[name], name]),
)

export type PartnerOperation = PartnerOperationName

/** Server state interface A needs. */
export interface PartnerContext extends ListCandlesContext {
  store: MarketStore
  signer: TokenSigner
  /** api_key -> partner id. */
  partnerKeys: ReadonlyMap<string, string>
  /** partner id -> security_guid -> link. */
  links: Map<string, Map<string, LinkedSecurity>>
  /** Most links one partner may hold. */
  maxLinks: number
  /** Counts a Login attempt for `who` (a partner id, or the client for an unknown key): seconds to wait when over the limit, else 0. */
  loginThrottle(who: string): number
  /** The client's address (throttles Login attempts with unknown keys). */
  client: string
  /** Commits a link change (undefined removes it) before the answer is sent. */
  saveLink(partner: string, guid: string, link: LinkedSecurity | undefined): Promise<void>
  refreshLifetimeMs?: number
  now: number
}

const fail = (status: Status): { status: Status } => ({ status })

/** Checks the `accesstoken` header: a valid signature, an access token, not expired at `now` (library rule). */
async function authorize(
  ctx: PartnerContext,
  token: string | undefined,
): Promise<{ partner: string } | { status: Status }> {
  if (token === undefined || token === '') return fail(unauthenticated('accesstoken header is required'))
  const claims = await ctx.signer.read(token)
  if (claims === undefined || claims.typ !== 'access') return fail(unauthenticated('invalid access token'))
  const st = checkAccessToken(claims.valid_to_time, ctx.now)
  if (st.code !== 0) return fail(st)
  return { partner: claims.sub }
}

function field(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && Object.hasOwn(body, name)
    ? (body as Record<string, unknown>)[name]
    : undefined
}

async function login(ctx: PartnerContext, body: unknown): Promise<unknown> {
  const key = field(body, 'api_key')
  if (typeof key !== 'string' || key.length === 0)
    return fail(invalidArgument('api_key: is required, a non-empty string'))
  const partner = ctx.partnerKeys.get(key)
  const wait = ctx.loginThrottle(partner ?? `client ${ctx.client}`)
  if (wait > 0)
    return fail(
      resourceExhausted(
        `Login: too many attempts in this 60 s window for this ${partner === undefined ? 'client' : 'api key'}; retry after ${wait} s`,
      ),
    )
  if (partner === undefined) return fail(unauthenticated('invalid api_key'))
  const v = tokenValidity(
    ctx.now,
    ctx.refreshLifetimeMs === undefined ? {} : { refreshLifetimeMs: ctx.refreshLifetimeMs },
  )
  const access = await ctx.signer.sign(
    { sub: partner, typ: 'access', valid_to_time: v.access_token.valid_to_time },
    ctx.now,
  )
  const refresh = await ctx.signer.sign(
    { sub: partner, typ: 'refresh', valid_to_time: v.refresh_token.valid_to_time },
    ctx.now,
  )
  return {
    status: statusOk(),
    access_token: { token: access, valid_to_time: v.access_token.valid_to_time },
    refresh_token: { token: refresh, valid_to_time: v.refresh_token.valid_to_time },
  }
}

async function refresh(ctx: PartnerContext, body: unknown): Promise<unknown> {
  const token = field(body, 'refresh_token')
  if (typeof token !== 'string' || token.length === 0)
    return fail(invalidArgument('refresh_token: is required, a non-empty string'))
  const claims = await ctx.signer.read(token)
  if (claims === undefined || claims.typ !== 'refresh') return fail(unauthenticated('invalid refresh token'))
  const st = checkAccessToken(claims.valid_to_time, ctx.now)
  if (st.code !== 0) return fail(unauthenticated('refresh token expired'))
  const v = accessTokenValidity(ctx.now)
  const access = await ctx.signer.sign(
    { sub: claims.sub, typ: 'access', valid_to_time: v.access_token.valid_to_time },
    ctx.now,
  )
  return { status: statusOk(), access_token: { token: access, valid_to_time: v.access_token.valid_to_time } }
}

function listSecurities(ctx: PartnerContext, body: unknown): unknown {
  const r = listSecuritiesItems(field(body, 'security_ids'), (id) => {
    const s = securityById(ctx.store, id)
    return s === undefined ? undefined : securityInfo(s.security)
  })
  if (!r.ok) return { status: r.error, securities: [] }
  // an id is echoed as requested, within a bound: an invalid one can be anything the body held
  const securities = r.value.map((item) => ({ ...item, security_id: boundedEcho(item.security_id, MAX_ECHO_CHARS) }))
  return { status: statusOk(), securities }
}

async function link(
  ctx: PartnerContext,
  partner: string,
  operation: LinkOperationName,
  body: unknown,
): Promise<unknown> {
  let links = ctx.links.get(partner)
  if (links === undefined) {
    links = new Map()
    ctx.links.set(partner, links)
  }
  const guid = field(body, 'security_guid')
  const current = typeof guid === 'string' ? links.get(guid) : undefined
  const { next, response } = applyLinkOperation(current, { operation, body })
  if (response.status.code === 0 && current === undefined && next !== undefined && links.size >= ctx.maxLinks) {
    return fail(
      resourceExhausted(
        `LinkSecurity: this partner already holds ${ctx.maxLinks} links (the most one partner may hold); unlink one first`,
      ),
    )
  }
  if (response.status.code === 0 && typeof guid === 'string' && next !== current) {
    if (next === undefined) links.delete(guid)
    else links.set(guid, next)
    await ctx.saveLink(partner, guid, next)
  }
  return response
}

/** Runs one operation; the body is already parsed JSON (or `undefined` when it was not JSON). */
export async function handlePartner(
  ctx: PartnerContext,
  op: PartnerOperation,
  body: unknown,
  accessToken: string | undefined,
): Promise<unknown> {
  if (op === 'Login') return login(ctx, body)
  if (op === 'Refresh') return refresh(ctx, body)
  const auth = await authorize(ctx, accessToken)
  if ('status' in auth) return auth
  switch (op) {
    case 'ListSecurities':
      return listSecurities(ctx, body)
    case 'ListCandles':
      return listCandles(ctx, body)
    case 'LinkSecurity':
    case 'UnlinkSecurity':
    case 'GetLinkedSecurity':
      return link(ctx, auth.partner, op, body)
  }
}
